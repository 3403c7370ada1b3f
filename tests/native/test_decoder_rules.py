"""Every consistency rule of every game's C decoder, the one validator of positions, on
hand-made bad positions: a position of C-played games the decoder accepts, one rule
broken by hand, and the verdict every path gives (``game.decode``, so the command line
and the services): the field path and the words.

A case is a function that breaks a rule in a ``View`` of the vector (cells by field path)
and returns the path and the words expected (a string, or a compiled pattern).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from meeplemind.positions import accept
from meeplemind.engine import PositionError, get_game
from meeplemind.engine.castles_of_burgundy import board as cob_board
from meeplemind.engine.castles_of_burgundy import data as cob
from meeplemind.engine.puerto_rico import data as pr
from meeplemind.engine.traders_of_genoa import board as tog_board
from meeplemind.engine.traders_of_genoa import data as tog_data
from meeplemind.engine.traders_of_genoa.state import (
    ST_BASE, ST_EXTRAS, ST_HEED, ST_MARK, ST_OFFER, ST_REWARD, ST_START, ST_VILLA,
)
from meeplemind.native import NativeGame

Expected = tuple[str, "str | re.Pattern[str]"]


class View:
    """A state vector whose cells are read and written by field path."""

    def __init__(self, game_id: str, vector: Any) -> None:
        self.v = [int(x) for x in vector]
        self.names = get_game(game_id).layout_for(self.v)

    def __getitem__(self, path: str) -> int:
        return self.v[self.names.index(path)]

    def __setitem__(self, path: str, value: int) -> None:
        self.v[self.names.index(path)] = value


def position(game_id: str, players: int, options: dict[str, str], where: Callable[[View], bool]) -> View:
    """The first position of C-played games (seeds 0.., uniform and heuristic playouts)
    where ``where`` holds."""
    native, game = NativeGame(game_id), get_game(game_id)
    for seed in range(60):
        buf, rng = native.decode(game.new_game(players, seed=seed, **options).encode()), seed
        while True:
            view = View(game_id, native.encode(buf))
            if where(view):
                return view
            if native.current_player(buf) < 0:
                break
            action, rng = native.rollout_move(buf, rng, seed % 2)
            rng = native.apply(buf, action, rng)
    raise AssertionError(f"{game_id}: no such position in 60 games")


CASES: list[Any] = []
V2 = {"expansion": "new-buildings"}


def case(game_id: str, where: Callable[[View], bool] = lambda v: True, players: int = 3,
         options: dict[str, str] | None = None) -> Callable[[Callable[[View], Expected]], Callable[[View], Expected]]:
    def add(breaks: Callable[[View], Expected]) -> Callable[[View], Expected]:
        CASES.append(pytest.param(game_id, players, options or {}, where, breaks,
                                  id=f"{game_id}{'+v2' if options else ''}:{breaks.__name__}"))
        return breaks
    return add


@pytest.mark.parametrize("game_id,players,options,where,breaks", CASES)
def test_the_decoder_names_the_rule_broken(game_id: str, players: int, options: dict[str, str],
                                          where: Callable[[View], bool], breaks: Callable[[View], Expected]) -> None:
    game = get_game(game_id)
    view = position(game_id, players, options, where)
    accept(game, view.v)  # accepted as played
    path, words = breaks(view)
    with pytest.raises(PositionError) as e:
        accept(game, view.v)
    assert e.value.path == path, e.value
    if isinstance(words, str):
        assert e.value.problem == words
    else:
        assert words.fullmatch(e.value.problem), e.value


# ------------------------------------------------------------------ Puerto Rico
PR_ROLE, PR_SETTLER, PR_MAYOR, PR_BUILDER, PR_CRAFTSMAN, PR_STORAGE, PR_END, PR_DRAFT, PR_GUESTS = \
    0, 1, 2, 3, 4, 7, 8, 9, 10


def phase(*phases: int) -> Callable[[View], bool]:
    return lambda v: v["phase"] in phases


def fresh(v: View) -> bool:
    """The first position of a game (after a draft): nothing built, shipped or planted."""
    return v["phase"] == PR_ROLE and v["picks"] == 0 and v["governor"] == 0 and v["vp_supply"] == pr.SETUPS[v["players"]].vp_chips


def fresh_v2(v: View) -> bool:
    return fresh(v) and v["new_buildings.forest_supply"] == pr.FORESTS


def _violet(v: View, in_game: int) -> str:
    """The name of a violet building type in (1) or out of (0) the game, owned by nobody."""
    return next(b.name for b in pr.BUILDINGS if b.violet
                and v[f"new_buildings.violet_buildings.{b.name}"] == in_game)


@case("puerto-rico", phase(PR_ROLE))
def pr_nobody_to_move(v: View) -> Expected:
    v["current_player"] = -1
    return "current_player", "-1 (nobody to move) but the game is not over"


@case("puerto-rico", phase(PR_END))
def pr_someone_to_move_at_the_end(v: View) -> Expected:
    v["current_player"] = 0
    return "current_player", "must be -1 (nobody to move) in a finished game, is 0"


@case("puerto-rico", fresh)
def pr_island(v: View) -> Expected:
    v["players[0].plantations.coffee"] = 12
    return "players[0].plantations.coffee", "the island has 12 spaces, this fills 13"


@case("puerto-rico", fresh)
def pr_city(v: View) -> Expected:
    used = 0
    for b in pr.BUILDINGS[:pr.NUM_BASE_BUILDINGS]:
        v[f"players[0].buildings.{b.name}"] = 0
        used += b.spaces
        if used > 12:
            return f"players[0].buildings.{b.name}", f"the city has 12 spaces, this fills {used}"
    raise AssertionError("the buildings fit")


@case("puerto-rico", fresh_v2, options=V2)
def pr_building_not_in_the_game(v: View) -> Expected:
    name = _violet(v, 0)
    v[f"players[0].buildings.{name}"] = 0
    return f"players[0].buildings.{name}", f"{name} is not in this game"


@case("puerto-rico", fresh)
def pr_ship_kind_without_barrels(v: View) -> Expected:
    v["ships[0].good"] = 0
    return "ships[0].good", "a ship carries a kind exactly when it holds barrels"


@case("puerto-rico", fresh)
def pr_two_ships_one_kind(v: View) -> Expected:
    v["ships[0].good"], v["ships[0].count"], v["ships[1].good"], v["ships[1].count"] = 0, 1, 0, 1
    return "ships[1].good", "carries corn, already carried by ships[0]"


@case("puerto-rico", fresh)
def pr_trading_house(v: View) -> Expected:
    v["trading_house.corn"], v["trading_house.indigo"] = 3, 2
    return "trading_house.indigo", "the trading house holds at most 4 barrels"


@case("puerto-rico", fresh)
def pr_face_up_row(v: View) -> Expected:
    v["faceup_plantations.coffee"] += 1
    return "faceup_plantations.coffee", "at most 4 face-up plantations"


@case("puerto-rico", fresh)
def pr_barrels(v: View) -> Expected:
    v["goods_supply.corn"] -= 1
    return "goods_supply.corn", "9 corn barrels in play, the game has 10"


@case("puerto-rico", fresh)
def pr_plantations(v: View) -> Expected:
    v["plantation_stack.coffee"] -= 1
    return "plantation_stack.coffee", "7 coffee plantations in play, the game has 8"


@case("puerto-rico", fresh)
def pr_quarries(v: View) -> Expected:
    v["quarry_supply"] -= 1
    return "quarry_supply", "7 quarries in play, the game has 8"


@case("puerto-rico", fresh_v2, options=V2)
def pr_forests(v: View) -> Expected:
    v["new_buildings.forest_supply"] -= 1
    return "new_buildings.forest_supply", "11 forests in play, the game has 12"


@case("puerto-rico", fresh)
def pr_buildings(v: View) -> Expected:
    v["building_supply.small_indigo_plant"] -= 1
    return "building_supply.small_indigo_plant", "3 small_indigo_plant in play, the game has 4"


@case("puerto-rico", fresh)
def pr_colonists(v: View) -> Expected:
    v["colonist_supply"] -= 1
    return "colonist_supply", "57 colonists in play, the game has 58"


@case("puerto-rico", fresh)
def pr_victory_points(v: View) -> Expected:
    v["vp_supply"] -= 1
    return "vp_supply", "74 VP in play, the game has 75"


@case("puerto-rico", fresh_v2, options=V2)
def pr_draft_not_over(v: View) -> Expected:
    name = next(b.name for b in pr.BUILDINGS if b.violet and v[f"new_buildings.violet_buildings.{b.name}"])
    v[f"new_buildings.violet_buildings.{name}"], v[f"building_supply.{name}"] = 0, 0
    return "phase", "16 of 17 violet buildings drafted, the draft is not over"


@case("puerto-rico", fresh_v2, options=V2)
def pr_draft_slots(v: View) -> Expected:
    name = _violet(v, 0)
    b = next(i for i, x in enumerate(pr.BUILDINGS) if x.name == name)
    v[f"new_buildings.violet_buildings.{name}"], v[f"building_supply.{name}"] = 1, pr.building_count(b, 3)
    cost = pr.building_cost(b, False)
    same = [x.name for i, x in enumerate(pr.BUILDINGS)
            if x.violet and pr.building_cost(i, False) == cost and v[f"new_buildings.violet_buildings.{x.name}"]]
    slots = pr.DRAFT_SLOTS[cost]
    return (f"new_buildings.violet_buildings.{same[slots]}",
            f"{slots + 1} buildings of cost {cost}, the game has {slots} slots")


@case("puerto-rico", phase(PR_DRAFT), options=V2)
def pr_drafts_next(v: View) -> Expected:
    want = v["current_player"]
    v["current_player"] = (want + 1) % 3
    return "current_player", f"player {want} drafts next, not {(want + 1) % 3}"


@case("puerto-rico", phase(PR_ROLE), options=V2)
def pr_window_outside_the_guests_phase(v: View) -> Expected:
    v["progress.window"] = PR_CRAFTSMAN
    return "progress.window", "a Guest House window is open exactly in the guests phase"


@case("puerto-rico", phase(PR_ROLE), options=V2)
def pr_window_before_no_such_phase(v: View) -> Expected:
    v["phase"], v["progress.window"] = PR_GUESTS, PR_SETTLER
    return "progress.window", "1 is not a phase a Guest House window comes before"


@case("puerto-rico", phase(PR_END))
def pr_picks_at_the_end(v: View) -> Expected:
    v["picks"] = 1
    return "picks", "a finished game has no roles picked"


@case("puerto-rico", fresh)
def pr_picks_and_cards(v: View) -> Expected:
    v["picks"] = 1
    return "picks", "1 roles picked this round, but 0 role cards are taken"


@case("puerto-rico", phase(PR_SETTLER))
def pr_phase_card(v: View) -> Expected:
    free = next(r for r in range(1, 6) if not v[f"roles[{r}].taken"])
    v["roles[0].taken"], v[f"roles[{free}].taken"] = 0, 1
    return "roles[0].taken", "the settler phase is played, so its card is taken"


@case("puerto-rico", phase(PR_ROLE))
def pr_player_to_move(v: View) -> Expected:
    want = v["current_player"]
    v["current_player"] = (want + 1) % 3
    return "current_player", f"player {want} is to move in this phase, not {(want + 1) % 3}"


@case("puerto-rico", phase(PR_ROLE), options=V2)
def pr_library_turn(v: View) -> Expected:
    v["turn"] = 3
    return "turn", "turn 3 is only the settler's Library tile"


@case("puerto-rico", phase(PR_ROLE))
def pr_phase_field(v: View) -> Expected:
    v["progress.hacienda_done"] = 1
    return "progress.hacienda_done", "must be 0 outside its phase, is 1"


@case("puerto-rico", phase(PR_ROLE), options=V2)
def pr_made_outside_the_craftsman(v: View) -> Expected:
    v["progress.made.sugar"] = 2
    return "progress.made.sugar", "must be 0 outside its phase, is 2"


@case("puerto-rico", phase(PR_ROLE))
def pr_wharf(v: View) -> Expected:
    v["players[1].wharf_done"] = 1
    return "players[1].wharf_done", "must be 0 outside the captain phase and storage"


@case("puerto-rico", phase(PR_ROLE), options=V2)
def pr_small_wharf(v: View) -> Expected:
    v["players[2].small_wharf_done"] = 1
    return "players[2].small_wharf_done", "must be 0 outside the captain phase and storage"


@case("puerto-rico", lambda v: v["phase"] == PR_MAYOR and v["colonist_supply"] > 0, options=V2)
def pr_colonist_ship_in_the_mayor_phase(v: View) -> Expected:
    v["colonist_ship"], v["colonist_supply"] = 1, v["colonist_supply"] - 1
    return "colonist_ship", "the colonist ship is empty while the mayor phase places colonists"


@case("puerto-rico", lambda v: v["phase"] == PR_SETTLER and not v["progress.hacienda_done"]
      and v["plantation_stack.corn"] > 0, options=V2)
def pr_hacienda_tile_without_a_draw(v: View) -> Expected:
    v["progress.hacienda_tile"], v["plantation_stack.corn"] = 0, v["plantation_stack.corn"] - 1
    return "progress.hacienda_tile", "a drawn Hacienda tile waits only after the Hacienda draw"


@case("puerto-rico", phase(PR_BUILDER), options=V2)
def pr_black_market_due(v: View) -> Expected:
    v["progress.black_market.due"] = 1
    return "progress.black_market.due", "give-ups are owed exactly while a Black Market build is paid"


@case("puerto-rico", phase(PR_BUILDER), options=V2)
def pr_black_market_given(v: View) -> Expected:
    v["progress.black_market.given"] = 1
    return "progress.black_market.given", "must be 0 outside a Black Market build"


@case("puerto-rico", phase(PR_BUILDER), options=V2)
def pr_black_market_categories(v: View) -> Expected:
    v["progress.black_market.building"], v["progress.black_market.due"] = 0, 3
    v["progress.black_market.given"] = 1
    return "progress.black_market.due", "3 give-ups owed, but only 2 categories are left"


@case("puerto-rico", phase(PR_ROLE), options=V2)
def pr_colonist_declined_outside_the_builder_phase(v: View) -> Expected:
    v["progress.black_market.colonist_declined"] = 1
    return "progress.black_market.colonist_declined", "must be 0 outside its phase, is 1"


@case("puerto-rico", phase(PR_BUILDER), options=V2)
def pr_colonist_declined_without_a_black_market_build(v: View) -> Expected:
    v["progress.black_market.colonist_declined"] = 1
    return "progress.black_market.colonist_declined", (
        "a University colonist is declined only in a Black Market build of a building with a circle by the owner "
        "of an occupied University")


@case("puerto-rico", phase(PR_BUILDER), options=V2)
def pr_black_market_building(v: View) -> Expected:
    name = _violet(v, 0)  # none in the supply
    v["progress.black_market.building"] = next(i for i, b in enumerate(pr.BUILDINGS) if b.name == name)
    v["progress.black_market.due"] = 1
    return "progress.black_market.building", f"the player to move cannot build {name}"


@case("puerto-rico", lambda v: v["phase"] == PR_CRAFTSMAN and v["progress.produced"] & 1 == 0, options=V2)
def pr_made_what_was_produced(v: View) -> Expected:
    v["progress.made.corn"] = 1
    return "progress.made.corn", "the craftsman made barrels of exactly the kinds he produced"


@case("puerto-rico", lambda v: v["phase"] == PR_MAYOR and v["colonist_supply"] >= 10)
def pr_mayor_without_colonists(v: View) -> Expected:
    v["colonist_supply"] += v["progress.to_place"]
    v["progress.to_place"] = 0
    return "progress.to_place", "the mayor phase waits for a player with colonists to place"


@case("puerto-rico", lambda v: v["phase"] == PR_MAYOR and v["colonist_supply"] >= 20)
def pr_mayor_without_room(v: View) -> Expected:
    v["colonist_supply"] -= 20
    v["progress.to_place"] += 20
    return "progress.to_place", re.compile(r"\d+ colonists to place but only \d+ free circles")


@case("puerto-rico", phase(PR_STORAGE))
def pr_warehoused_kind_not_held(v: View) -> Expected:
    seat = v["current_player"]
    kind = next(k for k, g in enumerate(pr.GOODS) if not v[f"players[{seat}].goods.{g}"])
    v["progress.warehoused"] |= 1 << kind
    return "progress.warehoused", "warehoused kinds must be kinds the player holds"


def _keeps_all_with_warehouses(v: View) -> bool:
    if v["phase"] != PR_STORAGE:
        return False
    seat = v["current_player"]
    held = sum(1 for g in pr.GOODS if v[f"players[{seat}].goods.{g}"])
    city = sum(b.spaces for b in pr.BUILDINGS[:pr.NUM_BASE_BUILDINGS] if v[f"players[{seat}].buildings.{b.name}"] >= 0)
    return (held <= 3 and city <= 9 and v["colonist_supply"] >= 2 and v["progress.warehoused"] == 0
            and all(v[f"building_supply.{w}"] and v[f"players[{seat}].buildings.{w}"] < 0
                    for w in ("small_warehouse", "large_warehouse")))


@case("puerto-rico", _keeps_all_with_warehouses)
def pr_storage_waits_for_a_player_who_must_choose(v: View) -> Expected:
    seat = v["current_player"]
    for w in ("small_warehouse", "large_warehouse"):  # built and manned
        v[f"players[{seat}].buildings.{w}"], v[f"building_supply.{w}"] = 1, v[f"building_supply.{w}"] - 1
        v["colonist_supply"] -= 1
    return "current_player", f"player {seat} keeps every barrel, storage waits for one who must choose"


@case("puerto-rico", phase(PR_STORAGE), options=V2)
def pr_kept_barrels_not_held(v: View) -> Expected:
    seat = v["current_player"]
    good = next(g for g in pr.GOODS if not v[f"players[{seat}].goods.{g}"])
    v[f"progress.kept.{good}"] = 1
    return f"progress.kept.{good}", "kept barrels must be held and not warehoused"


def _storage_without_warehouses(v: View) -> bool:
    if v["phase"] != PR_STORAGE:
        return False
    seat = v["current_player"]
    return all(v[f"players[{seat}].buildings.{w}"] <= 0 for w in ("small_warehouse", "large_warehouse", "storehouse")) \
        and not any(v[f"progress.kept.{g}"] for g in pr.GOODS)


@case("puerto-rico", _storage_without_warehouses, options=V2)
def pr_storage_choice_left(v: View) -> Expected:
    seat = v["current_player"]
    v[f"progress.kept.{next(g for g in pr.GOODS if v[f'players[{seat}].goods.{g}'])}"] = 1  # the one free barrel
    return "progress.warehoused", "the kinds warehoused and barrels kept so far leave no storage choice"


# --------------------------------------------------------- The Castles of Burgundy
COB_DISCARD, COB_TILE, COB_GOODS, COB_END = 1, 2, 10, 11
WAREHOUSE = cob.TILE_NAMES.index("warehouse")


def cob_start(v: View) -> bool:
    return v["phase"] == 0 and v["round"] == 0 and v["turn"] == 0 and v["stage"] == 0


def stage(s: int) -> Callable[[View], bool]:
    return lambda v: v["stage"] == s


@case("castles-of-burgundy", cob_start)
def cob_turn_order(v: View) -> Expected:
    v["turn_order[1]"] = v["turn_order[0]"]
    return "turn_order[1]", f"player {v['turn_order[0]']} appears twice in the turn_order"


@case("castles-of-burgundy", cob_start)
def cob_depot_colour(v: View) -> Expected:
    slot = next(f"depots[{d}].tiles[{s}]" for d in range(6) for s in range(2) if v[f"depots[{d}].tiles[{s}]"] >= 0)
    tile = v[slot]
    other = next(t for t in range(len(cob.TILE_NAMES)) if cob.TILE_COLOUR[t] != cob.TILE_COLOUR[tile])
    v[slot] = other
    return slot, f"a {cob.TILE_NAMES[other]} tile on a {cob.COLOURS[cob.TILE_COLOUR[tile]]} space"


def _depot_slots(v: View) -> list[str]:
    return [f"depots[{d}].tiles[{s}]" for d in range(6) for s in range(cob.DEPOT_SLOTS)]


@case("castles-of-burgundy", lambda v: cob_start(v) and any(
    v[slot] >= 0 and cob.TILE_COLOUR[v[slot]] == cob.KNOWLEDGE for slot in _depot_slots(v)))
def cob_black_backed_tile_on_a_depot(v: View) -> Expected:
    slot = next(s for s in _depot_slots(v) if v[s] >= 0 and cob.TILE_COLOUR[v[s]] == cob.KNOWLEDGE)
    tile = next(t for t in range(len(cob.TILE_NAMES)) if cob.TILE_COLOUR[t] == cob.KNOWLEDGE and not cob.COLOUR_BACKED[t])
    v[slot] = tile
    return slot, f"{cob.TILE_NAMES[tile]} has a black back, it belongs to the black depot"


@case("castles-of-burgundy", cob_start)
def cob_black_back(v: View) -> Expected:
    tile = next(t for t in range(len(cob.TILE_NAMES)) if not cob.BLACK_BACKED[t])
    v["black_depot[0]"] = tile
    return "black_depot[0]", f"no {cob.TILE_NAMES[tile]} tile has a black back"


@case("castles-of-burgundy", cob_start)
def cob_round_goods_shown(v: View) -> Expected:
    v["round_goods[0]"] = 0
    return "round_goods[0]", "the goods of this and earlier rounds are on the depots"


@case("castles-of-burgundy", cob_start)
def cob_round_goods_moved(v: View) -> Expected:
    v["round_goods[3]"] = -1
    return "round_goods[3]", "the goods of a later round of the phase must be shown"


@case("castles-of-burgundy", cob_start)
def cob_dice(v: View) -> Expected:
    v["players[0].dice[0]"], v["players[0].dice[1]"] = 5, 2
    return "players[0].dice[0]", "dice are listed in ascending order (0: used)"


@case("castles-of-burgundy", cob_start)
def cob_storage_order(v: View) -> Expected:
    v["players[1].storage[1]"] = WAREHOUSE
    return "players[1].storage[1]", "storage is listed in ascending order, empty spaces last"


@case("castles-of-burgundy", cob_start)
def cob_start_castle(v: View) -> Expected:
    v["players[0].estate[19]"] = -1
    return "players[0].estate[19]", "the start castle stands on space 19"


@case("castles-of-burgundy", cob_start)
def cob_estate_colour(v: View) -> Expected:
    v["players[0].estate[13]"] = WAREHOUSE  # cell 12, next to the castle: knowledge
    return "players[0].estate[13]", "a warehouse tile on a knowledge space"


@case("castles-of-burgundy", cob_start)
def cob_estate_joined(v: View) -> Expected:
    far = next(c for c in range(cob_board.NUM_CELLS) if cob_board.CELL_COLOUR[c] == cob.BUILDING
               and cob_board.START_CELL not in cob_board.NEIGHBOURS[c] and c != cob_board.START_CELL)
    v[f"players[0].estate[{far + 1}]"] = WAREHOUSE
    return "players[0].estate[1]", "every tile of the estate is joined to the start castle"


@case("castles-of-burgundy", cob_start)
def cob_two_buildings_of_a_kind_in_a_city(v: View) -> Expected:
    first = next(c for c in cob_board.NEIGHBOURS[cob_board.START_CELL] if cob_board.CELL_COLOUR[c] == cob.BUILDING
                 and len(cob_board.REGIONS[cob_board.REGION_OF[c]]) > 1)
    second = next(c for c in cob_board.NEIGHBOURS[first] if cob_board.REGION_OF[c] == cob_board.REGION_OF[first])
    v[f"players[0].estate[{first + 1}]"] = v[f"players[0].estate[{second + 1}]"] = WAREHOUSE
    return f"players[0].estate[{max(first, second) + 1}]", "a second warehouse in one city needs knowledge #1"


@case("castles-of-burgundy", cob_start)
def cob_goods_colours(v: View) -> Expected:
    for g in range(4):
        v[f"players[0].goods[{g}]"] = 1
    return "players[0].goods[3]", "goods of more than 3 colours are stored"


@case("castles-of-burgundy", cob_start)
def cob_bonus_tile(v: View) -> Expected:
    v["players[0].bonus_tiles.ship"] = 1
    return "players[0].bonus_tiles.ship", "a bonus tile needs every space of its colour filled"


@case("castles-of-burgundy", cob_start)
def cob_track_by_ships(v: View) -> Expected:
    second = v["turn_order[1]"]
    v[f"players[{second}].estate[18]"] = cob.T_SHIP  # cell 17: a ship space next to the castle
    return "turn_order[1]", "the turn-order track is ordered by ships placed"


@case("castles-of-burgundy", cob_start)
def cob_tiles(v: View) -> Expected:
    v["hidden.tiles.warehouse"] -= 1
    return "hidden.tiles.warehouse", "6 warehouse tiles in play, the game has 7"


@case("castles-of-burgundy", cob_start)
def cob_goods(v: View) -> Expected:
    v["hidden.goods[1]"] -= 1
    return "hidden.goods[1]", f"{cob.GOODS_PER_COLOUR - 1} goods 2 tiles in play, the game has {cob.GOODS_PER_COLOUR}"


@case("castles-of-burgundy", lambda v: v["phase"] == 4 and v["stage"] != COB_END, players=2)
def cob_hidden_goods_for_the_phases_to_come(v: View) -> Expected:
    v["phase"] = 0
    return "hidden.goods[0]", re.compile(r"\d+ goods tiles hidden, the phases to come show 20")


@case("castles-of-burgundy", stage(COB_END))
def cob_end_phase(v: View) -> Expected:
    v["phase"] = 3
    return "phase", "must be 4 once the game is over"


@case("castles-of-burgundy", stage(COB_END))
def cob_end_dice(v: View) -> Expected:
    v["players[1].dice[1]"] = 3
    return "players[1].dice[1]", "every die is used once the game is over"


@case("castles-of-burgundy", cob_start)
def cob_player_to_move(v: View) -> Expected:
    want = v["current_player"]
    v["current_player"] = (want + 1) % 3
    return "current_player", f"player {want} is to move, not {(want + 1) % 3}"


@case("castles-of-burgundy", lambda v: v["stage"] == 0 and v["turn"] == 1)
def cob_dice_after_a_turn(v: View) -> Expected:
    seat = v["round_order[0]"]
    v[f"players[{seat}].dice[1]"] = 4
    return f"players[{seat}].dice[1]", "a player who has had his turn this round has used his dice"


@case("castles-of-burgundy", cob_start)
def cob_dice_before_a_turn(v: View) -> Expected:
    seat = v["round_order[2]"]
    v[f"players[{seat}].dice[0]"] = 0
    return f"players[{seat}].dice[0]", "a player still to move this round has both dice"


@case("castles-of-burgundy", cob_start)
def cob_field_of_another_stage(v: View) -> Expected:
    v["pending.cell"] = 4
    return "pending.cell", "must be -1 at this stage, is 4"


@case("castles-of-burgundy", stage(COB_TILE))
def cob_field_of_this_stage(v: View) -> Expected:
    v["pending.cell"] = -1
    return "pending.cell", "must be set at this stage"


@case("castles-of-burgundy", stage(COB_DISCARD))
def cob_discard_with_room_in_storage(v: View) -> Expected:
    seat = v["current_player"]
    tile = v[f"players[{seat}].storage[2]"]
    v[f"players[{seat}].storage[2]"] = -1
    v[f"discarded.{cob.TILE_NAMES[tile]}"] += 1  # the tile kept in play
    return "pending.tile", "a tile waits for a storage space only when storage is full"


@case("castles-of-burgundy", stage(COB_TILE))
def cob_chosen_space(v: View) -> Expected:
    v["pending.cell"] = cob_board.START_CELL
    return "pending.cell", "the chosen space must be empty and next to a placed tile"


@case("castles-of-burgundy", stage(COB_GOODS))
def cob_ship_depots(v: View) -> Expected:
    v["pending.ship_depots"] = 0b100001
    return "pending.ship_depots", "a ship takes goods from one depot, or two neighbours with knowledge #5"


# ------------------------------------------------------------- Traders of Genoa
TOG_START, TOG_OFFER = ST_START, ST_OFFER
MARKET = tog_board.SQUARE.index(tog_board.MARKET)


def tog_stage(s: int) -> Callable[[View], bool]:
    return lambda v: v["stage"] == s


def walked(v: View) -> bool:
    return v["stage"] == TOG_OFFER and v["path[1]"] < 0


@case("traders-of-genoa", tog_stage(TOG_START))
def tog_path_gap(v: View) -> Expected:
    v["path[1]"] = 0
    return "path[1]", "the path lists its squares first, then -1"


@case("traders-of-genoa", walked)
def tog_market(v: View) -> Expected:
    v["path[1]"] = MARKET
    return "path[1]", "the tower never stands on the market"


@case("traders-of-genoa", walked)
def tog_square_twice(v: View) -> Expected:
    v["path[1]"] = v["path[0]"]
    return "path[1]", "the tower never visits a square twice in a turn"


@case("traders-of-genoa", walked)
def tog_orthogonal_step(v: View) -> Expected:
    here = v["path[0]"]
    v["path[1]"] = next(s for s in range(tog_board.NUM_SQUARES) if s != here and s not in tog_board.NEIGHBOUR[here]
                        and tog_board.SQUARE[s] != tog_board.MARKET)
    return "path[1]", "the tower moves one square orthogonally"


@case("traders-of-genoa", tog_stage(TOG_START))
def tog_used_disc(v: View) -> Expected:
    v["used_discs"] = 1
    return "used_discs", "disc 0 is not on a street square"


@case("traders-of-genoa", tog_stage(TOG_START))
def tog_field_of_another_stage(v: View) -> Expected:
    v["site"] = 2
    return "site", "must be -1 at stage start"


@case("traders-of-genoa", tog_stage(TOG_OFFER))
def tog_field_of_this_stage(v: View) -> Expected:
    v["site"] = -1
    return "site", "must be set at stage offer"


@case("traders-of-genoa", tog_stage(TOG_START))
def tog_no_path_at_the_start(v: View) -> Expected:
    v["path[0]"] = next(s for s in range(tog_board.NUM_SQUARES) if tog_board.SQUARE[s] != tog_board.MARKET)
    return "path[0]", "the tower has no path at stage start"


@case("traders-of-genoa", tog_stage(TOG_START))
def tog_owner_to_move(v: View) -> Expected:
    owner = v["owner"]
    v["to_move"] = (owner + 1) % 3
    return "to_move", f"the tower owner {owner} is to move"


@case("traders-of-genoa", tog_stage(TOG_START))
def tog_offer_outside_a_negotiation(v: View) -> Expected:
    seat = (v["owner"] + 1) % 3
    v[f"offers[{seat}].ducats"] = 5
    return f"offers[{seat}].ducats", "offers are made to the tower owner during a negotiation"


@case("traders-of-genoa", tog_stage(TOG_START))
def tog_items_without_an_offer(v: View) -> Expected:
    v["offers[1].goods.silver"] = 1
    return "offers[1].goods.silver", "only an offer (0 ducats or more) holds items"


@case("traders-of-genoa", tog_stage(TOG_START))
def tog_offered_card_without_an_offer(v: View) -> Expected:
    card = next(c for c in tog_data.CARD_NAMES if v[f"cards.{c}"] == 1)
    v[f"offered_cards.{card}"] = 1
    return f"offered_cards.{card}", "an offered card is in the hand of a player with an offer"


def _bidder(v: View) -> int | None:
    """A seat other than the owner's with an offer on the table, if any."""
    return next((p for p in range(v["players"]) if p != v["owner"] and v[f"offers[{p}].ducats"] >= 0), None)


@case("traders-of-genoa", lambda v: v["stage"] == TOG_OFFER and _bidder(v) is not None)
def tog_offer_in_fives(v: View) -> Expected:
    seat = _bidder(v)
    v[f"offers[{seat}].ducats"] += 1
    return f"offers[{seat}].ducats", "an offer is a multiple of 5 ducats the bidder has"


@case("traders-of-genoa", lambda v: v["stage"] == TOG_OFFER and _bidder(v) is not None)
def tog_offered_good_held(v: View) -> Expected:
    seat = _bidder(v)
    name = next(name for name in tog_data.GOODS if not v[f"players[{seat}].goods.{name}"])
    v[f"offers[{seat}].goods.{name}"] = 1
    return f"offers[{seat}].goods.{name}", "an offer holds goods the bidder has"


@case("traders-of-genoa", tog_stage(TOG_OFFER))
def tog_owner_makes_no_offer(v: View) -> Expected:
    v["to_move"] = v["owner"]
    return "to_move", "the tower owner makes no offer"


@case("traders-of-genoa", tog_stage(TOG_START))
def tog_goods(v: View) -> Expected:
    v["supply.silk"] -= 1
    return "supply.silk", re.compile(r"\d+ silk in play, the game has 5")


@case("traders-of-genoa", tog_stage(TOG_START))
def tog_special_cards(v: View) -> Expected:
    v["special_supply.trade"] -= 1
    return "special_supply.trade", re.compile(r"\d+ trade cards in play, the game has \d+")


@case("traders-of-genoa", tog_stage(TOG_START))
def tog_markers(v: View) -> Expected:
    v["players[1].reserve"] -= 1
    return "players[1].reserve", re.compile(r"\d+ markers of seat 1 in play, each player has \d+")


@case("traders-of-genoa", tog_stage(TOG_START))
def tog_card_of_an_absent_seat(v: View) -> Expected:
    v["cards.large_1"] = 4
    return "cards.large_1", "seat 4 is not in a 3-player game"


@case("traders-of-genoa", tog_stage(TOG_START))
def tog_pile_of_known_cards(v: View) -> Expected:
    v["piles.large"] -= 1
    return "piles.large", re.compile(r"\d+ cards are known to be in the pile of \d+")


@case("traders-of-genoa", lambda v: v["stage"] == TOG_START and v["piles.large"] < 16)
def tog_unseen_cards(v: View) -> Expected:
    v["piles.large"] += 1
    return "piles.large", re.compile(r"\d+ unseen large cards for \d+ unknown places")


@case("traders-of-genoa", lambda v: v["stage"] == TOG_START and v["players[0].hand.large"] > 0)
def tog_hand_of_known_cards(v: View) -> Expected:
    v["players[0].hand.large"] = 0
    return "players[0].hand.large", re.compile(r"\d+ cards are known in a hand of 0")


TOG_VILLA, TOG_REWARD, TOG_EXTRAS, TOG_BASE, TOG_MARK = ST_VILLA, ST_REWARD, ST_EXTRAS, ST_BASE, ST_MARK


@case("traders-of-genoa", tog_stage(TOG_VILLA))
def tog_villa_site(v: View) -> Expected:
    v["site"] = next(b for b, (_, action, _) in enumerate(tog_data.BUILDINGS) if action != "villa")
    return "site", "only a villa offers a privilege or a large order"


@case("traders-of-genoa", tog_stage(TOG_REWARD))
def tog_reward_needs_a_special_card(v: View) -> Expected:
    for name in tog_data.SPECIALS:
        v[f"special_supply.{name}"] = 0
    return "stage", "a large order's special card needs one in the supply"


@case("traders-of-genoa", lambda v: v["stage"] in (TOG_VILLA, TOG_REWARD, TOG_EXTRAS))
def tog_actor_to_move(v: View) -> Expected:
    actor = v["actor"]
    v["to_move"] = (actor + 1) % 3
    return "to_move", f"the actor {actor} is to move"


@case("traders-of-genoa", tog_stage(TOG_BASE))
def tog_acquirer_to_move(v: View) -> Expected:
    want = (v["owner"] + v["acquirer"]) % 3
    v["to_move"] = (want + 1) % 3
    return "to_move", f"the acquirer {want} is to move"


@case("traders-of-genoa", tog_stage(TOG_MARK))
def tog_base_off_the_path(v: View) -> Expected:
    path = [v[f"path[{i}]"] for i in range(5)]
    v["base"] = next(s for s in range(tog_board.NUM_SQUARES) if s not in path)
    return "base", "the base is a street square of the path whose disc is used"


@case("traders-of-genoa", lambda v: v["stage"] == TOG_MARK and v["last_mark"] >= 0)
def tog_last_mark_carries_the_marker(v: View) -> Expected:
    v[f"marks.{tog_data.BUILDING_NAMES[v['last_mark']]}"] &= ~(1 << v["to_move"])
    return "last_mark", "the last building marked carries the player's marker"


def _steering(v: View) -> int | None:
    """A seat with a steering offer the owner is to answer, if any."""
    return next((p for p in range(v["players"]) if v["stage"] == ST_HEED and v[f"offers[{p}].ducats"] >= 0), None)


@case("traders-of-genoa", lambda v: _steering(v) is not None)
def tog_steering_target_next_to_the_tower(v: View) -> Expected:
    seat = _steering(v)
    v[f"offers[{seat}].target"] = v["path[0]"]  # a square the tower has visited
    return f"offers[{seat}].target", "a steering offer's target is a square next to the tower of a building it has not visited"


@case("traders-of-genoa", lambda v: v["stage"] == ST_OFFER + 1 and _made(v) is not None)
def tog_an_action_offer_has_no_target(v: View) -> Expected:
    seat = _made(v)
    v[f"offers[{seat}].target"] = v["path[0]"]
    return f"offers[{seat}].target", "an offer for the action on offer has no target"


def _made(v: View) -> int | None:
    """A seat with an offer made (not one being built) and 5 ducats, if any."""
    return next((p for p in range(v["players"]) if p != v["owner"] and v[f"offers[{p}].ducats"] >= 0
                 and (v["stage"] == TOG_OFFER + 1 or p != v["to_move"]) and v[f"players[{p}].ducats"] >= 5), None)


@case("traders-of-genoa", lambda v: v["stage"] in (TOG_OFFER, TOG_OFFER + 1) and _made(v) is not None, players=2)
def tog_two_player_offer_includes_a_good(v: View) -> Expected:
    seat = _made(v)
    v[f"offers[{seat}].ducats"] = 5
    for name in tog_data.GOODS:
        v[f"offers[{seat}].goods.{name}"] = 0
    for name in tog_data.SPECIALS:
        v[f"offers[{seat}].specials.{name}"] = 0
    v[f"offers[{seat}].markers"] = 0
    for card in tog_data.CARD_NAMES:
        v[f"offered_cards.{card}"] = 0
    return f"offers[{seat}].ducats", "a 2-player offer holds something besides ducats"


@case("castles-of-burgundy", cob_start)
def cob_round_order(v: View) -> Expected:
    v["round_order[2]"] = v["round_order[1]"]
    return "round_order[2]", f"player {v['round_order[1]']} appears twice in the round_order"


@case("traders-of-genoa", walked)
def tog_tower_on_the_board(v: View) -> Expected:
    v["path[0]"] = -1
    return "path[0]", "the tower stands on the board at stage offer"


@case("traders-of-genoa", walked)
def tog_action_on_offer(v: View) -> Expected:
    v["site"] = (v["site"] + 1) % tog_data.NUM_BUILDINGS
    return "site", "the action on offer is the building the tower stands on"
