"""The command line's ``--server HOST:PORT`` (with ``--tls``, ``--token``): its calls made
through ``meeplemind.client``, failures as one-line errors."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .client import Client, ClientError
from .server.limits import AUTH_TOKEN_ENV


class RemoteError(ValueError):
    """A call to the service failed: the address, the status and the fields named."""


def add_remote_arguments(parser: argparse.ArgumentParser) -> None:
    """``--server``, ``--tls`` and ``--token``."""
    parser.add_argument("--server", metavar="HOST:PORT", help="ask a running server instead")
    parser.add_argument("--tls", nargs="?", const=True, metavar="ROOT_CERTS_PEM",
                        help="with --server: TLS, checked against the system's root certificates "
                             "or those of this PEM file")
    parser.add_argument("--token", default=os.environ.get(AUTH_TOKEN_ENV),
                        help=f"with --server: the bearer token (default: ${AUTH_TOKEN_ENV})")


@contextmanager
def connect(args: argparse.Namespace) -> Iterator[Client]:
    """A client of ``args.server``; its failures become RemoteError naming the address."""
    try:
        with Client(args.server, token=args.token, tls=args.tls) as client:
            yield client
    except ClientError as e:
        raise RemoteError(f"{args.server}: {e}") from None


def remote_moves(args: argparse.Namespace, position: dict[str, Any]) -> list[str]:
    with connect(args) as client:
        return [m.notation for m in client.legal_moves(position)]


def remote_analysis(args: argparse.Namespace, position: dict[str, Any], budget: dict[str, Any]) -> dict[str, Any]:
    """A remote analysis shaped like ``dataclasses.asdict(search.Analysis)`` (``stopped_by``
    may also be "deadline")."""
    with connect(args) as client:
        analysis = client.analyze(position, **budget)
    stats = analysis.stats
    return {"moves": [{"move": m.move, "action": m.action, "visits": m.visits, "win_rate": m.win_rate,
                       "expected_scores": m.expected_scores, "pv": m.pv} for m in analysis.moves],
            "iterations": stats.iterations, "elapsed_ms": stats.elapsed_ms, "nodes": stats.nodes,
            "stopped_by": stats.stop_reason, "root_value": stats.root_value, "player": stats.player}
