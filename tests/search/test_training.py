"""``meeplemind train`` (search/training.py): weights loaded at run time, self-play records,
the fits, the gate and the run directory; the game runner (workers, Ray) behind it."""

from __future__ import annotations

import json
import math
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from meeplemind.cli import main
from meeplemind.engine import get_game
from meeplemind.native import load, weights
from meeplemind.native.weights import game_weights, loaded_model
from meeplemind.search import NativeHandle, analyze
from meeplemind.search import training
from meeplemind.search.params import Budget, game_params
from meeplemind.search.arena import run_arena
from meeplemind.search.game_runner import run_jobs, start_ray
from meeplemind.search.training import (TrainConfig, fit_prior_exponent, prior_cross_entropy, selfplay_game,
                                        train, value_samples)

GAME = "puerto-rico"


def _weights_file(path: Path, model: dict[str, Any], game: str = GAME) -> str:
    path.write_text(json.dumps({"game": game, "model": model}))
    return str(path)


def _visits(weights: str | None, **options: Any) -> list[tuple[int, int]]:
    state = get_game(GAME).new_game(2, seed=4)
    params = replace(game_params(GAME), seed=9, weights=weights, **options)
    result = analyze(state, Budget(iterations=400), params)
    return [(m.action, m.visits) for m in result.moves]


def test_a_weights_file_plays_as_the_compiled_weights_and_others_differ(tmp_path: Path) -> None:
    """The same weights loaded at run time give the compiled search bit for bit; another
    value network or prior exponent changes the search (so the run-time model is read)."""
    model = game_weights(GAME)
    assert _visits(_weights_file(tmp_path / "same.json", model)) == _visits(None)
    flat = model | {"w2": [0.0] * len(model["w2"])}
    assert _visits(_weights_file(tmp_path / "flat.json", flat)) != _visits(None)
    sharp = model | {"prior_exponent": 3.0}
    assert _visits(_weights_file(tmp_path / "sharp.json", sharp)) != _visits(None)


def test_bad_weights_are_refused_naming_what(tmp_path: Path) -> None:
    model = game_weights(GAME)
    with pytest.raises(ValueError, match="hidden is 16"):
        _visits(_weights_file(tmp_path / "a.json", model | {"hidden": 16}))
    with pytest.raises(ValueError, match="b1 has a value that is not finite"):
        _visits(_weights_file(tmp_path / "b.json", model | {"b1": [float("nan")] * len(model["b1"])}))
    with pytest.raises(ValueError, match="holds castles-of-burgundy's weights"):
        _visits(_weights_file(tmp_path / "c.json", model, "castles-of-burgundy"))
    with pytest.raises(ValueError, match="is not a weights file"):
        _visits(str(tmp_path / "missing.json"))
    # the C side checks the shape too: a model of another game's feature count does not fit
    ffi, lib = load()
    other = game_weights("castles-of-burgundy")
    with pytest.raises(ValueError, match="does not fit"):
        loaded_model(ffi, lib, NativeHandle.load(GAME).game, other, "other")


def test_prior_exponent_fit_recovers_a_known_exponent() -> None:
    rng = np.random.default_rng(1)
    legal = rng.integers(2, 8, size=300)
    prior = np.concatenate([rng.dirichlet(np.ones(n)) for n in legal])
    starts = np.concatenate(([0], np.cumsum(legal)[:-1]))
    sharp = prior ** 2.5
    target = sharp / np.repeat(np.add.reduceat(sharp, starts), legal)
    visits = np.round(target * 10_000)
    assert fit_prior_exponent(prior, visits, legal) == pytest.approx(2.5, abs=0.05)
    assert prior_cross_entropy(2.5, prior, visits, legal) < prior_cross_entropy(1.0, prior, visits, legal)


def _job(seed: int, players: int = 2) -> tuple[Any, ...]:
    return (GAME, players, seed, None, 8, 6, {})


def test_selfplay_records_visits_and_outcome_and_repeats_with_workers() -> None:
    one = list(run_jobs(selfplay_game, [_job(1), _job(2)]))
    two = list(run_jobs(selfplay_game, [_job(1), _job(2)], workers=2))
    for a, b in zip(one, two):
        assert {k: v.tolist() for k, v in a.items() if k != "cpu_s"} == {k: v.tolist() for k, v in b.items() if k != "cpu_s"}
    game = one[0]
    decisions = len(game["rounds"])
    assert game["x"].shape[:2] == (decisions, 2) and game["now"].shape == (decisions, 2)
    assert game["legal"].min() >= 2 and len(game["visits"]) == game["legal"].sum() == len(game["prior"])
    starts = np.concatenate(([0], np.cumsum(game["legal"])[:-1]))
    assert (np.add.reduceat(game["visits"], starts) == 8).all()  # every iteration visits one root move
    assert game["share"].sum() == pytest.approx(1.0)
    rows = value_samples(one, 5)
    assert len(rows["x"]) == 2 * sum(len(g["rounds"]) for g in one)
    assert rows["held"][:2 * decisions].all() and not rows["held"][2 * decisions:].any()  # game 0 is held out


def test_arena_gives_the_same_games_with_workers() -> None:
    specs = ["ismcts:iterations=20", "ismcts:iterations=20,prior_weight=0"]
    assert run_arena(GAME, specs, 4, seed=5) == run_arena(GAME, specs, 4, seed=5, workers=2)


def test_missing_ray_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ValueError, match=r"pip install 'meeplemind\[cluster\]'"):
        start_ray("local")
    assert main(["arena", GAME, "--bot", "random", "--bot", "random", "--games", "2", "--ray", "local",
                 "--quiet"]) == 2


TINY = dict(games=5, iterations=8, gate_games=2, explore_moves=6)


def test_a_tiny_training_run_records_resumes_and_refuses_other_settings(tmp_path: Path, capsys: Any,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    run, record = tmp_path / "run", tmp_path / "record"
    args = ["train", GAME, "--games", "5", "--iterations", "8", "--gate-games", "2", "--explore-moves", "6",
            "--run", str(run), "--record", str(record), "--quiet"]
    monkeypatch.setattr(training, "GATE_FACTOR", 0.0)  # keep whatever the candidate scores
    assert main(args) == 0
    assert "round 1: generation 1 vs 0" in capsys.readouterr().out
    state = json.loads((run / "state.json").read_text())
    (round_,) = state["rounds"]
    assert state["best"] == 1 and round_["kept"] and round_["selfplay_games"] == 5
    assert round_["match"]["games"] == 2 and 0 < round_["prior_exponent"]
    model = json.loads((run / "gen-001.json").read_text())["model"]
    assert len(model["w1"]) == len(game_weights(GAME)["w1"])
    recorded = json.loads((record / "generations.json").read_text())
    assert [g["weights"] for g in recorded["kept"]] == ["gen-000.json", "gen-001.json"]
    assert json.loads((record / "gen-000.json").read_text())["model"] == game_weights(GAME)
    assert (record / "gen-001.json").exists()
    assert recorded["rounds"][0]["command"] == ("meeplemind train puerto-rico --generations 1 --players 2 --games 5 "
                                                "--iterations 8 --gate-games 2 --explore-moves 6 --window 2 --seed 1")

    # resumed: round 1 is not played again, round 2 is played by generation 1
    monkeypatch.setattr(training, "GATE_FACTOR", 1.1)
    played: list[int] = []
    original = training.selfplay_game

    def counted(job: tuple[Any, ...]) -> dict[str, np.ndarray]:
        played.append(job[2])
        assert job[3].endswith("gen-001.json")
        return original(job)

    monkeypatch.setattr(training, "selfplay_game", counted)
    state = train(TrainConfig(GAME, **TINY), run, 2)
    assert len(played) == 5 and len(state["rounds"]) == 2 and state["rounds"][1]["against"] == 1
    assert train(TrainConfig(GAME, **TINY), run, 2) == state and len(played) == 5
    with pytest.raises(ValueError, match="was started with"):
        train(TrainConfig(GAME, **TINY | {"games": 6}), run, 3)


def test_training_settings_are_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="gate_games: 3 must be a multiple of players"):
        train(TrainConfig(GAME, **TINY | {"gate_games": 3}), tmp_path / "a", 1)
    monkeypatch.setattr(weights, "weights_file", lambda game: tmp_path / "no-evaluation.json")  # every game has one
    with pytest.raises(ValueError, match="no learned evaluation"):
        train(TrainConfig(GAME, **TINY), tmp_path / "b", 1)



def test_a_record_of_rounds_from_other_generation_0_weights_is_refused(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A record whose generation 0 is not the compiled-in weights (they changed since its
    rounds) is refused before a game is played."""
    record = tmp_path / "record"
    record.mkdir()
    old = game_weights(GAME) | {"b2": game_weights(GAME)["b2"] + 1.0}
    (record / "gen-000.json").write_text(json.dumps({"game": GAME, "generation": 0, "model": old}))
    (record / "generations.json").write_text(json.dumps({"game": GAME, "kept": [], "rounds": []}))
    monkeypatch.setattr(training, "selfplay_game", lambda job: pytest.fail("a game was played"))
    with pytest.raises(ValueError, match="record: .*gen-000.json is not this run's generation 0"):
        train(TrainConfig(GAME, **TINY), tmp_path / "run", 1, record_dir=record)

@pytest.mark.slow
def test_arena_and_a_training_generation_on_a_local_ray(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is the optional extra meeplemind[cluster]")
    specs = ["ismcts:iterations=20", "ismcts:iterations=20,prior_weight=0"]
    assert run_arena(GAME, specs, 4, seed=5, ray="local", workers=2) == run_arena(GAME, specs, 4, seed=5)
    on_ray = train(TrainConfig(GAME, **TINY), tmp_path / "ray", 1, workers=2, ray="local")
    here = train(TrainConfig(GAME, **TINY), tmp_path / "here", 1)
    assert on_ray["rounds"][0]["match"] == here["rounds"][0]["match"]
    assert np.load(tmp_path / "ray" / "selfplay-001.npz")["0.visits"].tolist() == \
        np.load(tmp_path / "here" / "selfplay-001.npz")["0.visits"].tolist()


def test_a_candidate_keeps_the_best_network_unless_its_own_tells_the_winners_better(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from meeplemind.search.evaluation_fit import fit_samples

    games = list(run_jobs(selfplay_game, [_job(seed) for seed in range(1, 4)]))
    samples = value_samples(games, 5)
    model, report = fit_samples(samples, 32, 1)
    assert training.held_out_win_loss(model, samples) == pytest.approx(report["win_log_loss"], abs=2e-3)
    start = game_weights(GAME)
    monkeypatch.setattr(training, "held_out_win_loss", lambda model, samples: float("inf"))  # a start that predicts nothing
    fitted, report = training.fit_generation(GAME, games, 1, start)
    assert report["value_network"] == "fitted" and fitted["w1"] != start["w1"]
    monkeypatch.setattr(training, "held_out_win_loss", lambda model, samples: 0.0)  # a start that predicts all
    kept, report = training.fit_generation(GAME, games, 1, start)
    assert report["value_network"] == "the best generation's"
    assert {k: kept[k] for k in training.VALUE_KEYS} == {k: start[k] for k in training.VALUE_KEYS}
    assert kept["prior_exponent"] == fitted["prior_exponent"] != 1.0


def test_a_fit_of_3_player_games_reports_no_2_player_errors_and_every_number_is_finite() -> None:
    """The 2-player rows' pair-difference errors are reported only when there are such rows:
    a 3-player fit's report (a round's record, JSON) holds no NaN."""
    from meeplemind.search.evaluation_fit import fit_samples

    three = list(run_jobs(selfplay_game, [_job(seed, 3) for seed in range(1, 4)]))
    _, report = fit_samples(value_samples(three, 5), 32, 1)
    assert not any(key.startswith("mse_2p") for key in report)
    assert all(math.isfinite(value) for value in report.values())
    _, report = fit_samples(value_samples(list(run_jobs(selfplay_game, [_job(seed) for seed in range(1, 4)])), 5), 32, 1)
    assert all(math.isfinite(report[key]) for key in report if key.startswith("mse_2p")) and "mse_2p_difference_network" in report
