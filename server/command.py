"""``meeplemind serve``: the server, or its workers, run with the options of ``options``."""

from __future__ import annotations

import argparse
import os
import pathlib
import ssl
from typing import Any

from .app import TlsFiles
from .http_gateway import HttpOptions
from .limits import Limits
from .logs import configure_logging
from .options import DEFAULT_HTTP_PORT, OFF
from .serving import serve
from .workers import WorkerSpec, supervise


def http_options(args: argparse.Namespace) -> HttpOptions | None:
    """The HTTP port's ``HttpOptions`` of ``args``, or None with ``--http-port off``."""
    port = args.http_port
    if port == OFF:
        return None
    if port is None:
        port = 0 if args.port == 0 else DEFAULT_HTTP_PORT
    return HttpOptions(args.host, port, tuple(args.cors_origin))


def run_serve(args: argparse.Namespace) -> int:
    """Serve with the options of ``add_serve_arguments`` until SIGTERM or SIGINT."""
    if args.workers < 1:
        raise ValueError(f"--workers {args.workers}: must be at least 1")
    options = _server_options(args)
    configure_logging(args.log_level, args.access_log, log_format=args.log_format)
    if args.workers == 1:
        return serve(f"{args.host}:{args.port}", metrics_port=args.metrics_port,
                     metrics_address=args.metrics_address, grace=args.grace, http=http_options(args),
                     **options)
    spec = WorkerSpec(0, args.host, args.port, args.metrics_port, args.metrics_address, args.grace,
                      args.log_level, args.access_log, options, args.log_format, http_options(args))
    return supervise(spec, args.workers)


def _server_options(args: argparse.Namespace) -> dict[str, Any]:
    """The ``create_server`` options of one worker."""
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
