"""Streams that hold one report for a reader that does not read, a shutdown that answers
every call within its grace, and a deadline margin that follows how late answers are."""

from __future__ import annotations

import re
import signal
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest

from meeplemind.server import analysis
from meeplemind.server.analysis import AnalysisServicer
from meeplemind.server.capacity import SearchGate
from meeplemind.search.deadlines import MIN_SEARCH_MS, DeadlineMargin
from meeplemind.server.errors import ServiceError
from meeplemind.server.limits import MAX_TEXT_BYTES, Limits
from meeplemind.server.metrics import Metrics
from meeplemind.v1 import analysis_pb2, analysis_pb2_grpc, rules_pb2, rules_pb2_grpc
from meeplemind.v1.position_pb2 import Position

from .conftest import StartServer
from .processes import Serve

pytest.importorskip("meeplemind.native._mm", reason="the native engines are not built")

LONG = analysis_pb2.SearchBudget(time_ms=Limits().max_time_ms)


class _Context:
    """A call's context for a servicer called directly: no deadline, never ends."""

    def add_callback(self, callback: object) -> bool:
        return True

    def time_remaining(self) -> None:
        return None


def test_a_stream_not_read_holds_only_the_newest_report(position: Position) -> None:
    """Latest wins: a search that ends while its reader reads nothing leaves the final
    message alone, not the backlog of the reports it made meanwhile."""
    gate = SearchGate(1, 0)
    stream: Iterator[Any] = AnalysisServicer(Limits(), gate, Metrics()).AnalyzeStream(
        analysis_pb2.AnalyzeStreamRequest(position=position, report_every_ms=10,
                                          budget=analysis_pb2.SearchBudget(time_ms=400)), _Context())
    first = next(stream)
    assert not first.final
    while gate.running:  # the search runs its 400 ms (about 40 reports) unread
        time.sleep(0.01)
    rest = list(stream)
    assert [m.final for m in rest] == [True]
    assert rest[0].stats.stop_reason == analysis_pb2.STOP_REASON_TIME


def test_an_unread_stream_does_not_grow_the_server() -> None:
    """The issue's client: a stream at report_every_ms=10 that is not read, with the
    longest request id allowed and with a 200 KB one; under 5 MB of growth."""
    serve = Serve("--port", "0")
    try:
        port = int(re.search(r"\(port (\d+)\)", serve.until(r"listening on")[-1]).group(1))
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            position = rules_pb2_grpc.RulesStub(channel).NewGame(
                rules_pb2.NewGameRequest(game="puerto-rico", players=4, seed=3)).position
            stub = analysis_pb2_grpc.AnalysisStub(channel)
            list(stub.AnalyzeStream(analysis_pb2.AnalyzeStreamRequest(  # what any search sets up
                position=position, report_every_ms=10, budget=analysis_pb2.SearchBudget(time_ms=500))))
            before = serve.rss_mb()
            streams = []
            for request_id in ("i" * MAX_TEXT_BYTES, "x" * 200_000):
                stream = stub.AnalyzeStream(analysis_pb2.AnalyzeStreamRequest(
                    request_id=request_id, position=position, report_every_ms=10,
                    budget=analysis_pb2.SearchBudget(time_ms=4000)))
                streams.append(stream)
                try:
                    next(stream)
                except grpc.RpcError as e:
                    assert e.code() == grpc.StatusCode.INVALID_ARGUMENT
            time.sleep(4.5)  # both searches end unread
            growth = serve.rss_mb() - before
            for stream in streams:
                stream.cancel()
        assert growth < 5, f"{growth:.1f} MB"
    finally:
        serve.process.kill()
        serve.process.wait()


def _queued_call_after(wait_s: float | None, before_it_wakes: Callable[[SearchGate, Any], None]) -> Any:
    """How a call queued (waiting at most ``wait_s``) behind the one slot of a gate fares
    when ``before_it_wakes(gate, holder)`` runs holding the gate's lock: "admitted" or the
    ServiceError refusing it."""
    gate = SearchGate(1, 1)
    holder = gate.slot(threading.Event(), None)
    holder.__enter__()
    outcome: list[Any] = []

    def queued() -> None:
        try:
            with gate.slot(threading.Event(), wait_s):
                outcome.append("admitted")
        except ServiceError as e:
            outcome.append(e)

    waiter = threading.Thread(target=queued)
    waiter.start()
    while not gate.queued:
        time.sleep(0.001)
    with gate._cond:  # the waiter cannot wake until this is done
        before_it_wakes(gate, holder)
    waiter.join(5)
    assert len(outcome) == 1, outcome
    return outcome[0]


def test_a_queued_search_is_never_admitted_once_closed() -> None:
    """The race of the issue, made certain: the running search ends and the gate closes
    before the queued one wakes up; it is refused, not run."""
    def close_then_free(gate: SearchGate, holder: Any) -> None:
        gate.close()
        holder.__exit__(None, None, None)

    refused = _queued_call_after(None, close_then_free)
    assert isinstance(refused, ServiceError) and refused.code == grpc.StatusCode.UNAVAILABLE, refused


def test_a_queued_search_past_its_wait_is_refused_even_if_a_slot_frees() -> None:
    """A call whose queue wait is over has no time left to search before its deadline:
    RESOURCE_EXHAUSTED, though a slot freed at that very moment (it would have been
    admitted and then refused with DEADLINE_EXCEEDED)."""
    def free_after_the_wait(gate: SearchGate, holder: Any) -> None:
        time.sleep(0.1)
        holder.__exit__(None, None, None)

    refused = _queued_call_after(0.05, free_after_the_wait)
    assert isinstance(refused, ServiceError) and refused.code == grpc.StatusCode.RESOURCE_EXHAUSTED, refused


def test_sigterm_answers_running_and_queued_calls_within_the_grace(position: Position) -> None:
    """The running search stops and answers with what it found, the queued call is
    refused at once, and the process exits before the grace is over."""
    serve = Serve("--port", "0", "--max-searches", "1", "--max-queue", "2", "--grace", "20")
    try:
        port = int(re.search(r"\(port (\d+)\)", serve.until(r"listening on")[-1]).group(1))
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = analysis_pb2_grpc.AnalysisStub(channel)
            running = stub.AnalyzeStream(analysis_pb2.AnalyzeStreamRequest(
                position=position, budget=LONG, report_every_ms=50))
            next(running)  # the search holds the one slot
            queued = stub.Analyze.future(analysis_pb2.AnalyzeRequest(position=position, budget=LONG))
            time.sleep(0.5)
            assert not queued.done()
            serve.process.send_signal(signal.SIGTERM)
            answer = [m for m in running if m.final][0]
            with pytest.raises(grpc.RpcError) as refused:
                queued.result(timeout=15)
        assert answer.stats.stop_reason == analysis_pb2.STOP_REASON_CANCELLED and answer.moves
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        assert serve.process.wait(timeout=15) == 0  # well inside the 20 s grace
    finally:
        serve.process.kill()
        serve.process.wait()


def test_the_deadline_margin_follows_late_answers() -> None:
    margin = DeadlineMargin(25.0, 250.0)
    assert margin.ms() == 25.0
    margin.observe(40.0)
    assert margin.ms() == 105.0
    assert margin.ms(remaining_s=0.1) == 50.0  # half the time left, at most
    margin.observe(1000.0)
    assert margin.ms() == 250.0
    for _ in range(20 * 64):  # twenty halvings
        margin.observe(2.0)
    assert 25.0 < margin.ms() < 35.0  # the peak decayed to the recent delays


def _slow_replies(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Every reply takes ``seconds`` more to build (a loaded machine)."""
    stats = analysis.stats_to_proto

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(seconds)
        return stats(*args, **kwargs)

    monkeypatch.setattr(analysis, "stats_to_proto", slow)


def test_deadline_cut_answers_stay_in_time_when_replies_are_slow(
        start_server: StartServer, position: Position, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every reply takes 80 ms more than a search's end (a loaded machine): after the first
    late answer the margin covers it, and the calls get their results in time."""
    _slow_replies(monkeypatch, 0.08)
    running = start_server()
    answered = 0
    for _ in range(12):
        try:
            response = running.analysis.Analyze(analysis_pb2.AnalyzeRequest(position=position, budget=LONG),
                                                timeout=0.6)
            assert response.stats.stop_reason == analysis_pb2.STOP_REASON_DEADLINE
            answered += 1
        except grpc.RpcError as e:
            assert e.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert answered >= 10, answered


def test_a_time_budget_counts_from_the_request_and_keeps_room_for_the_reply() -> None:
    margin = DeadlineMargin(40.0, 250.0)  # the server's: its floor for a deadline, replaced for a time budget
    assert margin.loop_ms(300.0, spent_ms=50.0, floor_ms=20.0) == 230.0
    assert margin.loop_ms(300.0, spent_ms=400.0, floor_ms=20.0) == MIN_SEARCH_MS  # a search still runs
    assert margin.loop_ms(3.0, 0.0, floor_ms=1.0) == 3.0  # never more than the budget


def test_time_budget_answers_stay_in_time_when_replies_are_slow(
        start_server: StartServer, position: Position, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every reply takes 200 ms more than a search's end: after the first late answer the
    margin covers it, and 400 ms budgets are answered in about 400 ms, not 600 (the median
    of the later calls, with room for a loaded machine)."""
    _slow_replies(monkeypatch, 0.2)
    running = start_server()
    walls = []
    for _ in range(8):
        start = time.monotonic()
        response = running.analysis.Analyze(analysis_pb2.AnalyzeRequest(
            position=position, budget=analysis_pb2.SearchBudget(time_ms=400)), timeout=10)
        walls.append((time.monotonic() - start) * 1e3)
        assert response.stats.stop_reason == analysis_pb2.STOP_REASON_TIME
    assert statistics.median(walls[1:]) <= 520, walls
