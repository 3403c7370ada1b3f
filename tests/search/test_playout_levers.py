"""The search levers of issue 21 beyond the reward: truncated playouts scored by a game's
evaluation (``playout_moves``), the evaluations themselves, and guided expansion."""

from __future__ import annotations

import json
import pathlib
import runpy
from typing import Any
from dataclasses import replace

import numpy as np
import pytest

from meeplemind.engine import get_game
from meeplemind.native import NativeGame
from meeplemind.search import NativeHandle, analyze
from meeplemind.search.bots import make_bot
from meeplemind.search.params import Budget, SearchParams, game_params

from ..native.native_support import run_sanitized
from .ismcts_toy import opening
from .test_ladder_and_levels import _fingerprint

#: The evaluation file of a game (tools/fit_evaluation.py, which fits it).
weights_file = runpy.run_path(str(pathlib.Path(__file__).resolve().parents[2] / "tools" / "fit_evaluation.py"))[
    "weights_file"]


def _numpy_evaluation(model: dict[str, Any], inputs: np.ndarray, rounds: float,
                      now: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The evaluation of mm_eval.h computed by numpy from a game's network in its evaluation file."""
    w1 = np.array(model["w1"]).reshape(inputs.shape[1], model["hidden"])
    gain = np.maximum(inputs @ w1 + np.array(model["b1"]), 0) @ np.array(model["w2"]) + model["b2"]
    score = now + gain
    t0, t1 = model["temperature"]
    z = score / max(t0 + t1 * rounds, 0.5)
    win = np.exp(z - z.max())
    return score, win / win.sum()


@pytest.mark.parametrize(("game", "players", "options"), [
    ("puerto-rico", 2, {}), ("puerto-rico", 4, {"expansion": "new-buildings"}), ("castles-of-burgundy", 3, {}),
    ("traders-of-genoa", 3, {})])
def test_c_evaluation_is_the_network_of_its_evaluation_file(game: str, players: int, options: dict[str, str]) -> None:
    """C's evaluation is the network of the game's evaluation file over the inputs C exports
    (own row, then the others' maxima), added to the score now, with the fitted win temperature."""
    engine, native = get_game(game), NativeGame(game)
    model = json.loads(weights_file(game).read_text())
    buf = native.decode(engine.new_game(players, seed=3, **options).encode())
    chance, picker, checked = 5, 6, 0
    while native.current_player(buf) >= 0:
        found, evaluated = native.eval_inputs(buf), native.evaluate(buf)
        assert found is not None and evaluated is not None
        inputs, rounds = found
        half = inputs.shape[1] // 2
        for p in range(players):
            assert inputs[p, half:].tolist() == np.delete(inputs[:, :half], p, axis=0).max(axis=0).tolist()
        score, win = _numpy_evaluation(model, inputs.astype(float), rounds, native.scores(buf)[:, 0])
        assert evaluated[0] == pytest.approx(score, abs=1e-3)
        assert evaluated[1] == pytest.approx(win, abs=1e-5)
        checked += 1
        action, picker = native.rollout_move(buf, picker, 1)
        chance = native.apply(buf, action, chance)
    assert checked > 100


def test_training_samples_are_reproducible_and_consistent() -> None:
    engine, native = get_game("castles-of-burgundy"), NativeGame("castles-of-burgundy")
    buf = native.decode(engine.new_game(2, seed=1).encode())
    x, info = native.eval_samples(buf, 6, seed=9, every=5, cap=10_000)
    again, _ = native.eval_samples(buf, 6, seed=9, every=5, cap=10_000)
    assert 6 * 20 < len(x) < 6 * 200 and np.array_equal(x, again)
    m = native.max_players
    share = info[:, 1 + 2 * m:]
    assert share.sum(axis=1) == pytest.approx(1.0) and not share[:, 2:].any()
    assert (info[:, 0] >= 0).all() and (info[:, 3:1 + m] == 0).all()  # rounds left; no seat 2
    assert len(native.eval_samples(buf, 6, seed=9, every=5, cap=7)[0]) == 7
    with pytest.raises(ValueError, match="every"):
        native.eval_samples(buf, 1, seed=9, every=0, cap=10)


def test_a_game_without_an_evaluation_plays_playouts_out(toy: NativeHandle) -> None:
    plain = analyze(opening(), Budget(iterations=2000), SearchParams(seed=4), native=toy)
    cut = analyze(opening(), Budget(iterations=2000), SearchParams(seed=4, playout_moves=3), native=toy)
    assert [(m.move, m.visits, m.win_rate) for m in cut.moves] == [(m.move, m.visits, m.win_rate)
                                                                   for m in plain.moves]


def test_a_truncated_playout_ends_where_a_full_one_would_not(endless: NativeHandle) -> None:
    with pytest.raises(RuntimeError, match="playout"):
        analyze(opening(), Budget(iterations=10), SearchParams(seed=1, playout_moves=0), native=endless)
    result = analyze(opening(), Budget(iterations=300), SearchParams(seed=1, playout_moves=5), native=endless)
    assert result.iterations == 300 and result.stopped_by == "iterations"


def test_truncated_playouts_are_reproducible_and_cheaper() -> None:
    assert _fingerprint(playout_moves=game_params("puerto-rico").playout_moves) == _fingerprint()
    assert _fingerprint(playout_moves=40) == _fingerprint(playout_moves=40) != _fingerprint(playout_moves=0)
    state = get_game("puerto-rico").new_game(2, seed=7)
    full = analyze(state, Budget(cpu_ms=60), replace(game_params(state.game_id), seed=1, playout_moves=0))
    cut = analyze(state, Budget(cpu_ms=60), replace(game_params(state.game_id), seed=1, playout_moves=20))
    assert cut.iterations > 2 * full.iterations  # the same CPU time (measured: about 5x)
    for bad in (-1, 1.5, "40"):
        with pytest.raises(ValueError, match="^playout_moves must"):
            analyze(state, Budget(iterations=10), replace(game_params(state.game_id), playout_moves=bad))


def test_guided_expansion_is_reproducible_and_a_bool() -> None:
    unguided = {"prior_weight": 0.0}  # with move priors, untried moves expand likeliest first
    assert (_fingerprint(guided_expansion=True, **unguided) == _fingerprint(guided_expansion=True, **unguided)
            != _fingerprint(**unguided))
    with pytest.raises(ValueError, match="^guided_expansion must be a bool"):
        analyze(get_game("puerto-rico").new_game(2, seed=7), Budget(iterations=10),
                replace(game_params("puerto-rico"), guided_expansion=1))


def test_bots_take_the_levers_and_v1_does_not() -> None:
    bot = make_bot("ismcts:cpu_ms=10,playout_moves=40,guided_expansion=true")
    assert bot.options == {"cpu_ms": 10, "playout_moves": 40, "guided_expansion": True}  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="guided_expansion='maybe' is not true or false"):
        make_bot("ismcts:guided_expansion=maybe")
    with pytest.raises(ValueError, match="unknown parameter 'playout_moves'"):
        make_bot("ismcts-v1:cpu_ms=10,playout_moves=40")


def test_the_evaluation_under_the_sanitizers() -> None:
    """Self-play samples, evaluations and truncated searches of every game with an
    evaluation, through the address and undefined-behaviour sanitizer build."""
    counts = run_sanitized([], timeout=600, module="tests.search.eval_asan_driver")
    assert all(n > 150 for n in counts.values()), counts  # 150 iterations and the samples
