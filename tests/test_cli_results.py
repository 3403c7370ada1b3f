"""The command line on finished games (their result, exit 0), forced positions and CPU budgets."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from meeplemind.cli import main
from meeplemind.engine import Rng, get_game
from meeplemind.positions.messages import dumps, to_position


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def last_position(tmp_path: Path) -> tuple[Path, str, object]:
    """A 3-player game's last position before the end (a file), its last move and the end."""
    state, pick = get_game("puerto-rico").new_game(3, 4), random.Random(4)
    while True:
        move = pick.choice(state.legal_moves())
        after = state.play(move, 0)
        if after.is_terminal:
            path = tmp_path / "last.json"
            path.write_text(dumps(to_position(state)))
            return path, str(move), after
        state = after


def test_a_finished_game_is_reported_with_its_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before, move, over = last_position(tmp_path)
    code, out, err = run(capsys, "apply", str(before), move, "--seed", "0")
    assert code == 0 and json.loads(out)["puerto_rico"]["phase"] == "end"
    winner = over.winners()[0]
    assert err.startswith(f"game over: Seat {winner + 1} wins") and f"place {over.ranks()[0]}" in err.splitlines()[1]
    finished = tmp_path / "over.json"
    finished.write_text(out)
    code, out, moves_err = run(capsys, "moves", str(finished))
    assert code == 0 and out == err and moves_err == "meeplemind moves: no player to move: the game is over\n"
    code, out, _ = run(capsys, "analyze", str(finished))
    assert code == 0 and out == err
    code, out, _ = run(capsys, "analyze", str(finished), "--json")
    report = json.loads(out)
    assert code == 0 and (report["stats"]["stop_reason"], report["moves"]) == ("STOP_REASON_TERMINAL", [])
    assert "player" not in report["stats"]
    assert report["result"] == {"scores": over.scores(), "tiebreaks": over.tiebreaks(),
                                "winners": over.winners(), "ranks": over.ranks()}


@pytest.mark.parametrize(("game_id", "unit"), [("puerto-rico", "VP"), ("traders-of-genoa", "ducats")])
def test_scores_are_printed_in_the_game_s_unit(game_id: str, unit: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    state, rng, pick = get_game(game_id).new_game(3, 5), Rng(5), random.Random(5)
    while not state.is_terminal:
        state = state.apply(pick.choice(state.legal_moves()), rng)
    path = tmp_path / "over.json"
    path.write_text(dumps(to_position(state)))
    code, out, _ = run(capsys, "moves", str(path))
    seats = out.splitlines()[1:]
    assert code == 0 and len(seats) == 3
    assert all(f"{score:3d} {unit}  tie-break" in line for score, line in zip(state.scores(), seats))
    code, out, _ = run(capsys, "selfplay", game_id, "--players", "2", "--seed", "1", "--bot", "random")
    assert code == 0 and out.count(f" {unit}  (tie-break") == 2


def test_a_forced_position_lists_and_analyses_its_one_move(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    state, rng, pick = get_game("castles-of-burgundy").new_game(2, 3), Rng(3), random.Random(3)
    while len(state.legal_moves()) != 1:
        state = state.apply(pick.choice(state.legal_moves()), rng, play_forced=False)
    path = tmp_path / "forced.json"
    path.write_text(dumps(to_position(state)))
    (only,) = state.legal_moves()
    code, out, _ = run(capsys, "moves", str(path))
    assert (code, out) == (0, f"{only}\n")
    code, out, _ = run(capsys, "analyze", str(path), "--iterations", "40", "--json")
    report = json.loads(out)
    assert code == 0 and [(m["move"], int(m["visits"])) for m in report["moves"]] == [(str(only), 0)]
    assert report["stats"]["stop_reason"] == "STOP_REASON_SINGLE_MOVE"
    assert "result" not in report


def test_analyze_with_a_cpu_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.json"
    path.write_text(dumps(to_position(get_game("puerto-rico").new_game(3, 2))))
    code, out, _ = run(capsys, "analyze", str(path), "--cpu-ms", "40", "--json")
    report = json.loads(out)
    assert code == 0 and report["stats"]["stop_reason"] == "STOP_REASON_CPU_TIME"
    assert report["stats"]["cpu_ms"] >= 40
    code, _, err = run(capsys, "analyze", str(path), "--cpu-ms", "0")
    assert code == 2 and "cpu_ms" in err
