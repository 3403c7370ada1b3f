"""Move priors (issue 21's progressive bias and widening): the games' move_priors() and
the search's ``prior_weight`` and ``widening``."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from meeplemind.engine import get_game
from meeplemind.native import NativeGame
from meeplemind.search import NativeHandle, analyze
from meeplemind.search.bots import make_bot
from meeplemind.search import ismcts
from meeplemind.search.params import DEFAULT_EXPLORATION, Budget, SearchParams, game_params, review_params

from .ismcts_toy import opening
from .test_ladder_and_levels import _fingerprint

SETUPS = [("puerto-rico", 2, {}), ("puerto-rico", 4, {"expansion": "new-buildings"}),
          ("castles-of-burgundy", 3, {})]


def _decisions(game: str, players: int, options: dict[str, str], seed: int = 3):
    """(native state, priors, heuristic move) at every decision of a heuristic self-play game."""
    native = NativeGame(game)
    buf = native.decode(get_game(game).new_game(players, seed=seed, **options).encode())
    chance, picker = seed, seed + 1
    while native.current_player(buf) >= 0:
        priors = native.move_priors(buf)
        assert priors is not None
        yield native, buf, priors
        action, picker = native.rollout_move(buf, picker, 1)
        chance = native.apply(buf, action, chance)


@pytest.mark.parametrize("game, players, options", SETUPS)
def test_priors_are_a_distribution_over_the_legal_moves_led_by_the_heuristic(
        game: str, players: int, options: dict[str, str]) -> None:
    """One probability per legal move, summing to 1; the likeliest move (first on a tie) is
    the heuristic policy's choice whenever its epsilon draw leaves it the choice."""
    decisions = agree = 0
    for native, buf, priors in _decisions(game, players, options):
        legal = native.legal_moves(buf)
        assert priors.shape == legal.shape and np.all(priors > 0)
        assert priors.sum() == pytest.approx(1.0, abs=1e-12)
        chosen = {native.rollout_move(buf, seed, 1)[0] for seed in range(12)}
        decisions += 1
        agree += int(legal[int(np.argmax(priors))]) in chosen
    assert decisions > 100 and agree == decisions


def test_genoa_priors_make_an_offer_over_half_an_actions_worth_unlikely() -> None:
    """Traders of Genoa's priors (issue 28): a distribution over the legal moves; at an offer
    decision the coins the playout policy would give lead, items it would not give trail."""
    from meeplemind.engine.traders_of_genoa.state import ST_OFFER

    checked = 0
    for native, buf, priors in _decisions("traders-of-genoa", 3, {}):
        assert priors.sum() == pytest.approx(1.0, abs=1e-12) and np.all(priors > 0)
        state = get_game("traders-of-genoa").decode(native.encode(buf))
        if state.stage == ST_OFFER and "give:5" in [str(m) for m in state.legal_moves()]:
            names = [str(m) for m in state.legal_moves()]
            if any(n.startswith("give:special") for n in names):
                special = max(p for n, p in zip(names, priors) if n.startswith("give:special"))
                assert priors[names.index("give:5")] >= special
                checked += priors[names.index("give:5")] > special
    assert checked > 0


def test_the_default_is_the_games_tuning_and_reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    """Puerto Rico searches by PUCT over its priors (its game's SEARCH_TUNING); priors off is
    the search without them, bit for bit (ismcts-v1, pinned, has them off)."""
    assert game_params("puerto-rico") == SearchParams(exploration=0.0, prior_weight=1.0, playout_moves=40)
    assert game_params("castles-of-burgundy") == SearchParams(exploration=0.0, prior_weight=1.0, playout_moves=40)
    default = _fingerprint()
    assert default == _fingerprint(SearchParams(), exploration=0.0, prior_weight=1.0, playout_moves=40)
    off = _fingerprint(SearchParams(exploration=DEFAULT_EXPLORATION, playout_moves=40))
    assert off == _fingerprint(exploration=DEFAULT_EXPLORATION, prior_weight=0.0) != default
    assert review_params("puerto-rico") == game_params("puerto-rico")  # a review judges with the default search
    assert review_params("traders-of-genoa") == game_params("traders-of-genoa") == SearchParams(
        exploration=0.0, prior_weight=1.0, playout_moves=20)
    assert len({default, off, _fingerprint(prior_weight=0.5), _fingerprint(widening=1.0)}) == 4
    monkeypatch.setattr(ismcts.secrets, "randbits", lambda bits: 5)  # analyze's own seed: 5 too
    state = get_game("puerto-rico").new_game(2, seed=7)
    unset = analyze(state, Budget(iterations=400))  # no params: the game's
    given = analyze(state, Budget(iterations=400), replace(game_params("puerto-rico"), seed=5))
    assert [(m.move, m.visits) for m in unset.moves] == [(m.move, m.visits) for m in given.moves]


def test_a_games_tuning_may_differ_by_player_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """Genoa's 2-player search weighs its priors twice and counts the reward's margin over 100
    ducats (its table's ``by_players`` entry over the rest); other counts, and the game alone,
    take its tuning; a search given no params of a 2-player position runs the 2-player tuning."""
    base = game_params("traders-of-genoa")
    assert game_params("traders-of-genoa", 2) == replace(base, prior_weight=2.0, margin_scale=100.0) != base
    assert game_params("traders-of-genoa", 3) == game_params("traders-of-genoa", 5) == base
    assert game_params("puerto-rico", 2) == game_params("puerto-rico")
    assert review_params("traders-of-genoa", 2) == game_params("traders-of-genoa", 2)  # a review judges with it too
    assert game_params("toy", 2) == SearchParams()
    monkeypatch.setattr(ismcts.secrets, "randbits", lambda bits: 5)
    state = get_game("traders-of-genoa").new_game(2, seed=7)

    def facts(params: SearchParams | None) -> list[tuple[str, int]]:
        return [(m.move, m.visits) for m in analyze(state, Budget(iterations=400), params).moves]

    unset = facts(None)
    assert unset == facts(replace(game_params("traders-of-genoa", 2), seed=5)) != facts(replace(base, seed=5))


def test_a_game_without_tuning_searches_by_ucb1_without_priors(toy: NativeHandle) -> None:
    assert game_params("toy") == SearchParams()

    def facts(params: SearchParams) -> list[tuple[str, int, float]]:
        result = analyze(opening(), Budget(iterations=300), replace(params, seed=4), native=toy)
        return [(m.move, m.visits, m.win_rate) for m in result.moves]

    assert facts(SearchParams()) != facts(SearchParams(exploration=0.0, prior_weight=1.0))


@pytest.mark.parametrize("game", ["puerto-rico", "castles-of-burgundy"])
def test_the_first_expansion_is_the_likeliest_move(game: str) -> None:
    state = get_game(game).new_game(2, seed=5)
    native = NativeGame(game)
    buf = native.decode(state.encode())
    priors, legal = native.move_priors(buf), native.legal_moves(buf)
    assert priors is not None
    result = analyze(state, Budget(iterations=1), replace(game_params(state.game_id), seed=3))
    assert [m.action for m in result.moves] == [int(legal[int(np.argmax(priors))])]


def test_widening_bounds_the_children_of_a_node() -> None:
    """A node with N visits expands a move only while it has fewer than 1 + k sqrt(N)."""
    state = get_game("castles-of-burgundy").new_game(2, seed=5)
    for widening, iterations in ((0.5, 100), (1.0, 400)):
        result = analyze(state, Budget(iterations=iterations), replace(game_params(state.game_id), seed=1, widening=widening))
        assert 1 < len(result.moves) < 2 + widening * math.sqrt(iterations - 1)
    every = analyze(state, Budget(iterations=100), replace(game_params(state.game_id), seed=1))
    assert len(every.moves) > 2 + 0.5 * math.sqrt(99)  # all 18


def test_a_game_without_priors_searches_with_uniform_ones(toy: NativeHandle) -> None:
    result = analyze(opening(), Budget(iterations=500), SearchParams(seed=2, prior_weight=1.0, widening=1.0), native=toy)
    assert result.iterations == 500 and result.moves


@pytest.mark.parametrize("name", ["prior_weight", "widening"])
def test_bad_prior_parameters_are_refused_by_name(name: str) -> None:
    state = get_game("puerto-rico").new_game(2, seed=7)
    for bad in (-0.5, math.nan, math.inf, "1", True):
        with pytest.raises(ValueError, match=f"^{name} must"):
            analyze(state, Budget(iterations=10), replace(game_params("puerto-rico"), **{name: bad}))
    assert make_bot(f"ismcts:cpu_ms=10,{name}=1.5").options == {"cpu_ms": 10, name: 1.5}  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=f"{name}='much' is not a number"):
        make_bot(f"ismcts:{name}=much")
    with pytest.raises(ValueError, match=f"unknown parameter '{name}'"):
        make_bot(f"ismcts-v1:cpu_ms=10,{name}=1")
