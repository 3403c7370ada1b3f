"""The CPU an ``Analyze`` or ``BestMove`` call spends outside its search (``meeplemind bench``).

Each call goes through the service's own handler (``AnalysisServicer``), in this process, on
a thread that is not the main one (as gRPC's request threads are), with a small fixed
iteration budget (``ITERATIONS``: enough that the answer names as many root moves as a
bot's search does). The cost outside the search is the process's CPU time over the call
less the CPU time the C search reports for itself (``SearchStats.cpu_ms``: its tree's
allocation, its own decode of the root, the iterations, the statistics published, all
measured inside ``mm_ismcts_search``). What is left is reading the position (schema,
C check, the viewer's observation), planning the budget, the search's set-up in Python,
naming the moves and building the answer; the gRPC transport (parsing and serialising the
messages) is not counted. Every game is measured at ``PLAYERS`` players from the middle of a
seeded random game, its player to move the viewer.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from ..engine import Rng, game_ids, get_game
from ..engine.game_state import GameState
from ..positions.messages import to_message
from ..v1 import analysis_pb2, position_pb2
from .analysis import AnalysisServicer
from .capacity import SearchGate
from .limits import Limits
from .metrics import Metrics

#: The seed of the positions and the searches.
SEED = 20261130
PLAYERS = 4
#: The iteration budget of every measured search.
ITERATIONS = 200
#: Calls measured per game and kind, after ``WARMUP`` unmeasured ones (their mean: on a
#: loaded machine one call costs from half to twice another, docs/measurements.md).
CALLS = 200
WARMUP = 5
#: The target: at most this much CPU outside the search per call (issue 32).
LIMIT_MS = 1.0


class _Context:
    """A call's context for a handler called directly: no deadline, never cancelled."""

    def add_callback(self, callback: Callable[[], None]) -> bool:
        return True

    def time_remaining(self) -> None:
        return None


def middle_position(game_id: str, players: int = PLAYERS, seed: int = SEED) -> position_pb2.Position:
    """The position halfway through a seeded random game (by moves), for its player to move."""
    state: GameState = get_game(game_id).new_game(players, seed)
    rng, history = Rng(seed), [state]
    while not state.is_terminal:
        legal = state.legal_action_ids()
        state = state.apply(state.move_from_id(legal[rng.below(len(legal))]), rng)
        history.append(state)
    return to_message(history[len(history) // 2])


def requests(position: position_pb2.Position) -> dict[str, tuple[str, Any]]:
    """The measured requests of ``position`` by call kind: (the handler's name, its request)."""
    budget = analysis_pb2.SearchBudget(iterations=ITERATIONS)
    return {"analyze": ("Analyze", analysis_pb2.AnalyzeRequest(position=position, budget=budget, seed=SEED)),
            "best_move": ("BestMove", analysis_pb2.BestMoveRequest(position=position, budget=budget, seed=SEED))}


def _outside_ms(servicer: AnalysisServicer, method: str, request: Any, calls: int) -> tuple[float, float, int]:
    """(mean CPU ms outside the search, mean CPU ms of the search, moves answered) of
    ``calls`` calls of the handler ``method``, on a thread of their own."""
    handler = getattr(servicer, method)
    context = _Context()
    totals = {"outside": 0.0, "search": 0.0, "moves": 0}

    def run() -> None:
        for i in range(WARMUP + calls):
            before = time.process_time()
            response = handler(request, context)
            spent_ms = (time.process_time() - before) * 1e3
            if i >= WARMUP:
                totals["outside"] += spent_ms - response.stats.cpu_ms
                totals["search"] += response.stats.cpu_ms
                totals["moves"] = len(response.moves) if method == "Analyze" else len(response.line.pv)

    worker = threading.Thread(target=run, name="bench-outside-search")
    worker.start()
    worker.join()
    return totals["outside"] / calls, totals["search"] / calls, int(totals["moves"])


def measure(games: list[str] | None = None, calls: int = CALLS) -> list[dict[str, Any]]:
    """Per game and call kind: the mean CPU ms outside the search and of the search, the
    moves answered, and whether the outside cost is within ``LIMIT_MS``."""
    limits = Limits()
    servicer = AnalysisServicer(limits, SearchGate(1, 0), Metrics())
    records = []
    for game_id in games or game_ids():
        players = min(PLAYERS, max(get_game(game_id).PLAYER_COUNTS))
        position = middle_position(game_id, players)
        for kind, (method, request) in requests(position).items():
            outside, search, moves = _outside_ms(servicer, method, request, calls)
            records.append({"game": game_id, "players": players,
                            "call": kind, "iterations": ITERATIONS, "calls": calls,
                            "outside_search_cpu_ms": round(outside, 3), "search_cpu_ms": round(search, 3),
                            "moves": moves, "within_limit": outside <= LIMIT_MS})
    return records

