"""CPU-time budgets (``cpu_ms``): the search thread's own CPU time, so a loaded machine runs
about the same iterations as an idle one."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest

from meeplemind.engine import get_game
from meeplemind.search import analyze
from meeplemind.search.ismcts_bot import IsmctsBot
from meeplemind.search.params import Budget, game_params

pytest.importorskip("meeplemind.native._mm", reason="the native engines are not built")

SPIN = "import os, sys\nos.sched_setaffinity(0, {int(sys.argv[1])})\nwhile True:\n    pass\n"


@contextmanager
def one_core() -> Iterator[int]:
    """This process on one core (restored after), which is yielded."""
    before = os.sched_getaffinity(0)
    core = min(before)
    os.sched_setaffinity(0, {core})
    try:
        yield core
    finally:
        os.sched_setaffinity(0, before)


@contextmanager
def spinning(core: int) -> Iterator[None]:
    """Another process spinning on ``core``."""
    spinner = subprocess.Popen([sys.executable, "-c", SPIN, str(core)])
    try:
        time.sleep(0.1)  # running before the search starts
        yield
    finally:
        spinner.kill()
        spinner.wait()


def test_same_cpu_budget_runs_the_same_iterations_idle_and_loaded() -> None:
    """Searches alone and beside a spinner, interleaved three times: the medians agree
    within 15% (one pair alone can be skewed by what else the machine runs)."""
    state = get_game("puerto-rico").new_game(4, 3)
    alone, shared = [], []
    with one_core() as core:
        for _ in range(3):
            alone.append(analyze(state, Budget(cpu_ms=300), replace(game_params(state.game_id), seed=1)))
            with spinning(core):
                shared.append(analyze(state, Budget(cpu_ms=300), replace(game_params(state.game_id), seed=1)))
    for result in alone + shared:
        assert result.stopped_by == "cpu_time" and result.cpu_ms >= 300
    idle, loaded = (statistics.median(r.iterations for r in runs) for runs in (alone, shared))
    assert 0.85 <= loaded / idle <= 1.15, ([r.iterations for r in alone], [r.iterations for r in shared])


def test_cpu_budget_is_per_thread_and_first_limit_wins() -> None:
    state = get_game("castles-of-burgundy").new_game(2, 1)
    two = analyze(state, Budget(cpu_ms=50, threads=2), replace(game_params(state.game_id), seed=2))
    assert two.stopped_by == "cpu_time" and two.cpu_ms >= 2 * 50
    params = replace(game_params(state.game_id), seed=2)
    assert analyze(state, Budget(iterations=30, cpu_ms=60_000), params).stopped_by == "iterations"
    with pytest.raises(ValueError, match="cpu_ms must be finite and in"):
        analyze(state, Budget(cpu_ms=0))


def test_ismcts_bot_takes_a_cpu_budget() -> None:
    state = get_game("puerto-rico").new_game(3, 1)
    bot = IsmctsBot("ismcts:cpu_ms=20", {"cpu_ms": "20"}, seed=1)
    assert bot.options == {"cpu_ms": 20} and bot.choose(state) in state.legal_moves()
