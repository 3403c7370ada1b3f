"""Setup tables (rules §2) and the round structure (§3.0, 2-player variant §2b)."""

from __future__ import annotations

import pytest

from meeplemind.engine import Rng
from meeplemind.engine.puerto_rico import new_game
from meeplemind.engine.puerto_rico.codec import validate
from meeplemind.engine.puerto_rico.data import BUILDINGS, CORN, INDIGO, NUM_BASE_BUILDINGS

from .helpers import fresh, legal, pick

SETUP = {  # players: doubloons, colonists, ship, VP, ships, roles, quarries
    2: (3, 40, 2, 65, [4, 6], 7, 5),
    3: (2, 55, 3, 75, [4, 5, 6], 6, 8),
    4: (3, 75, 4, 100, [5, 6, 7], 7, 8),
    5: (4, 95, 5, 122, [6, 7, 8], 8, 8),
}
START = {2: [INDIGO, CORN], 3: [INDIGO, INDIGO, CORN], 4: [INDIGO, INDIGO, CORN, CORN],
         5: [INDIGO, INDIGO, INDIGO, CORN, CORN]}


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_table(n: int) -> None:
    s = new_game(n, seed=7)
    doubloons, colonists, ship, vp, ships, roles, quarries = SETUP[n]
    assert [p.doubloons for p in s.players] == [doubloons] * n
    assert (s.colonist_supply, s.colonist_ship, s.vp_supply) == (colonists, ship, vp)
    assert s.ship_capacity == ships and s.ship_kind == [-1] * len(ships)
    assert len(s.role_doubloons) == roles and s.quarry_supply == quarries
    assert sum(s.faceup) == n + 1
    for i, kind in enumerate(START[n]):
        seat = (s.governor + i) % n
        assert s.players[seat].plantations[kind] == 1 and sum(s.players[seat].plantations) == 1
    small, large = (2, 1) if n > 2 else (1, 1)
    for b, spec in enumerate(BUILDINGS):
        if b >= NUM_BASE_BUILDINGS:  # Expansion I only
            expected = 0
        elif spec.good is not None:
            expected = (2 if n == 2 else (4 if spec.circles == 1 else 3))
        else:
            expected = large if spec.large else small
        assert s.building_supply[b] == expected, spec.name
    assert s.current_player == s.governor
    validate(s)


def test_two_player_goods_and_plantations_are_reduced() -> None:
    s = new_game(2, seed=3)
    assert s.goods_supply == [8, 9, 9, 7, 7]
    in_game = [s.deck[k] + s.faceup[k] + sum(p.plantations[k] for p in s.players) for k in range(5)]
    assert in_game == [7, 9, 8, 6, 5]


def test_seed_replays_setup_exactly() -> None:
    assert new_game(4, seed=11) == new_game(4, seed=11)
    assert any(new_game(4, seed=s).faceup != new_game(4, seed=11).faceup for s in range(5))


def test_three_player_round_gives_doubloons_to_unpicked_roles() -> None:
    s = fresh(3)
    assert legal(s) == ["role:builder", "role:captain", "role:craftsman", "role:mayor",
                        "role:settler", "role:trader"]
    s = pick(s, "craftsman")  # nobody produces anything: the phase is over at once
    assert s.current_player == 1
    s = pick(s, "captain")  # no goods: no loading
    assert s.current_player == 2
    s = pick(s, "builder")
    while s.phase != 0:  # everybody passes the build
        s = s.apply("pass", Rng(0))
    assert s.governor == 1 and s.current_player == 1
    assert s.role_doubloons == [1, 1, 0, 0, 1, 0]  # settler, mayor, trader unpicked
    s.role_doubloons[0] = 3
    s = pick(s, "settler")
    assert s.players[1].doubloons == 2 + 3 and s.role_doubloons[0] == 0


def test_two_player_variant_alternates_three_roles_each() -> None:
    s = fresh(2)
    pickers = []
    order = ["prospector", "craftsman", "captain", "trader", "builder", "mayor"]
    for role in order:
        pickers.append(s.current_player)
        s = pick(s, role)
        while s.phase not in (0, 8) and s.governor == 0:
            s = s.apply(s.legal_moves()[0], Rng(0))
    assert pickers == [0, 1, 0, 1, 0, 1]
    assert s.governor == 1 and s.current_player == 1
    assert s.role_doubloons[0] == 1  # the settler card was left: it gets the doubloon
    assert sum(s.role_doubloons) == 1


def test_prospector_pays_one_doubloon() -> None:
    s = fresh(4)
    s = pick(s, "prospector")
    assert s.players[0].doubloons == 4 and s.current_player == 1


def test_second_prospector_card_offered_only_when_it_differs() -> None:
    s = fresh(5)
    assert "role:prospector2" not in legal(s)
    s.role_doubloons[7] = 1
    assert "role:prospector2" in legal(s)
