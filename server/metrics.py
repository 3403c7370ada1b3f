"""Prometheus metrics of one server, in its own registry (served on --metrics-port)."""

from __future__ import annotations

from typing import Any
from wsgiref.simple_server import WSGIServer

from prometheus_client import (CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector,
                               start_http_server)

from .capacity import SearchGate

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
                   30.0, 60.0, 300.0, 600.0)


class Metrics:
    """Requests by method and code, latency, searches running and queued, iterations,
    and the process's CPU seconds and memory (``process_*``, on Linux)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        self.requests = Counter("meeplemind_requests", "RPCs handled, by method and status code",
                                ["method", "code"], registry=self.registry)
        self.latency = Histogram("meeplemind_request_seconds", "RPC latency in seconds, by method",
                                 ["method"], buckets=LATENCY_BUCKETS, registry=self.registry)
        self.searches_running = Gauge("meeplemind_searches_running", "searches running now",
                                      registry=self.registry)
        self.searches_queued = Gauge("meeplemind_searches_queued", "searches waiting for a slot",
                                     registry=self.registry)
        self.iterations = Counter("meeplemind_search_iterations",
                                  "ISMCTS iterations run (its rate is iterations per second)",
                                  registry=self.registry)
        self.searches = Counter("meeplemind_searches", "searches finished, by stop reason",
                                ["stop_reason"], registry=self.registry)
        self._children: dict[tuple[Any, tuple[str, ...]], Any] = {}

    def observe_call(self, method: str, code: str, seconds: float) -> None:
        """Count a finished call and sample its latency."""
        self._labelled(self.requests, method, code).inc()
        self._labelled(self.latency, method).observe(seconds)

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
        """Serve /metrics over HTTP in a daemon thread; ``shutdown()`` the result to stop."""
        server, _ = start_http_server(port, address, registry=self.registry)
        return server
