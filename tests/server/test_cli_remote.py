"""The command line's ``--server``: the same answers as in-process, over a real channel."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeplemind.cli import main

from .conftest import Running


def test_moves_and_analyze_through_the_server(service: Running, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "puerto-rico", "--players", "3", "--seed", "4"]) == 0
    path = tmp_path / "p.json"
    path.write_text(capsys.readouterr().out)
    assert main(["moves", str(path)]) == 0
    local = capsys.readouterr().out
    assert main(["moves", str(path), "--server", service.address]) == 0
    assert capsys.readouterr().out == local
    assert main(["analyze", str(path), "--iterations", "400", "--seed", "3", "--json",
                 "--server", service.address]) == 0
    remote = json.loads(capsys.readouterr().out)  # the AnalyzeResponse's proto3 JSON
    assert remote["stats"]["iterations"] == "400" and sum(int(m["visits"]) for m in remote["moves"]) == 400
    assert main(["analyze", str(path), "--iterations", "400", "--seed", "3", "--json"]) == 0
    local_analysis = json.loads(capsys.readouterr().out)
    assert [m["move"] for m in local_analysis["moves"]] == [m["move"] for m in remote["moves"]]
    assert set(local_analysis["stats"]) == set(remote["stats"])


def test_server_errors_are_one_line(service: Running, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "puerto-rico", "--players", "3"]) == 0
    position = json.loads(capsys.readouterr().out)
    position["puerto_rico"]["players"][1]["doubloons"] = -4
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(position))
    assert main(["moves", str(path), "--server", service.address]) == 2
    err = capsys.readouterr().err
    assert "INVALID_ARGUMENT" in err and "players[1].doubloons" in err and err.count("\n") == 1
