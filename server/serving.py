"""Running a server until it is told to stop: the gRPC server, its HTTP port (Connect,
gRPC-Web, the web page) and its metrics, stopped gracefully on SIGTERM/SIGINT."""

from __future__ import annotations

import gc
import logging
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from .app import create_server
from .http_gateway import HttpGateway, HttpOptions
from .limits import DEFAULT_MAX_MESSAGE_BYTES

#: Allocations between young-generation collections once serving (Python's default: 700).
GC_YOUNG_THRESHOLD = 20_000

log = logging.getLogger("meeplemind.server")


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
    http: HttpOptions | None = None,
    **options: Any,
) -> int:
    """Serve until ``stopping`` is set (default: until SIGTERM or SIGINT), then stop
    gracefully; returns the exit status.

    ``options`` are those of ``create_server``; ``metrics_port`` serves Prometheus
    metrics over HTTP (0: any free port); ``ready`` is told where the server listens
    once it is serving; ``http`` also serves Connect, gRPC-Web
    and the web page.
    """
    server, port = create_server(address, **options)
    gateway = None
    if http is not None:
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
             f", Connect/gRPC-Web and the web page on http://{http.host}:{gateway.port}/"
             if http is not None and gateway is not None else "")
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
