"""A request's position is read once: one schema read and one C decode per call, whose
verdict carries the words of a refusal; the searches never build a reference state; and
``meeplemind bench --outside-search`` measures each game's handlers, and what a call does
outside its search stays within a count of function calls (issue 32)."""

from __future__ import annotations

import sys
import threading
from collections import Counter
from types import FrameType
from typing import Any

import pytest

from meeplemind.engine import game_ids, get_game
from meeplemind.native import NativeGame
from meeplemind.positions import read, vector_codec
from meeplemind.server import overhead
from meeplemind.server.analysis import AnalysisServicer
from meeplemind.server.capacity import SearchGate
from meeplemind.server.errors import ServiceError
from meeplemind.server.limits import Limits
from meeplemind.server.metrics import Metrics
from meeplemind.server.rules import RulesServicer
from meeplemind.v1 import analysis_pb2, rules_pb2

pytest.importorskip("meeplemind.native._mm", reason="the native engines are not built")


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often each step of reading a position ran: the schema's read of the message, the C
    decode and the reference engine's decode (of any game)."""
    counted: Counter[str] = Counter()

    def counting(name: str, function: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            counted[name] += 1
            return function(*args, **kwargs)
        return call

    monkeypatch.setattr(vector_codec, "read", counting("schema read", vector_codec.read))
    monkeypatch.setattr(NativeGame, "decode", counting("C decode", NativeGame.decode))
    for game_id in game_ids():
        game = get_game(game_id)
        monkeypatch.setattr(game, "decode", counting("reference decode", game.decode))
    return counted


BUDGET = analysis_pb2.SearchBudget(iterations=50)


def _calls(position: Any, move: str) -> dict[str, tuple[Any, Any]]:
    analysis = AnalysisServicer(Limits(), SearchGate(1, 0), Metrics())
    rules = RulesServicer()
    return {
        "Analyze": (analysis.Analyze, analysis_pb2.AnalyzeRequest(position=position, budget=BUDGET, seed=1)),
        "BestMove": (analysis.BestMove, analysis_pb2.BestMoveRequest(position=position, budget=BUDGET, seed=1)),
        "LegalMoves": (rules.LegalMoves, rules_pb2.LegalMovesRequest(position=position)),
        "ApplyMove": (rules.ApplyMove, rules_pb2.ApplyMoveRequest(position=position, move=move, seed=1)),
        "Observe": (rules.Observe, rules_pb2.ObserveRequest(position=position)),
    }


@pytest.mark.parametrize("game_id", game_ids())
def test_every_call_reads_its_position_once(game_id: str, calls: Counter[str]) -> None:
    position = overhead.middle_position(game_id, 3)
    move = str(read(position).state().legal_moves()[0])
    for name, (handler, request) in _calls(position, move).items():
        calls.clear()
        handler(request, overhead._Context())
        searched = name in ("Analyze", "BestMove")
        assert calls == Counter({"schema read": 1, "C decode": 1, **({} if searched else {"reference decode": 1})}), name


@pytest.mark.parametrize("game_id", game_ids())
def test_a_refusal_is_worded_by_its_one_decode(game_id: str, calls: Counter[str]) -> None:
    position = overhead.middle_position(game_id, 3)
    state = getattr(position, game_id.replace("-", "_"))
    field = next(f for f in state.players[1].DESCRIPTOR.fields if f.type == f.TYPE_INT32 and not f.is_repeated)
    setattr(state.players[1], field.name, -(10**6))
    for name, (handler, request) in _calls(position, "any move: the position is refused first").items():
        calls.clear()
        with pytest.raises(ServiceError) as refused:
            handler(request, overhead._Context())
        assert calls == Counter({"schema read": 1, "C decode": 1}), name
        [(path, words)] = refused.value.violations
        assert path == f"position.{game_id.replace('-', '_')}.players[1].{field.name}", name
        assert words == "-1000000 is below 0", name


def test_bench_measures_the_cost_outside_the_search_of_every_game() -> None:
    records = overhead.measure(calls=2)
    assert [(r["game"], r["call"]) for r in records] == [(g, c) for g in game_ids() for c in ("analyze", "best_move")]
    for record in records:
        assert record["players"] == min(overhead.PLAYERS, max(get_game(record["game"]).PLAYER_COUNTS))
        assert record["search_cpu_ms"] > 0 and record["moves"] >= 1
        assert record["within_limit"] == (record["outside_search_cpu_ms"] <= overhead.LIMIT_MS)


#: The most Python and C function calls an Analyze or BestMove call of a 4-player position
#: makes outside its search (its position read, checked and answered): about 1.1 times the
#: most it makes (842, Castles' Analyze naming 33 moves; the others 522 to 585); 1,012 before
#: its answer was written field by field and its names looked up without a call, 1,533
#: with the reader's closure per run of fields (docs/measurements.md).
MAX_CALLS = 925


def _calls_made(handler: Any, request: Any) -> int:
    """The Python and C functions a warm call of ``handler`` calls, on a thread that is not
    the main one (as gRPC's are)."""
    made: list[int] = []

    def run() -> None:
        handler(request, overhead._Context())  # the first call compiles the reader and names the moves
        count = 0

        def profile(frame: FrameType, event: str, arg: object) -> None:
            nonlocal count
            count += event in ("call", "c_call")

        sys.setprofile(profile)
        try:
            handler(request, overhead._Context())
        finally:
            sys.setprofile(None)
        made.append(count)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    return made[0]


@pytest.mark.parametrize("game_id", game_ids())
def test_a_call_outside_its_search_stays_within_its_function_calls(game_id: str) -> None:
    players = min(overhead.PLAYERS, max(get_game(game_id).PLAYER_COUNTS))
    for call, (method, request) in overhead.requests(overhead.middle_position(game_id, players)).items():
        handler = getattr(AnalysisServicer(Limits(), SearchGate(1, 0), Metrics()), method)
        assert _calls_made(handler, request) <= MAX_CALLS, call
