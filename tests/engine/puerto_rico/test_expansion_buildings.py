"""Expansion I in the Settler, Mayor and Builder phases and at the game end (rules §5b
and the decision table): Forest House and forests, Black Market, Church, Guest House,
Library, Cloister, Statue, VP chips running out, with the rules' worked numbers."""

from __future__ import annotations

import pytest

from meeplemind.engine import PositionError
from meeplemind.engine.puerto_rico import State
from meeplemind.engine.puerto_rico.data import BUILDING_IDS
from meeplemind.engine.puerto_rico.expansion import ExpansionState
from meeplemind.engine.puerto_rico.moves import SLOT_BUILDING, SLOT_QUARRY
from meeplemind.native import NativeDecodeError, NativeGame

from .helpers import (
    KIND, build, chips, forests, fresh_expansion, goods, legal, pick, plant, play, with_buildings,
)


def _faceup(s: State, **counts: int) -> None:
    """Set the face-up plantations (the tiles come from and go back to the stack)."""
    for k in range(5):
        s.deck[k] += s.faceup[k]
        s.faceup[k] = 0
    for name, n in counts.items():
        s.deck[KIND[name]] -= n
        s.faceup[KIND[name]] += n


def _colonists(s: State, player: int, n: int) -> None:
    s.colonist_supply -= n
    s.players[player].san_juan += n


# ------------------------------------------------------------- Forest House
def test_forest_house_takes_a_face_up_plantation_as_a_forest() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 0, "forest_house")
    _faceup(s, coffee=1, corn=3)
    s = pick(s, "settler")
    assert legal(s) == ["forest:coffee", "forest:corn", "pass", "settle:coffee", "settle:corn",
                        "settle:quarry"]
    s = play(s, "forest:coffee")
    p = s.players[0]
    assert p.forests == 1 and p.plantations[KIND["coffee"]] == 0 and s.forest_supply == 11
    assert s.faceup[KIND["coffee"]] == 0 and s.discard[KIND["coffee"]] == 1  # the tile is discarded
    assert p.island_used() == 2


def test_forests_need_an_occupied_forest_house_and_a_forest_left() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 0, "forest_house", colonists=0)
    build(s, 1, "forest_house")
    forests(s, 2, 12)
    _faceup(s, corn=4)
    s = pick(s, "settler")
    assert legal(s) == ["pass", "settle:corn", "settle:quarry"]
    assert "forest:corn" not in legal(play(s, "pass"))


def test_forest_house_discount_rules_example() -> None:
    """Seed 001: 8 forests + 3 occupied quarries + builder, large building: 10 - 1 - 3 - 4 = 2."""
    s = fresh_expansion(3, governor=0)
    build(s, 0, "forest_house")
    forests(s, 0, 8)
    s.quarry_supply -= 3
    s.players[0].quarries = s.players[0].quarry_colonists = 3
    s.colonist_supply -= 3
    s = pick(s, "builder")
    assert s._price(0, BUILDING_IDS["cloister"]) == 2
    assert s._price(0, BUILDING_IDS["aqueduct"]) == 0  # never below 0


def test_forest_house_discount_has_no_column_cap() -> None:
    """§5b: 6 forests + 2 occupied quarries + builder, Large Warehouse: 6 - 1 - 2 - 3 = 0;
    7 forests count as 6 (pairs)."""
    s = fresh_expansion(3, governor=0, buildings=with_buildings(large_warehouse="small_wharf"))
    build(s, 0, "forest_house")
    forests(s, 0, 7)
    s.quarry_supply -= 2
    s.players[0].quarries = s.players[0].quarry_colonists = 2
    s.colonist_supply -= 2
    s = pick(s, "builder")
    assert s._price(0, BUILDING_IDS["large_warehouse"]) == 0
    assert s._price(0, BUILDING_IDS["library"]) == 8 - 1 - 2 - 3
    assert s._price(1, BUILDING_IDS["library"]) == 8  # not the builder, no forests


def test_hacienda_tile_may_become_a_forest_after_seeing_it() -> None:
    s = fresh_expansion(3, governor=0, buildings=with_buildings(hacienda="black_market"))
    build(s, 0, "forest_house", "hacienda")
    _faceup(s, sugar=4)
    s = pick(s, "settler")
    assert "hacienda" in legal(s)
    s = play(s, "hacienda", seed=3)
    tile = s.hacienda_tile
    assert tile >= 0 and legal(s) == ["hacienda:forest", "hacienda:plant"]
    planted = play(s, "hacienda:plant")
    assert planted.players[0].plantations[tile] == 1 + (tile == KIND["indigo"])
    forest = play(s, "hacienda:forest")
    assert forest.players[0].forests == 1 and forest.discard[tile] == 1 and forest.hacienda_tile == -1
    # then the usual face-up pick (or forest), and no second Hacienda draw
    assert legal(forest) == ["forest:sugar", "pass", "settle:quarry", "settle:sugar"]


def test_hacienda_without_a_forest_house_places_the_tile_at_once() -> None:
    s = fresh_expansion(3, governor=0, buildings=with_buildings(hacienda="black_market"))
    build(s, 0, "hacienda")
    s = play(pick(s, "settler"), "hacienda", seed=3)
    assert s.hacienda_tile == -1 and sum(s.players[0].plantations) == 2


def test_hospice_colonist_for_a_forest_goes_to_san_juan() -> None:
    s = fresh_expansion(3, governor=0, buildings=with_buildings(hospice="guest_house"))
    build(s, 0, "forest_house", "hospice")
    _faceup(s, corn=4)
    s = play(pick(s, "settler"), "forest:corn")
    assert s.players[0].san_juan == 1 and s.players[0].forests == 1


def test_residence_counts_forests() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 0, "residence")
    forests(s, 0, 10)  # + the starting plantation: 11 island spaces
    assert s.scores()[0] == 4 + 6


# ------------------------------------------------------------------- Library
def test_library_settler_takes_one_more_tile_after_everyone() -> None:
    s = fresh_expansion(3, governor=0, buildings=with_buildings(hospice="guest_house"))
    build(s, 0, "library", "hospice")
    _faceup(s, corn=2, coffee=1, sugar=1)
    s = play(pick(s, "settler"), "settle:quarry")  # the privilege: a quarry, with a Hospice colonist
    assert s.players[0].quarry_colonists == 1
    s = play(s, "settle:coffee", "settle:sugar")  # players 1 and 2
    assert s.current_player == 0 and s.turn == 3
    assert legal(s) == ["pass", "settle:corn"]  # no second quarry without a Construction Hut
    s = play(s, "settle:corn")
    p = s.players[0]
    assert p.plantations[KIND["corn"]] == 1 and p.plantation_colonists[KIND["corn"]] == 0  # no Hospice
    assert s.phase == 0 and sum(s.faceup) == 4  # the phase is over, new tiles drawn


def test_library_settler_quarry_through_a_construction_hut_only_after_a_plantation() -> None:
    """Decision table "Library as settler": never two quarries in one Settler phase."""
    s = fresh_expansion(3, governor=0, buildings=with_buildings(construction_hut="black_market"))
    build(s, 0, "library", "construction_hut")
    _faceup(s, corn=4)
    first_quarry = play(pick(s, "settler"), "settle:quarry", "pass", "pass")
    assert first_quarry.current_player == 0 and first_quarry.turn == 3
    assert legal(first_quarry) == ["pass", "settle:corn"]  # no second quarry
    done = play(first_quarry, "settle:corn")
    assert done.players[0].quarries == 1 and done.phase == 0 and done.last_slot == 0
    first_plantation = play(pick(s, "settler"), "settle:corn", "pass", "pass")
    assert legal(first_plantation) == ["pass", "settle:corn", "settle:quarry"]
    assert play(first_plantation, "settle:quarry").players[0].quarries == 1


def test_library_quarry_mark_is_read_and_checked_by_both_decoders() -> None:
    """The settler's first quarry is kept in ``progress.last_slot`` until his Library tile;
    a position may carry it only then (both readers)."""
    native = NativeGame("puerto-rico")
    s = fresh_expansion(3, governor=0, buildings=with_buildings(construction_hut="black_market"))
    build(s, 0, "library", "construction_hut")
    _faceup(s, corn=4)
    waiting = play(pick(s, "settler"), "settle:quarry", "pass", "pass")
    assert waiting.last_slot == SLOT_QUARRY and waiting.to_dict()["progress"]["last_slot"] == "quarry"
    again = State.from_dict(waiting.to_dict())
    assert again.legal_action_ids() == waiting.legal_action_ids()
    assert native.legal_moves(native.decode(waiting.encode())).tolist() == waiting.legal_action_ids()
    before = play(pick(s, "settler"), "settle:corn")  # his first tile a plantation: no mark
    before.last_slot = SLOT_QUARRY
    with pytest.raises(PositionError, match="last_slot"):
        State.from_dict(before.to_dict())
    with pytest.raises(NativeDecodeError):
        native.decode(before.encode())


def test_library_settler_may_take_two_forests() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 0, "library", "forest_house")
    _faceup(s, corn=4)
    s = play(pick(s, "settler"), "forest:corn", "pass", "pass", "forest:corn")
    assert s.players[0].forests == 2 and s.forest_supply == 10
    assert s.discard[KIND["corn"]] == 4  # 2 under the forests, 2 left face up at the end


def test_library_mayor_takes_two_colonists() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 0, "library")
    s = pick(s, "mayor")  # his Library colonist, 2 from the supply, 1 of the 3 on the ship
    assert s.players[0].colonists() == 1 + 2 + 1


def test_library_builder_discount_and_prospector() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 0, "library")
    assert pick(s, "builder")._price(0, BUILDING_IDS["union_hall"]) == 9 - 2
    s4 = fresh_expansion(4, governor=0)
    build(s4, 0, "library")
    before = s4.players[0].doubloons
    assert pick(s4, "prospector").players[0].doubloons == before + 2


# --------------------------------------------------------------- Black Market
def _black_market(doubloons: int) -> ExpansionState:
    """Builder 0 with an occupied Black Market, a San Juan colonist, a corn barrel, a chip."""
    s = fresh_expansion(3, governor=0)
    build(s, 0, "black_market")
    s.players[0].doubloons = doubloons
    _colonists(s, 0, 1)
    goods(s, 0, corn=1)
    chips(s, 0, 1)
    return pick(s, "builder")


def test_black_market_only_covers_a_shortfall() -> None:
    s = _black_market(doubloons=4)  # the builder pays 1 less: Library 7, Union Hall 8
    assert "build:library" in legal(s)  # short 3: one colonist, one barrel, one VP chip
    assert "build:union_hall" not in legal(s)  # short 4: more than the Black Market covers
    t = play(s, "build:trading_post")  # price 4: no shortfall, no give-up
    assert t.players[0].doubloons == 0 and t.players[0].vp == 1 and t.current_player == 1


def test_black_market_gives_up_one_of_each_in_order() -> None:
    s = play(_black_market(doubloons=4), "build:library")  # short 3: all three, forced
    p = s.players[0]
    assert p.buildings[BUILDING_IDS["library"]] == 0 and s.current_player == 1
    assert p.doubloons == 0 and p.vp == 0 and p.goods == [0] * 5 and p.san_juan == 0
    assert (s.colonist_supply, s.vp_supply) == (55 - 1 - 1 + 1, 75 - 1 + 1)


def test_black_market_give_up_choices_are_canonical() -> None:
    s = play(_black_market(doubloons=6), "build:library")  # short 1: one give-up
    assert legal(s) == ["give:colonist@san_juan", "give:corn", "give:vp"]
    supply = (s.colonist_supply, s.goods_supply[0], s.vp_supply)
    t = play(s, "give:vp")
    assert (t.colonist_supply, t.goods_supply[0], t.vp_supply) == (supply[0], supply[1], supply[2] + 1)
    assert t.players[0].doubloons == 0 and t.players[0].owns(BUILDING_IDS["library"])
    s = play(_black_market(doubloons=5), "build:library")  # short 2: the VP chip cannot come first
    assert legal(s) == ["give:colonist@san_juan", "give:corn"]
    assert legal(play(s, "give:colonist@san_juan")) == ["give:corn", "give:vp"]
    t = play(s, "give:corn")  # then the VP chip is the only category left: forced
    assert t.players[0].owns(BUILDING_IDS["library"]) and t.players[0].san_juan == 1
    assert t.players[0].vp == 0 and t.players[0].doubloons == 0


def _black_market_owner(s: ExpansionState, seat: int) -> None:
    """An occupied Black Market, University, Church, Library, Forest House and Guest House
    (2 guests), a staffed corn plantation, a San Juan colonist, a barrel and a chip."""
    build(s, seat, "black_market", "university", "church", "library", "forest_house", "guest_house")
    plant(s, seat, "corn", 1)
    _colonists(s, seat, 1)
    goods(s, seat, corn=1)
    chips(s, seat, 1)
    s.players[seat].doubloons = 0


def _quarries(s: State, seat: int, n: int) -> None:
    s.quarry_supply -= n
    s.players[seat].quarries = s.players[seat].quarry_colonists = n
    s.colonist_supply -= n


def test_black_market_keeps_colonists_whose_builder_function_is_used() -> None:
    """The builder, with 2 forests and 2 occupied quarries, builds the Lighthouse (column 3):
    not the Black Market's colonist, the University's, the Church's (1 chip), the Library's
    (its owner builds), the Forest House's (2 forests) nor a quarry's (both discount)."""
    s = fresh_expansion(3, governor=0, buildings=with_buildings(university="specialty_factory"))
    _black_market_owner(s, 0)
    forests(s, 0, 2)
    _quarries(s, 0, 2)
    s = pick(s, "builder")
    assert s._price(0, BUILDING_IDS["statue"]) == 10 - 2 - 2 - 1  # short 5: not legal
    assert "build:statue" not in legal(s) and "build:lighthouse" in legal(s)  # 7 - 5 = 2
    s = play(s, "build:lighthouse")
    assert legal(s) == ["give:colonist@corn", "give:colonist@guest_house", "give:colonist@san_juan",
                        "give:corn"]  # short 2: a colonist or the barrel first


def test_black_market_may_take_colonists_whose_function_is_idle() -> None:
    """Not the builder (no Library privilege), no forests, 3 quarries for a column-1 building,
    no Church chips for it: those colonists may go."""
    s = fresh_expansion(3, governor=0, buildings=with_buildings(university="specialty_factory"))
    _black_market_owner(s, 1)
    _quarries(s, 1, 3)
    s.players[1].quarry_colonists = 2
    s.colonist_supply += 1
    s = pick(s, "builder")
    s.players[1].doubloons = 0
    s = play(s, "pass")  # the builder passes; player 1: Storehouse 3 - 1 = 2, short 2
    s = play(s, "build:storehouse")
    assert legal(s) == ["give:colonist@church", "give:colonist@corn", "give:colonist@forest_house",
                        "give:colonist@guest_house", "give:colonist@library", "give:colonist@quarry",
                        "give:colonist@san_juan", "give:corn"]


def test_black_market_returns_do_not_cancel_a_triggered_end() -> None:
    s = _black_market(doubloons=6)
    s.end_triggered = True
    s = play(s, "build:library", "give:colonist@san_juan")
    assert s.end_triggered and s.players[0].owns(BUILDING_IDS["library"])


# -------------------------------------------------------------------- Church
@pytest.mark.parametrize("name,column,vp", [
    ("aqueduct", 1, 0), ("trading_post", 2, 1), ("indigo_plant", 2, 1), ("library", 3, 1),
    ("coffee_roaster", 3, 1), ("cloister", 4, 2), ("statue", 4, 2)])
def test_church_chips_by_column(name: str, column: int, vp: int) -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 0, "church")
    s.players[0].doubloons = 20
    s = play(pick(s, "builder"), f"build:{name}")
    assert s.players[0].vp == vp and s.vp_supply == 75 - vp


def test_church_gives_nothing_for_itself_even_with_a_university() -> None:
    s = fresh_expansion(3, governor=0, buildings=with_buildings(university="specialty_factory"))
    build(s, 0, "university")
    s.players[0].doubloons = 10
    s = play(pick(s, "builder"), "build:church")
    assert s.players[0].buildings[BUILDING_IDS["church"]] == 1 and s.players[0].vp == 0


def test_church_chips_after_the_supply_is_empty_do_not_end_the_game() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 0, "church")
    chips(s, 1, s.vp_supply)  # the supply is empty
    s.players[0].doubloons = 20
    s = play(pick(s, "builder"), "build:cloister")
    assert s.vp_supply == -2 and s.players[0].vp == 2 and not s.end_triggered


# --------------------------------------------------------------- Guest House
def test_guests_are_placed_in_the_mayor_phase() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 0, "guest_house", colonists=0)  # the mayor's 1 + 1 from the ship for 3 circles
    s = pick(s, "mayor")
    assert legal(s) == ["place:guest_house", "place:indigo"]


def test_guest_house_window_before_craftsman_production() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 1, "guest_house")  # 2 guests
    build(s, 1, "indigo_plant", colonists=0)  # seat 1 starts with an indigo plantation
    s = pick(s, "craftsman")
    assert s.phase == 10 and s.window == 4 and s.current_player == 1
    assert legal(s) == ["guest:indigo", "guest:indigo_plant", "pass"]
    s = play(s, "guest:indigo")
    assert legal(s) == ["guest:indigo_plant", "pass"]  # slots in non-decreasing order
    s = play(s, "guest:indigo_plant")  # both guests out: production follows
    assert s.phase == 0 and s.players[1].goods[KIND["indigo"]] == 1
    assert s.players[1].buildings[BUILDING_IDS["guest_house"]] == 0


def test_guest_house_window_order_from_the_chooser_and_pass() -> None:
    s = fresh_expansion(3, governor=2)
    for seat in (0, 1):
        build(s, seat, "guest_house", colonists=1)
    goods(s, 2, coffee=1)
    s = pick(s, "trader")  # seat 2 trades: windows for 0 then 1, then the sales
    assert (s.phase, s.window, s.current_player) == (10, 5, 0)
    assert legal(s) == ["guest:indigo", "pass"]
    s = play(s, "pass")
    assert s.current_player == 1 and legal(s) == ["guest:corn", "pass"]
    s = play(s, "guest:corn")
    assert s.phase == 5 and s.current_player == 2 and s.window == -1


def test_guest_moved_at_the_captain_window_earns_the_union_hall() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 1, "guest_house")
    build(s, 1, "union_hall", colonists=0)
    goods(s, 1, corn=4)
    for cap, kind in zip(s.ship_capacity, ("coffee", "tobacco", "sugar")):
        i = s.ship_capacity.index(cap)
        s.ship_kind[i], s.ship_count[i] = KIND[kind], cap
        s.goods_supply[KIND[kind]] -= cap
    s = pick(s, "captain")
    assert s.window == 6 and legal(s) == ["guest:indigo", "guest:union_hall", "pass"]
    s = play(s, "guest:union_hall")
    assert s.players[1].vp == 2


def test_guest_house_window_before_final_scoring() -> None:
    s = fresh_expansion(4, governor=0)
    build(s, 1, "guest_house", colonists=1)
    build(s, 1, "guild_hall", "indigo_plant", colonists=0)
    s.end_triggered = True
    for r in range(3):  # settler, mayor and builder were picked: the last pick ends the round
        s.role_taken[r] = True
    s.picks, s.current = 3, 3
    s = pick(s, "prospector")
    assert (s.phase, s.window, s.current_player, s.governor) == (10, 8, 1, 1)
    assert legal(s) == ["guest:guild_hall", "guest:indigo", "guest:indigo_plant", "pass"]
    assert play(s, "pass").is_terminal
    done = play(s, "guest:guild_hall")
    assert done.is_terminal and done.scores()[1] == 2 + 4 + 2 + 2  # the Guild Hall bonus counts


# ------------------------------------------------------------------ Cloister
@pytest.mark.parametrize("tiles,bonus", [
    ({"corn": 3}, 1), ({"corn": 3, "quarries": 3}, 3), ({"corn": 2, "forests": 3}, 1),
    ({"corn": 3, "quarries": 3, "forests": 3}, 6), ({"corn": 6, "forests": 6}, 10),
    ({"corn": 2, "sugar": 2}, 0)])
def test_cloister_sets_of_three_identical_tiles(tiles: dict[str, int], bonus: int) -> None:
    s = fresh_expansion(3, governor=0)
    p = s.players[2]  # starts with one corn plantation
    s.deck[KIND["corn"]] += 1
    p.plantations[KIND["corn"]] = 0
    for name, n in tiles.items():
        if name == "quarries":
            s.quarry_supply -= n
            p.quarries = n
        elif name == "forests":
            forests(s, 2, n)
        else:
            s.deck[KIND[name]] -= n
            p.plantations[KIND[name]] = n
    build(s, 2, "cloister")
    assert s.scores()[2] == 4 + bonus
    p.buildings[BUILDING_IDS["cloister"]] = 0
    assert s.scores()[2] == 4  # unoccupied: no bonus


# -------------------------------------------------------------------- Statue
def test_statue_is_eight_points_without_a_circle() -> None:
    s = fresh_expansion(3, governor=0)
    s.players[0].doubloons = 10
    s = play(pick(s, "builder"), "build:statue")
    p = s.players[0]
    assert p.buildings[BUILDING_IDS["statue"]] == 0 and p.city_used() == 2
    assert s.scores()[0] == 8
    build(s, 0, "city_hall")
    assert s.scores()[0] == 8 + 4 + 2  # City Hall counts the Statue and itself
    assert p.slot_capacity(SLOT_BUILDING + BUILDING_IDS["statue"]) == 0  # never a Mayor slot


def test_university_puts_no_colonist_on_the_statue() -> None:
    s = fresh_expansion(3, governor=0, buildings=with_buildings(university="specialty_factory"))
    build(s, 0, "university")
    s.players[0].doubloons = 10
    supply = s.colonist_supply
    s = play(pick(s, "builder"), "build:statue")
    assert s.players[0].buildings[BUILDING_IDS["statue"]] == 0
    assert s.colonist_supply == supply
    s.encode()  # a valid position
    State.from_dict(s.to_dict())
