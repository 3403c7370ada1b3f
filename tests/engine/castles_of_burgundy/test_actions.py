"""The four die actions, workers, the black depot and the turn (rules §6)."""

from __future__ import annotations

import pytest

from meeplemind.engine import IllegalMoveError
from meeplemind.engine.castles_of_burgundy.state import ST_DISCARD, ST_TILE, ST_TURN, worker_cost

from .helpers import black, check, depot, fresh, give, goods, legal, play, put, tile


def test_take_a_tile_with_a_die_and_workers_across_the_6_1_wrap() -> None:
    s = fresh(2)
    s.players[0].dice, s.players[0].workers = [3, 6], 2
    depot(s, 1, 1, "church")
    s = play(s, "take:1.1@6")  # 6 -> 1: one worker
    p = s.players[0]
    assert p.storage == [tile("church"), -1, -1] and p.workers == 1 and p.dice == [0, 3]
    assert s.depots[0] == -1 and s.current == 0


@pytest.mark.parametrize("die, target, cost", [(1, 1, 0), (6, 1, 1), (1, 6, 1), (1, 4, 3), (2, 5, 3),
                                                (5, 3, 2), (6, 2, 2)])
def test_worker_cost(die: int, target: int, cost: int) -> None:
    assert worker_cost(die, target, 0, 1) == cost
    assert worker_cost(die, target, 0, 2) == (cost + 1) // 2  # knowledge #8
    assert worker_cost(die, target, 1, 1) == max(cost - 1, 0)  # knowledge #9-#12


def test_dice_reach_only_what_the_workers_pay_for() -> None:
    s = fresh(2)
    s.players[0].dice, s.players[0].workers = [4, 4], 0
    check(s)
    takes = {m for m in legal(s) if m.startswith("take")}
    assert takes and all(m.split(":")[1].startswith("4.") and m.endswith("@4") for m in takes)
    # Two dice showing 4 are one choice; using one leaves the other.
    assert legal(s).count("workers@4") == 1
    s = play(s, "workers@4")
    assert s.players[0].dice == [0, 4] and s.players[0].workers == 2
    s.players[0].workers = 1  # now 3 and 5 are in reach
    assert {m.split(":")[1].split(".")[0] for m in legal(s) if m.startswith("take")} == {"3", "4", "5"}


def test_workers_action_gives_two_workers_and_ends_the_turn_when_the_dice_are_used() -> None:
    s = fresh(2)
    s.players[0].dice = [2, 5]
    s = play(s, "workers@2", "workers@5")
    assert s.players[0].workers == 1 + 4 and s.players[0].dice == [0, 0]
    assert s.current == 1 and s.stage == ST_TURN


def test_sell_all_goods_of_the_die_number() -> None:
    for n, vp in ((2, 2), (3, 3), (4, 4)):
        s = fresh(n)
        s.players[0].dice = [3, 3]
        goods(s, 0, g3=3, g5=1)
        s = play(s, "sell:3@3")
        p = s.players[0]
        assert p.goods[2] == 0 and p.sold[2] == 3 and p.goods[4] == 1
        assert p.silverlings == 2 and p.vp == 3 * vp


def test_sell_needs_goods_and_a_die_in_reach() -> None:
    s = fresh(2)
    s.players[0].dice = [3, 3]  # and 1 worker: 3 -> 4 is in reach, 3 -> 5 is not
    goods(s, 0, g4=1, g5=1)
    assert [m for m in legal(check(s)) if m.startswith("sell")] == ["sell:4@3"]


def test_full_storage_asks_which_tile_to_discard() -> None:
    s = fresh(2)
    s.players[0].dice = [2, 2]
    give(s, 0, "mine", "mine", "ship")
    depot(s, 2, 1, "k2")
    s = play(s, "take:2.1@2")
    assert s.stage == ST_DISCARD and legal(s) == ["discard:mine", "discard:ship"]
    s = play(s, "discard:mine")
    p = s.players[0]
    assert sorted(p.storage) == sorted([tile("mine"), tile("ship"), tile("k2")])
    assert s.discarded[tile("mine")] == 1 and s.stage == ST_TURN


def test_storage_of_three_equal_tiles_discards_without_asking() -> None:
    s = fresh(2)
    s.players[0].dice = [2, 2]
    give(s, 0, "mine", "mine", "mine")
    depot(s, 2, 1, "k2")
    s = play(s, "take:2.1@2")
    assert s.stage == ST_TURN and s.discarded[tile("mine")] == 1


def test_place_needs_colour_die_number_and_a_neighbour() -> None:
    s = fresh(2)
    s.players[0].dice, s.players[0].workers = [1, 3], 0
    give(s, 0, "k3", "bank")
    check(s)
    places = [m for m in legal(s) if m.startswith("place")]
    # Around the start castle (19): 12 building/3, 13 knowledge/1, 18 ship, 20 ship, 25 mine,
    # 26 building/3.
    assert places == ["place:12@3", "place:13@1", "place:26@3"]
    s = play(s, "place:13@1")  # only the knowledge tile fits a knowledge space
    assert s.players[0].estate[12] == tile("k3") and s.players[0].storage == [tile("bank"), -1, -1]


def test_place_asks_which_tile_when_several_fit() -> None:
    s = fresh(2)
    s.players[0].dice = [3, 3]
    give(s, 0, "bank", "church", "bank")
    s = play(s, "place:12@3")
    assert s.stage == ST_TILE and legal(s) == ["tile:bank", "tile:church"]
    s = play(s, "tile:church")
    p = s.players[0]
    assert p.estate[11] == tile("church") and p.storage == [tile("bank"), tile("bank"), -1]


def test_one_building_of_each_kind_per_city() -> None:
    s = fresh(2)
    s.players[0].dice, s.players[0].workers = [1, 3], 0
    put(s, 0, {26: "bank", 25: "mine"})
    give(s, 0, "bank")
    check(s)
    # 27 (building/1) is in the city of 26 that already has a bank; 12 is another city.
    assert [m for m in legal(s) if m.startswith("place")] == ["place:12@3"]
    s.players[0].storage = [tile("watchtower"), -1, -1]
    s.stack[tile("bank")] += 1
    s.stack[tile("watchtower")] -= 1
    assert [m for m in legal(s) if m.startswith("place")] == ["place:12@3", "place:27@1"]


def test_black_depot_purchase_once_per_turn_for_two_silverlings() -> None:
    s = fresh(2)
    s.players[0].silverlings = 5
    black(s, 1, "k7")
    black(s, 2, "watchtower")
    black(s, 3, "watchtower")  # the same tile as slot 2: one choice
    black(s, 4, "mine")
    check(s)
    assert [m for m in legal(s) if m.startswith("buy")] == ["buy:black1", "buy:black2", "buy:black4"]
    s = play(s, "buy:black1")
    p = s.players[0]
    assert p.silverlings == 3 and p.storage[0] == tile("k7") and s.bought
    assert not [m for m in legal(s) if m.startswith("buy")]
    s = play(s, "workers@1", "workers@2")
    assert s.current == 1 and not s.bought


def test_buy_after_the_dice_or_pass() -> None:
    s = fresh(2)
    s.players[0].silverlings = 2
    s = play(s, "workers@1", "workers@2")
    assert s.current == 0 and "pass" in legal(s) and all(m == "pass" or m.startswith("buy:black")
                                                         for m in legal(s))
    s = play(s, "pass")
    assert s.current == 1 and s.players[0].silverlings == 2


def test_no_buy_without_two_silverlings() -> None:
    s = fresh(2)
    assert s.players[0].silverlings == 1
    assert not [m for m in legal(check(s)) if m.startswith("buy")]
    s = play(s, "workers@1", "workers@2")
    assert s.current == 1  # nothing left to decide: the turn ended by itself


def test_illegal_moves_are_refused() -> None:
    s = check(fresh(2))
    with pytest.raises(IllegalMoveError, match="take:4.1@1: not legal here"):
        s.play("take:4.1@1")
    with pytest.raises(IllegalMoveError):
        s.play("sell:1@1")
