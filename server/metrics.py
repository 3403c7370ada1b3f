"""Prometheus metrics of one server, in its own registry (served on --metrics-port).

Calls are counted under the standard gRPC server names of go-grpc-prometheus
(``grpc_server_started_total``, ``grpc_server_handled_total{grpc_code}``,
``grpc_server_handling_seconds``, ``grpc_server_msg_received_total``,
``grpc_server_msg_sent_total``, labelled ``grpc_type``, ``grpc_service``,
``grpc_method``), as defined by py-grpc-prometheus, so existing gRPC dashboards work;
the search metrics are meeplemind's own (``meeplemind_*``).
"""

from __future__ import annotations

import errno
from typing import Any, NamedTuple
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Gauge, ProcessCollector, start_http_server
from py_grpc_prometheus import grpc_utils, server_metrics

from .capacity import SearchGate


class Method(NamedTuple):
    """The standard labels of an RPC method."""

    grpc_type: str
    grpc_service: str
    grpc_method: str

    @classmethod
    def of(cls, full_name: str, request_streaming: bool, response_streaming: bool) -> Method:
        """The labels of ``/package.Service/Method``."""
        service, _, method = full_name.lstrip("/").rpartition("/")
        return cls(grpc_utils.get_method_type(request_streaming, response_streaming), service, method)


class Metrics:
    """RPCs under the standard gRPC names; searches running and queued, iterations and
    searches by stop reason; the process's CPU seconds and memory (``process_*``, on Linux)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        standard = server_metrics.init_metrics(self.registry)
        self.started = standard["grpc_server_started_counter"]
        self.received = standard["grpc_server_stream_msg_received"]
        self.sent = standard["grpc_server_stream_msg_sent"]
        self.handling = standard["grpc_server_handled_histogram"]
        self.handled = server_metrics.get_grpc_server_handled_counter(False, self.registry)
        self.searches_running = Gauge("meeplemind_searches_running", "searches running now",
                                      registry=self.registry)
        self.searches_queued = Gauge("meeplemind_searches_queued", "searches waiting for a slot",
                                     registry=self.registry)
        self.iterations = Counter("meeplemind_search_iterations",
                                  "ISMCTS iterations run (its rate is iterations per second)",
                                  registry=self.registry)
        self.searches = Counter("meeplemind_searches", "searches finished, by stop reason",
                                ["stop_reason"], registry=self.registry)
        self.progress_dropped = Counter("meeplemind_http_progress_dropped",
                                        "progress reports the HTTP port dropped for a slow reader "
                                        "(it gets the newest)", registry=self.registry)
        self._children: dict[tuple[Any, tuple[str, ...]], Any] = {}

    def call_started(self, method: Method) -> None:
        """Count a call that started and its request message."""
        self._labelled(self.started, *method).inc()
        self._labelled(self.received, *method).inc()

    def message_sent(self, method: Method) -> None:
        """Count one response message."""
        self._labelled(self.sent, *method).inc()

    def call_handled(self, method: Method, code: str, seconds: float) -> None:
        """Count a finished call by its status code and sample its handling time."""
        self._labelled(self.handled, *method, code).inc()
        self._labelled(self.handling, *method).observe(seconds)

    def search_ended(self, stop_reason: str) -> None:
        """Count a finished search by what stopped it."""
        self._labelled(self.searches, stop_reason).inc()

    def _labelled(self, metric: Any, *labels: str) -> Any:
        """``metric.labels(*labels)``, kept once made (labels() validates and locks on
        every call: too slow for each call's metrics)."""
        child = self._children.get((metric, labels))
        if child is None:
            child = self._children[metric, labels] = metric.labels(*labels)
        return child

    def watch(self, gate: SearchGate) -> None:
        """Read the running and queued gauges from ``gate`` at each scrape."""
        self.searches_running.set_function(lambda: gate.running)
        self.searches_queued.set_function(lambda: gate.queued)

    def sample(self, name: str, **labels: str) -> float:
        """The current value of one sample (0 if it has none yet), e.g.
        ``sample("meeplemind_search_iterations_total")``."""
        return self.registry.get_sample_value(name, labels) or 0.0

    def serve(self, port: int, address: str) -> WSGIServer:
        """Serve /metrics over HTTP in a daemon thread; ``shutdown()`` the result to stop.
        A port in use (or an address not local) is an OSError naming the metrics port."""
        try:
            server, _ = start_http_server(port, address, registry=self.registry)
        except OSError as e:
            raise OSError(e.errno or errno.EADDRINUSE, f"cannot serve metrics there ({e.strerror})",
                          f"metrics port {port} on {address}") from None
        return server
