"""``meeplemind serve``: its command-line options and its entry point.

Cheap to import: the server itself is imported when it is run.
"""

from __future__ import annotations

import argparse
import logging
import os
import pathlib
import ssl
from typing import Any

from ..arguments import integer, number
from .limits import AUTH_TOKEN_ENV, DEFAULT_MAX_MESSAGE_BYTES, Limits

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: ``--log-format``: lines of text, or one JSON object per line (python-json-logger).
LOG_FORMATS = ("text", "json")
#: JSON log keys: the record attributes logged, renamed as log collectors expect them.
JSON_FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s"
JSON_RENAMES = {"asctime": "time", "levelname": "level", "name": "logger"}
#: The HTTP port (Connect, gRPC-Web, the web page) unless told otherwise.
DEFAULT_HTTP_PORT = 8080
OFF = "off"
#: The logger of the one line per call that ``--access-log`` turns on.
ACCESS_LOGGER = "meeplemind.access"


def configure_logging(level: str, access_log: bool, worker: int | None = None,
                      log_format: str = "text") -> None:
    """Log at ``level`` to standard error as text or JSON (worker ``i`` names itself in
    each line, or in the JSON field ``worker``); the line per call only with
    ``access_log`` (it costs the request thread a formatted write)."""
    handler = logging.StreamHandler()
    if log_format == "json":
        from pythonjsonlogger.json import JsonFormatter

        handler.setFormatter(JsonFormatter(JSON_FIELDS, rename_fields=JSON_RENAMES,
                                           static_fields={} if worker is None else {"worker": worker}))
    else:
        name = "%(name)s" if worker is None else f"%(name)s[{worker}]"
        handler.setFormatter(logging.Formatter(LOG_FORMAT.replace("%(name)s", name)))
    logging.basicConfig(level=level, handlers=[handler])
    logging.getLogger(ACCESS_LOGGER).setLevel(logging.INFO if access_log else logging.WARNING)


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


def http_options(args: argparse.Namespace) -> Any:
    """The HTTP port's ``HttpOptions`` of ``args``, or None with ``--http-port off``."""
    from .http_gateway import HttpOptions

    port = args.http_port
    if port == OFF:
        return None
    if port is None:
        port = 0 if args.port == 0 else DEFAULT_HTTP_PORT
    return HttpOptions(args.host, port, tuple(args.cors_origin))


def run_serve(args: argparse.Namespace) -> int:
    """Serve with the options of ``add_serve_arguments`` until SIGTERM or SIGINT."""
    from .app import serve

    if args.workers < 1:
        raise ValueError(f"--workers {args.workers}: must be at least 1")
    options = _server_options(args)
    configure_logging(args.log_level, args.access_log, log_format=args.log_format)
    if args.workers == 1:
        return serve(f"{args.host}:{args.port}", metrics_port=args.metrics_port,
                     metrics_address=args.metrics_address, grace=args.grace, http=http_options(args),
                     **options)
    from .workers import WorkerSpec, supervise

    spec = WorkerSpec(0, args.host, args.port, args.metrics_port, args.metrics_address, args.grace,
                      args.log_level, args.access_log, options, args.log_format, http_options(args))
    return supervise(spec, args.workers)


def _server_options(args: argparse.Namespace) -> dict[str, Any]:
    """The ``create_server`` options of one worker."""
    from .app import TlsFiles

    if (args.tls_cert is None) != (args.tls_key is None):
        raise ValueError("--tls-cert and --tls-key go together")
    tls = None
    if args.tls_cert is not None:
        tls = TlsFiles(_read("--tls-cert", args.tls_cert), _read("--tls-key", args.tls_key))
        _check_key_pair(args.tls_cert, args.tls_key)
    limits = Limits(max_iterations=args.max_iterations, max_time_ms=args.max_time_ms,
                    max_review_ms=args.max_review_ms, default_iterations=args.default_iterations)
    max_searches = args.max_searches
    if max_searches is None:
        max_searches = default_max_searches(args.threads_per_search, args.workers)
    return {"max_searches": max_searches, "max_queue": args.max_queue,
            "threads_per_search": args.threads_per_search, "auth_token": _auth_token(args), "tls": tls,
            "limits": limits, "max_message_bytes": args.max_message_bytes}


def _read(option: str, path: pathlib.Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as e:
        raise ValueError(f"{option} {path}: {e.strerror}") from None


def _auth_token(args: argparse.Namespace) -> str | None:
    """The token of --auth-token-file (its one line), else of --auth-token."""
    if args.auth_token_file is None:
        given: str | None = args.auth_token
        return given
    option = f"--auth-token-file {args.auth_token_file}"
    try:
        token = _read("--auth-token-file", args.auth_token_file).decode().strip()
    except UnicodeDecodeError:
        raise ValueError(f"{option}: not text") from None
    if not token:
        raise ValueError(f"{option}: the file is empty")
    if not token.isascii() or not token.isprintable() or any(c.isspace() for c in token):
        raise ValueError(f"{option}: a token is one line of printable ASCII without spaces")
    return token


def _check_key_pair(cert: pathlib.Path, key: pathlib.Path) -> None:
    """ValueError unless ``key`` is the private key of the certificate ``cert`` (PEM)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(cert, key)
    except ssl.SSLError as e:
        if e.reason == "KEY_VALUES_MISMATCH":
            raise ValueError(f"--tls-key {key}: not the private key of the certificate in --tls-cert {cert}") from None
        raise ValueError(f"--tls-cert {cert} / --tls-key {key}: not a PEM certificate chain and its "
                         f"private key ({e.reason or e})") from None


def default_max_searches(threads_per_search: int, workers: int) -> int:
    """Searches per worker that keep every core busy without oversubscribing them:
    the cores this process may run on, split over the workers' search threads."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, cores // (max(1, threads_per_search) * workers))
