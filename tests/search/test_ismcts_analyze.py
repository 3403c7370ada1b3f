"""meeplemind.search.analyze driven with the toy game."""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from collections import Counter
from collections.abc import Callable

import pytest

from meeplemind.native import NativeDecodeError
from meeplemind.search import Analysis, NativeHandle, SearchStop, analyze, ismcts
from meeplemind.search.deadlines import DeadlineMargin
from meeplemind.search.params import Budget, SearchParams

from .ismcts_toy import ToyState, nim, opening

BIG = Budget(iterations=10**9, max_nodes=1 << 24)  # a budget that does not end a short search


def without_time(analysis: Analysis) -> Analysis:
    return dataclasses.replace(analysis, elapsed_ms=0.0, cpu_ms=0.0)


def test_same_seed_gives_identical_analysis(toy: NativeHandle) -> None:
    first = analyze(opening(), Budget(iterations=4000), SearchParams(seed=5), native=toy)
    assert without_time(first) == without_time(
        analyze(opening(), Budget(iterations=4000), SearchParams(seed=5), native=toy)
    )
    assert without_time(first) != without_time(
        analyze(opening(), Budget(iterations=4000), SearchParams(seed=6), native=toy)
    )


def test_analysis_shape(toy: NativeHandle) -> None:
    state = opening()
    analysis = analyze(state, Budget(iterations=3000), SearchParams(seed=1, pv_max=4), native=toy)
    assert (analysis.iterations, analysis.stopped_by, analysis.player) == (3000, "iterations", 0)
    assert analysis.nodes == 3001 and 0 <= analysis.root_value <= 1
    assert sorted(m.action for m in analysis.moves) == state.legal_actions()
    assert [m.visits for m in analysis.moves] == sorted(
        (m.visits for m in analysis.moves), reverse=True
    )
    assert sum(m.visits for m in analysis.moves) == 3000
    for move in analysis.moves:
        assert move.move == str(state.move_from_id(move.action)) == move.pv[0]
        assert 1 <= len(move.pv) <= 4 and len(move.expected_scores) == 3
        assert 0 <= move.win_rate <= 1


def test_pv_is_a_playable_line(toy: NativeHandle) -> None:
    state = nim(9)
    best = analyze(state, Budget(iterations=5000), SearchParams(seed=3), native=toy).moves[0]
    assert best.move == "take:1"  # leaves 8, a multiple of 4
    for notation in best.pv:
        move = next(m for m in map(state.move_from_id, state.legal_actions()) if str(m) == notation)
        state = state.play(move)


@pytest.mark.parametrize(
    "state, best",
    [
        (nim(3), "take:3"),
        (nim(6), "take:2"),
        (nim(2, players=3), "take:2"),
        (ToyState(pile=4, hand=(0, 9), max_take=4, drew=(0, 1), deck=(1, 2)), "take:4"),
    ],
)
def test_finds_the_obviously_best_move(toy: NativeHandle, state: ToyState, best: str) -> None:
    analysis = analyze(state, Budget(iterations=5000), SearchParams(seed=11), native=toy)
    assert analysis.moves[0].move == best
    assert analysis.moves[0].win_rate > 0.9
    assert analysis.moves[0].expected_scores[0] >= 10


def test_root_parallel_merge_sums_the_threads(toy: NativeHandle) -> None:
    merged = analyze(opening(), Budget(iterations=4001, threads=2), SearchParams(seed=20), native=toy)
    alone = [
        analyze(opening(), Budget(iterations=n), SearchParams(seed=s), native=toy) for n, s in ((2001, 20), (2000, 21))
    ]
    assert merged.iterations == 4001 == sum(m.visits for m in merged.moves)
    assert merged.nodes == sum(a.nodes for a in alone)
    visits = Counter()
    for analysis in alone:
        visits.update({m.action: m.visits for m in analysis.moves})
    assert {m.action: m.visits for m in merged.moves} == visits
    root = sum(a.root_value * a.iterations for a in alone) / 4001
    assert merged.root_value == pytest.approx(root)


def test_threads_never_exceed_iterations(toy: NativeHandle) -> None:
    analysis = analyze(opening(), Budget(iterations=3, threads=8), SearchParams(seed=1), native=toy)
    assert analysis.iterations == 3


def test_time_budget(toy: NativeHandle) -> None:
    margin = DeadlineMargin.for_time_budgets()  # the test's searches own it
    for threads in (1, 2):
        analysis = analyze(opening(), Budget(time_ms=200, max_nodes=1 << 24, threads=threads), native=toy,
                           time_margin=margin)
        assert analysis.stopped_by == "time"
        assert 100 <= analysis.elapsed_ms < 400  # the margin kept for the answer is at most half


def test_node_cap(toy: NativeHandle) -> None:
    analysis = analyze(opening(), Budget(iterations=10**6, max_nodes=1000, threads=3), native=toy)
    assert analysis.stopped_by == "nodes" and analysis.nodes <= 1000


def test_cancellation_stops_the_search(toy: NativeHandle) -> None:
    """Within a second of the stop (a bound loose enough for a loaded machine; the budget
    would run far longer)."""
    stop = SearchStop()
    results: list[Analysis] = []
    worker = threading.Thread(
        target=lambda: results.append(
            analyze(opening(), dataclasses.replace(BIG, threads=2), stop_event=stop, native=toy)
        )
    )
    worker.start()
    time.sleep(0.15)
    stopped_at = time.perf_counter()
    stop.set()
    worker.join(5)
    assert (time.perf_counter() - stopped_at) < 1.0
    assert results[0].stopped_by == "cancelled" and results[0].iterations > 0


def test_already_set_stop_event(toy: NativeHandle) -> None:
    stop = SearchStop()
    stop.set()
    analysis = analyze(opening(), stop_event=stop, native=toy)
    assert (analysis.stopped_by, analysis.iterations, analysis.moves) == ("cancelled", 0, [])
    assert math.isnan(analysis.root_value)


def test_terminal_position(toy: NativeHandle) -> None:
    over = ToyState(pile=0, hand=(1, 2), to_move=-1, last_taker=0)
    analysis = analyze(over, native=toy)
    assert (analysis.stopped_by, analysis.player, analysis.moves, analysis.iterations) == (
        "terminal",
        None,
        [],
        0,
    )


def test_max_moves_keeps_the_most_visited(toy: NativeHandle) -> None:
    full = analyze(opening(), Budget(iterations=2000), SearchParams(seed=2), native=toy)
    top = analyze(opening(), Budget(iterations=2000), SearchParams(seed=2), max_moves=3, native=toy)
    assert top.moves == full.moves[:3]


def test_default_budget(toy: NativeHandle) -> None:
    assert analyze(opening(), native=toy).iterations == 1000


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"iterations": 0}, "iterations"),
        ({"iterations": 1.5}, "iterations"),
        ({"iterations": True}, "iterations"),
        ({"time_ms": 0}, "time_ms"),
        ({"time_ms": math.nan}, "time_ms"),
        ({"threads": 0}, "threads"),
        ({"threads": 65}, "threads"),
        ({"seed": "x"}, "seed"),
        ({"max_moves": 0}, "max_moves"),
        ({"exploration": -1}, "exploration"),
        ({"rollout_policy": "smart"}, "rollout_policy"),
        ({"max_nodes": 1}, "max_nodes"),
        ({"max_nodes": 7, "threads": 4}, "max_nodes"),
        ({"margin_weight": 2}, "margin_weight"),
        ({"margin_scale": 0}, "margin_scale"),
        ({"pv_max": 17}, "pv_max"),
        ({"stop_event": object()}, "stop_event"),
    ],
)
def test_invalid_arguments_name_the_parameter(toy: NativeHandle, kwargs: dict, name: str) -> None:
    def of(kind: type) -> dict:
        names = {f.name for f in dataclasses.fields(kind)}
        return {key: value for key, value in kwargs.items() if key in names}

    rest = {key: value for key, value in kwargs.items() if not {key} & (of(Budget).keys() | of(SearchParams).keys())}
    with pytest.raises(ValueError, match=name):
        analyze(opening(), Budget(**of(Budget)), SearchParams(**of(SearchParams)), native=toy, **rest)


def test_decoder_rejection_is_a_value_error(toy: NativeHandle) -> None:
    bad = ToyState(pile=99, hand=(1, 2))
    with pytest.raises(NativeDecodeError, match=r"index 3: .*\(code 3\)"):
        analyze(bad, native=toy)


def test_playout_cap_is_a_runtime_error(endless: NativeHandle) -> None:
    with pytest.raises(RuntimeError, match="playout exceeded"):
        analyze(opening(), params=SearchParams(playout_moves=0), native=endless)  # (its truncated playouts end)


def test_progress_reports_grow_while_searching(toy: NativeHandle) -> None:
    reports: list[Analysis] = []
    final = analyze(opening(), Budget(cpu_ms=400, threads=2), SearchParams(seed=2), on_progress=reports.append,
                    report_every_ms=50, native=toy)
    # 400 ms of CPU take at least 400 ms of the clock, however loaded the machine
    assert 3 <= len(reports) <= final.elapsed_ms / 50 + 1
    counts = [r.iterations for r in reports]
    assert counts == sorted(counts) and counts[-1] <= final.iterations
    for r in reports:
        assert r.stopped_by == "running" and r.moves
        assert sum(m.visits for m in r.moves) <= r.iterations
    assert final.stopped_by == "cpu_time"


def test_progress_interval_is_validated(toy: NativeHandle) -> None:
    with pytest.raises(ValueError, match="report_every_ms"):
        analyze(opening(), Budget(iterations=10), on_progress=print, report_every_ms=0, native=toy)


def test_a_thread_reuses_its_tree_buffers_and_a_search_within_a_search_takes_others(toy: NativeHandle) -> None:
    """The buffers C writes a tree's results into are made once per thread and reused
    (``ismcts._POOL``); a search started from another's progress report, while that one's
    tree runs, takes buffers of its own: both answer as if run alone."""
    def search(iterations: int, on_progress: Callable[[Analysis], None] | None = None) -> Analysis:
        return without_time(analyze(opening(), Budget(iterations=iterations), SearchParams(seed=3, pv_max=5),
                                    on_progress=on_progress, report_every_ms=2, native=toy))

    nested: list[Analysis] = []
    outer = search(50_000, lambda progress: nested.append(search(2000)) if not nested else None)
    assert nested == [search(2000)] and outer == search(50_000)
    free = ismcts._POOL.free[(toy.game, 5)]
    assert len(free) == 2  # the outer search's and the nested one's, made once
    kept = [id(buffers) for buffers in free]
    search(2000)
    assert [id(buffers) for buffers in free] == kept


def _off_the_main_thread(search: Callable[[], Analysis]) -> Analysis:
    """``search()`` run on another thread (as a server's request threads run it)."""
    results: list[Analysis | BaseException] = []

    def run() -> None:
        try:
            results.append(search())
        except BaseException as e:  # handed back to the test
            results.append(e)

    worker = threading.Thread(target=run, name="caller")
    worker.start()
    worker.join(10)
    if isinstance(results[0], BaseException):
        raise results[0]
    return results[0]


def test_off_the_main_thread_one_tree_runs_on_the_calling_thread(
        toy: NativeHandle, monkeypatch: pytest.MonkeyPatch) -> None:
    _off_the_main_thread(lambda: analyze(opening(), Budget(iterations=10), native=toy))  # the watcher starts
    started: list[str] = []
    start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda t: (started.append(t.name), start(t))[1])
    same = _off_the_main_thread(lambda: analyze(opening(), Budget(iterations=500), SearchParams(seed=3), native=toy))
    assert started == ["caller"]
    assert without_time(same) == without_time(analyze(opening(), Budget(iterations=500), SearchParams(seed=3), native=toy))


@pytest.mark.parametrize("threads", [1, 2])
def test_off_the_main_thread_progress_and_cancellation(toy: NativeHandle, threads: int) -> None:
    reports: list[Analysis] = []
    stop = SearchStop()

    def report(analysis: Analysis) -> None:  # the third report cancels: counts, not the clock
        reports.append(analysis)
        if len(reports) == 3:
            stop.set()

    final = _off_the_main_thread(lambda: analyze(
        opening(), dataclasses.replace(BIG, threads=threads), stop_event=stop, native=toy, on_progress=report,
        report_every_ms=50))
    assert final.stopped_by == "cancelled" and 3 <= len(reports) <= 4  # one may be on its way
    assert [r.iterations for r in reports] == sorted(r.iterations for r in reports)


@pytest.mark.parametrize("where", ["main", "other"])
def test_a_failing_progress_report_ends_the_search_with_its_error(toy: NativeHandle, where: str) -> None:
    def fail(analysis: Analysis) -> None:
        raise LookupError("report failed")

    def search() -> Analysis:
        return analyze(opening(), BIG, native=toy, on_progress=fail, report_every_ms=20)

    with pytest.raises(LookupError, match="report failed"):
        search() if where == "main" else _off_the_main_thread(search)
