"""Every knowledge tile #1-#26 (rules §8), each in an estate on space 13 unless told."""

from __future__ import annotations

import pytest

from meeplemind.engine.castles_of_burgundy import State
from meeplemind.engine.castles_of_burgundy.data import knowledge
from meeplemind.engine.castles_of_burgundy.scoring import end_points

from .helpers import (
    check, clear_depot_goods, depot, depot_goods, fresh, give, goods, last_turn_of_phase, legal,
    play, put, sold, tile,
)


def knowing(k: int) -> State:
    s = fresh(2)
    put(s, 0, {13: f"k{k}"})
    return s


def test_k1_several_buildings_of_a_kind_in_one_city() -> None:
    s = knowing(1)
    s.players[0].dice, s.players[0].workers = [1, 1], 0
    put(s, 0, {26: "bank"})
    give(s, 0, "bank")
    s = play(s, "place:27@1")
    assert s.players[0].estate[26] == tile("bank")


def test_k2_mines_also_give_a_worker_at_the_phase_end() -> None:
    s = knowing(2)
    put(s, 0, {25: "mine", 30: "mine"})
    s = last_turn_of_phase(s)
    s.players[1].dice = [1, 2]
    before = (s.players[0].silverlings, s.players[0].workers)
    s = play(s, "workers@1", "workers@2")
    assert s.phase == 1 and (s.players[0].silverlings, s.players[0].workers) == (before[0] + 2, before[1] + 2)


@pytest.mark.parametrize("k, silverlings, workers", [(3, 2, 0), (4, 1, 1)])
def test_k3_k4_selling_gives_more(k: int, silverlings: int, workers: int) -> None:
    s = knowing(k)
    s.players[0].dice = [4, 4]
    goods(s, 0, g4=2)
    s = play(s, "sell:4@4")
    p = s.players[0]
    assert (p.silverlings - 1, p.workers - 1, p.vp) == (silverlings, workers, 4)


def test_k5_a_ship_takes_the_goods_of_two_neighbouring_depots() -> None:
    s = knowing(5)
    clear_depot_goods(s)
    depot_goods(s, 1, g1=1)
    depot_goods(s, 6, g6=2)
    depot_goods(s, 3, g3=1)
    s.players[0].dice = [2, 2]
    give(s, 0, "ship")
    s = play(s, "place:18@2")
    assert legal(s) == ["ship:1", "ship:1+6", "ship:2", "ship:3", "ship:6"]  # depot 2 takes nothing
    s = play(s, "ship:1+6")
    assert s.players[0].goods == [1, 0, 0, 0, 0, 2] and s.depot_goods[2 * 6 + 2] == 1


def test_k6_buy_from_any_depot() -> None:
    s = knowing(6)
    s.players[0].silverlings = 2
    depot(s, 4, 2, "watchtower")
    s = play(s, "buy:4.2")
    assert s.players[0].storage == [tile("watchtower"), -1, -1] and s.players[0].silverlings == 0


def test_k7_every_scoring_animal_tile_scores_one_more() -> None:
    # The rules' example: 3 sheep into a pasture with 4 sheep score (3 + 1) + (4 + 1) = 9.
    s = knowing(7)
    s.players[0].dice = [5, 5]
    put(s, 0, {12: "bank", 11: "sheep4"})
    give(s, 0, "sheep3")
    s = play(s, "place:10@5")
    assert s.players[0].vp == 9


def test_k8_a_worker_changes_a_die_by_up_to_two() -> None:
    s = knowing(8)
    s.players[0].dice = [1, 1]  # 1 worker: depots 5, 6, 1, 2, 3 are in reach
    check(s)
    assert {m.split(":")[1][0] for m in legal(s) if m.startswith("take")} == {"1", "2", "3", "5", "6"}
    s = play(s, "take:3.1@1")
    assert s.players[0].workers == 0


@pytest.mark.parametrize("k, name, cell, die", [(9, "bank", 26, 4), (10, "ship", 18, 3), (10, "ship", 18, 1),
                                                (11, "mine", 25, 5), (11, "k20", 31, 3)])
def test_k9_k10_k11_free_change_when_placing(k: int, name: str, cell: int, die: int) -> None:
    s = knowing(k)
    s.players[0].dice, s.players[0].workers = [die, die], 0
    put(s, 0, {26: "church"} if cell == 31 else {})
    give(s, 0, name)
    assert f"place:{cell}@{die}" in legal(check(s))
    s.players[0].estate[12] = -1  # without the knowledge tile the die is one short
    s.discarded[knowledge(k)] += 1
    assert f"place:{cell}@{die}" not in legal(check(s))


def test_k12_free_change_when_taking() -> None:
    s = knowing(12)
    s.players[0].dice, s.players[0].workers = [2, 2], 0
    check(s)
    assert {m.split(":")[1][0] for m in legal(s) if m.startswith("take")} == {"1", "2", "3"}
    s = play(s, "take:3.1@2")
    assert s.players[0].workers == 0


def test_k13_k14_take_workers() -> None:
    s = knowing(13)
    s = play(s, "workers@1")
    assert (s.players[0].workers, s.players[0].silverlings) == (1 + 2, 1 + 1)
    s = knowing(14)
    s = play(s, "workers@1")
    assert (s.players[0].workers, s.players[0].silverlings) == (1 + 4, 1)


def test_k13_k14_apply_to_the_castles_action_but_not_the_boarding_house() -> None:
    s = fresh(2)
    put(s, 0, {13: "k13", 8: "k14", 12: "bank"})
    s.players[0].dice = [6, 6]
    give(s, 0, "castle")
    s = play(s, "place:7@6", "workers")
    assert (s.players[0].workers, s.players[0].silverlings) == (1 + 4, 1 + 1)
    s = fresh(2)
    put(s, 0, {13: "k13", 8: "k14"})
    s.players[0].dice = [3, 3]
    give(s, 0, "boarding_house")
    s = play(s, "place:26@3")
    assert (s.players[0].workers, s.players[0].silverlings) == (1 + 4, 1)


def _end(k: int, estate: dict[int, str], bonus_tiles: int = 0) -> int:
    """End points knowledge #k on space 13 adds for seat 0 (who sold goods 1 x2, 3 x1, 6 x4)."""
    s = knowing(k)
    put(s, 0, estate)
    sold(s, 0, g1=2, g3=1, g6=4)
    s.players[0].bonus[1] = bonus_tiles  # the mine bonus tile (seat 0 fills the mines)
    with_tile = end_points(check(s).players[0])
    s.players[0].estate[12] = -1
    return with_tile - end_points(s.players[0])


def test_k15_three_vp_per_colour_sold() -> None:
    assert _end(15, {}) == 3 * 3


@pytest.mark.parametrize("k, building", [(16, "warehouse"), (17, "watchtower"), (18, "carpenter"),
                                         (19, "church"), (20, "market"), (21, "boarding_house"),
                                         (22, "bank"), (23, "city_hall")])
def test_k16_to_k23_four_vp_per_building(k: int, building: str) -> None:
    other = "church" if building != "church" else "bank"
    estate = {12: building, 26: building, 18: "ship", 24: building, 23: other}  # three cities
    assert _end(k, estate) == 4 * 3


def test_k24_four_vp_per_animal_type() -> None:
    estate = {12: "bank", 11: "cows2", 6: "cows3", 10: "sheep2", 20: "ship", 21: "ship", 28: "pigs2"}
    assert _end(24, estate) == 4 * 3


def test_k25_one_vp_per_goods_tile_sold() -> None:
    assert _end(25, {}) == 7


def test_k26_two_vp_per_bonus_tile() -> None:
    assert _end(26, {25: "mine", 30: "mine", 34: "mine"}, bonus_tiles=1) == 2
