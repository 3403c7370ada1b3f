"""What ``Client`` and ``AsyncClient`` share: credentials, metadata, requests built from
Python values, positions and game records in either form, results read back."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias, TypeVar

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message

from ..v1 import analysis_pb2, position_pb2, rules_pb2
from .errors import ClientError
from .types import Applied, GameResult, MoveReview, Review

M = TypeVar("M", bound=Message)
#: A position as the proto message or its proto3 JSON mapping (a position file's dict).
PositionLike: TypeAlias = position_pb2.Position | Mapping[str, Any]
#: A game record as the proto message or its JSON mapping ({"start": ..., "moves": [...]}).
RecordLike: TypeAlias = analysis_pb2.GameRecord | Mapping[str, Any]
#: TLS: None (plain text), True (the system's root certificates) or a PEM file of them.
TlsLike: TypeAlias = bool | str | os.PathLike[str] | None
#: Seconds a call may take by default (a search's time budget comes on top).
DEFAULT_TIMEOUT_S = 30.0


def credentials(tls: TlsLike) -> grpc.ChannelCredentials | None:
    """Channel credentials for ``tls``; None for a plain-text channel."""
    if tls is None or tls is False:
        return None
    if tls is True:
        return grpc.ssl_channel_credentials()
    try:
        with open(tls, "rb") as f:
            return grpc.ssl_channel_credentials(f.read())
    except OSError as e:
        raise ValueError(f"tls: {e.filename}: {e.strerror}") from None


def metadata(token: str | None) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),) if token else ()


def deadline(timeout: float | None, time_ms: int | None) -> float | None:
    """A call's timeout: ``timeout`` plus the search's time (or CPU-time) budget (None: no deadline)."""
    return None if timeout is None else timeout + (time_ms or 0) / 1e3


def _message(value: object, message: M, field: str) -> M:
    if isinstance(value, type(message)):
        return value
    if not isinstance(value, Mapping):
        raise TypeError(f"{field}: expected a {type(message).__name__} or its JSON dict, "
                        f"got {type(value).__name__}")
    try:
        return json_format.ParseDict(dict(value), message)
    except json_format.ParseError as e:
        raise ValueError(f"{field}: {' '.join(str(e).split())}") from None  # one line


def position(value: PositionLike, field: str = "position") -> position_pb2.Position:
    """The Position message of ``value``; a dict that is not one raises ValueError naming ``field``."""
    return _message(value, position_pb2.Position(), field)


def record(value: RecordLike, field: str = "game") -> analysis_pb2.GameRecord:
    """The GameRecord message of ``value``."""
    return _message(value, analysis_pb2.GameRecord(), field)


def position_out(message: position_pb2.Position, as_dict: bool) -> position_pb2.Position | dict[str, Any]:
    """A position as returned: the message, or its JSON dict (proto field names, defaults printed)."""
    if not as_dict:
        return message
    return json_format.MessageToDict(message, preserving_proto_field_name=True,
                                     always_print_fields_with_no_presence=True)


def budget(iterations: int | None, time_ms: int | None, threads: int | None,
           cpu_ms: int | None = None) -> analysis_pb2.SearchBudget:
    """A SearchBudget; None leaves a value to the server's default."""
    return analysis_pb2.SearchBudget(iterations=iterations or 0, time_ms=time_ms or 0, threads=threads or 0,
                                     cpu_ms=cpu_ms or 0)


def new_game_request(game: str, players: int, seed: int,
                     options: Mapping[str, Any] | None) -> rules_pb2.NewGameRequest:
    text = {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in (options or {}).items()}
    return rules_pb2.NewGameRequest(game=game, players=players, seed=seed, options=text)


def best_move_request(position_: PositionLike, level: int | None, iterations: int | None,
                      time_ms: int | None, threads: int | None, seed: int | None,
                      request_id: str, cpu_ms: int | None = None,
                      whole_turn: bool = False) -> analysis_pb2.BestMoveRequest:
    request = analysis_pb2.BestMoveRequest(request_id=request_id, position=position(position_), seed=seed,
                                           whole_turn=whole_turn)
    if level is not None:
        if iterations or time_ms or threads or cpu_ms:
            raise ValueError("level: a level and a budget (iterations, time_ms, cpu_ms, threads) exclude each other")
        request.level = level
    elif iterations or time_ms or threads or cpu_ms:
        request.budget.CopyFrom(budget(iterations, time_ms, threads, cpu_ms))
    return request


def applied(response: rules_pb2.ApplyMoveResponse, as_dict: bool) -> Applied:
    """``apply``'s answer: the new position and the result of a game the move ended."""
    return Applied(position_out(response.position, as_dict),
                   GameResult.from_proto(response.result) if response.HasField("result") else None)


def review_request(game: RecordLike, iterations: int | None, time_ms: int | None, threads: int | None,
                   seats: Sequence[int], seed: int | None, request_id: str,
                   cpu_ms: int | None = None) -> analysis_pb2.ReviewGameRequest:
    return analysis_pb2.ReviewGameRequest(request_id=request_id, game=record(game),
                                          budget=budget(iterations, time_ms, threads, cpu_ms), seats=seats, seed=seed)


def result(response: rules_pb2.LegalMovesResponse) -> GameResult:
    """A position's GameResult from its LegalMoves answer: the final result when the
    service sends one (``LegalMovesResponse.result``, in versions of the contract that have it)."""
    current = response.current_player if response.HasField("current_player") else None
    if response.HasField("result"):
        return GameResult.from_proto(response.result)
    return GameResult(False, current, [], [], [], [])


class ReviewCollector:
    """Reads a ReviewGame stream message by message into a Review."""

    def __init__(self) -> None:
        self.moves: dict[int, analysis_pb2.MoveReview] = {}
        self.review: Review | None = None

    def add(self, response: analysis_pb2.ReviewGameResponse) -> MoveReview | None:
        """The move reviewed in ``response`` (None for the summary, which ends the review); a
        move that comes again (refined) replaces the earlier."""
        if response.HasField("summary"):
            moves = [self.moves[index] for index in sorted(self.moves)]
            self.review = Review.from_proto(response.request_id, moves, response.summary)
            return None
        self.moves[response.move.index] = response.move
        return MoveReview.from_proto(response.move)

    def done(self) -> Review:
        if self.review is None:
            raise ClientError(grpc.StatusCode.UNKNOWN, "the review's stream ended without its summary")
        return self.review
