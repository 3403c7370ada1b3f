"""The bench: its plan and warnings, and the pinned signature of rules and search."""

from __future__ import annotations

import pytest

from meeplemind.search import bench
from meeplemind.search.bench import load_warning, plan, run_bench, signature

#: ``meeplemind bench --signature``. It changes whenever the rules (Python or C) or the
#: search behave differently: a deliberate change quotes the new value here.
PINNED_SIGNATURE = 200772389290214  # issue 21: PUCT over move priors, the learned evaluation, soft rewards, 40 playout moves


def test_signature_is_pinned() -> None:
    assert signature() == PINNED_SIGNATURE, (
        "the rules or the search behave differently: if that is intended, pin the new value")


def test_signature_sees_a_change_of_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "SIGNATURE_ITERATIONS", bench.SIGNATURE_ITERATIONS + 1)
    assert signature() != PINNED_SIGNATURE


def test_signature_sees_a_change_of_games() -> None:
    assert signature(seed=bench.BENCH_SEED + 1) != PINNED_SIGNATURE


def test_plan_says_how_long_and_load_warns() -> None:
    measurements = plan(["puerto-rico"], [2, 4], seconds=1.5, threads=[2])
    assert len(measurements) == 2 * (2 + 4)  # per player count: C, Python, 2 rollouts x {1, 2} threads
    assert load_warning(0.9, 2) is None
    assert "load average 1.10 on 2 cores" in (load_warning(1.1, 2) or "")


def test_run_bench_tells_up_front(monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    monkeypatch.setattr(bench.os, "getloadavg", lambda: (7.5, 7.0, 6.0))
    report = run_bench(["castles-of-burgundy"], [2], seconds=0.05, threads=[2], say=said.append)
    assert said[0] == "bench: 6 measurements of 0.05 s, about 0 s"
    assert said[1].startswith("bench: warning: load average 7.50 on ")
    assert report["machine"]["load_average_before"] == 7.5 and report["machine"]["load_warning"]
    assert set(report["ratios"]) == {"c_over_python", "c_over_python:castles-of-burgundy:2",
                                     "ismcts_threads_2_over_1:castles-of-burgundy:2:random",
                                     "ismcts_threads_2_over_1:castles-of-burgundy:2:heuristic"}
