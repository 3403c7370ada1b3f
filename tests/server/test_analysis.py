"""The Analysis service over a real channel: results, streams, deadlines, cancellation,
capacity."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest

from meeplemind.positions.messages import read_position
from meeplemind.server.analysis import AnalysisServicer
from meeplemind.server.capacity import SearchGate
from meeplemind.positions.messages import message_to_dict
from meeplemind.client.errors import field_violations
from meeplemind.server.errors import ServiceError
from meeplemind.server.limits import Limits
from meeplemind.server.metrics import Metrics
from meeplemind.v1 import analysis_pb2, rules_pb2
from meeplemind.v1.position_pb2 import Position

from .conftest import Running, StartServer

pytest.importorskip("meeplemind.native._mm", reason="the native engines are not built")

LONG = analysis_pb2.SearchBudget(time_ms=Limits().max_time_ms)  # the longest budget allowed
ITERATIONS = "meeplemind_search_iterations_total"


def legal(position: Position) -> list[str]:
    state = read_position(message_to_dict(position)).state()
    return [str(m) for m in state.legal_moves()]


def long_search(position: Position) -> analysis_pb2.AnalyzeRequest:
    return analysis_pb2.AnalyzeRequest(position=position, budget=LONG)


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
    again.stats.cpu_ms = response.stats.cpu_ms
    assert again == response


def test_analyze_defaults_and_max_moves(service: Running, position: Position) -> None:
    response = service.analysis.Analyze(analysis_pb2.AnalyzeRequest(position=position, max_moves=2))
    assert response.stats.iterations == 1000 and len(response.moves) == 2


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
    assert response.stats.iterations > 0  # level 3: 1 ms of CPU time
    assert response.stats.stop_reason == analysis_pb2.STOP_REASON_CPU_TIME
    budget = analysis_pb2.BestMoveRequest(position=position, budget=analysis_pb2.SearchBudget(time_ms=100))
    assert service.analysis.BestMove(budget).stats.stop_reason == analysis_pb2.STOP_REASON_TIME


def test_deadline_returns_best_so_far_in_time(start_server: StartServer, position: Position) -> None:
    """In time: else the client's own deadline would raise DEADLINE_EXCEEDED. (A margin
    floor that holds on a loaded machine from the first call; the margin's adaptation is
    tested in test_streams_and_shutdown.)"""
    running = start_server(limits=Limits(deadline_margin_floor_ms=250))
    request = analysis_pb2.AnalyzeRequest(position=position, budget=LONG)
    response = running.analysis.Analyze(request, timeout=1.0)
    assert response.stats.stop_reason == analysis_pb2.STOP_REASON_DEADLINE
    assert response.stats.iterations > 0 and response.moves
    best = running.analysis.BestMove(analysis_pb2.BestMoveRequest(position=position, budget=LONG),
                                     timeout=1.0)
    assert best.move in legal(position)


def test_cancelled_stream_stops_its_search(start_server: StartServer, position: Position) -> None:
    running = start_server()
    stream = running.analysis.AnalyzeStream(analysis_pb2.AnalyzeStreamRequest(
        position=position, budget=LONG, report_every_ms=20))
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
    running.wait_for("grpc_server_handled_total", 1, grpc_type="SERVER_STREAMING",
                     grpc_service="meeplemind.v1.Analysis", grpc_method="AnalyzeStream", grpc_code="CANCELLED")


def test_over_capacity(start_server: StartServer, position: Position) -> None:
    running = start_server(max_searches=1, max_queue=1)
    search = analysis_pb2.AnalyzeRequest(position=position, budget=LONG)
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
    running = start_server(max_searches=1, max_queue=4, limits=Limits(deadline_margin_floor_ms=250))
    blocker = running.analysis.Analyze.future(long_search(position))
    running.wait_for("meeplemind_searches_running", 1)
    with pytest.raises(grpc.RpcError) as refused:
        running.analysis.Analyze(analysis_pb2.AnalyzeRequest(position=position), timeout=1.0)
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "freed in time to search before the deadline" in refused.value.details()
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
    stopped = running.server.stop(5)
    response = pending.result(timeout=5)  # not the budget, nor the grace
    assert response.stats.stop_reason == analysis_pb2.STOP_REASON_CANCELLED and response.moves
    assert response.stats.elapsed_ms < LONG.time_ms / 2
    assert stopped.wait(5)


def test_errors_name_the_field_for_the_stream_too(service: Running, position: Position) -> None:
    bad = Position()
    bad.CopyFrom(position)
    bad.puerto_rico.players[1].vp_chips = -3
    with pytest.raises(grpc.RpcError) as refused:
        list(service.analysis.AnalyzeStream(analysis_pb2.AnalyzeStreamRequest(position=bad)))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert [f for f, _ in field_violations(refused.value)] == ["position.puerto_rico.players[1].vp_chips"]


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
        position=position, budget=LONG, report_every_ms=20))
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
        servicer.BestMove(analysis_pb2.BestMoveRequest(position=position, budget=LONG), _EndedCall())
    assert ended.value.code == grpc.StatusCode.CANCELLED
