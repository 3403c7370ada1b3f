"""Bots, the arena (seat rotation, intervals) and the bench report."""

from __future__ import annotations

import pytest

from meeplemind.engine import game_ids, get_game
from meeplemind.engine.puerto_rico import new_game
from meeplemind.native.weights import read_weights_file
from meeplemind.search.arena import run_arena, wilson_interval
from meeplemind.search.bench import run_bench
from meeplemind.search.bots import make_bot, parse_spec
from meeplemind.search.ismcts_bot import v2_tuning


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(0.5, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson_interval(1.0, 60)[1] == 1.0 and wilson_interval(1.0, 60)[0] > 0.93
    assert wilson_interval(0.0, 0) == (0.0, 1.0)


def test_spec_parsing_and_errors() -> None:
    assert parse_spec("ismcts:time_ms=1000,threads=2") == ("ismcts", {"time_ms": "1000", "threads": "2"})
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("oracle")
    with pytest.raises(ValueError, match="unknown parameter 'depth'"):
        make_bot("ismcts:depth=3")
    with pytest.raises(ValueError, match="time_ms='fast' is not an int"):
        make_bot("ismcts:time_ms=fast")
    with pytest.raises(ValueError, match="takes no parameters"):
        make_bot("random:x=1")
    with pytest.raises(ValueError, match="unknown parameter 'exploration'"):
        make_bot("ismcts-v2:exploration=1")  # a kept search plays its own tuning


def test_ismcts_v2_plays_its_frozen_tuning_and_weights_for_every_game() -> None:
    """ismcts-v2 knows every game, each with weights that load and fit its game's evaluation."""
    for game_id in game_ids():
        state = get_game(game_id).new_game(2, 1)
        bot = make_bot("ismcts-v2:iterations=60", seed=2)
        assert bot.choose(state) in state.legal_moves()
        tuning = v2_tuning(game_id)
        if "weights" in tuning:
            assert read_weights_file(tuning["weights"])[0] == game_id
    assert "weights" in v2_tuning("puerto-rico") and "weights" not in v2_tuning("traders-of-genoa")
    with pytest.raises(ValueError, match="no kept search for chess"):
        v2_tuning("chess")


def test_bots_play_legal_moves() -> None:
    state = new_game(3, 4)
    for spec in ("random", "heuristic", "ismcts:iterations=200"):
        bot = make_bot(spec, seed=1)
        assert bot.choose(state) in state.legal_moves()


def test_arena_rotates_seats_and_is_seeded() -> None:
    report = run_arena("puerto-rico", ["heuristic", "random", "random"], games=6, seed=3)
    assert [b["games"] for b in report["bots"]] == [6, 6, 6]
    shares = sum(b["win_share"] for b in report["bots"])
    assert shares == pytest.approx(1.0, abs=1e-3)
    assert report["bots"][0]["win_share"] > 0.5  # heuristic beats random players
    again = run_arena("puerto-rico", ["heuristic", "random", "random"], games=6, seed=3, workers=2)
    assert again == report


def test_arena_errors() -> None:
    with pytest.raises(ValueError, match="games"):
        run_arena("puerto-rico", ["random", "random"], games=0)
    with pytest.raises(ValueError, match="1 bots given"):
        run_arena("puerto-rico", ["random"], games=1)


def test_bench_report_shape() -> None:
    report = run_bench(["puerto-rico"], [3], seconds=0.2)
    engines = [r["engine"] for r in report["results"]]
    assert engines[:2] == ["c", "python"]
    for r in report["results"][:2]:
        assert r["game"] == "puerto-rico" and r["players"] == 3 and r["games_per_s"] > 0
        assert r["decisions_per_game"] > 50
    assert report["ratios"]["c_over_python"] > 10
    ismcts = [r for r in report["results"] if r["engine"] == "ismcts"]
    assert [(r["threads"], r["rollout"]) for r in ismcts] == [(1, "random"), (2, "random"), (1, "heuristic"), (2, "heuristic")]
    assert all(r["iterations_per_s"] > 0 for r in ismcts)
