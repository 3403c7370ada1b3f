"""``meeplemind serve``: its command-line options and its entry point."""

from __future__ import annotations

import argparse
import logging
import os
import pathlib

from .app import DEFAULT_MAX_MESSAGE_BYTES, TlsFiles, serve
from .client import AUTH_TOKEN_ENV
from .limits import Limits


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``meeplemind serve`` to ``parser``."""
    defaults = Limits()
    cores = os.cpu_count() or 1
    add = parser.add_argument
    add("--address", default="[::]:50051", help="host:port to listen on (port 0: any free port)")
    add("--max-searches", type=int, default=cores,
        help="searches running at once (default: the number of cores)")
    add("--max-queue", type=int, default=16,
        help="searches waiting for a slot; beyond them calls get RESOURCE_EXHAUSTED")
    add("--threads-per-search", type=int, default=1,
        help="the default and the most threads a request may ask for")
    add("--max-time-ms", type=int, default=defaults.max_time_ms, help="the largest time budget")
    add("--max-iterations", type=int, default=defaults.max_iterations,
        help="the largest iteration budget")
    add("--default-iterations", type=int, default=defaults.default_iterations,
        help="the budget of a request that gives neither iterations nor time")
    add("--max-message-bytes", type=int, default=DEFAULT_MAX_MESSAGE_BYTES,
        help="the largest request accepted")
    add("--tls-cert", type=pathlib.Path, help="PEM certificate chain (with --tls-key: serve TLS)")
    add("--tls-key", type=pathlib.Path, help="PEM private key")
    add("--auth-token", default=os.environ.get(AUTH_TOKEN_ENV),
        help=f"require 'authorization: Bearer TOKEN' on every call but health checks "
             f"(default: ${AUTH_TOKEN_ENV})")
    add("--metrics-port", type=int, help="serve Prometheus metrics over HTTP on this port")
    add("--metrics-address", default="0.0.0.0", help="address of the metrics endpoint")
    add("--grace", type=float, default=5.0, help="seconds calls get to finish on SIGTERM/SIGINT")
    add("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"))


def run_serve(args: argparse.Namespace) -> int:
    """Serve with the options of ``add_serve_arguments`` until SIGTERM or SIGINT."""
    if (args.tls_cert is None) != (args.tls_key is None):
        raise ValueError("--tls-cert and --tls-key go together")
    tls = None
    if args.tls_cert is not None:
        try:
            tls = TlsFiles(args.tls_cert.read_bytes(), args.tls_key.read_bytes())
        except OSError as e:
            raise ValueError(f"{e.filename}: {e.strerror}") from None
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    limits = Limits(max_iterations=args.max_iterations, max_time_ms=args.max_time_ms,
                    default_iterations=args.default_iterations)
    return serve(args.address, metrics_port=args.metrics_port, metrics_address=args.metrics_address,
                 grace=args.grace, max_searches=args.max_searches, max_queue=args.max_queue,
                 threads_per_search=args.threads_per_search, auth_token=args.auth_token, tls=tls,
                 limits=limits, max_message_bytes=args.max_message_bytes)
