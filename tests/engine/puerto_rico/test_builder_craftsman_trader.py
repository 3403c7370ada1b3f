"""Builder (§3.3), Craftsman (§3.4) and Trader (§3.5), with the rules' worked numbers."""

from __future__ import annotations

import pytest

from meeplemind.engine.puerto_rico.data import BUILDING_IDS

from .helpers import KIND, build, fresh, goods, legal, pick, plant, play


def _price(s, player: int, name: str) -> int:  # type: ignore[no-untyped-def]
    return s._price(player, BUILDING_IDS[name])


def test_quarry_discount_worked_example() -> None:
    """Rules §3.3: with 3 occupied quarries (not the builder): 1, 3, 5 and 7 doubloons."""
    s = fresh(3)
    s.players[1].quarries = s.players[1].quarry_colonists = 3
    s.chooser = 0
    assert [_price(s, 1, b) for b in ("construction_hut", "office", "harbor", "city_hall")] == [1, 3, 5, 7]


def test_builder_privilege_and_unoccupied_quarries() -> None:
    s = fresh(3)
    s.players[0].quarries, s.players[0].quarry_colonists = 2, 1
    s.chooser = 0
    assert _price(s, 0, "small_market") == 0  # 1 - 1 (privilege) - 1 (quarry, capped at 1)
    assert _price(s, 0, "tobacco_storage") == 5 - 1 - 1


def test_university_factory_swap_option() -> None:
    s = fresh(3)
    s.chooser = 2
    assert (_price(s, 0, "factory"), _price(s, 0, "university")) == (7, 8)
    s.options["university_factory_swap"] = True
    assert (_price(s, 0, "factory"), _price(s, 0, "university")) == (8, 7)


def test_build_pays_takes_from_supply_one_of_each_type() -> None:
    s = fresh(3)
    s.players[0].doubloons = 10
    build(s, 0, "small_market")
    s = pick(s, "builder")
    assert "build:small_market" not in legal(s)
    assert "build:guild_hall" in legal(s)  # 10 - 1 (privilege) = 9 <= 10
    s.players[0].doubloons = 8
    assert "build:guild_hall" not in legal(s)
    s.players[0].doubloons = 9
    assert "build:harbor" in legal(s) and "build:wharf" in legal(s)
    s = play(s, "build:wharf")
    assert s.players[0].doubloons == 1 and s.players[0].buildings[BUILDING_IDS["wharf"]] == 0
    assert s.building_supply[BUILDING_IDS["wharf"]] == 1


def test_large_building_needs_two_spaces_and_twelfth_space_ends_game() -> None:
    s = fresh(3)
    p = s.players[0]
    p.doubloons = 30
    for name in ("small_market", "hacienda", "construction_hut", "small_warehouse", "hospice",
                 "office", "large_market", "large_warehouse", "factory", "university"):
        build(s, 0, name, colonists=0)
    s = pick(s, "builder")  # 10 spaces used: a large building still fits
    assert "build:city_hall" in legal(s)
    s = play(s, "build:city_hall")
    assert s.end_triggered
    s2 = fresh(3)
    s2.players[0].doubloons = 30
    for name in ("small_market", "hacienda", "construction_hut", "small_warehouse", "hospice",
                 "office", "large_market", "large_warehouse", "factory", "university", "harbor"):
        build(s2, 0, name, colonists=0)
    s2 = pick(s2, "builder")
    assert "build:city_hall" not in legal(s2) and "build:wharf" in legal(s2)


def test_university_puts_a_colonist_on_the_new_building() -> None:
    s = fresh(3)
    build(s, 0, "university")
    s.players[0].doubloons = 5
    supply = s.colonist_supply
    s = pick(s, "builder")
    s = play(s, "build:tobacco_storage")
    assert s.players[0].buildings[BUILDING_IDS["tobacco_storage"]] == 1
    assert s.colonist_supply == supply - 1


def test_production_capacity_needs_plantation_and_building_circles() -> None:
    """§3.4: 3 sugar plantations + a 3-circle mill with 2 colonists -> 2 sugar;
    coffee plantation without roaster -> nothing; corn needs no building."""
    s = fresh(3)
    p = 0
    plant(s, p, "sugar", 3)
    build(s, p, "sugar_mill", colonists=2)
    plant(s, p, "coffee", 1)
    plant(s, p, "corn", 2)
    s.players[p].plantation_colonists[KIND["indigo"]] = 0
    assert s.players[p].production() == [2, 0, 2, 0, 0]


def test_craftsman_supply_shortage_in_seat_order_and_privilege() -> None:
    s = fresh(3, governor=1)
    for seat in (0, 1, 2):
        plant(s, seat, "corn", 3)
    s.goods_supply[KIND["corn"]] = 5
    s = pick(s, "craftsman")  # seat 1 first: 3, seat 2: 2, seat 0: 0; privilege: none left
    assert [p.goods[KIND["corn"]] for p in s.players] == [0, 3, 2]
    assert s.current_player == 2


def test_craftsman_privilege_only_of_a_produced_kind() -> None:
    s = fresh(3)
    plant(s, 0, "corn", 1)
    build(s, 0, "small_indigo_plant")
    s.players[0].plantation_colonists[KIND["indigo"]] = 1  # the starting tile, now staffed
    s.colonist_supply -= 1
    s = pick(s, "craftsman")  # produced corn and indigo: choose the extra barrel
    assert legal(s) == ["craft:corn", "craft:indigo"]
    s = play(s, "craft:indigo")
    assert s.players[0].goods[:2] == [1, 2]


@pytest.mark.parametrize("kinds,income", [(0, 0), (1, 0), (2, 1), (3, 2), (4, 3), (5, 5)])
def test_factory_income_by_kinds_produced(kinds: int, income: int) -> None:
    s = fresh(3)
    build(s, 1, "factory")
    s.players[1].plantation_colonists[KIND["indigo"]] = 0
    s.colonist_supply += 1
    names = ["corn", "indigo", "sugar", "tobacco", "coffee"][:kinds]
    buildings = {"indigo": "small_indigo_plant", "sugar": "small_sugar_mill",
                 "tobacco": "tobacco_storage", "coffee": "coffee_roaster"}
    for name in names:
        plant(s, 1, name, 1)
        if name in buildings:
            build(s, 1, buildings[name], colonists=1)
    before = s.players[1].doubloons
    s = pick(s, "craftsman")
    assert s.players[1].doubloons - before == income


def test_trader_prices_privilege_markets_and_office() -> None:
    s = fresh(3)
    goods(s, 0, coffee=1)
    goods(s, 1, coffee=1, corn=1)
    build(s, 1, "small_market", "large_market")
    goods(s, 2, coffee=1)
    build(s, 2, "office")
    s = pick(s, "trader")
    s = play(s, "sell:coffee")
    assert s.players[0].doubloons == 2 + 4 + 1
    assert legal(s) == ["pass", "sell:corn"]  # coffee already in the house
    s = play(s, "sell:corn")
    assert s.players[1].doubloons == 2 + 0 + 3
    s = play(s, "sell:coffee")  # the office allows a second coffee
    assert s.players[2].doubloons == 2 + 4 and s.house == [1, 0, 0, 0, 2]


def test_trading_house_clears_only_when_full() -> None:
    s = fresh(4)
    for seat, kind in enumerate(["corn", "indigo", "sugar", "tobacco"]):
        goods(s, seat, **{kind: 1})
    s.players[3].goods[KIND["coffee"]] += 1
    s.goods_supply[KIND["coffee"]] -= 1
    s = pick(s, "trader")
    s = play(s, "sell:corn", "sell:indigo", "pass", "pass")
    assert s.house == [1, 1, 0, 0, 0] and s.phase == 0  # stays for the next trader phase
    s.current, s.picks = 0, 0
    s.role_taken = [False] * len(s.role_taken)
    s = pick(s, "trader")
    s = play(s, "sell:sugar", "sell:tobacco")  # seats 0 and 1 have nothing: skipped
    assert s.house == [0] * 5 and s.goods_supply[KIND["sugar"]] == 11  # full: cleared
