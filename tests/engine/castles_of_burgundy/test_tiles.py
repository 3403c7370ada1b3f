"""Tile effects and scoring during play (rules §7, §9): regions, colours, animals, castles,
ships and the turn order, mines and the eight buildings."""

from __future__ import annotations

from meeplemind.engine.castles_of_burgundy.state import (
    ST_CARPENTER, ST_CASTLE, ST_CHURCH, ST_CITY_HALL, ST_GOODS, ST_MARKET, ST_SHIP, ST_TURN,
    ST_WAREHOUSE,
)

from .helpers import (
    clear_depot_goods, depot, depot_goods, fresh, give, goods, legal, play, put, tile,
)


def test_completing_a_region_scores_its_size_and_the_phase_bonus() -> None:
    s = fresh(2)  # phase A: bonus 10
    s.players[0].dice = [3, 3]
    give(s, 0, "bank")
    s = play(s, "place:12@3")  # space 12 is a city of one space
    assert s.players[0].vp == 1 + 10 and s.players[0].silverlings == 1 + 2


def test_region_of_three_in_phase_c_and_the_first_mine_bonus() -> None:
    s = fresh(2)
    s.phase = 2  # C: bonus 6
    s.players[0].dice = [3, 3]
    put(s, 0, {25: "mine", 30: "mine"})
    give(s, 0, "mine")
    s = play(s, "place:34@3")
    assert s.players[0].vp == (6 + 6) + 5 and s.players[0].bonus[1] == 1  # region, first bonus (2p)


def test_region_of_five_in_phase_e() -> None:
    s = fresh(2)
    s.phase = 4  # E: bonus 2
    s.players[0].dice = [3, 3]
    put(s, 0, {26: "bank", 27: "church", 32: "market", 33: "carpenter"})
    give(s, 0, "watchtower")
    s = play(s, "place:37@3")
    assert s.players[0].vp == 15 + 2 + 4  # region, watchtower


def test_no_score_before_the_region_is_full() -> None:
    s = fresh(2)
    s.players[0].dice = [3, 3]
    give(s, 0, "church")
    s = play(s, "place:26@3", "pass")  # decline the church's tile
    assert s.players[0].vp == 0


def test_colour_bonuses_first_second_and_none_for_the_third() -> None:
    for n, first, second in ((2, 5, 2), (3, 6, 3), (4, 7, 4)):
        s = fresh(n)
        for p in range(n):
            s.players[p].dice = [3, 3]
            put(s, p, {25: "mine", 30: "mine"})
            give(s, p, "mine")
        for p in range(n):
            s = play(s, "place:34@3", "workers@3")
        region = 6 + 10
        expected = [region + first, region + second] + [region] * (n - 2)
        assert [p.vp for p in s.players] == expected
        assert [p.bonus[1] for p in s.players] == [1, 2] + [0] * (n - 2)


def test_start_castle_counts_for_the_castle_colour() -> None:
    s = fresh(2)
    s.players[0].dice = [5, 6]
    put(s, 0, {12: "bank", 7: "castle", 3: "castle"})
    give(s, 0, "castle")
    s = play(s, "place:2@5")  # castles 2, 3, 7 and the start castle 19: colour complete
    assert s.players[0].vp == (6 + 10) + 5 and s.players[0].bonus[0] == 1
    assert s.stage == ST_CASTLE


def test_animals_score_their_type_in_the_pasture() -> None:
    # The rules' example: 4 cows into a pasture holding 3 cows scores 7; another 4 cows then 11.
    s = fresh(2)
    s.players[0].dice, s.players[0].workers = [5, 5], 3
    put(s, 0, {12: "bank", 11: "cows3", 6: "pigs2"})
    give(s, 0, "cows4", "cows4")
    s = play(s, "place:10@5")
    assert s.players[0].vp == 4 + 3  # the pigs do not count
    s = play(s, "place:5@5")  # 5 -> 2: three workers
    assert s.players[0].vp == 7 + (4 + 4 + 3) and s.players[0].workers == 0


def test_castle_gives_an_extra_action_with_any_number() -> None:
    s = fresh(2)
    s.players[0].dice = [6, 6]
    put(s, 0, {12: "bank"})
    give(s, 0, "castle", "k10")
    depot(s, 4, 1, "ship")
    s = play(s, "place:7@6")
    assert s.stage == ST_CASTLE and s.current == 0
    moves = legal(s)
    assert "workers" in moves and "take:4.1" in moves and "place:13" in moves
    assert not [m for m in moves if "@" in m]
    s = play(s, "take:4.1")
    assert tile("ship") in s.players[0].storage and s.stage == ST_TURN and s.players[0].dice == [0, 6]
    s = fresh(2)
    s.players[0].dice = [6, 6]
    put(s, 0, {12: "bank"})
    give(s, 0, "castle")
    s = play(s, "place:7@6", "workers")
    assert s.players[0].workers == 1 + 2


def test_ship_takes_a_depots_goods_and_moves_up_the_turn_order() -> None:
    s = fresh(3)
    clear_depot_goods(s)
    depot_goods(s, 4, g2=2, g5=1)
    depot_goods(s, 6, g1=1)
    s.players[0].dice = [1, 1]
    s.players[1].dice = [2, 2]
    s.players[2].dice = [4, 4]
    give(s, 1, "ship")
    give(s, 2, "ship")
    s = play(s, "workers@1", "workers@1")  # seat 0
    s = play(s, "place:18@2")  # seat 1: a ship
    assert s.stage == ST_SHIP and legal(s) == ["ship:1", "ship:4", "ship:6"]  # ship:1 takes nothing
    s = play(s, "ship:4")
    assert s.players[1].goods == [0, 2, 0, 0, 1, 0] and s.depot_goods[3 * 6:4 * 6] == [0] * 6
    assert s.ranking == [1, 0, 2] and s.round_order == [0, 1, 2]  # the new order counts next round
    s = play(s, "workers@2")
    assert s.current == 2
    s = play(s, "place:20@4", "ship:6")  # seat 2 joins seat 1's space, on top
    assert s.ranking == [2, 1, 0] and s.players[2].goods[0] == 1
    s = play(s, "workers@4")
    assert s.round == 1 and s.round_order == [2, 1, 0] and s.current == 2


def test_ship_leaves_goods_that_do_not_fit_and_asks_which_new_colours() -> None:
    s = fresh(2)
    clear_depot_goods(s)
    goods(s, 0, g1=1)
    depot_goods(s, 3, g2=1, g3=2, g4=1, g1=2)
    s.players[0].dice = [2, 2]
    give(s, 0, "ship")
    s = play(s, "place:18@2", "ship:3")
    assert s.stage == ST_GOODS and legal(s) == ["goods:2", "goods:3"]  # two spaces, ascending
    s = play(s, "goods:2")
    assert legal(s) == ["goods:3", "goods:4"]
    s = play(s, "goods:4")
    assert s.players[0].goods == [3, 1, 0, 1, 0, 0]  # goods 1 always fit its own space
    assert s.depot_goods[2 * 6:3 * 6] == [0, 0, 2, 0, 0, 0] and s.stage == ST_TURN


def test_ship_with_full_goods_storage_takes_only_stored_colours() -> None:
    s = fresh(2)
    clear_depot_goods(s)
    goods(s, 0, g1=1, g3=1, g6=1)
    depot_goods(s, 2, g1=1, g2=1)
    depot_goods(s, 5, g4=1)
    s.players[0].dice = [2, 2]
    give(s, 0, "ship")
    s = play(s, "place:18@2")
    assert legal(s) == ["ship:1", "ship:2"]  # every other depot takes nothing: one choice
    s = play(s, "ship:2")
    assert s.players[0].goods == [2, 0, 1, 0, 0, 1] and s.depot_goods[6:12] == [0, 1, 0, 0, 0, 0]


def test_building_warehouse_sells_one_colour() -> None:
    s = fresh(2)
    s.players[0].dice = [3, 3]
    goods(s, 0, g2=2, g5=1)
    give(s, 0, "warehouse")
    s = play(s, "place:26@3")
    assert s.stage == ST_WAREHOUSE and legal(s) == ["sell:2", "sell:5"]
    s = play(s, "sell:2")
    p = s.players[0]
    assert p.goods == [0, 0, 0, 0, 1, 0] and p.sold[1] == 2 and p.vp == 4 and p.silverlings == 2


def _building(name: str, stage: int) -> list[str]:
    s = fresh(2)
    s.players[0].dice = [3, 3]
    give(s, 0, name)
    depot(s, 1, 1, "bank")
    depot(s, 1, 2, "ship")
    depot(s, 2, 1, "k4")
    depot(s, 2, 2, "castle")
    depot(s, 3, 1, "sheep2")
    depot(s, 5, 1, "mine")
    s = play(s, "place:26@3")
    assert s.stage == stage
    return legal(s)


def test_building_carpenter_church_market_take_from_the_numbered_depots() -> None:
    carpenter = _building("carpenter", ST_CARPENTER)
    assert "take:1.1" in carpenter and "take:1.2" not in carpenter and "pass" in carpenter
    church = _building("church", ST_CHURCH)
    assert {"take:2.1", "take:2.2", "take:5.1"} <= set(church) and "take:1.2" not in church
    market = _building("market", ST_MARKET)
    assert {"take:1.2", "take:3.1"} <= set(market) and "take:1.1" not in market
    s = fresh(2)
    s.players[0].dice = [3, 3]
    give(s, 0, "market")
    depot(s, 3, 1, "sheep2")
    s = play(s, "place:26@3", "take:3.1")
    assert s.players[0].storage == [tile("sheep2"), -1, -1] and s.depots[8] == -1


def test_building_boarding_house_bank_watchtower() -> None:
    for name, field, gain in (("boarding_house", "workers", 4), ("bank", "silverlings", 2),
                              ("watchtower", "vp", 4)):
        s = fresh(2)
        s.players[0].dice = [3, 3]
        give(s, 0, name)
        before = getattr(s.players[0], field)
        s = play(s, "place:26@3")
        assert getattr(s.players[0], field) - before == gain


def test_building_city_hall_adds_a_stored_tile_without_a_die() -> None:
    s = fresh(2)
    s.players[0].dice = [3, 3]
    give(s, 0, "city_hall", "k9")
    s = play(s, "place:26@3")
    assert s.stage == ST_CITY_HALL and legal(s) == ["pass", "place:13", "place:31"]
    s = play(s, "place:31")  # a knowledge space for a 2, no die needed
    assert s.players[0].estate[30] == tile("k9") and s.players[0].dice == [0, 3]
