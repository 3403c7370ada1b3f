"""The Castles of Burgundy C engine through meeplemind.native: sizes against the
Python constants, decode errors, the playout policies, the generic ISMCTS, and a
phase start with the goods pool used up (both engines skip the missing goods)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from meeplemind.engine import PositionError
from meeplemind.engine.castles_of_burgundy import LAYOUT_VERSION, NUM_ACTIONS, VECTOR_LEN, new_game
from meeplemind.positions import check_state
from meeplemind.engine.castles_of_burgundy.data import NUM_GOODS
from meeplemind.engine.castles_of_burgundy.schema import V1
from meeplemind.native import NativeDecodeError, NativeGame
from meeplemind.search.ismcts import analyze
from meeplemind.search.params import Budget, game_params


@pytest.fixture(scope="module")
def native() -> NativeGame:
    return NativeGame("castles-of-burgundy")


def test_game_info_matches_python(native: NativeGame) -> None:
    assert native.layout_version == LAYOUT_VERSION
    assert native.vector_len == VECTOR_LEN
    assert native.num_actions == NUM_ACTIONS
    assert native.max_players >= 4
    assert native.max_legal >= 160  # 2 workers + 2 x (3 sales + 24 takes + 36 places) + 32 buys


G_CURRENT, O_GOODS_POOL = V1.index("current_player"), V1.index("hidden.goods[0]")


def with_field(vec: np.ndarray, index: int, value: int) -> np.ndarray:
    out = vec.copy()
    out[index] = value
    return out


def test_decode_errors_name_the_field(native: NativeGame) -> None:
    lib, vec = native.lib, new_game(3, seed=1).encode()
    cases = [(vec[:-1], lib.MM_ERR_LENGTH, -1), (with_field(vec, 0, 2), lib.MM_ERR_VERSION, 0),
             (with_field(vec, 1, 5), lib.MM_ERR_RANGE, 1),
             (with_field(vec, G_CURRENT, 3), lib.MM_ERR_RANGE, G_CURRENT),
             (with_field(vec, O_GOODS_POOL, vec[O_GOODS_POOL] - 1), lib.MM_ERR_INVARIANT,
              O_GOODS_POOL)]  # a goods tile lost
    for bad, code, index in cases:
        with pytest.raises(NativeDecodeError) as info:
            native.decode(bad)
        assert (info.value.code, info.value.index) == (code, index)


def test_heuristic_rollouts_beat_uniform_ones(native: NativeGame) -> None:
    wins, margin = 0, 0
    for g in range(20):
        buf, rng, hero = native.decode(new_game(2, seed=g).encode()), g, g % 2
        while (seat := native.current_player(buf)) >= 0:
            action, rng = native.rollout_move(buf, rng, 1 if seat == hero else 0)
            rng = native.apply(buf, action, rng)
        scores = native.scores(buf)[:, 0]
        wins += scores[hero] > scores[1 - hero]
        margin += scores[hero] - scores[1 - hero]
    assert wins >= 18 and margin / 20 > 50


def test_the_generic_search_plays_it() -> None:
    state = new_game(3, seed=4)
    first = analyze(state, Budget(iterations=400), replace(game_params(state.game_id), seed=9, rollout_policy="heuristic"))
    again = analyze(state, Budget(iterations=400), replace(game_params(state.game_id), seed=9, rollout_policy="heuristic"))
    assert [(m.move, m.visits) for m in first.moves] == [(m.move, m.visits) for m in again.moves]
    legal = {str(m) for m in state.legal_moves()}
    assert first.iterations == 400 and {m.move for m in first.moves} <= legal


def test_both_decoders_refuse_a_pool_that_cannot_fill_the_phases_to_come(native: NativeGame) -> None:
    """Phase A with every goods tile on the depots: phase B would lay out no round goods
    (a position the rules never reach), so both decoders refuse it at the hidden goods."""
    s = new_game(2, seed=5)
    for g in range(NUM_GOODS):
        s.depot_goods[NUM_GOODS + g] += s.goods_pool[g]
        s.goods_pool[g] = 0
    with pytest.raises(PositionError) as refused:
        check_state(s)
    assert refused.value.path == "hidden.goods[0]" and "the phases to come show 20" in refused.value.problem
    with pytest.raises(NativeDecodeError) as rejected:
        native.decode(s.encode())
    assert rejected.value.index == O_GOODS_POOL
