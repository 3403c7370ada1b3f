"""Conversion between the wire messages and the engines' and the search's Python objects.

A Position is read by the game's schema into its state vector (``engine.position``:
``from_message``, ``state_vector``); positions going out are written from it
(``to_message``).
"""

from __future__ import annotations

from typing import Any

import grpc
import numpy as np

from ..engine import PositionError, game_ids, get_game
from ..engine.game import Game
from ..positions.messages import from_message, state_key, to_message
from ..positions.messages import state_vector as read_state_vector
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


def position_from_proto(position: position_pb2.Position, field: str = "position",
                        check: bool = True) -> tuple[Any, int]:
    """``(state, viewer)`` of a Position (``engine.position.from_message``: the schema reads
    the vector, the reference engine decodes it); errors name the field path under
    ``field``. An unknown game id is NOT_FOUND; anything else wrong is INVALID_ARGUMENT.
    ``check=False`` leaves the consistency checks to the native decoder of a search,
    whose errors ``position_error`` names the same way.
    """
    find_game(position.game, f"{field}.game")
    try:
        read: tuple[Any, int] = from_message(position, check)
    except PositionError as e:
        raise position_error(e, field) from None
    return read


def state_vector(position: position_pb2.Position, field: str = "position") -> np.ndarray:
    """The state vector of a Position of a known game (``engine.position.state_vector``)."""
    try:
        vector: np.ndarray = read_state_vector(position)
    except PositionError as e:
        raise position_error(e, field) from None
    return vector


def position_error(error: PositionError, field: str = "position", game_id: str | None = None) -> ServiceError:
    """INVALID_ARGUMENT naming the field of ``error`` under ``field`` (and the game's
    state key when the path is relative to the game's state)."""
    path = error.path
    if game_id is not None:
        path = f"{state_key(game_id)}.{path}" if path else state_key(game_id)
    return ServiceError.invalid(f"{field}.{path}" if path else field, error.problem)


def position_to_proto(state: Any, viewer: int | None = None) -> position_pb2.Position:
    """The Position of ``state`` seen by ``viewer`` (default: the player to move),
    written from its vector (``engine.position.to_message``)."""
    return to_message(state, viewer)


def result_to_proto(state: Any) -> result_pb2.GameResult | None:
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


def move_to_proto(move: MoveInfo) -> analysis_pb2.MoveAnalysis:
    return analysis_pb2.MoveAnalysis(move=move.move, action=move.action, visits=move.visits,
                                     win_rate=move.win_rate, expected_scores=move.expected_scores,
                                     pv=move.pv, pv_players=move.pv_players)


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
