"""The Analysis service over a real channel: results, streams, deadlines, cancellation,
capacity."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest

from meeplemind.engine.position import from_position
from meeplemind.server.analysis import AnalysisServicer
from meeplemind.server.capacity import SearchGate
from meeplemind.server.client import remote_analyze
from meeplemind.server.convert import message_to_dict, position_to_proto
from meeplemind.server.errors import ServiceError, field_violations
from meeplemind.server.limits import Limits
from meeplemind.server.metrics import Metrics
from meeplemind.v1 import analysis_pb2, rules_pb2
from meeplemind.v1.position_pb2 import Position

from .conftest import Running, StartServer, played

pytest.importorskip("meeplemind.native._mm", reason="the native engines are not built")

TEN_MINUTES = analysis_pb2.SearchBudget(time_ms=600_000)
ITERATIONS = "meeplemind_search_iterations_total"


def legal(position: Position) -> list[str]:
    state, _ = from_position(message_to_dict(position))
    return [str(m) for m in state.legal_moves()]


def long_search(position: Position) -> analysis_pb2.AnalyzeRequest:
    return analysis_pb2.AnalyzeRequest(position=position, budget=TEN_MINUTES)


def test_analyze(service: Running, position: Position) -> None:
    request = analysis_pb2.AnalyzeRequest(request_id="q1", position=position, seed=7,
                                          budget=analysis_pb2.SearchBudget(iterations=600, threads=1))
    response = service.analysis.Analyze(request)
    stats = response.stats
    assert response.request_id == "q1"
    assert (stats.iterations, stats.stop_reason) == (600, analysis_pb2.STOP_REASON_ITERATIONS)
    assert stats.player == position.puerto_rico.current_player and 0 <= stats.root_value <= 1
    assert sorted(m.move for m in response.moves) == sorted(legal(position))
    assert sum(m.visits for m in response.moves) == 600
    visits = [m.visits for m in response.moves]
    assert visits == sorted(visits, reverse=True)
    for move in response.moves:
        assert move.pv[0] == move.move and len(move.expected_scores) == 4 and 0 <= move.win_rate <= 1
    again = service.analysis.Analyze(request)  # one thread and a seed: reproducible
    again.stats.elapsed_ms = response.stats.elapsed_ms
    assert again == response


def test_analyze_defaults_and_max_moves(service: Running, position: Position) -> None:
    response = service.analysis.Analyze(analysis_pb2.AnalyzeRequest(position=position, max_moves=2))
    assert response.stats.iterations == 1000 and len(response.moves) == 2


def test_remote_analyze(service: Running, position: Position) -> None:
    result = remote_analyze(service.address, message_to_dict(position), iterations=300, threads=2,
                            seed=3, max_moves=3)
    assert set(result) == {"moves", "iterations", "elapsed_ms", "nodes", "stopped_by", "root_value", "player"}
    assert (result["iterations"], result["stopped_by"], len(result["moves"])) == (300, "iterations", 3)
    assert set(result["moves"][0]) == {"move", "action", "visits", "win_rate", "expected_scores", "pv"}


def test_analyze_stream_reports_then_answers_once(service: Running, position: Position) -> None:
    request = analysis_pb2.AnalyzeStreamRequest(request_id="s1", position=position, report_every_ms=50,
                                                budget=analysis_pb2.SearchBudget(time_ms=400))
    messages = list(service.analysis.AnalyzeStream(request, timeout=10))
    *progress, final = messages
    assert len(progress) >= 3 and final.final and not any(m.final for m in progress)
    assert all(m.request_id == "s1" for m in messages)
    assert all(m.stats.stop_reason == analysis_pb2.STOP_REASON_UNSPECIFIED for m in progress)
    assert final.stats.stop_reason == analysis_pb2.STOP_REASON_TIME
    counts = [m.stats.iterations for m in messages]
    assert counts == sorted(counts) and counts[0] > 0


def test_best_move(service: Running, position: Position) -> None:
    request = analysis_pb2.BestMoveRequest(request_id="b", position=position, level=3, seed=11)
    response = service.analysis.BestMove(request)
    assert response.request_id == "b" and response.move in legal(position)
    assert response.line.move == response.move and response.line.pv[0] == response.move
    assert response.stats.iterations == 200
    assert response.stats.stop_reason == analysis_pb2.STOP_REASON_ITERATIONS
    assert service.analysis.BestMove(request).move == response.move
    budget = analysis_pb2.BestMoveRequest(position=position, budget=analysis_pb2.SearchBudget(time_ms=100))
    assert service.analysis.BestMove(budget).stats.stop_reason == analysis_pb2.STOP_REASON_TIME


def test_deadline_returns_best_so_far_in_time(service: Running, position: Position) -> None:
    request = analysis_pb2.AnalyzeRequest(position=position, budget=TEN_MINUTES)
    start = time.perf_counter()
    response = service.analysis.Analyze(request, timeout=0.2)
    elapsed = time.perf_counter() - start
    assert elapsed < 0.3
    assert response.stats.stop_reason == analysis_pb2.STOP_REASON_DEADLINE
    assert response.stats.iterations > 0 and response.moves
    best = service.analysis.BestMove(analysis_pb2.BestMoveRequest(position=position, budget=TEN_MINUTES),
                                     timeout=0.2)
    assert best.move in legal(position)


def test_cancelled_stream_stops_its_search(start_server: StartServer, position: Position) -> None:
    running = start_server()
    stream = running.analysis.AnalyzeStream(analysis_pb2.AnalyzeStreamRequest(
        position=position, budget=TEN_MINUTES, report_every_ms=20))
    first, second = next(stream), next(stream)
    assert 0 < first.stats.iterations < second.stats.iterations
    assert running.metric("meeplemind_searches_running") == 1
    stream.cancel()
    running.wait_for("meeplemind_searches_running", 0)
    running.wait_for("meeplemind_searches_total", 1, stop_reason="cancelled")
    counted = running.metric(ITERATIONS)
    assert counted >= second.stats.iterations
    time.sleep(0.3)
    assert running.metric(ITERATIONS) == counted
    running.wait_for("meeplemind_requests_total", 1, method="/meeplemind.v1.Analysis/AnalyzeStream",
                     code="CANCELLED")


def test_over_capacity(start_server: StartServer, position: Position) -> None:
    running = start_server(max_searches=1, max_queue=1)
    search = analysis_pb2.AnalyzeRequest(position=position, budget=TEN_MINUTES)
    first = running.analysis.Analyze.future(search)
    running.wait_for("meeplemind_searches_running", 1)
    queued = running.analysis.Analyze.future(search)
    running.wait_for("meeplemind_searches_queued", 1)
    with pytest.raises(grpc.RpcError) as refused:
        running.analysis.Analyze(search, timeout=5)
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert running.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=position)).moves
    first.cancel()
    running.wait_for("meeplemind_searches_queued", 0)
    running.wait_for("meeplemind_searches_running", 1)  # the queued search got the slot
    queued.cancel()
    running.wait_for("meeplemind_searches_running", 0)
    assert running.analysis.Analyze(analysis_pb2.AnalyzeRequest(position=position)).stats.iterations == 1000


def test_queue_wait_ends_before_the_deadline(start_server: StartServer, position: Position) -> None:
    running = start_server(max_searches=1, max_queue=4)
    blocker = running.analysis.Analyze.future(long_search(position))
    running.wait_for("meeplemind_searches_running", 1)
    with pytest.raises(grpc.RpcError) as refused:
        running.analysis.Analyze(analysis_pb2.AnalyzeRequest(position=position), timeout=0.5)
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "freed before the deadline" in refused.value.details()
    blocker.cancel()


def test_concurrent_searches_share_the_slots(start_server: StartServer, position: Position) -> None:
    running = start_server(max_searches=2, max_queue=6)
    request = analysis_pb2.AnalyzeRequest(position=position, budget=analysis_pb2.SearchBudget(iterations=300))
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: running.analysis.Analyze(request, timeout=30), range(8)))
    assert [r.stats.iterations for r in results] == [300] * 8
    assert running.metric(ITERATIONS) == 8 * 300


def test_shutdown_stops_searches_with_an_answer(start_server: StartServer, position: Position) -> None:
    running = start_server()
    pending = running.analysis.Analyze.future(long_search(position))
    running.wait_for("meeplemind_searches_running", 1)
    start = time.perf_counter()
    stopped = running.server.stop(5)
    response = pending.result(timeout=5)
    assert time.perf_counter() - start < 1
    assert response.stats.stop_reason == analysis_pb2.STOP_REASON_CANCELLED and response.moves
    assert stopped.wait(5)


def test_errors_name_the_field_for_the_stream_too(service: Running, position: Position) -> None:
    bad = Position()
    bad.CopyFrom(position)
    bad.puerto_rico.players[1].vp_chips = -3
    with pytest.raises(grpc.RpcError) as refused:
        list(service.analysis.AnalyzeStream(analysis_pb2.AnalyzeStreamRequest(position=bad)))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert [f for f, _ in field_violations(refused.value)] == ["position.puerto_rico.players[1].vp_chips"]


def test_best_move_of_a_finished_game_is_refused(service: Running) -> None:
    state = played(3, 2, 10_000)
    assert state.is_terminal
    request = analysis_pb2.BestMoveRequest(position=position_to_proto(state, 0), level=1)
    with pytest.raises(grpc.RpcError) as refused:
        service.analysis.BestMove(request)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field_violations(refused.value) == [("position", "the game is over: there is no move to play")]


def test_a_base_game_with_expansion_fields_is_refused_naming_the_field(service: Running,
                                                                       position: Position) -> None:
    """Analyze reads a position as the Rules service does: a base game's expansion
    field is INVALID_ARGUMENT naming it, not silently dropped."""
    odd = Position()
    odd.CopyFrom(position)
    odd.puerto_rico.progress.window = "craftsman"
    with pytest.raises(grpc.RpcError) as refused:
        service.analysis.Analyze(analysis_pb2.AnalyzeRequest(
            position=odd, seed=5, budget=analysis_pb2.SearchBudget(iterations=10, threads=1)))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    [(field, problem)] = field_violations(refused.value)
    assert field == "position.puerto_rico.progress.window" and problem.startswith("only in an Expansion I game")


def test_streams_leave_no_search_threads(service: Running, position: Position) -> None:
    for _ in range(3):
        list(service.analysis.AnalyzeStream(analysis_pb2.AnalyzeStreamRequest(
            position=position, budget=analysis_pb2.SearchBudget(iterations=100))))
    stream = service.analysis.AnalyzeStream(analysis_pb2.AnalyzeStreamRequest(
        position=position, budget=TEN_MINUTES, report_every_ms=20))
    next(stream)
    stream.cancel()
    service.wait_for("meeplemind_searches_running", 0)
    deadline = time.monotonic() + 5
    while any(t.name.startswith(("analyze-stream", "ismcts-")) for t in threading.enumerate()):
        assert time.monotonic() < deadline, [t.name for t in threading.enumerate()]
        time.sleep(0.01)


class _EndedCall:
    """The context of a call that ended (cancelled) before its handler ran."""

    def add_callback(self, callback: object) -> bool:
        return False  # as gRPC says of a call that is over: the callback will never run

    def time_remaining(self) -> None:
        return None


def test_best_move_of_a_call_cancelled_before_any_iteration_is_cancelled(position: Position) -> None:
    """Not DEADLINE_EXCEEDED: nothing about the call's deadline stopped it."""
    servicer = AnalysisServicer(Limits(), SearchGate(1, 0), Metrics())
    with pytest.raises(ServiceError) as ended:
        servicer.BestMove(analysis_pb2.BestMoveRequest(position=position, budget=TEN_MINUTES), _EndedCall())
    assert ended.value.code == grpc.StatusCode.CANCELLED
