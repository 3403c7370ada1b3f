"""Expansion I setup (rules §5c): the draft as moves, ``draft=random``, ``buildings=…``,
the options, the JSON fields, the state vector layout v2 and the action ids."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplemind.engine import PositionError, Rng
from meeplemind.engine.puerto_rico import (
    ALL_MOVES, ALL_MOVES_V2, LAYOUT, LAYOUT_V2, NUM_ACTIONS, NUM_ACTIONS_V2, VECTOR_LEN,
    VECTOR_LEN_V2, Move, State, decode, new_game,
)
from meeplemind.engine.puerto_rico.data import (
    BUILDING_IDS, BUILDINGS, DRAFT_SLOTS, NUM_BASE_BUILDINGS, VIOLET, building_cost,
)
from meeplemind.engine.puerto_rico.expansion import ExpansionState

from .helpers import NEW_BUILDINGS, fresh_expansion, legal, play

#: 17 picks: the rules' example first (Black Market on a cost-2 slot, then Hacienda).
PICKS = ("black_market", "hacienda", "aqueduct", "storehouse", "guest_house", "church", "office",
         "small_wharf", "lighthouse", "library", "harbor", "union_hall", "statue", "cloister",
         "residence", "guild_hall", "city_hall")


def _in_game(s: ExpansionState) -> list[str]:
    return sorted(BUILDINGS[b].name for b in VIOLET if s.in_game[b])


# ---------------------------------------------------------------------- draft
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_draft_is_seventeen_picks_from_the_governor_clockwise(players: int) -> None:
    s = new_game(players, seed=5, expansion="new-buildings")
    assert isinstance(s, ExpansionState) and s.phase == 9 and s.current_player == s.governor
    assert len(s.legal_moves()) == len(VIOLET) == 31
    for i, name in enumerate(PICKS):
        assert s.current_player == (s.governor + i) % players
        State.from_dict(json.loads(json.dumps(s.to_dict())))  # valid at every step
        s = s.apply(f"draft:{name}", Rng(0))
    assert s.phase == 0 and s.current_player == s.governor and s.picks == 0
    assert _in_game(s) == sorted(PICKS)
    small = 1 if players == 2 else 2
    for b in VIOLET:
        expected = (1 if BUILDINGS[b].large else small) if BUILDINGS[b].name in PICKS else 0
        assert s.building_supply[b] == expected, BUILDINGS[b].name
    assert s.building_supply[BUILDING_IDS["indigo_plant"]] == (2 if players == 2 else 3)


def test_draft_slots_of_equal_cost() -> None:
    """§5c example: the Black Market on the Hacienda's slot, then the Hacienda on the
    Construction Hut's: the Construction Hut and the Forest House cannot be chosen."""
    s = new_game(3, seed=1, expansion="new-buildings")
    s = play(s, "draft:black_market")
    assert "draft:hacienda" in legal(s) and "draft:forest_house" in legal(s)
    s = play(s, "draft:hacienda")
    assert not {"draft:construction_hut", "draft:forest_house"} & set(legal(s))
    s = play(s, "draft:small_market")
    assert "draft:aqueduct" not in legal(s)
    for name in ("cloister", "statue", "guild_hall", "residence"):
        s = play(s, f"draft:{name}")
    assert [m for m in legal(s) if BUILDINGS[BUILDING_IDS[m[6:]]].large] == [
        "draft:city_hall", "draft:customs_house", "draft:fortress"]
    s = play(s, "draft:fortress")
    assert not any(BUILDINGS[BUILDING_IDS[m[6:]]].large for m in legal(s))


def test_draft_with_the_university_factory_swap() -> None:
    s = new_game(3, seed=1, expansion="new-buildings", university_factory_swap=True)
    s = play(s, "draft:university")  # costs 7: shares the slot with the Lighthouse
    assert "draft:lighthouse" not in legal(s) and "draft:factory" in legal(s)


def test_last_pick_with_one_candidate_is_played_automatically() -> None:
    s = new_game(3, seed=1, expansion="new-buildings")
    for name in PICKS[:-2]:
        s = play(s, f"draft:{name}")
    s = play(s, "draft:city_hall")  # 16 picks: the last large slot has 3 candidates left
    assert s.phase == 9 and legal(s) == ["draft:customs_house", "draft:fortress", "draft:guild_hall"]


# ---------------------------------------------------------- random and fixed
@pytest.mark.parametrize("seed", range(8))
def test_random_draft_fills_every_slot_under_the_cost_constraints(seed: int) -> None:
    s = new_game(4, seed=seed, expansion="new-buildings", draft="random")
    assert isinstance(s, ExpansionState) and s.phase == 0 and s.current_player == s.governor
    for cost, slots in DRAFT_SLOTS.items():
        assert sum(1 for b in VIOLET if s.in_game[b] and BUILDINGS[b].cost == cost) == slots
    again = new_game(4, seed=seed, expansion="new-buildings", draft="random")
    assert again == s  # from the seed's rng


def test_random_draft_varies_with_the_seed() -> None:
    picks = {tuple(_in_game(new_game(3, seed=seed, expansion="new-buildings", draft="random")))  # type: ignore[arg-type]
             for seed in range(20)}
    assert len(picks) > 15


def test_random_draft_respects_swapped_costs() -> None:
    for seed in range(10):
        s = new_game(3, seed=seed, expansion="new-buildings", draft="random", university_factory_swap=True)
        assert isinstance(s, ExpansionState)
        assert sum(1 for b in VIOLET if s.in_game[b] and building_cost(b, True) == 7) == 1


def test_fixed_buildings_list() -> None:
    s = new_game(2, seed=3, expansion="new-buildings", buildings=" " + NEW_BUILDINGS.replace(",", " , "))
    assert isinstance(s, ExpansionState) and s.phase == 0
    assert _in_game(s) == sorted(NEW_BUILDINGS.split(","))
    assert s.building_supply[BUILDING_IDS["library"]] == 1 and s.building_supply[BUILDING_IDS["harbor"]] == 0


@pytest.mark.parametrize("listed,message", [
    (NEW_BUILDINGS.replace("church", "chapel"), r"buildings: 'chapel' is not a building"),
    (NEW_BUILDINGS.replace("church", "indigo_plant"), r"buildings: indigo_plant is a production building"),
    (NEW_BUILDINGS.replace("church", "trading_post"), r"buildings: trading_post is listed twice"),
    (NEW_BUILDINGS.replace("aqueduct", "office"),
     r"buildings: 0 of cost 1 listed \(none\), the game has 1 slot\(s\) of cost 1 \(candidates: "
     r"small_market, aqueduct\)"),
    (NEW_BUILDINGS + ",fortress", r"buildings: 6 of cost 10 listed \(guild_hall, residence, city_hall, "
     r"cloister, statue, fortress\)|buildings: 6 of cost 10"),
    (NEW_BUILDINGS.replace("church,", ""), r"buildings: 1 of cost 5 listed \(trading_post\), the game has 2"),
    ("", r"buildings: 0 of cost 1 listed"),
    (7, r"buildings: expected comma-separated building names, got 7"),
])
def test_fixed_buildings_list_errors_name_what_is_wrong(listed: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        new_game(3, seed=1, expansion="new-buildings", buildings=listed)  # type: ignore[arg-type]


@pytest.mark.parametrize("options,message", [
    ({"expansion": "seafarers"}, r"expansion: 'seafarers' is not one of 'none', 'new-buildings'"),
    ({"draft": "random"}, r"expansion: None is not one of"),
    ({"expansion": "new-buildings", "draft": "snake"}, r"draft: 'snake' is not one of 'players', 'random'"),
    ({"expansion": "new-buildings", "draft": "random", "buildings": NEW_BUILDINGS},
     r"buildings: a fixed list cannot be combined with draft=random"),
    ({"expansion": "new-buildings", "forests": "12"}, r"options: unknown option 'forests'"),
])
def test_option_errors(options: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        new_game(3, seed=1, **options)


def test_expansion_none_is_the_base_game() -> None:
    assert new_game(3, seed=4, expansion="none") == new_game(3, seed=4)
    assert type(new_game(3, seed=4, expansion="none")) is State


# ------------------------------------------------------------ JSON positions
def test_base_json_and_vector_are_unchanged() -> None:
    s = new_game(3, seed=7)
    d = s.to_dict()
    assert d["options"] == {"university_factory_swap": False}
    assert "new_buildings" not in d
    assert list(d["building_supply"]) == [b.name for b in BUILDINGS[:NUM_BASE_BUILDINGS]]
    assert set(d["progress"]) == {"hacienda_done", "to_place", "last_slot", "produced",
                                  "captain_loaded", "warehoused"}
    assert set(d["players"][0]) == {"doubloons", "vp_chips", "goods", "plantations",
                                    "plantation_colonists", "quarries", "quarry_colonists",
                                    "buildings", "san_juan", "wharf_done"}
    v = s.encode()
    assert v[0] == 1 and len(v) == VECTOR_LEN == 313 and len(LAYOUT) == 313


def test_expansion_json_fields_and_round_trip() -> None:
    s = fresh_expansion(3, governor=0)
    d = s.to_dict()
    assert d["options"] == {"university_factory_swap": False, "expansion": "new-buildings"}
    assert d["new_buildings"]["forest_supply"] == 12 and d["new_buildings"]["violet_buildings"] == sorted(
        NEW_BUILDINGS.split(","), key=lambda n: BUILDING_IDS[n])
    assert len(d["building_supply"]) == 37
    assert d["progress"]["black_market"] == {"building": "", "due": 0, "given": "", "colonist_declined": False}
    assert d["progress"]["window"] == "" and d["progress"]["hacienda_tile"] == ""
    assert d["players"][1]["forests"] == 0 and d["players"][1]["small_wharf_done"] is False
    assert State.from_dict(json.loads(json.dumps(d))) == s


def _bad(d: dict, path: str, problem: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(PositionError) as info:
        State.from_dict(d)
    assert (info.value.path, info.value.problem) == (path, problem)


def test_expansion_json_errors_name_the_field() -> None:
    d = fresh_expansion(3, governor=0).to_dict()
    d["players"][1]["forests"] = 13
    _bad(d, "players[1].forests", "13 is above 12")
    d["players"][1]["forests"] = 1
    _bad(d, "new_buildings.forest_supply", "13 forests in play, the game has 12")
    d = fresh_expansion(3, governor=0).to_dict()
    d["new_buildings"]["violet_buildings"][2] = "harbor_master"
    _bad(d, "new_buildings.violet_buildings[2]", "'harbor_master' is not one of 'small_market', 'hacienda', "
         "'construction_hut', 'small_warehouse', 'hospice', 'office', 'large_market', 'large_warehouse', 'factory', "
         "'university', 'harbor', 'wharf', 'guild_hall', 'residence', 'fortress', 'customs_house', 'city_hall', "
         "'aqueduct', 'forest_house', 'black_market', 'storehouse', 'guest_house', 'trading_post', 'church', "
         "'small_wharf', 'lighthouse', 'specialty_factory', 'library', 'union_hall', 'cloister', 'statue'")
    d = fresh_expansion(3, governor=0).to_dict()
    d["new_buildings"]["violet_buildings"].remove("church")
    _bad(d, "building_supply.church", "2 church in play, the game has 0")
    d = fresh_expansion(3, governor=0).to_dict()
    d["players"][0]["buildings"].append({"building": "harbor", "colonists": 0})
    _bad(d, "players[0].buildings.harbor", "harbor is not in this game")
    d = fresh_expansion(3, governor=0).to_dict()
    d["progress"]["window"] = "builder"
    _bad(d, "progress.window", "a Guest House window is open exactly in the guests phase")
    d = fresh_expansion(3, governor=0).to_dict()
    d["progress"]["black_market"]["due"] = 2
    _bad(d, "progress.black_market.due", "must be 0 outside its phase, is 2")
    d["phase"] = "builder"
    d["roles"][2]["taken"], d["picks"] = True, 0
    _bad(d, "progress.black_market.due", "give-ups are owed exactly while a Black Market build is paid")
    d = fresh_expansion(3, governor=0).to_dict()
    d["options"]["expansion"] = "river"
    _bad(d, "options.expansion", "'river' is not one of 'none', 'new-buildings'")


def test_draft_state_errors() -> None:
    s = new_game(3, seed=2, expansion="new-buildings")
    d = play(s, "draft:church").to_dict()
    d["current_player"] = (d["current_player"] + 1) % 3
    _bad(d, "current_player", f"player {(s.governor + 1) % 3} drafts next, not {(s.governor + 2) % 3}")
    d = play(s, "draft:church").to_dict()
    d["phase"] = "role"
    _bad(d, "phase", "1 of 17 violet buildings drafted, the draft is not over")


# ------------------------------------------------------------ vector layout v2
def test_layout_v2() -> None:
    assert VECTOR_LEN_V2 == len(LAYOUT_V2) == 463
    assert LAYOUT_V2[:20] == LAYOUT[:20]
    assert LAYOUT_V2[20:28] == ("new_buildings.forest_supply", "progress.hacienda_tile", "progress.window",
                                "progress.privilege_left", "progress.black_market.building",
                                "progress.black_market.due", "progress.black_market.given",
                                "progress.small_wharf_barrels")
    assert LAYOUT_V2[38] == "progress.black_market.colonist_declined"
    assert LAYOUT_V2[39] == "goods_supply.corn" and LAYOUT_V2[64] == "building_supply.small_indigo_plant"
    assert LAYOUT_V2[101] == "new_buildings.violet_buildings.small_indigo_plant"
    assert LAYOUT_V2[138] == "roles[0].doubloons"
    assert LAYOUT_V2[163:186] == tuple(f"players[0].{f}" for f in (
        "doubloons", "vp_chips", "goods.corn", "goods.indigo", "goods.sugar", "goods.tobacco",
        "goods.coffee", "plantations.corn", "plantations.indigo", "plantations.sugar",
        "plantations.tobacco", "plantations.coffee", "plantation_colonists.corn",
        "plantation_colonists.indigo", "plantation_colonists.sugar", "plantation_colonists.tobacco",
        "plantation_colonists.coffee", "quarries", "quarry_colonists", "san_juan", "wharf_done",
        "forests", "small_wharf_done"))
    assert LAYOUT_V2[186] == "players[0].buildings.small_indigo_plant" and LAYOUT_V2[223] == "players[1].doubloons"


def test_vector_v2_round_trip_and_errors() -> None:
    s = new_game(5, seed=9, expansion="new-buildings")
    v = s.encode()
    assert v.dtype == np.int32 and v[0] == 2 and len(v) == 463
    assert decode(v) == s and type(decode(v)) is ExpansionState
    assert type(decode(new_game(5, seed=9).encode())) is State
    cases = [({20: 13}, "new_buildings.forest_supply", "13 is above 12"),
             ({22: 7}, "progress.window", "a Guest House window is open exactly in the guests phase"),
             ({21: 2, 51: v[51] - 1}, "progress.hacienda_tile", "must be -1 outside its phase, is 2"),
             ({101: 0}, "new_buildings.violet_buildings.small_indigo_plant", "0 is below 1"),
             ({0: 3}, "version", "layout version 3 is not 2")]
    for changes, path, problem in cases:
        bad = v.copy()
        for index, value in changes.items():
            bad[index] = value
        with pytest.raises(PositionError) as info:
            decode(bad)
        assert (info.value.path, info.value.problem) == (path, problem)
    with pytest.raises(PositionError, match="vector has 462 entries, expected 463"):
        decode(v[:-1])


# ------------------------------------------------------------------- action ids
def test_action_ids() -> None:
    assert NUM_ACTIONS == 192 and NUM_ACTIONS_V2 == 358
    assert all(m.id < NUM_ACTIONS for m in ALL_MOVES)
    ids = [m.id for m in ALL_MOVES_V2]
    # the last id would decline the Statue's colonist: it has no circle
    assert ids == sorted(set(ids)) and ids[-1] == Move.parse("build:cloister/decline").id == NUM_ACTIONS_V2 - 2
    for m in ALL_MOVES_V2:
        assert Move.parse(str(m)) == m and Move.from_id(m.id) == m
    new_kinds = {"forest", "hacienda_tile", "post", "small_wharf", "give", "give_colonist", "guest", "draft"}
    for m in ALL_MOVES_V2:  # a new building's build declining the University colonist is new too
        new = m.kind in new_kinds or (m.kind == "build" and m.declined and m.arg >= NUM_BASE_BUILDINGS)
        assert (m.id >= NUM_ACTIONS) == new, m
    assert Move.parse("build:statue").id == 24 + 36 and Move.parse("place:statue").id == 64 + 42
    assert [Move.parse(t).id for t in ("forest:corn", "hacienda:plant", "hacienda:forest", "post:corn",
                                       "small_wharf:corn", "give:corn", "give:vp", "give:colonist@corn",
                                       "give:colonist@san_juan", "guest:corn", "draft:small_market")] == [
        192, 197, 198, 199, 204, 209, 214, 215, 258, 259, 302 + 6]


@pytest.mark.parametrize("text", ["draft:indigo_plant", "give:colonist", "give:colonist@moon",
                                  "hacienda:burn", "guest:san_juan", "post:vp"])
def test_bad_notation(text: str) -> None:
    from meeplemind.engine import InvalidMoveError

    with pytest.raises(InvalidMoveError):
        Move.parse(text)


def test_vector_checks_split_into_ranges_and_invariants() -> None:
    """The C decoder's two passes: a range failure is found before the consistency rules."""
    from meeplemind.engine import PositionError
    from meeplemind.engine.puerto_rico import decode

    v = fresh_expansion(4).encode().tolist()
    decode(v)
    v[LAYOUT_V2.index("players[3].forests")] = 13
    with pytest.raises(PositionError) as e:
        decode(v)
    assert (e.value.path, e.value.problem) == ("players[3].forests", "13 is above 12")
    v[LAYOUT_V2.index("players[3].forests")] = 1
    with pytest.raises(PositionError) as e:
        decode(v)
    assert (e.value.path, e.value.problem) == ("new_buildings.forest_supply", "13 forests in play, the game has 12")
