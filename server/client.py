"""A small client of the service, for the command line's ``--server HOST:PORT``."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import grpc
from google.protobuf import json_format

from ..v1 import analysis_pb2, analysis_pb2_grpc, position_pb2, rules_pb2, rules_pb2_grpc
from .convert import analysis_from_proto, result_from_proto
from .errors import field_violations
from .limits import AUTH_TOKEN_ENV

#: Time a call may take beyond its search's time budget (searches without one have no deadline).
SLACK_S = 30.0


class RemoteError(ValueError):
    """A call to the service failed; the message has the status and the fields named."""


def _channel(address: str, root_certificates: bytes | None) -> grpc.Channel:
    if root_certificates is None:
        return grpc.insecure_channel(address)
    return grpc.secure_channel(address, grpc.ssl_channel_credentials(root_certificates))


def _metadata(auth_token: str | None) -> tuple[tuple[str, str], ...]:
    token = auth_token or os.environ.get(AUTH_TOKEN_ENV)
    return (("authorization", f"Bearer {token}"),) if token else ()


def _position(data: dict[str, Any]) -> position_pb2.Position:
    try:
        return json_format.ParseDict(data, position_pb2.Position())
    except json_format.ParseError as e:
        raise ValueError(f"position: {e}") from None


def _remote_error(address: str, error: grpc.RpcError) -> RemoteError:
    fields = "; ".join(f"{field}: {description}" for field, description in field_violations(error))
    details = fields or error.details()
    return RemoteError(f"{address}: {error.code().name}: {details}")


def _call(address: str, root_certificates: bytes | None,
          method: Callable[[grpc.Channel], Callable[..., Any]], request: Any,
          timeout_s: float | None, auth_token: str | None) -> Any:
    """One unary call on a fresh channel; RPC failures become RemoteError."""
    with _channel(address, root_certificates) as channel:
        try:
            return method(channel)(request, timeout=timeout_s, metadata=_metadata(auth_token))
        except grpc.RpcError as e:
            raise _remote_error(address, e) from None


def remote_legal_moves(address: str, position: dict[str, Any], *, auth_token: str | None = None,
                       root_certificates: bytes | None = None,
                       timeout_s: float = SLACK_S) -> tuple[list[str], dict[str, list[int]] | None]:
    """The legal moves (notation) of a position (its JSON dict), asked of the service, and
    the result of a finished game (shaped like ``asdict(GameResult)``; None while it goes on)."""
    request = rules_pb2.LegalMovesRequest(position=_position(position))
    response = _call(address, root_certificates, lambda c: rules_pb2_grpc.RulesStub(c).LegalMoves,
                     request, timeout_s, auth_token)
    return [move.notation for move in response.moves], result_from_proto(response)


def remote_moves(address: str, position: dict[str, Any], *, auth_token: str | None = None,
                 root_certificates: bytes | None = None, timeout_s: float = SLACK_S) -> list[str]:
    """The legal moves (notation) of a position (its JSON dict), asked of the service."""
    return remote_legal_moves(address, position, auth_token=auth_token,
                              root_certificates=root_certificates, timeout_s=timeout_s)[0]


def remote_analyze(address: str, position: dict[str, Any], *, iterations: int | None = None,
                   time_ms: int | None = None, cpu_ms: int | None = None,
                   threads: int | None = None, seed: int | None = None,
                   max_moves: int | None = None, auth_token: str | None = None,
                   root_certificates: bytes | None = None) -> dict[str, Any]:
    """An analysis of a position (its JSON dict) by the service, as a dict shaped like
    ``dataclasses.asdict(search.Analysis)`` (``stopped_by`` may also be ``"deadline"``),
    with the ``result`` of a finished game (else None).

    Unset budget values take the server's defaults; the auth token defaults to
    ``$MEEPLEMIND_AUTH_TOKEN``.
    """
    request = analysis_pb2.AnalyzeRequest(
        position=_position(position),
        budget=analysis_pb2.SearchBudget(iterations=iterations or 0, time_ms=time_ms or 0,
                                         cpu_ms=cpu_ms or 0, threads=threads or 0),
        max_moves=max_moves or 0, seed=seed)
    timeout_s = None if time_ms is None else time_ms / 1e3 + SLACK_S
    response = _call(address, root_certificates,
                     lambda c: analysis_pb2_grpc.AnalysisStub(c).Analyze, request, timeout_s, auth_token)
    return {**analysis_from_proto(response.moves, response.stats), "result": result_from_proto(response)}
