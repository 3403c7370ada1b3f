"""ReviewGame under deadlines, load and the server's limit on a review's search time; the
search slots shared fairly between reviews and single analyses; the deadline margin
learning the reply's whole way out (docs/limits.md)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import pytest

from meeplemind.server import interceptors
from meeplemind.server.capacity import Caller, SearchGate
from meeplemind.server.limits import Limits
from meeplemind.v1 import analysis_pb2

from ..game_records import planted_blunder, record_json
from .conftest import StartServer
from .test_review import budget, request


def _review(running: Any, ask: analysis_pb2.ReviewGameRequest, timeout: float | None = None) -> list[Any]:
    return list(running.analysis.ReviewGame(ask, timeout=timeout))


def test_concurrent_reviews_under_a_deadline_each_end_with_their_summary(start_server: StartServer) -> None:
    """Eight reviews on two slots, each with more to search than its deadline allows: every
    one streams what it reviewed and ends with its summary (the deadline, the moves skipped)."""
    running = start_server(max_searches=2, max_queue=8)
    start, moves = planted_blunder()
    # iterations, not time: a search that waited for its slot still searches its whole budget
    ask = request(record_json(start, moves), budget=budget(iterations=3000), seed=5)
    with ThreadPoolExecutor(8) as pool:
        reviews = list(pool.map(lambda _: _review(running, ask, timeout=4.0), range(8)))
    for responses in reviews:
        summary = responses[-1].summary
        assert responses[-1].HasField("summary")
        assert summary.stop_reason == analysis_pb2.STOP_REASON_DEADLINE
        assert summary.moves_reviewed == len(responses) - 1
        assert summary.moves_skipped > 0 and summary.moves_reviewed + summary.moves_skipped == len(moves)


def test_a_reviews_search_time_is_bounded_by_the_server(start_server: StartServer) -> None:
    """A long record at a long budget: the review stops when its searches together have had
    the server's max_review_ms, and says so (STOP_REASON_TIME)."""
    running = start_server(max_searches=2, limits=Limits(max_review_ms=600))
    start, moves = planted_blunder()
    responses = _review(running, request(record_json(start, moves), budget=budget(time_ms=200), seed=5))
    summary = responses[-1].summary
    assert summary.stop_reason == analysis_pb2.STOP_REASON_TIME
    assert summary.moves_skipped > 0 and summary.moves_reviewed + summary.moves_skipped == len(moves)
    searched_ms = sum(r.move.stats.elapsed_ms for r in responses[:-1] if r.HasField("move"))
    assert 0 < summary.moves_reviewed <= 600 // 200 and searched_ms <= 600 + 50 * summary.moves_reviewed


def test_searches_wait_for_the_review_time_others_give_back(start_server: StartServer) -> None:
    """Four slots, iteration budgets (each reserves all the review time left, uses a few ms):
    the other searches wait for what the first gives back, none is skipped."""
    running = start_server(max_searches=4, limits=Limits(max_review_ms=2_000))
    start, moves = planted_blunder()
    responses = _review(running, request(record_json(start, moves[:8]), budget=budget(iterations=50), seed=5))
    summary = responses[-1].summary
    assert (summary.moves_reviewed, summary.moves_skipped, summary.stop_reason) == (
        8, 0, analysis_pb2.STOP_REASON_UNSPECIFIED)


def test_a_single_search_gets_the_next_free_slot_before_a_reviews_others() -> None:
    """A review holds both slots and queues two more searches; an Analyze queued after
    them gets the first slot that frees (its call runs none), the review the next."""
    gate = SearchGate(2, 4)
    review = Caller()
    holding = [gate.slot(threading.Event(), None, review) for _ in range(2)]
    for slot in holding:
        slot.__enter__()
    order: list[str] = []

    def search(name: str, caller: Caller | None) -> None:
        with gate.slot(threading.Event(), None, caller):
            order.append(name)
            time.sleep(0.05)

    waiting = [threading.Thread(target=search, args=("review", review)) for _ in range(2)]
    for thread in waiting:
        thread.start()
    while gate.queued < 2:
        time.sleep(0.001)
    single = threading.Thread(target=search, args=("analyze", None))
    single.start()
    while gate.queued < 3:
        time.sleep(0.001)
    holding[0].__exit__(None, None, None)
    single.join(5)
    assert order[0] == "analyze"
    holding[1].__exit__(None, None, None)
    for thread in waiting:
        thread.join(5)
    assert order == ["analyze", "review", "review"]


def test_a_review_admitted_once_is_never_refused_for_a_full_queue() -> None:
    gate = SearchGate(1, 1)
    review, other = Caller(), Caller()
    with gate.slot(threading.Event(), None, review):
        pass  # the review has been admitted
    holder = gate.slot(threading.Event(), None, other)
    holder.__enter__()
    queued = threading.Thread(target=lambda: gate.slot(threading.Event(), 5.0, Caller()).__enter__())
    queued.start()  # fills the queue
    while gate.queued < 1:
        time.sleep(0.001)
    admitted = threading.Event()

    def review_search() -> None:
        with gate.slot(threading.Event(), 5.0, review):
            admitted.set()

    again = threading.Thread(target=review_search)
    again.start()
    while gate.queued < 2:
        time.sleep(0.001)
    holder.__exit__(None, None, None)
    again.join(5)
    queued.join(5)
    assert admitted.is_set()


def test_the_margin_learns_the_replys_way_out(start_server: StartServer, monkeypatch: pytest.MonkeyPatch,
                                             position: Any) -> None:
    """What happens after the servicer returns (here a slow access log) makes the answer
    late; the call's end teaches the margin, and the next calls get the best-so-far answer."""
    record = interceptors.ObserveInterceptor._record

    def slow_record(self: Any, *args: Any) -> None:
        time.sleep(0.1)
        record(self, *args)

    monkeypatch.setattr(interceptors.ObserveInterceptor, "_record", slow_record)
    running = start_server()
    ask = analysis_pb2.AnalyzeRequest(position=position, budget=budget(time_ms=30_000))
    answered = []
    for _ in range(4):
        try:
            reply = running.analysis.Analyze(ask, timeout=1.5)
            answered.append(reply.stats.stop_reason == analysis_pb2.STOP_REASON_DEADLINE and bool(reply.moves))
        except grpc.RpcError as late:
            assert late.code() is grpc.StatusCode.DEADLINE_EXCEEDED
            answered.append(False)
    assert answered[-2:] == [True, True], answered
