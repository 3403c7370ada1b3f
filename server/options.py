"""The options of ``meeplemind serve`` (cheap to import: the command line builds its parser
with them without loading the server)."""

from __future__ import annotations

import argparse
import os
import pathlib

from ..arguments import integer, number
from .limits import AUTH_TOKEN_ENV, DEFAULT_MAX_MESSAGE_BYTES, Limits

#: ``--log-format``: lines of text, or one JSON object per line (python-json-logger).
LOG_FORMATS = ("text", "json")
#: The HTTP port (Connect, gRPC-Web, the web page) unless told otherwise.
DEFAULT_HTTP_PORT = 8080
OFF = "off"


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``meeplemind serve`` to ``parser``."""
    defaults = Limits()
    add = parser.add_argument
    add("--host", default="127.0.0.1", help="address to listen on ('0.0.0.0' or '[::]': every interface)")
    add("--port", type=integer, default=50051, help="port to listen on (0: any free port)")
    add("--workers", type=integer, default=1,
        help="server processes sharing the port (SO_REUSEPORT); each has the limits below "
             "and worker i serves metrics on --metrics-port + i")
    add("--max-searches", type=integer,
        help="searches running at once, per worker (default: the cores divided by "
             "--threads-per-search and by --workers, at least 1)")
    add("--max-queue", type=integer, default=16,
        help="searches waiting for a slot, per worker; beyond them calls get RESOURCE_EXHAUSTED")
    add("--threads-per-search", type=integer, default=1,
        help="the default and the most threads a request may ask for")
    add("--max-time-ms", type=integer, default=defaults.max_time_ms,
        help="the largest time budget; every search, whatever its budget, stops by then")
    add("--max-iterations", type=integer, default=defaults.max_iterations,
        help="the largest iteration budget; every search, whatever its budget, stops by then")
    add("--max-review-ms", type=integer, default=defaults.max_review_ms,
        help="the search time of one ReviewGame, summed over its searches; the moves left "
             "then are skipped (STOP_REASON_TIME)")
    add("--default-iterations", type=integer, default=defaults.default_iterations,
        help="the budget of a request that gives neither iterations nor time")
    add("--max-message-bytes", type=integer, default=DEFAULT_MAX_MESSAGE_BYTES,
        help="the largest request accepted")
    add("--tls-cert", type=pathlib.Path, help="PEM certificate chain (with --tls-key: serve TLS)")
    add("--tls-key", type=pathlib.Path, help="PEM private key")
    token = parser.add_mutually_exclusive_group()
    token.add_argument("--auth-token", default=os.environ.get(AUTH_TOKEN_ENV),
                       help=f"require 'authorization: Bearer TOKEN' on every call but health checks "
                            f"(default: ${AUTH_TOKEN_ENV}; every local user can read a command line: "
                            f"prefer --auth-token-file)")
    token.add_argument("--auth-token-file", type=pathlib.Path,
                       help="as --auth-token, the token read from this file (its one line)")
    add("--http-port", type=http_port, default=None,
        help=f"serve Connect, gRPC-Web and the web page on this port of --host (default "
             f"{DEFAULT_HTTP_PORT}, or any free port when --port is 0; 'off': not at all)")
    add("--cors-origin", action="append", default=[], metavar="ORIGIN",
        help="let web pages of ORIGIN (e.g. https://example.org, or '*') call the HTTP port; "
             "repeatable (default: none, CORS closed)")
    add("--metrics-port", type=integer, help="serve Prometheus metrics over HTTP on this port")
    add("--metrics-address", default="127.0.0.1", help="address of the metrics endpoint")
    add("--grace", type=number, default=5.0, help="seconds calls get to finish on SIGTERM/SIGINT")
    add("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"))
    add("--log-format", default="text", choices=LOG_FORMATS,
        help="log lines as text or as JSON objects (one per line, the access log's fields as keys)")
    add("--access-log", action="store_true",
        help="log one line per call (method, status, milliseconds, peer, request id)")


def http_port(text: str) -> int | str:
    """``--http-port``: a port number or ``off``."""
    if text == OFF:
        return OFF
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number or '{OFF}'") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not between 0 and 65535")
    return port
