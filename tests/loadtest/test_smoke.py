"""The CI smoke load: a short locust run (master and two worker processes) against a real
two-worker server, no errors, and locust's CSV agreeing with the summary."""

from __future__ import annotations

import csv
from pathlib import Path

from loadtest.run import Options, format_summary, run_once

TASK_RPCS = {"Analysis/Analyze[200]", "Analysis/Analyze[1000]", "Analysis/BestMove",
             "Rules/LegalMoves", "Rules/ApplyMove"}


def test_smoke_load_has_no_errors(tmp_path: Path) -> None:
    summary = run_once(Options(users=4, spawn_rate=4, duration="10s", processes=2, probe_calls=20,
                               results=tmp_path), workers=2)
    report = format_summary(summary)
    assert summary["total"]["failures"] == 0, report
    assert summary["exceptions"] == [] and summary["locust_exit_code"] == 0, report
    served = {rpc["name"]: rpc["requests"] for rpc in summary["rpcs"]}
    assert set(served) == TASK_RPCS and all(served.values()), report
    assert summary["server"]["iterations"] > 0, report
    assert sum(summary["server"]["calls_by_worker"]) >= summary["total"]["requests"], report
    with (Path(summary["results"]) / "locust_stats.csv").open(newline="") as f:
        counted = {row["Name"]: int(row["Request Count"]) for row in csv.DictReader(f)}
    assert counted == {**served, "Aggregated": summary["total"]["requests"]}, report
    assert summary["total"]["requests"] == sum(served.values())
    assert summary["processes"] == 2 and "4 users in 2 locust process(es)" in report
