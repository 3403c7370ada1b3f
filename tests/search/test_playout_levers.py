"""The search levers of issue 21 beyond the reward: truncated playouts scored by a game's
evaluation (``playout_moves``), the evaluations themselves, and guided expansion."""

from __future__ import annotations

import pytest

from meeplemind.engine import get_game
from meeplemind.native import NativeGame
from meeplemind.native.fit_evaluation import GAMES, estimates
from meeplemind.search import NativeHandle, analyze
from meeplemind.search.ismcts import DEFAULT_PLAYOUT_MOVES
from meeplemind.search.bots import make_bot

from .ismcts_toy import opening
from .test_ladder_and_levels import _fingerprint


@pytest.mark.parametrize("game", sorted(GAMES))
def test_c_evaluation_is_the_fitted_one(game: str) -> None:
    """C's evaluate() is the score now plus evaluation.json's weights times the features
    native/fit_evaluation.py computes in Python, rounded to whole points."""
    engine, native = get_game(game), NativeGame(game)
    decode = GAMES[game][0]
    checked = 0
    for seed in range(4):
        buf = native.decode(engine.new_game(2, seed=seed).encode())
        chance, picker = seed + 1, seed + 2
        while native.current_player(buf) >= 0:
            state = decode(native.encode(buf), check=False)
            evaluated = native.evaluate(buf)
            assert evaluated is not None
            assert evaluated[:, 0] == pytest.approx(estimates(game, state), abs=0.5 + 1e-9)
            assert evaluated[:, 1].tolist() == native.scores(buf)[:, 1].tolist()
            checked += 1
            action, picker = native.rollout_move(buf, picker, 1)
            chance = native.apply(buf, action, chance)
    assert checked > 200


def test_a_game_without_an_evaluation_plays_playouts_out(toy: NativeHandle) -> None:
    plain = analyze(opening(), iterations=2000, seed=4, native=toy)
    cut = analyze(opening(), iterations=2000, seed=4, native=toy, playout_moves=3)
    assert [(m.move, m.visits, m.win_rate) for m in cut.moves] == [(m.move, m.visits, m.win_rate)
                                                                   for m in plain.moves]


def test_a_truncated_playout_ends_where_a_full_one_would_not(endless: NativeHandle) -> None:
    with pytest.raises(RuntimeError, match="playout"):
        analyze(opening(), iterations=10, seed=1, native=endless, playout_moves=0)
    result = analyze(opening(), iterations=300, seed=1, native=endless, playout_moves=5)
    assert result.iterations == 300 and result.stopped_by == "iterations"


def test_truncated_playouts_are_reproducible_and_cheaper() -> None:
    assert _fingerprint(playout_moves=DEFAULT_PLAYOUT_MOVES) == _fingerprint()
    assert _fingerprint(playout_moves=40) == _fingerprint(playout_moves=40) != _fingerprint(playout_moves=0)
    state = get_game("puerto-rico").new_game(2, seed=7)
    full = analyze(state, cpu_ms=60, seed=1, playout_moves=0)
    cut = analyze(state, cpu_ms=60, seed=1, playout_moves=20)
    assert cut.iterations > 2 * full.iterations  # the same CPU time (measured: about 5x)
    for bad in (-1, 1.5, "40"):
        with pytest.raises(ValueError, match="^playout_moves must"):
            analyze(state, iterations=10, playout_moves=bad)


def test_guided_expansion_is_reproducible_and_a_bool() -> None:
    unguided = {"prior_weight": 0.0}  # with move priors, untried moves expand likeliest first
    assert (_fingerprint(guided_expansion=True, **unguided) == _fingerprint(guided_expansion=True, **unguided)
            != _fingerprint(**unguided))
    with pytest.raises(ValueError, match="^guided_expansion must be a bool"):
        analyze(get_game("puerto-rico").new_game(2, seed=7), iterations=10, guided_expansion=1)


def test_bots_take_the_levers_and_v1_does_not() -> None:
    bot = make_bot("ismcts:cpu_ms=10,playout_moves=40,guided_expansion=true")
    assert bot.options == {"cpu_ms": 10, "playout_moves": 40, "guided_expansion": True}  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="guided_expansion='maybe' is not true or false"):
        make_bot("ismcts:guided_expansion=maybe")
    with pytest.raises(ValueError, match="unknown parameter 'playout_moves'"):
        make_bot("ismcts-v1:cpu_ms=10,playout_moves=40")
