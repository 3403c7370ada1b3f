"""Assembling the gRPC server: services, interceptors, health, reflection, limits, TLS."""

from __future__ import annotations

import errno
import gc
import logging
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent import futures
from contextlib import contextmanager
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
#: Allocations between young-generation collections once serving (Python's default: 700).
GC_YOUNG_THRESHOLD = 20_000

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


class Listening(NamedTuple):
    """Where a started server listens: its port, its metrics port and its HTTP port (None:
    not served)."""

    port: int
    metrics_port: int | None
    http_port: int | None = None


def serve(
    address: str,
    *,
    metrics_port: int | None = None,
    metrics_address: str = "127.0.0.1",
    grace: float = 5.0,
    ready: Callable[[Listening], None] | None = None,
    stopping: threading.Event | None = None,
    http: Any = None,
    **options: Any,
) -> int:
    """Serve until ``stopping`` is set (default: until SIGTERM or SIGINT), then stop
    gracefully; returns the exit status.

    ``options`` are those of ``create_server``; ``metrics_port`` serves Prometheus
    metrics over HTTP (0: any free port); ``ready`` is told where the server listens
    once it is serving; ``http`` (``http_gateway.HttpOptions``) also serves Connect, gRPC-Web
    and the web page.
    """
    server, port = create_server(address, **options)
    gateway = None
    if http is not None:
        from .http_gateway import HttpGateway

        gateway = HttpGateway(server, http, tls=options.get("tls"),
                              reuse_port=options.get("reuse_port", False),
                              max_message_bytes=options.get("max_message_bytes", DEFAULT_MAX_MESSAGE_BYTES))
    metrics_http = server.metrics.serve(metrics_port, metrics_address) if metrics_port is not None else None
    server.start()
    if gateway is not None:
        gateway.start()
    settle_garbage_collector()
    listening = Listening(port, metrics_http.server_port if metrics_http is not None else None,
                          gateway.port if gateway is not None else None)
    log.info("listening on %s (port %d)%s%s", address, port,
             f", metrics on {metrics_address}:{listening.metrics_port}" if metrics_http else "",
             f", Connect/gRPC-Web and the web page on http://{http.host}:{gateway.port}/" if gateway else "")
    if ready is not None:
        ready(listening)
    if stopping is None:
        stopping = threading.Event()
        with stop_on_signals(stopping):
            stopping.wait()
    else:
        stopping.wait()
    log.info("stopping (grace %.1fs)", grace)
    done = server.stop(grace)
    if gateway is not None:
        gateway.stop()
    done.wait()
    if metrics_http is not None:
        metrics_http.shutdown()
    log.info("stopped")
    return 0


def settle_garbage_collector() -> None:
    """Move what start-up made (modules, descriptors, engines) out of the collector's
    sight and let a call's short-lived objects pile up longer between collections: the
    collector then seldom runs during a call, and never walks the whole heap for it."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])


@contextmanager
def stop_on_signals(stopping: threading.Event) -> Iterator[None]:
    """Set ``stopping`` on SIGTERM and SIGINT while in the block (main thread only)."""
    previous = {sig: signal.signal(sig, lambda signum, frame: stopping.set())
                for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
