"""The command line's ``--server``: the same answers as in-process, over a real channel."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeplemind.cli import main
from meeplemind.server.app import create_server

from ..game_records import planted_blunder, record_json
from .conftest import Running, make_certificate


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


def test_bench_overshoot_of_the_server(service: Running, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--overshoot", "--server", service.address, "--time-ms", "30", "--samples", "2",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["server"] == service.address and report["overshoot"][0]["samples"] == 2
    assert report["overshoot"][0]["wall_ms"]["p50"] > 0


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


def test_review_through_the_server_matches_the_local_one(service: Running, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_json(*planted_blunder())))
    args = ["review", str(path), "--iterations", "200", "--seed", "6", "--seat", "1", "--json"]
    assert main(args) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*args, "--server", service.address]) == 0
    remote = json.loads(capsys.readouterr().out)

    def moves(review: dict) -> list:
        return [(m["index"], m["played"], m["best"], m.get("win_rate_loss")) for m in review["moves"]]

    def summary(review: dict) -> list:
        return [(p["player"], p["accuracy"], [m["index"] for m in p["mistakes"]]) for p in review["summary"]["players"]]

    assert moves(remote) == moves(local) and summary(remote) == summary(local)
    assert main(["review", str(path), "--iterations", "100", "--server", service.address]) == 0
    assert "moves reviewed" in capsys.readouterr().out


def test_tls_and_token_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    server, port = create_server("127.0.0.1:0", tls=make_certificate(tmp_path), auth_token="t0ken")
    server.start()
    try:
        assert main(["new", "puerto-rico", "--players", "3"]) == 0
        path = tmp_path / "p.json"
        path.write_text(capsys.readouterr().out)
        remote = ["--server", f"localhost:{port}", "--tls", str(tmp_path / "cert.pem")]
        assert main(["moves", str(path), *remote, "--token", "t0ken"]) == 0
        assert "role:settler" in capsys.readouterr().out.split()
        assert main(["analyze", str(path), "--iterations", "50", *remote, "--token", "t0ken"]) == 0
        assert "50 iterations" in capsys.readouterr().out
        assert main(["moves", str(path), *remote, "--token", "wrong"]) == 2
        err = capsys.readouterr().err
        assert f"localhost:{port}: UNAUTHENTICATED" in err and err.count("\n") == 1
    finally:
        server.stop(None).wait()
