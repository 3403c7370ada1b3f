"""Strength targets (issue 4), as arena runs: marked slow, run on demand with -m slow.

Each asserts the win share and that the 95% interval clears par.  They take tens of
minutes on this 2-core machine; `meeplemind arena` prints the same tables.
"""

from __future__ import annotations

import pytest

from meeplemind.search.arena import run_arena

pytestmark = pytest.mark.slow
WORKERS = 2


def _share(report: dict, bot: int = 0) -> tuple[float, float]:  # type: ignore[type-arg]
    b = report["bots"][bot]
    return b["win_share"], b["ci95"][0]


def test_ismcts_one_second_beats_two_heuristic_bots() -> None:
    report = run_arena("puerto-rico", ["ismcts:time_ms=1000", "heuristic", "heuristic"], games=60,
                       seed=1, workers=WORKERS)
    share, low = _share(report)
    assert share >= 0.60 and low > 1 / 3


def test_ismcts_one_second_beats_two_random_bots() -> None:
    report = run_arena("puerto-rico", ["ismcts:time_ms=1000", "random", "random"], games=60, seed=1,
                       workers=WORKERS)
    assert _share(report)[0] >= 0.98


def test_more_iterations_win_two_player_games() -> None:
    report = run_arena("puerto-rico", ["ismcts:iterations=4000", "ismcts:iterations=500"], games=100,
                       seed=1, workers=WORKERS)
    share, low = _share(report)
    assert share >= 0.65 and low > 0.5


def test_heuristic_rollouts_beat_uniform_rollouts_at_equal_time() -> None:
    report = run_arena("puerto-rico", ["ismcts:time_ms=300,rollout_policy=heuristic",
                                       "ismcts:time_ms=300,rollout_policy=random"], games=60, seed=1,
                       workers=WORKERS)
    share, low = _share(report)
    assert share > 0.5 and low > 0.4
