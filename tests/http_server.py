"""A real server with its HTTP port (Connect, gRPC-Web, the page), for the tests of both."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from meeplemind.server.app import Server, create_server
from meeplemind.server.http_gateway import HttpGateway, HttpOptions
from meeplemind.server.http_guard import HttpLimits


class Serving(NamedTuple):
    """A started server, its gRPC port and its HTTP port's gateway."""

    server: Server
    port: int
    gateway: HttpGateway


@contextmanager
def serving_http(cors: tuple[str, ...] = (), http_limits: HttpLimits | None = None,
                 **options: Any) -> Iterator[Serving]:
    """A started server on 127.0.0.1 (``create_server`` options) with its HTTP port on a
    free port (``http_limits``: its own); both stopped at exit."""
    server, port = create_server("127.0.0.1:0", **options)
    gateway = HttpGateway(server, HttpOptions("127.0.0.1", 0, cors), tls=options.get("tls"), limits=http_limits)
    server.start()
    gateway.start()
    try:
        yield Serving(server, port, gateway)
    finally:
        done = server.stop(None)
        gateway.stop()
        done.wait()
