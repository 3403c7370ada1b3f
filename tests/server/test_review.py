"""Analysis/ReviewGame over a real channel: the stream's shape, the planted blunder,
reproducibility, chance given as positions, errors naming the field, parallel searches,
cancellation and deadlines."""

from __future__ import annotations

import threading
import time
from typing import Any

import grpc
import pytest
from google.protobuf import json_format

from meeplemind.engine import Rng
from meeplemind.server.convert import position_to_proto
from meeplemind.client.errors import field_violations
from meeplemind.v1 import analysis_pb2

from ..game_records import BEFORE, BLUNDER, planted_blunder, record_json
from .conftest import Running, StartServer


def request(record: dict[str, Any], **fields: Any) -> analysis_pb2.ReviewGameRequest:
    return analysis_pb2.ReviewGameRequest(game=json_format.ParseDict(record, analysis_pb2.GameRecord()),
                                          **fields)


def budget(**values: int) -> analysis_pb2.SearchBudget:
    return analysis_pb2.SearchBudget(**values)


def comparable(responses: list[analysis_pb2.ReviewGameResponse]) -> list[analysis_pb2.ReviewGameResponse]:
    """Copies of the responses without their wall-clock and CPU times."""
    out = []
    for response in responses:
        r = analysis_pb2.ReviewGameResponse.FromString(response.SerializeToString())
        reviews = [r.move] if r.HasField("move") else [m for p in r.summary.players for m in p.mistakes]
        for review in reviews:
            review.stats.elapsed_ms = review.stats.cpu_ms = 0
        out.append(r)
    return out


def test_the_planted_blunder_is_the_players_biggest_mistake(service: Running) -> None:
    start, moves = planted_blunder()
    responses = list(service.analysis.ReviewGame(request(
        record_json(start, moves), request_id="r1", budget=budget(iterations=1500, threads=1), seats=[0],
        seed=11)))
    *reviewed, last = responses
    assert all(r.request_id == "r1" for r in responses)
    assert all(r.HasField("move") for r in reviewed) and last.HasField("summary")
    indices = [r.move.index for r in reviewed]
    moves_reviewed = sorted(set(indices))  # every move in game order, then the refined ones again
    assert indices[:len(moves_reviewed)] == moves_reviewed and len(indices) > len(moves_reviewed)
    latest = {r.move.index: r.move for r in reviewed}
    assert {m.player for m in latest.values()} == {0} and all(m.rounds >= 3 for m in latest.values())
    summary = last.summary
    assert (summary.moves_reviewed, summary.moves_skipped) == (len(latest), 0)
    assert summary.stop_reason == analysis_pb2.STOP_REASON_UNSPECIFIED
    (player,) = summary.players
    biggest = player.mistakes[0]
    assert (biggest.index, biggest.played.move) == (BEFORE, BLUNDER) and biggest.win_rate_loss > 0.2
    assert biggest.margin_loss > 3 > 10 * biggest.noise and 0 < player.noise_floor < player.mean_margin_loss
    assert biggest.best.pv[0] == biggest.best.move and biggest.stats.iterations == 1500
    assert biggest.HasField("stake") and 0 < biggest.stake <= biggest.margin_loss  # worse than a uniform pick
    staked = [m for m in latest.values() if m.HasField("stake")]
    kept = 1 - sum(m.margin_loss for m in staked) / sum(m.stake for m in staked)
    assert len(staked) == len(latest) and abs(player.accuracy - 100 * max(0.0, kept)) < 1e-6
    assert player.accuracy_se > 0


def test_same_record_same_seed_one_thread_same_review(service: Running) -> None:
    start, moves = planted_blunder()
    ask = request(record_json(start, moves[:6]), budget=budget(iterations=300, threads=1), seed=3)
    first = comparable(list(service.analysis.ReviewGame(ask)))
    assert comparable(list(service.analysis.ReviewGame(ask))) == first and len(first) >= 7  # 6 moves, refined ones


def test_chance_given_as_positions_replays_the_same_game(service: Running) -> None:
    start, moves = planted_blunder()
    record = record_json(start, moves[:6])
    state, given = start, analysis_pb2.GameRecord(start=position_to_proto(start))
    for m in moves[:6]:
        state = state.apply(m.move, Rng(m.seed))
        given.moves.add(move=m.move, position=position_to_proto(state))
    ask = dict(budget=budget(iterations=200, threads=1), seed=9)
    by_seed = comparable(list(service.analysis.ReviewGame(request(record, **ask))))
    by_position = comparable(list(service.analysis.ReviewGame(
        analysis_pb2.ReviewGameRequest(game=given, **ask))))
    assert by_position == by_seed


@pytest.mark.parametrize("change,field", [
    (lambda r: r["moves"][2].update(move="build:castle"), "game.moves[2].move"),
    (lambda r: r["start"]["puerto_rico"]["players"][0].update(doubloons=-1),
     "game.start.puerto_rico.players[0].doubloons"),
    (lambda r: r["start"].update(game="chess"), "game.start.game"),
])
def test_bad_records_name_the_field(service: Running, change: Any, field: str) -> None:
    start, moves = planted_blunder()
    record = record_json(start, moves[:4])
    change(record)
    with pytest.raises(grpc.RpcError) as refused:
        list(service.analysis.ReviewGame(request(record)))
    assert [f for f, _ in field_violations(refused.value)] == [field]


def test_bad_budgets_and_seats_name_the_field(service: Running) -> None:
    start, moves = planted_blunder()
    record = record_json(start, moves[:2])
    for fields, field in [({"budget": budget(iterations=-1)}, "budget.iterations"),
                          ({"budget": budget(threads=9)}, "budget.threads"),
                          ({"seats": [0, 2]}, "seats[1]")]:
        with pytest.raises(grpc.RpcError) as refused:
            list(service.analysis.ReviewGame(request(record, **fields)))
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert [f for f, _ in field_violations(refused.value)] == [field]
    after = position_to_proto(start)
    after.puerto_rico.players[1].doubloons = -3
    given = analysis_pb2.GameRecord(start=position_to_proto(start))
    given.moves.add(move=moves[0].move, position=after)
    with pytest.raises(grpc.RpcError) as refused:
        list(service.analysis.ReviewGame(analysis_pb2.ReviewGameRequest(game=given)))
    assert [f for f, _ in field_violations(refused.value)] == ["game.moves[0].position.puerto_rico.players[1].doubloons"]


def test_searches_run_in_parallel_up_to_the_slots(start_server: StartServer) -> None:
    running = start_server(max_searches=2, max_queue=4)
    start, moves = planted_blunder()
    peak, done = 0, threading.Event()

    def watch() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, running.server.gate.running)
            time.sleep(0.005)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        responses = list(running.analysis.ReviewGame(request(record_json(start, moves[:8]),
                                                             budget=budget(time_ms=150))))
    finally:
        done.set()
        watcher.join()
    assert peak == 2 and responses[-1].summary.moves_reviewed == 8


def test_a_cancelled_review_stops_its_searches(start_server: StartServer) -> None:
    running = start_server(max_searches=2)
    start, moves = planted_blunder()
    stream = running.analysis.ReviewGame(request(record_json(start, moves), budget=budget(time_ms=300)))
    assert next(stream).HasField("move")
    stream.cancel()
    running.wait_for("meeplemind_searches_running", 0)
    time.sleep(0.3)  # a search's end is counted just after its slot is given back
    ended = running.metric("meeplemind_searches_total", stop_reason="cancelled")
    time.sleep(0.5)  # no search starts after the cancellation
    assert running.metric("meeplemind_searches_running") == 0
    assert running.metric("meeplemind_searches_total", stop_reason="cancelled") == ended


def test_a_deadline_ends_the_review_with_what_it_found(start_server: StartServer) -> None:
    running = start_server(max_searches=1)
    start, moves = planted_blunder()
    responses = list(running.analysis.ReviewGame(
        request(record_json(start, moves), budget=budget(time_ms=400)), timeout=3.0))
    summary = responses[-1].summary
    assert summary.stop_reason == analysis_pb2.STOP_REASON_DEADLINE
    assert summary.moves_skipped > 0 and summary.moves_reviewed == len(responses) - 1
    assert summary.moves_reviewed + summary.moves_skipped == len(moves)
