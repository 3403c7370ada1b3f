"""Assembling the gRPC server: services, interceptors, health, reflection, limits, TLS."""

from __future__ import annotations

import errno
import logging
import threading
from concurrent import futures
from dataclasses import replace
from typing import Any, NamedTuple

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from ..v1 import analysis_pb2, analysis_pb2_grpc, rules_pb2, rules_pb2_grpc
from .analysis import AnalysisServicer
from .capacity import SearchGate
from .interceptors import AuthInterceptor, GuardInterceptor, ObserveInterceptor
from .limits import DEFAULT_MAX_MESSAGE_BYTES, Limits
from .metrics import Metrics
from .rules import RulesServicer

RULES = rules_pb2.DESCRIPTOR.services_by_name["Rules"].full_name
ANALYSIS = analysis_pb2.DESCRIPTOR.services_by_name["Analysis"].full_name
SERVICES = (RULES, ANALYSIS)
HEALTH_METHODS = frozenset(f"/{health.SERVICE_NAME}/{m}" for m in ("Check", "Watch"))
#: gRPC's own message limit is this many times --max-message-bytes, so that requests
#: between the two get a rich RESOURCE_EXHAUSTED from the guard rather than a bare one.
TRANSPORT_LIMIT_FACTOR = 4
#: Threads serving the cheap calls (rules, health, reflection) beside the searches.
SPARE_WORKERS = 8

log = logging.getLogger("meeplemind.server")


class TlsFiles(NamedTuple):
    """PEM contents of the server's certificate chain and private key."""

    certificate_chain: bytes
    private_key: bytes


class Server:
    """A meeplemind gRPC server: ``start()``, ``stop(grace)``, ``wait_for_termination()``."""

    def __init__(self, grpc_server: grpc.Server, gate: SearchGate, health_servicer: Any,
                 metrics: Metrics) -> None:
        self.grpc_server = grpc_server
        self.gate = gate
        self.health = health_servicer
        self.metrics = metrics

    def start(self) -> None:
        self.grpc_server.start()

    def stop(self, grace: float | None) -> threading.Event:
        """Stop gracefully: health goes NOT_SERVING, new calls are refused, running
        searches stop and answer with what they found, calls get ``grace`` seconds."""
        self.health.enter_graceful_shutdown()
        done = self.grpc_server.stop(grace)
        self.gate.close()
        return done

    def wait_for_termination(self, timeout: float | None = None) -> bool:
        return self.grpc_server.wait_for_termination(timeout)


def create_server(
    address: str,
    *,
    max_searches: int = 1,
    max_queue: int = 8,
    threads_per_search: int = 1,
    auth_token: str | None = None,
    tls: TlsFiles | None = None,
    limits: Limits | None = None,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    metrics: Metrics | None = None,
    reuse_port: bool = False,
) -> tuple[Server, int]:
    """A server bound to ``address`` (port 0: any free port) and its port; not started.

    ``limits`` (default: ``Limits()``, with ``threads_per_search``) bound each
    request's budget. With ``auth_token`` every call but health checks needs
    ``authorization: Bearer <token>``. ``reuse_port`` lets other processes of the
    same user listen on the port too (SO_REUSEPORT, for workers); without it a port
    in use is an error (gRPC's own default would share it silently).
    """
    limits = replace(limits or Limits(), threads_per_search=threads_per_search)
    if max_message_bytes < 1:
        raise ValueError(f"max_message_bytes: {max_message_bytes} is below 1")
    metrics = metrics or Metrics()
    gate = SearchGate(max_searches, max_queue)
    metrics.watch(gate)
    interceptors: list[grpc.ServerInterceptor] = [ObserveInterceptor(metrics)]
    if auth_token:
        interceptors.append(AuthInterceptor(auth_token, HEALTH_METHODS))
    interceptors.append(GuardInterceptor(max_message_bytes))
    transport_limit = max_message_bytes * TRANSPORT_LIMIT_FACTOR
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_searches + max_queue + SPARE_WORKERS,
                                   thread_name_prefix="meeplemind-rpc"),
        interceptors=interceptors,
        options=[("grpc.max_receive_message_length", transport_limit),
                 ("grpc.max_send_message_length", transport_limit),
                 ("grpc.so_reuseport", int(reuse_port))],
    )
    rules_pb2_grpc.add_RulesServicer_to_server(RulesServicer(), server)
    analysis_pb2_grpc.add_AnalysisServicer_to_server(AnalysisServicer(limits, gate, metrics), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for service in ("", *SERVICES):
        health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection((*SERVICES, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    return Server(server, gate, health_servicer, metrics), _bind(server, address, tls)


def _bind(server: grpc.Server, address: str, tls: TlsFiles | None) -> int:
    """Listen on ``address``; the port, or OSError (EADDRINUSE) naming the address."""
    try:
        if tls is None:
            port = server.add_insecure_port(address)
        else:
            credentials = grpc.ssl_server_credentials([(tls.private_key, tls.certificate_chain)])
            port = server.add_secure_port(address, credentials)
    except RuntimeError:
        port = 0
    if port == 0:
        why = "address in use or not local" + (", or the TLS certificate and key do not go together"
                                               if tls is not None else "")
        raise OSError(errno.EADDRINUSE, f"cannot listen there ({why})", address)
    return port
