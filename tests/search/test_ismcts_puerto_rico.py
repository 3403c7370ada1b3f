"""ISMCTS on Puerto Rico: reproducibility, budgets, cancellation, node cap, errors, sanitizer."""

from __future__ import annotations

import dataclasses
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from meeplemind.engine import PositionError, Rng
from meeplemind.engine.puerto_rico import new_game
from meeplemind.search import SearchStop, analyze
from meeplemind.search.bots import HeuristicBot
from meeplemind.search.deadlines import MIN_SEARCH_MS, DeadlineMargin
from meeplemind.search.params import Budget, game_params

ROOT = Path(__file__).resolve().parents[2]


def midgame(players: int = 4, plies: int = 120, seed: int = 3):  # type: ignore[no-untyped-def]
    state, bot, rng = new_game(players, seed), HeuristicBot(seed), Rng(seed)
    for _ in range(plies):
        state = state.apply(bot.choose(state), rng)
    return state


@pytest.mark.parametrize("threads", [1, 2])
def test_same_seed_same_analysis(threads: int) -> None:
    state = midgame()
    first = analyze(state, Budget(iterations=2000, threads=threads), replace(game_params(state.game_id), seed=9))
    again = analyze(state, Budget(iterations=2000, threads=threads), replace(game_params(state.game_id), seed=9))
    assert dataclasses.replace(first, elapsed_ms=0, cpu_ms=0) == dataclasses.replace(again, elapsed_ms=0, cpu_ms=0)
    assert first.iterations == 2000 and sum(m.visits for m in first.moves) == 2000
    for m in first.moves:
        assert m.pv[0] == m.move and len(m.expected_scores) == 4 and 0 <= m.win_rate <= 1


def test_time_budget_ends_the_search() -> None:
    """The loop runs at least half the budget (the margin kept for the answer is at most
    that), and ends well before twice it (loose enough for a loaded machine)."""
    result = analyze(midgame(), Budget(time_ms=300), replace(game_params("puerto-rico"), seed=1))
    assert result.stopped_by == "time" and 150 <= result.elapsed_ms < 600


def test_time_budget_answers_within_it() -> None:
    """From the call to the answer: the median of seven 200 ms searches within 1.5 times
    the budget (generous: on a loaded machine a thread waits for a core)."""
    walls = []
    for seed in range(7):
        start = time.monotonic()
        analyze(midgame(), Budget(time_ms=200), replace(game_params("puerto-rico"), seed=seed))
        walls.append((time.monotonic() - start) * 1e3)
    assert statistics.median(walls) <= 300, walls


def test_the_time_margin_ends_the_loop_early_and_learns() -> None:
    """The loop ends the margin before the budget (at most half of it); every time-ended
    search tells the margin how late its answer was."""
    fixed = DeadlineMargin(floor_ms=100.0, ceiling_ms=100.0)
    assert fixed.loop_ms(300, spent_ms=0.0) == pytest.approx(200)
    assert fixed.loop_ms(100, spent_ms=0.0) == pytest.approx(50)  # half of it, at most
    assert fixed.loop_ms(300, spent_ms=150.0) == pytest.approx(50)  # counted from the budget's start
    assert fixed.loop_ms(300, spent_ms=400.0) == MIN_SEARCH_MS  # a search still runs
    assert fixed.loop_ms(3, spent_ms=0.0) == 3  # never more than the budget
    learning = DeadlineMargin(floor_ms=0.0, ceiling_ms=250.0)
    result = analyze(midgame(), Budget(time_ms=100), replace(game_params("puerto-rico"), seed=1),
                     time_margin=learning)
    assert result.stopped_by == "time" and learning.ms() > 0
    untouched = DeadlineMargin(floor_ms=0.0, ceiling_ms=250.0)
    unended = analyze(midgame(), Budget(iterations=50, time_ms=60_000), replace(game_params("puerto-rico"), seed=1),
                      time_margin=untouched)
    assert unended.stopped_by == "iterations"
    assert untouched.ms() == 0.0


def test_cancel_from_another_thread() -> None:
    """The search stops at the stop, long before its budget of a minute (the bound leaves a
    loaded machine room: the cancel, not the clock, is what is tested)."""
    stop = SearchStop()
    threading.Timer(0.2, stop.set).start()
    t0 = time.perf_counter()
    result = analyze(midgame(), Budget(time_ms=60_000, threads=2), replace(game_params("puerto-rico"), seed=1), stop_event=stop)
    elapsed = (time.perf_counter() - t0) * 1e3
    assert result.stopped_by == "cancelled" and elapsed < 20_000 and result.moves


@pytest.mark.parametrize("cap", [2, 50, 777])
def test_node_cap_is_never_exceeded(cap: int) -> None:
    result = analyze(midgame(), Budget(iterations=10**6, max_nodes=cap), replace(game_params("puerto-rico"), seed=1))
    assert result.stopped_by == "nodes" and result.nodes <= cap


def test_native_rejection_reads_like_from_dict() -> None:
    state = midgame()
    state.players[2].doubloons = -1
    with pytest.raises(PositionError, match=r"^players\[2\]\.doubloons: -1 is below 0$"):
        analyze(state, Budget(iterations=10))


def test_terminal_position_has_no_moves() -> None:
    state, rng = new_game(3, 1), Rng(1)
    while not state.is_terminal:
        state = state.apply(state.legal_moves()[0], rng)
    result = analyze(state, Budget(iterations=100))
    assert result.moves == [] and result.stopped_by == "terminal" and result.player is None


SANITIZED = """
import threading
from dataclasses import replace
from meeplemind.search import Budget, SearchStop, analyze, game_params
from tests.search.test_ismcts_puerto_rico import midgame
for players, plies in ((2, 30), (3, 90), (4, 150), (5, 200)):
    state = midgame(players, plies)
    analyze(state, Budget(iterations=1500, threads=2), replace(game_params("puerto-rico"), seed=players))
    analyze(state, Budget(iterations=300, max_nodes=64), replace(game_params("puerto-rico"), seed=1, rollout_policy="random"))
stop = SearchStop()
threading.Timer(0.05, stop.set).start()
analyze(midgame(), Budget(time_ms=5000, threads=2), stop_event=stop)
print("clean")
"""


@pytest.mark.sanitizer
def test_repeated_searches_under_the_sanitizer_build() -> None:
    gcc = shutil.which("gcc")
    runtime = subprocess.run([gcc or "gcc", "-print-file-name=libasan.so"], capture_output=True,
                             text=True).stdout.strip()
    if not os.path.isabs(runtime):
        pytest.skip("the ASan runtime is not installed")
    env = os.environ | {"LD_PRELOAD": runtime, "ASAN_OPTIONS": "detect_leaks=0",
                        "MEEPLEMIND_NATIVE": "asan", "UBSAN_OPTIONS": "print_stacktrace=1"}
    run = subprocess.run([sys.executable, "-c", SANITIZED], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600)
    assert "ERROR: AddressSanitizer" not in run.stderr and "runtime error" not in run.stderr
    assert run.returncode == 0 and "clean" in run.stdout, run.stderr[-3000:]
