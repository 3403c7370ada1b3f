"""Expansion I in the Craftsman, Trader and Captain phases (rules §5b and the decision
table): Aqueduct, Specialty Factory, Trading Post, Union Hall, Lighthouse, Small Wharf and
Storehouse, with the rules' worked numbers."""

from __future__ import annotations

import itertools

import pytest

from meeplemind.engine import Rng
from meeplemind.engine.puerto_rico import State
from meeplemind.engine.puerto_rico.data import BUILDING_IDS

from .helpers import (
    KIND, build, chips, fresh_expansion, goods, legal, pick, plant, play, with_buildings,
)


def _ship(s: State, cap: int, kind: str, count: int) -> None:
    i = s.ship_capacity.index(cap)
    s.ship_kind[i], s.ship_count[i] = KIND[kind], count
    s.goods_supply[KIND[kind]] -= count


def _fill_ships(s: State) -> None:
    """Every cargo ship full (of coffee, tobacco, sugar): nobody can load."""
    for cap, kind in zip(s.ship_capacity, ("coffee", "tobacco", "sugar")):
        _ship(s, cap, kind, cap)


def _staff_start(s: State, player: int) -> None:
    """Put a colonist on the player's starting indigo plantation."""
    assert s.players[player].plantations[KIND["indigo"]] == 1
    s.players[player].plantation_colonists[KIND["indigo"]] += 1
    s.colonist_supply -= 1


# ------------------------------------------------------------------- Aqueduct
def test_aqueduct_no_bonus_without_large_plant_production() -> None:
    """§5b: 0 indigo from the large plant and 1 sugar from the small mill: no bonus."""
    s = fresh_expansion(3, governor=0)  # seat 0 is the craftsman, seat 1 the Aqueduct owner
    build(s, 1, "aqueduct", "indigo_plant", "small_sugar_mill")
    plant(s, 1, "sugar", 1)  # the starting indigo plantation stays empty: no indigo
    s = pick(s, "craftsman")
    assert s.players[1].goods == [0, 0, 1, 0, 0]


def test_aqueduct_adds_one_indigo_and_one_sugar() -> None:
    """§5b: 1 indigo (large plant) and 3 sugar (large mill) give 2 indigo and 4 sugar."""
    s = fresh_expansion(3, governor=0)
    build(s, 1, "aqueduct", "sugar_mill")
    build(s, 1, "indigo_plant", colonists=1)
    _staff_start(s, 1)
    plant(s, 1, "sugar", 3)
    s = pick(s, "craftsman")
    assert s.players[1].goods == [0, 2, 4, 0, 0]


def test_aqueduct_needs_its_colonist_and_the_supply() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 1, "aqueduct", colonists=0)
    build(s, 1, "indigo_plant", colonists=1)
    _staff_start(s, 1)
    s2 = s.copy()
    assert pick(s, "craftsman").players[1].goods[KIND["indigo"]] == 1  # unoccupied: no bonus
    s2.players[1].buildings[BUILDING_IDS["aqueduct"]] = 1
    s2.colonist_supply -= 1
    s2.goods_supply[KIND["indigo"]] -= 10  # one barrel left: the produced one
    assert pick(s2, "craftsman").players[1].goods[KIND["indigo"]] == 1


# ----------------------------------------------------------- Specialty Factory
def _specialty_player(s: State, player: int) -> None:
    """5 corn, 4 indigo and 2 sugar of production (rules example)."""
    build(s, player, "specialty_factory", "indigo_plant", "small_indigo_plant")
    build(s, player, "sugar_mill", colonists=2)
    _staff_start(s, player)
    plant(s, player, "corn", 5)
    plant(s, player, "indigo", 3)
    plant(s, player, "sugar", 2)


def test_specialty_factory_counts_the_largest_kind_but_corn() -> None:
    """Decision table: 5 corn, 4 indigo, 2 sugar -> 4 - 1 = 3 doubloons."""
    s = fresh_expansion(3, governor=0)  # seat 1 is not the craftsman: no privilege barrel
    _specialty_player(s, 1)
    before = s.players[1].doubloons
    s = pick(s, "craftsman")
    assert s.players[1].goods == [5, 4, 2, 0, 0]
    assert s.players[1].doubloons == before + 3


def test_specialty_factory_counts_aqueduct_privilege_and_library_barrels() -> None:
    """Seed 001: 4 indigo + 1 Aqueduct + 2 Library barrels - 1 = 6 doubloons."""
    s = fresh_expansion(3, governor=0)
    _specialty_player(s, 0)
    build(s, 0, "aqueduct", "library")
    before = s.players[0].doubloons
    s = pick(s, "craftsman")  # corn 5, indigo 4 + 1, sugar 2 + 1 (Aqueduct): two privilege barrels
    assert s.players[0].goods == [5, 5, 3, 0, 0] and s.players[0].doubloons == before
    assert legal(s) == ["craft:corn", "craft:indigo", "craft:sugar"]
    s = play(s, "craft:indigo")
    assert legal(s) == ["craft:indigo", "craft:sugar"]  # non-decreasing: corn is behind
    s = play(s, "craft:indigo")
    assert s.players[0].goods == [5, 7, 3, 0, 0]
    assert s.players[0].doubloons == before + 6 and s.phase == 0


def test_specialty_factory_income_is_never_negative() -> None:
    s = fresh_expansion(3, governor=1)
    build(s, 0, "specialty_factory")
    plant(s, 0, "corn", 4)
    before = s.players[0].doubloons
    assert pick(s, "craftsman").players[0].doubloons == before


# -------------------------------------------------------------------- Library
def test_library_craftsman_takes_two_barrels_as_many_as_the_supply_has() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 0, "library")
    plant(s, 0, "corn", 2)
    s.goods_supply[KIND["corn"]] = 3  # 2 produced, 1 left for the privilege
    s = pick(s, "craftsman")  # one barrel is all there is: taken automatically
    assert s.players[0].goods[KIND["corn"]] == 3 and s.phase == 0


def test_library_trader_and_trading_post_privilege() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 0, "library", "trading_post")
    goods(s, 0, sugar=1, tobacco=1)
    s = pick(s, "trader")
    assert legal(s) == ["pass", "post:sugar", "post:tobacco", "sell:sugar", "sell:tobacco"]
    before = s.players[0].doubloons
    assert play(s, "sell:tobacco").players[0].doubloons == before + 3 + 2
    assert play(s, "post:sugar").players[0].doubloons == before + 2 + 2


# --------------------------------------------------------------- Trading Post
def test_trading_post_sells_when_the_house_is_full_and_keeps_the_house() -> None:
    s = fresh_expansion(3, governor=0)
    s.house = [1, 1, 1, 1, 0]
    for k in range(4):
        s.goods_supply[k] -= 1
    build(s, 1, "trading_post")
    goods(s, 1, coffee=1, corn=2)
    goods(s, 2, coffee=1)
    s = pick(s, "trader")  # the trader (0) and player 2 can only pass: player 1 decides
    assert s.current_player == 1
    assert legal(s) == ["pass", "post:coffee", "post:corn"]
    before, supply = s.players[1].doubloons, s.goods_supply[KIND["coffee"]]
    s = play(s, "post:coffee")
    assert s.players[1].doubloons == before + 4  # no privilege (not the trader)
    assert s.goods_supply[KIND["coffee"]] == supply + 1
    assert s.players[2].goods[KIND["coffee"]] == 1
    assert s.house == [0, 0, 0, 0, 0]  # the full house is emptied at the end of the phase


def test_trading_post_pays_no_market_bonus_but_the_house_does() -> None:
    s = fresh_expansion(3, governor=0, buildings=with_buildings(small_market="aqueduct"))
    build(s, 0, "trading_post", "small_market")
    goods(s, 0, indigo=1)
    s.house[KIND["indigo"]] = 1  # indigo is in the house: only the post takes it
    s.goods_supply[KIND["indigo"]] -= 1
    s = pick(s, "trader")
    assert legal(s) == ["pass", "post:indigo"]
    assert play(s, "post:indigo").players[0].doubloons == 2 + 1 + 1  # price + privilege


def test_trading_post_and_office_both_in_the_game() -> None:
    s = fresh_expansion(3, governor=1, buildings=with_buildings(office="church"))
    build(s, 0, "trading_post", "office")
    goods(s, 0, sugar=1)
    s.house[KIND["sugar"]] = 1
    s.goods_supply[KIND["sugar"]] -= 1
    s = pick(s, "trader")  # players 1 and 2 have nothing to sell: they pass automatically
    assert s.current_player == 0 and legal(s) == ["pass", "post:sugar", "sell:sugar"]


def test_the_phase_goes_on_after_the_house_fills_for_trading_post_owners() -> None:
    s = fresh_expansion(3, governor=0)
    s.house = [1, 1, 1, 0, 0]
    for k in range(3):
        s.goods_supply[k] -= 1
    goods(s, 0, coffee=1)
    build(s, 2, "trading_post")
    goods(s, 2, corn=1)
    s = play(pick(s, "trader"), "sell:coffee")  # the house is full; player 1 must pass
    assert s.current_player == 2 and legal(s) == ["pass", "post:corn"]


# ----------------------------------------------------------------- Union Hall
def test_union_hall_pays_pairs_of_each_kind_at_the_start_of_the_captain() -> None:
    """Decision table: 3 corn, 2 indigo, 1 coffee -> 1 + 1 + 0 = 2 VP."""
    s = fresh_expansion(3, governor=0)
    _fill_ships(s)
    build(s, 1, "union_hall")
    goods(s, 1, corn=3, indigo=2, coffee=1)
    supply = s.vp_supply
    s = pick(s, "captain")  # nobody can load: storage
    assert s.players[1].vp == 2 and s.vp_supply == supply - 2


def test_union_hall_chips_can_end_the_game() -> None:
    s = fresh_expansion(3, governor=0)
    _fill_ships(s)
    build(s, 1, "union_hall")
    goods(s, 1, corn=4)
    chips(s, 2, s.vp_supply - 1)
    s = pick(s, "captain")
    assert s.vp_supply == -1 and s.end_triggered


# ----------------------------------------------------------------- Lighthouse
def test_lighthouse_doubloon_per_load_and_for_the_captain() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 0, "lighthouse")
    build(s, 1, "lighthouse")
    goods(s, 1, corn=2)
    before = [p.doubloons for p in s.players]
    s = pick(s, "captain")  # the captain (0) loads nothing but gets 1; player 1 loads corn
    assert s.players[0].doubloons == before[0] + 1 and s.current_player == 1
    s = play(s, "load:corn@4")
    assert s.players[1].doubloons == before[1] + 1 and s.players[1].vp == 2
    assert s.players[0].doubloons == before[0] + 1


# ---------------------------------------------------------------- Small Wharf
def _small_wharf_captain() -> State:
    """The captain (0) with Small Wharf, Harbor and Lighthouse; the cargo ships are full."""
    s = fresh_expansion(3, governor=0, buildings=with_buildings(harbor="specialty_factory"))
    _fill_ships(s)
    build(s, 0, "small_wharf", "harbor", "lighthouse")
    goods(s, 0, corn=3, indigo=1, sugar=1)
    return pick(s, "captain")


def test_small_wharf_ships_any_kinds_one_barrel_at_a_time() -> None:
    s = _small_wharf_captain()
    assert legal(s) == ["pass", "small_wharf:corn", "small_wharf:indigo", "small_wharf:sugar"]
    one = play(s, "small_wharf:indigo")
    assert legal(one) == ["pass", "small_wharf:sugar"]  # kinds in non-decreasing order
    four = play(s, "small_wharf:corn", "small_wharf:corn", "small_wharf:corn", "small_wharf:sugar")
    assert four.players[0].goods == [0, 1, 0, 0, 0]  # only pass was left: played for him


def test_small_wharf_counts_as_a_load() -> None:
    """1 VP per 2 barrels, + Harbor 1, + the captain's privilege 1, + the Lighthouse doubloon
    (the captain also got the Lighthouse's start-of-phase doubloon)."""
    s = _small_wharf_captain()
    doubloons = s.players[0].doubloons
    one = play(s, "small_wharf:indigo", "pass")
    assert one.players[0].vp == 0 + 1 + 1 and one.players[0].doubloons == doubloons + 1
    four = play(s, "small_wharf:corn", "small_wharf:corn", "small_wharf:corn", "small_wharf:sugar")
    assert four.players[0].vp == 2 + 1 + 1 and four.vp_supply == s.vp_supply - 4


def test_small_wharf_instead_of_a_load_once_per_phase() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 0, "small_wharf")
    goods(s, 0, corn=2, coffee=3)
    s = pick(s, "captain")  # a load (every empty ship takes all of a kind) or the Small Wharf
    assert legal(s) == ["load:coffee@4", "load:coffee@5", "load:coffee@6", "load:corn@4",
                        "load:corn@5", "load:corn@6", "small_wharf:coffee", "small_wharf:corn"]
    s = play(s, "small_wharf:coffee", "small_wharf:coffee", "small_wharf:coffee")
    assert s.players[0].vp == 1 + 1 and s.players[0].small_wharf_done  # 3 barrels + captain
    # corn must go on a ship at his next turn: no second Small Wharf, no pass
    assert s.current_player == 0 and legal(s) == ["load:corn@4", "load:corn@5", "load:corn@6"]
    assert play(s, "load:corn@5").players[0].vp == 2 + 2  # the privilege was already used


def test_small_wharf_and_wharf_both_in_one_phase() -> None:
    s = fresh_expansion(3, governor=0, buildings=with_buildings(wharf="union_hall"))
    _fill_ships(s)
    build(s, 0, "small_wharf", "wharf")
    goods(s, 0, corn=3, indigo=2)
    s = pick(s, "captain")
    assert legal(s) == ["pass", "small_wharf:corn", "small_wharf:indigo", "wharf:corn", "wharf:indigo"]
    s = play(s, "wharf:corn")  # 3 VP + captain 1; then the Small Wharf on the next turn
    assert s.players[0].vp == 4 and legal(s) == ["pass", "small_wharf:indigo"]
    s = play(s, "small_wharf:indigo", "small_wharf:indigo")  # 2 barrels: 1 VP
    assert s.players[0].vp == 5 and s.players[0].goods == [0, 0, 0, 0, 0]


def test_a_pass_without_a_load_ends_both_wharves_for_the_phase() -> None:
    s = fresh_expansion(3, governor=0, buildings=with_buildings(wharf="union_hall"))
    _fill_ships(s)
    build(s, 0, "small_wharf", "wharf")
    goods(s, 0, corn=3, indigo=2)
    s = play(pick(s, "captain"), "pass")
    assert s.phase == 7 and s.current_player == 0  # storage: keep one barrel


def test_library_captain_gets_two_for_the_first_load() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 0, "library")
    goods(s, 0, corn=2, indigo=1)
    s = play(pick(s, "captain"), "load:corn@4")
    assert s.players[0].vp == 2 + 2


# ------------------------------------------------------------------ Storehouse
def _storage_outcomes(s: State) -> list[tuple[int, ...]]:
    """The goods of the current player after every storage move sequence (depth-first);
    distinct moves always lead to distinct positions."""
    player, out = s.current_player, []

    def walk(t: State) -> None:
        if t.phase != 7 or t.current_player != player:
            out.append(tuple(t.players[player].goods))
            return
        children = [t.apply(m, Rng(0)) for m in t.legal_moves()]
        assert len({str(c.to_dict()) for c in children}) == len(children), "two moves, one position"
        for child in children:
            walk(child)

    walk(s)
    return out


def _expected_outcomes(held: list[int], warehouses: int, barrels: int) -> set[tuple[int, ...]]:
    """Whole kinds in warehouses, then as many free barrels as allowed (independent count)."""
    kinds = [k for k in range(5) if held[k]]
    out = set()
    for chosen in _combinations(kinds, min(warehouses, len(kinds))):
        rest = [k for k in kinds if k not in chosen]
        total = min(barrels, sum(held[k] for k in rest))
        for keep in _vectors(held, rest):
            if sum(keep) == total:
                out.add(tuple(held[k] if k in chosen else keep[k] for k in range(5)))
    return out


def _combinations(items: list[int], r: int) -> list[tuple[int, ...]]:
    return list(itertools.combinations(items, r))


def _vectors(held: list[int], rest: list[int]) -> list[list[int]]:
    ranges = [range(held[k] + 1) if k in rest else range(1) for k in range(5)]
    return [list(v) for v in itertools.product(*ranges)]


@pytest.mark.parametrize("held,large_warehouse", [
    ([3, 2, 1, 0, 0], False), ([3, 2, 1, 5, 2], True), ([1, 1, 1, 1, 1], True), ([6, 0, 0, 0, 1], False),
])
def test_storehouse_keeps_four_barrels_every_outcome(held: list[int], large_warehouse: bool) -> None:
    """Every outcome is reachable; barrels kept in another order reach the same outcome
    (a position's choices so far may come in any order, so the rest cannot be unique)."""
    buildings = with_buildings(large_warehouse="small_wharf") if large_warehouse else None
    s = fresh_expansion(3, governor=0, **({"buildings": buildings} if buildings else {}))
    _fill_ships(s)
    build(s, 0, "storehouse", *(["large_warehouse"] if large_warehouse else []))
    goods(s, 0, **{g: n for g, n in zip(("corn", "indigo", "sugar", "tobacco", "coffee"), held) if n})
    s = pick(s, "captain")
    outcomes = _storage_outcomes(s) if s.current_player == 0 and s.phase == 7 else [tuple(held)]
    assert set(outcomes) == _expected_outcomes(held, 2 if large_warehouse else 0, 4)


def test_storehouse_example_moves() -> None:
    s = fresh_expansion(3, governor=0)
    _fill_ships(s)
    build(s, 0, "storehouse")
    goods(s, 0, corn=3, indigo=2, sugar=1)
    s = pick(s, "captain")  # every way to keep 4 barrels keeps a corn: kept for him
    assert s.kept == [1, 0, 0, 0, 0] and legal(s) == ["keep:corn", "keep:indigo"]
    after_indigo = play(s, "keep:indigo")  # corn may still come after indigo (any order)
    assert after_indigo.kept == [1, 1, 0, 0, 0] and legal(after_indigo) == ["keep:corn", "keep:indigo"]
    assert play(after_indigo, "keep:indigo", "keep:sugar").players[0].goods == [1, 2, 1, 0, 0]
    s = play(s, "keep:corn")
    assert legal(s) == ["keep:corn", "keep:indigo"]
    assert play(s, "keep:indigo", "keep:sugar").players[0].goods == [2, 1, 1, 0, 0]

