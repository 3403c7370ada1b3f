"""Conversion between the wire messages and the engines' and the search's Python objects.

A Position is read and checked by the ``positions`` package (``read``: one C decode);
positions going out are written from a state's vector (``to_message``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import grpc
from google.protobuf.internal.containers import RepeatedCompositeFieldContainer

from ..engine import PositionError, game_ids, get_game
from ..engine.game import Game
from ..engine.game_state import GameState
from ..positions import CheckedPosition, read, to_message
from ..search.ismcts import Analysis, MoveInfo
from ..v1 import analysis_pb2, position_pb2, result_pb2
from .errors import ServiceError, quoted


def stop_reason_to_proto(name: str) -> analysis_pb2.StopReason.ValueType:
    """The StopReason of a search's ``stopped_by`` ("cpu_time" is STOP_REASON_CPU_TIME)."""
    return analysis_pb2.StopReason.Value(f"STOP_REASON_{name.upper()}")


def find_game(game_id: str, field: str) -> Game:
    """The game package of ``game_id``: INVALID_ARGUMENT if empty, NOT_FOUND if unknown."""
    if not game_id:
        raise ServiceError.invalid(field, "missing (a game id such as 'puerto-rico')")
    if game_id not in game_ids():
        raise ServiceError.invalid(field, f"unknown game {quoted(game_id)} (known: {', '.join(game_ids())})",
                                   grpc.StatusCode.NOT_FOUND)
    return get_game(game_id)


def read_position(position: position_pb2.Position, field: str = "position") -> CheckedPosition:
    """The checked position of a Position (``positions.read``: the schema reads the vector,
    one C decode judges it); errors name the field path under ``field``. An unknown game id
    is NOT_FOUND; anything else wrong is INVALID_ARGUMENT in the decoder's words."""
    find_game(position.game, f"{field}.game")
    try:
        return read(position)
    except PositionError as e:
        raise position_error(e, field) from None


def position_error(error: PositionError, field: str = "position") -> ServiceError:
    """INVALID_ARGUMENT naming the field of ``error`` (a path under the Position) under ``field``."""
    return ServiceError.invalid(f"{field}.{error.path}" if error.path else field, error.problem)


def position_to_proto(state: GameState, viewer: int | None = None) -> position_pb2.Position:
    """The Position of ``state`` seen by ``viewer`` (default: the player to move),
    written from its vector (``positions.to_message``)."""
    return to_message(state, viewer)


def result_to_proto(state: GameState | CheckedPosition) -> result_pb2.GameResult | None:
    """The GameResult of a finished game's state; None while the game goes on."""
    if not state.is_terminal:
        return None
    r = state.result()
    return result_pb2.GameResult(scores=r.scores, tiebreaks=r.tiebreaks, winners=r.winners, ranks=r.ranks)


def result_from_proto(response: Any) -> dict[str, list[int]] | None:
    """A response's ``result`` as a dict shaped like ``dataclasses.asdict(GameResult)``;
    None when it has none (the game goes on)."""
    if not response.HasField("result"):
        return None
    r = response.result
    return {"scores": list(r.scores), "tiebreaks": list(r.tiebreaks), "winners": list(r.winners),
            "ranks": list(r.ranks)}


def write_move(message: analysis_pb2.MoveAnalysis, move: MoveInfo) -> analysis_pb2.MoveAnalysis:
    """``move`` written into an empty MoveAnalysis, field by field (upb sets a field by its
    attribute in three quarters of the time it takes to read it from keyword arguments)."""
    message.move = move.move
    message.action = move.action
    message.visits = move.visits
    message.win_rate = move.win_rate
    message.expected_scores.extend(move.expected_scores)
    message.pv.extend(move.pv)
    message.pv_players.extend(move.pv_players)
    return message


def move_to_proto(move: MoveInfo) -> analysis_pb2.MoveAnalysis:
    return write_move(analysis_pb2.MoveAnalysis(), move)


def add_moves(answer: RepeatedCompositeFieldContainer[analysis_pb2.MoveAnalysis], moves: Iterable[MoveInfo]) -> None:
    """Append ``moves`` to an answer's ``moves``, each written in place (not made, then copied)."""
    add = answer.add
    for move in moves:
        write_move(add(), move)


def stats_to_proto(analysis: Analysis, *, final: bool, deadline_cut: bool) -> analysis_pb2.SearchStats:
    """The SearchStats of an analysis; a progress report (not ``final``) has no stop reason,
    and a time stop is a deadline stop when the deadline cut the time budget."""
    reason = analysis_pb2.STOP_REASON_UNSPECIFIED
    if final:
        reason = stop_reason_to_proto(analysis.stopped_by)
        if deadline_cut and reason == analysis_pb2.STOP_REASON_TIME:
            reason = analysis_pb2.STOP_REASON_DEADLINE
    stats = analysis_pb2.SearchStats(iterations=analysis.iterations, elapsed_ms=analysis.elapsed_ms,
                                     nodes=analysis.nodes, stop_reason=reason,
                                     root_value=analysis.root_value, cpu_ms=analysis.cpu_ms)
    if analysis.player is not None:
        stats.player = analysis.player
    return stats


def analysis_from_proto(moves: Any, stats: analysis_pb2.SearchStats) -> dict[str, Any]:
    """A wire analysis as a dict shaped like ``dataclasses.asdict(Analysis)``;
    ``stopped_by`` may also be ``"deadline"``."""
    reason = analysis_pb2.StopReason.Name(stats.stop_reason).removeprefix("STOP_REASON_").lower()
    return {
        "moves": [{"move": m.move, "action": m.action, "visits": m.visits, "win_rate": m.win_rate,
                   "expected_scores": list(m.expected_scores), "pv": list(m.pv)} for m in moves],
        "iterations": stats.iterations,
        "elapsed_ms": stats.elapsed_ms,
        "cpu_ms": stats.cpu_ms,
        "nodes": stats.nodes,
        "stopped_by": reason,
        "root_value": stats.root_value,
        "player": stats.player if stats.HasField("player") else None,
    }
