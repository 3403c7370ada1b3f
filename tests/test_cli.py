"""The command line: new, moves, apply, selfplay, arena and their errors (exit 2, one line)."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from meeplemind.cli import main
from meeplemind.engine.seats import line_of_play

from .game_records import BEFORE, BLUNDER, planted_blunder, record_json


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_new_moves_apply_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "new", "puerto-rico", "--players", "4", "--seed", "7")
    assert code == 0
    position = json.loads(out)
    assert position["game"] == "puerto-rico" and len(position["puerto_rico"]["players"]) == 4
    path = tmp_path / "pos.json"
    path.write_text(out)
    code, out, _ = run(capsys, "moves", str(path))
    moves = out.split()
    assert code == 0 and "role:settler" in moves and len(moves) == 7
    code, out, _ = run(capsys, "apply", str(path), "role:prospector")
    after = json.loads(out)
    assert code == 0 and after["puerto_rico"]["picks"] == 1
    path.write_text(out)
    code, out2, _ = run(capsys, "apply", str(path), "role:builder", "pass")
    assert code == 0 and json.loads(out2)["puerto_rico"]["current_player"] != after["puerto_rico"]["current_player"]


@pytest.mark.parametrize("content,needle", [
    ("not json", "not JSON"),
    ('{"game": "chess", "chess": {}}', "unknown game 'chess'"),
    ('{"game": "puerto-rico"}', "puerto_rico: missing"),
])
def test_bad_files_give_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            content: str, needle: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, out, err = run(capsys, "moves", str(path))
    assert code == 2 and out == "" and needle in err and err.count("\n") == 1


def test_field_path_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "new", "puerto-rico", "--players", "3")
    position = json.loads(out)
    position["puerto_rico"]["players"][2]["doubloons"] = -1
    path = tmp_path / "p.json"
    path.write_text(json.dumps(position))
    code, _, err = run(capsys, "moves", str(path))
    assert code == 2 and "puerto_rico.players[2].doubloons: -1 is below 0" in err
    position["puerto_rico"]["players"][2]["doubloons"] = 5
    position["puerto_rico"]["players"][0]["goods"]["corn"] = 1  # not taken from the supply
    path.write_text(json.dumps(position))
    code, _, err = run(capsys, "moves", str(path))
    assert code == 2 and "puerto_rico.goods_supply.corn: 11 corn barrels in play, the game has 10" in err
    position["puerto_rico"]["goods_supply"]["corn"] = 8
    position["puerto_rico"]["ships"][0].update(good="corn", count=1)
    position["puerto_rico"]["ships"][1].update(good="corn", count=1)
    path.write_text(json.dumps(position))
    code, _, err = run(capsys, "moves", str(path))
    assert code == 2 and "puerto_rico.ships[1].good: carries corn, already carried by ships[0]" in err


def test_bad_and_illegal_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "new", "puerto-rico", "--players", "3")
    path = tmp_path / "p.json"
    path.write_text(out)
    code, _, err = run(capsys, "apply", str(path), "fly:away")
    assert code == 2 and "unknown verb 'fly'" in err
    code, _, err = run(capsys, "apply", str(path), "build:harbor")
    assert code == 2 and "not legal here" in err
    code, _, err = run(capsys, "moves", str(tmp_path / "missing.json"))
    assert code == 2 and "No such file" in err


def test_selfplay_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "selfplay", "puerto-rico", "--players", "3", "--bot", "random",
                       "--seed", "1", "--json")
    result = json.loads(out)
    assert code == 0 and len(result["scores"]) == 3 and len(result["moves"]) > 50
    assert result["start"]["game"] == "puerto-rico" and set(result["moves"][0]) == {"move", "seed"}
    assert result["winner"] and all(0 <= w < 3 for w in result["winner"])
    code2, out2, _ = run(capsys, "selfplay", "puerto-rico", "--players", "3", "--bot", "random",
                         "--seed", "1", "--json")
    assert out2 == out  # seeded: identical


def test_selfplay_log_and_scoreboard(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "selfplay", "puerto-rico", "--players", "2", "--bot", "heuristic",
                       "--bot", "random", "--seed", "3")
    assert code == 0 and "Seat 1" in out and "final scores after" in out and "winner" in out


def test_bad_bot_spec(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "selfplay", "puerto-rico", "--bot", "genius")
    assert code == 2 and "unknown bot 'genius'" in err


def test_console_script_entry_point() -> None:
    proc = subprocess.run([sys.executable, "-m", "meeplemind", "new", "puerto-rico", "--players", "5"],
                          capture_output=True, text=True, check=True)
    assert json.loads(proc.stdout)["viewer"] >= 0


def test_corpus_covers_every_stage_and_player_count(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "corpus.jsonl"
    code, text, _ = run(capsys, "corpus", "--out", str(out), "--per-stage", "1")
    entries = [json.loads(line) for line in out.read_text().splitlines()]
    assert code == 0 and f"wrote {len(entries)} positions" in text
    from meeplemind.engine import game_ids, get_game

    assert {(e["game"], str(e["options"]), e["players"], e["stage"]) for e in entries} == {
        (g, str(options), n, s) for g in game_ids() for options in get_game(g).VARIANTS
        for n in get_game(g).PLAYER_COUNTS for s in ("early", "mid", "late")}
    from meeplemind.positions.messages import read_position

    for e in entries:
        state = read_position(e["position"]).state()
        assert not state.is_terminal and state.num_players == e["players"]
    code, _, err = run(capsys, "corpus", "--out", str(tmp_path / "no" / "x.jsonl"))
    assert code == 2 and "No such file" in err


def test_analyze_json_is_the_proto_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "new", "puerto-rico", "--players", "3", "--seed", "2")
    path = tmp_path / "p.json"
    path.write_text(out)
    code, out, _ = run(capsys, "analyze", str(path), "--iterations", "300", "--seed", "1", "--json")
    from google.protobuf import json_format

    from meeplemind.v1 import analysis_pb2

    response = json_format.Parse(out, analysis_pb2.AnalyzeResponse())
    report = json.loads(out)
    assert code == 0 and report["stats"]["stop_reason"] == "STOP_REASON_ITERATIONS"
    assert response.stats.iterations == 300 and response.stats.HasField("player")
    assert "root_value" in report["stats"] and all("action" in m for m in report["moves"])
    assert sum(m.visits for m in response.moves) == 300
    assert all(m.pv[0] == m.move and len(m.expected_scores) == 3 for m in response.moves)
    code, _, err = run(capsys, "analyze", str(path), "--iterations", "0")
    assert code == 2 and "iterations" in err


def test_analyze_table_labels_seats_and_shows_the_whole_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _, out, _ = run(capsys, "new", "castles-of-burgundy", "--players", "2", "--seed", "2")
    monkeypatch.setattr(sys, "stdin", io.StringIO(out))
    code, table, _ = run(capsys, "analyze", "-", "--iterations", "200", "--seed", "1", "--max-moves", "3")
    lines = table.splitlines()
    mover = re.match(r"Seat ([12]) to move: 200 iterations in ", lines[0])
    assert code == 0 and mover
    assert lines[1].split()[:5] == ["move", "visits", "win", "E[S1]", "E[S2]"]
    for line in lines[2:]:
        move, *_, tag, first = line.split()[:7]
        assert (tag, first) == (f"S{mover.group(1)}", move)  # the line of play: the mover, the move


def test_a_line_of_play_names_each_run_of_moves_by_its_seat() -> None:
    assert line_of_play(["a", "b", "c", "d"], [0, 0, 2, 0], 3) == "S1 a b · S3 c · S1 d"
    assert line_of_play(["a", "b"], [0, 0], 2) == "S1 a b"
    assert line_of_play(["a", "b"], [0, 0], 1) == "a b"  # one player: nobody to tell apart
    assert line_of_play(["a", "b"], [], 2) == "a b"  # no seats known (an older server)


def test_review_seats_are_numbered_from_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_json(*planted_blunder())))
    code, _, err = run(capsys, "review", str(path), "--iterations", "10", "--seat", "0")
    assert code == 2 and "--seat 0: seats are numbered from 1" in err


def test_a_review_marks_the_planted_blunder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The table marks the move played with ``MoveReview.mark``'s symbol: the planted pass lost
    more than its stake."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_json(*planted_blunder())))
    code, out, _ = run(capsys, "review", str(path), "--iterations", "1500", "--seed", "11", "--seat", "1")
    rows = [line.split() for line in out.splitlines() if line.split()[:1] == [str(BEFORE + 1)]]
    assert code == 0 and rows and all(row[2] in (BLUNDER + "?", BLUNDER + "??") for row in rows)


def test_ctrl_c_keeps_the_best_moves_so_far(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "new", "puerto-rico", "--players", "3", "--seed", "2")
    path = tmp_path / "p.json"
    path.write_text(out)
    default = signal.getsignal(signal.SIGINT)

    def interrupt_once_searching() -> None:
        while signal.getsignal(signal.SIGINT) is default:
            time.sleep(0.01)
        time.sleep(0.2)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt_once_searching, daemon=True).start()
    code, out, err = run(capsys, "analyze", str(path), "--time-ms", "600000", "--json")
    report = json.loads(out)
    assert code == 0 and report["stats"]["stop_reason"] == "STOP_REASON_CANCELLED"
    assert int(report["stats"]["iterations"]) > 0 and report["moves"]
    assert err.startswith("meeplemind analyze: interrupted: the best moves after ")
    assert signal.getsignal(signal.SIGINT) is default


def test_version_and_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out == f"meeplemind {version('meeplemind')}\n"
    with pytest.raises(SystemExit) as exit_:
        main(["new", "puerto-rico", "--players", "four"])
    assert exit_.value.code == 2 and "argument --players: 'four' is not an int" in capsys.readouterr().err
    from meeplemind.engine import Rng, get_game
    from meeplemind.positions.messages import dumps, to_position

    state, rng = get_game("puerto-rico").new_game(2, 1), Rng(1)
    while not state.is_terminal:
        legal = state.legal_moves()
        state = state.apply(legal[rng.below(len(legal))], rng)
    path = tmp_path / "over.json"
    path.write_text(dumps(to_position(state)))
    code, out, err = run(capsys, "moves", str(path))
    assert (code, err) == (0, "meeplemind moves: no player to move: the game is over\n")
    assert out.startswith(f"game over: Seat {state.winners()[0] + 1} wins")
    code, _, err = run(capsys, "apply", str(path), "pass")
    assert code == 2 and err == "meeplemind apply: error: move pass: no player to move: the game is over\n"


def test_arena_labels_seats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "arena", "puerto-rico", "--bot", "random", "--players", "3", "--games", "3")
    lines = out.splitlines()
    assert code == 0 and lines[1].split()[:2] == ["seat", "bot"]
    assert [line.split()[:2] for line in lines[2:]] == [["S1", "random"], ["S2", "random"], ["S3", "random"]]


def test_review_of_a_selfplay_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "selfplay", "castles-of-burgundy", "--players", "2", "--bot", "heuristic",
                       "--seed", "4", "--json")
    game = json.loads(out)
    game["moves"] = game["moves"][:12]  # a record may stop anywhere
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    code, out, _ = run(capsys, "review", str(path), "--iterations", "150", "--seed", "2", "--seat", "2",
                       "--plot", str(tmp_path / "review.svg"))
    assert code == 0 and "moves reviewed" in out and "accuracy" in out
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["#", "seat", "played", "best"]
    best = lines[0].index("best")
    moves = [line for line in lines[1:lines.index("")] if not line.startswith("refining:")]  # then refined ones
    assert moves and all(line[best - 1] == " " != line[best] for line in moves)  # columns under the header's
    assert len({line.index("/") for line in moves}) == 1  # the visits column, after a long move too
    assert {line.split()[1] for line in moves} == {"S2"}
    assert any(line.startswith("Seat 2 ") for line in lines)
    assert (tmp_path / "review.svg").read_text().lstrip().startswith("<?xml")
    code, out, _ = run(capsys, "review", str(path), "--iterations", "150", "--seed", "2", "--seat", "2", "--json")
    review = json.loads(out)
    assert code == 0 and {m["player"] for m in review["moves"]} == {1}
    assert [p["player"] for p in review["summary"]["players"]] == [1]
    assert review["summary"]["moves_reviewed"] == len(review["moves"]) > 0
    code, again, _ = run(capsys, "review", str(path), "--iterations", "150", "--seed", "2", "--seat", "2", "--json")
    strip = lambda r: [{**m, "stats": {**m["stats"], "elapsed_ms": 0, "cpu_ms": 0}} for m in r["moves"]]  # noqa: E731
    assert strip(json.loads(again)) == strip(review)


def test_review_plot_checks_matplotlib_before_it_starts(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, "selfplay", "puerto-rico", "--players", "2", "--seed", "1", "--json")
    path = tmp_path / "game.json"
    path.write_text(out)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # not installed
    code, out, err = run(capsys, "review", str(path), "--plot", str(tmp_path / "r.svg"))
    assert code == 2 and out == "" and "--plot needs matplotlib" in err


@pytest.mark.parametrize("content,needle", [
    ('{"moves": []}', "start: missing"),
    ('{"start": {"game": "puerto-rico"}, "moves": [{"move": "x", "dice": 3}]}', "game record: "),
    ('[1]', "expected a JSON object"),
])
def test_review_of_a_bad_record_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str,
                                            needle: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, _, err = run(capsys, "review", str(path))
    assert code == 2 and needle in err and err.count("\n") == 1


def test_review_of_an_illegal_move_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "new", "puerto-rico", "--players", "3")
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"start": json.loads(out), "moves": [{"move": "role:mayor"}, {"move": "role:mayor"}]}))
    code, _, err = run(capsys, "review", str(path), "--iterations", "20")
    assert code == 2 and "game.moves[1].move: move role:mayor: not legal" in err


def test_ctrl_c_ends_a_review_without_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import signal

    code, out, _ = run(capsys, "selfplay", "puerto-rico", "--players", "2", "--bot", "random", "--seed", "3",
                       "--json")
    path = tmp_path / "game.json"
    path.write_text(out)
    review = subprocess.Popen([sys.executable, "-m", "meeplemind", "review", str(path), "--iterations", "2000"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert review.stdout is not None
    review.stdout.readline()  # the table's header
    review.stdout.readline()  # its first move
    review.send_signal(signal.SIGINT)
    _, err = review.communicate(timeout=120)
    assert review.returncode == 130 and "meeplemind review: interrupted after" in err and "Traceback" not in err


def test_bench_signature_prints_each_setup_then_the_number(capsys: pytest.CaptureFixture[str]) -> None:
    from meeplemind.search.bench import signature_report

    number, setups = signature_report()
    code, out, _ = run(capsys, "bench", "--signature")
    assert code == 0 and out.splitlines() == [*(s.line() for s in setups), str(number)]
    assert any(line.startswith("traders-of-genoa ") for line in out.splitlines())


def test_bench_overshoot_prints_percentiles_per_budget(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "--overshoot", "--game", "castles-of-burgundy", "--time-ms", "20",
                       "--time-ms", "40", "--samples", "3", "--json")
    report = json.loads(out)
    assert code == 0 and report["game"] == "castles-of-burgundy" and report["server"] is None
    assert [row["time_ms"] for row in report["overshoot"]] == [20, 40] and report["machine"]["cores"] >= 1
    for row in report["overshoot"]:
        assert row["samples"] == 3 and list(row["wall_ms"]) == ["p50", "p90", "p95", "max"]
        wall, budget = row["wall_ms"]["max"], row["time_ms"]
        assert wall > 0 and row["overshoot_pct"]["max"] == pytest.approx((wall - budget) / budget * 100, abs=0.6)
    code, _, err = run(capsys, "bench", "--overshoot", "--samples", "0")
    assert code == 2 and err == "meeplemind bench: error: --samples 0: must be at least 1\n"


def test_a_traders_of_genoa_record_replays_exactly_and_reviews(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from meeplemind.engine import Rng
    from meeplemind.positions.messages import read_position
    from meeplemind.search.review import PlayedMove, replay

    code, out, _ = run(capsys, "selfplay", "traders-of-genoa", "--players", "3", "--bot", "heuristic",
                       "--seed", "3", "--json")
    game = json.loads(out)
    start = read_position(game["start"]).state()
    assert start.hides_nothing  # the record's start is the truth: every hand
    turns = replay(start, [PlayedMove(m["move"], int(m["seed"])) for m in game["moves"]])
    last = turns[-1]
    end = last.state.apply(last.move, Rng(int(game["moves"][-1]["seed"])))
    assert end.is_terminal and end.scores() == game["scores"]  # the replay is the game played
    game["moves"] = game["moves"][:30]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    code, out, _ = run(capsys, "review", str(path), "--iterations", "80", "--seed", "2", "--json")
    review = json.loads(out)
    assert code == 0 and review["summary"]["moves_reviewed"] == len(review["moves"]) > 0
    assert {m["player"] for m in review["moves"]} == {0, 1, 2}


def test_observe_prints_what_the_viewer_sees(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "new", "traders-of-genoa", "--players", "3", "--seed", "2")
    truth = json.loads(out)
    path = tmp_path / "truth.json"
    path.write_text(out)
    code, out, _ = run(capsys, "observe", str(path), "--seat", "2")
    seen = json.loads(out)
    assert code == 0 and seen["viewer"] == 1
    cards = seen["traders_of_genoa"]["cards"]
    assert set(cards.values()) == {"1"}  # unseen cards are left out of the map
    assert {"0", "2", "pile"} <= set(truth["traders_of_genoa"]["cards"].values())
    assert {c for c, where in cards.items() if where == "1"} == {
        c for c, where in truth["traders_of_genoa"]["cards"].items() if where == "1"}
    code, _, err = run(capsys, "observe", str(path), "--seat", "4")
    assert code == 2 and "--seat: 4 is not a seat" in err
