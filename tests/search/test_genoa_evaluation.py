"""Traders of Genoa's learned evaluation (native/mm_traders_of_genoa_eval.c): its feature
rows read the position as the rules score it, and a truncated search plays with it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from meeplemind.engine.traders_of_genoa.data import (
    BUILDING_NAMES, D_LARGE, D_PRIVILEGE, GOODS, LARGE_ORDERS, PRIVILEGES, ROUNDS,
)
from meeplemind.engine.traders_of_genoa.state import new_game
from meeplemind.native import NativeGame
from meeplemind.search import analyze
from meeplemind.search.params import Budget, game_params

from ..engine.traders_of_genoa.helpers import give_card, give_goods, mark, turn_start

# The row's columns (the enum of mm_traders_of_genoa_eval.c).
F_SCORE, F_DUCATS, F_OWNED, F_GROUP, F_PRIVILEGE_PAY, F_PRIVILEGES, F_UNPAID = range(7)
F_LARGE, F_LARGE_READY, F_LARGE_NEAR = 12, 13, 14
F_OWNER_TURNS, F_ROUNDS, F_PLAYERS = 24, 26, 27


def _rows(native: NativeGame, state: object) -> tuple[np.ndarray, float]:
    found = native.eval_inputs(native.decode(state.encode()))  # type: ignore[attr-defined]
    assert found is not None
    inputs, rounds = found
    return inputs[:, :inputs.shape[1] // 2], rounds


def test_the_score_feature_is_the_rules_score_along_a_game() -> None:
    native = NativeGame("traders-of-genoa")
    buf = native.decode(new_game(3, seed=4).encode())
    chance, picker, before, checked = 1, 2, None, 0
    while native.current_player(buf) >= 0:
        inputs, rounds = native.eval_inputs(buf) or (None, 0.0)
        assert inputs is not None
        assert inputs[:, F_SCORE].tolist() == native.scores(buf)[:, 0].tolist()
        assert (inputs[:, F_PLAYERS] == 3).all() and (inputs[:, F_ROUNDS] == rounds).all()
        assert before is None or rounds <= before  # the clock only runs down
        before, checked = rounds, checked + 1
        action, picker = native.rollout_move(buf, picker, 1)
        chance = native.apply(buf, action, chance)
    assert checked > 100 and before is not None and before > 0


def test_orders_privileges_and_buildings_are_read_per_player() -> None:
    native = NativeGame("traders-of-genoa")
    s = turn_start(3, seed=1, owner=0)
    rows, rounds = _rows(native, s)
    left = ROUNDS[3] - s.round  # whole rounds, the owner's turn about to start
    assert rounds == left and rows[:, F_OWNER_TURNS].tolist() == [left] * 3
    assert rows[:, F_LARGE].tolist() == [1, 1, 1]  # one card of each deck to start
    order = 5
    villa, goods = LARGE_ORDERS[order]
    give_card(s, 1, D_LARGE, order + 1)
    for g in goods[:2]:
        give_goods(s, 1, GOODS[g])
    rows, _ = _rows(native, s)
    assert rows[1, F_LARGE] == 2 and rows[1, F_LARGE_NEAR] >= 1
    give_goods(s, 1, GOODS[goods[2]])
    assert _rows(native, s)[0][1, F_LARGE_READY] >= 1
    # a privilege pays by the connected group of the holder's buildings holding its building
    give_card(s, 2, D_PRIVILEGE, 1)
    unpaid = _rows(native, s)[0][2, F_UNPAID]
    mark(s, 2, BUILDING_NAMES[PRIVILEGES[0]])
    rows, _ = _rows(native, s)
    assert rows[2, F_OWNED] == 1 and rows[2, F_GROUP] == 1 and rows[2, F_PRIVILEGE_PAY] >= 10
    assert rows[2, F_UNPAID] == unpaid - 1 and rows[2, F_SCORE] == native.scores(native.decode(s.encode()))[2, 0]


def test_the_default_search_cuts_its_playouts_and_scores_them() -> None:
    params = game_params("traders-of-genoa")
    assert params.playout_moves > 0
    state = new_game(3, seed=2)
    cut = analyze(state, Budget(iterations=300), replace(params, seed=5))
    again = analyze(state, Budget(iterations=300), replace(params, seed=5))
    assert cut.iterations == 300 and [m.visits for m in cut.moves] == [m.visits for m in again.moves]
