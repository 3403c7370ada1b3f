"""The command line's ``--server HOST:PORT`` (with ``--tls``, ``--token``): its calls made
through ``meeplemind.client``, failures as one-line errors."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .client import Client, ClientError
from .v1 import analysis_pb2
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


def remote_legal_moves(args: argparse.Namespace,
                       position: dict[str, Any]) -> tuple[list[str], dict[str, list[int]] | None]:
    """The legal moves (notation) of a position (its JSON dict), and a finished game's
    result (shaped like ``asdict(GameResult)`` of the engine; None while it goes on)."""
    with connect(args) as client:
        moves = [m.notation for m in client.legal_moves(position)]
        result = client.result(position) if not moves else None
    if result is None or not result.over:
        return moves, None
    return moves, {"scores": result.scores, "tiebreaks": result.tiebreaks, "winners": result.winners,
                   "ranks": result.ranks}


def remote_analyze_response(args: argparse.Namespace, position: dict[str, Any],
                            budget: dict[str, Any]) -> analysis_pb2.AnalyzeResponse:
    """The service's AnalyzeResponse for a position (its JSON dict); ``budget`` holds
    ``Client.analyze``'s keyword arguments."""
    with connect(args) as client:
        return client.analyze(position, **budget).to_proto()
