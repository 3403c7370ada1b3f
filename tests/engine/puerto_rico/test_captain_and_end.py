"""Captain and storage (§3.6, §1d Wharf/Harbor/warehouses), game end and scoring (§4)."""

from __future__ import annotations

import pytest

from meeplemind.engine import PositionError, Rng
from meeplemind.engine.puerto_rico import Move, State
from meeplemind.engine.puerto_rico.data import BUILDING_IDS
from meeplemind.engine.puerto_rico.state import _score

from .helpers import KIND, build, fresh, goods, legal, pick, plant, play


def _ship(s, cap: int, kind: str, count: int) -> None:  # type: ignore[no-untyped-def]
    i = s.ship_capacity.index(cap)
    s.ship_kind[i], s.ship_count[i] = KIND[kind], count
    s.goods_supply[KIND[kind]] -= count


def test_captain_walkthrough() -> None:
    s = fresh(3)  # ships 4, 5, 6
    _ship(s, 5, "corn", 2)
    goods(s, 0, corn=4, sugar=3)
    goods(s, 1, indigo=5, coffee=1)
    goods(s, 2, corn=1)
    build(s, 2, "harbor")
    s = pick(s, "captain")
    # corn must go on the corn ship; sugar fits 3 on either empty ship: a free choice
    assert legal(s) == ["load:corn@5", "load:sugar@4", "load:sugar@6"]
    s = play(s, "load:corn@5")
    assert s.players[0].vp == 3 + 1  # 3 barrels + the captain's privilege
    # indigo must take the ship where most fits (6 holds all 5); coffee fits either
    assert legal(s) == ["load:coffee@4", "load:coffee@6", "load:indigo@6"]
    s = play(s, "load:indigo@6")
    # player 2's corn cannot go anywhere (corn ship full); player 0 must load sugar on the 4
    # (forced, played automatically); then nobody can load: storage, then clear full ships
    assert [p.vp for p in s.players] == [7, 5, 0]
    assert s.phase == 0 and s.current_player == 1
    assert s.ship_kind == [KIND["sugar"], -1, KIND["indigo"]] and s.ship_count == [3, 0, 5]
    assert [p.goods for p in s.players] == [[1, 0, 0, 0, 0], [0, 0, 0, 0, 1], [1, 0, 0, 0, 0]]
    assert s.goods_supply[KIND["corn"]] == 10 - 2  # the 5 from the full ship came back
    assert s.vp_supply == 75 - 12


def test_harbor_and_captain_privilege_once() -> None:
    s = fresh(3)
    goods(s, 0, corn=2, indigo=2)
    build(s, 0, "harbor")
    s = pick(s, "captain")
    s = play(s, "load:corn@4")
    assert s.players[0].vp == 2 + 1 + 1
    s = play(s, "load:indigo@5") if "load:indigo@5" in legal(s) else play(s, "load:indigo@6")
    assert s.players[0].vp == 4 + 2 + 1


def test_wharf_ships_all_of_one_kind_and_pass_is_final() -> None:
    s = fresh(3)
    goods(s, 1, tobacco=4, corn=1)
    build(s, 1, "wharf")
    _ship(s, 4, "tobacco", 4)
    _ship(s, 5, "corn", 5)
    _ship(s, 6, "sugar", 1)
    s = pick(s, "captain")  # player 1 cannot load on a ship: the Wharf or pass
    assert s.current_player == 1 and legal(s) == ["pass", "wharf:corn", "wharf:tobacco"]
    s2 = play(s, "wharf:tobacco")
    assert s2.players[1].vp == 4 and s2.goods_supply[KIND["tobacco"]] == 9 - 4 - 4 + 4 + 4
    s3 = play(s, "pass")  # final: the phase ends; storage asks which barrel to keep
    assert s3.phase == 7 and s3.current_player == 1 and s3.players[1].vp == 0
    assert legal(s3) == ["keep:corn", "keep:tobacco"]


def test_storage_one_barrel_and_warehouses() -> None:
    s = fresh(3)
    for cap, kind in ((4, "indigo"), (5, "tobacco"), (6, "coffee")):
        _ship(s, cap, kind, cap)
    goods(s, 0, corn=3, sugar=2)
    goods(s, 1, corn=3, sugar=2, indigo=1)
    build(s, 1, "small_warehouse")
    s = pick(s, "captain")  # nobody can load (ships full): storage from the captain
    assert s.current_player == 0 and legal(s) == ["keep:corn", "keep:sugar"]
    s = play(s, "keep:sugar")
    assert s.players[0].goods == [0, 0, 1, 0, 0]
    assert legal(s) == ["store:corn", "store:indigo", "store:sugar"]
    s = play(s, "store:corn")
    assert legal(s) == ["keep:indigo", "keep:sugar"]
    s = play(s, "keep:sugar")
    assert s.players[1].goods == [3, 0, 1, 0, 0]
    assert s.ship_count == [0, 0, 0]  # all three were full: emptied
    assert s.goods_supply == [10 - 3, 11, 11 - 2, 9, 9]


def test_storage_asks_only_a_player_who_must_choose() -> None:
    """A position where storage waits for a player whose warehouses keep every kind he
    holds is not one play reaches (he keeps everything unasked), and his stores could
    never end his storage: rejected, naming the player to move."""
    s = fresh(3)
    for cap, kind in ((4, "indigo"), (5, "tobacco"), (6, "coffee")):
        _ship(s, cap, kind, cap)
    goods(s, 0, corn=3, sugar=2)
    build(s, 0, "large_warehouse")
    goods(s, 1, corn=3, sugar=2, indigo=1)
    build(s, 1, "small_warehouse")
    s = pick(s, "captain")  # player 0 keeps everything: player 1 chooses
    assert s.phase == 7 and s.current_player == 1
    d = s.to_dict()
    d["current_player"], d["turn"] = 0, 0
    with pytest.raises(PositionError, match="current_player: player 0 keeps every barrel"):
        State.from_dict(d)


def test_storage_choices_reach_every_outcome_from_any_partial_choice() -> None:
    s = fresh(3)
    for cap, kind in ((4, "tobacco"), (5, "coffee"), (6, "sugar")):
        _ship(s, cap, kind, cap)
    goods(s, 0, corn=1, indigo=1, sugar=1)
    build(s, 0, "small_warehouse")
    s.current = 0
    s = pick(s, "captain")
    assert legal(s) == ["store:corn", "store:indigo"]  # store:sugar first would repeat an outcome

    def outcomes(t: State) -> set[tuple[int, ...]]:
        if t.phase != 7:
            return {tuple(t.players[0].goods)}
        return set().union(*(outcomes(t.apply(m, Rng(0))) for m in t.legal_moves()))

    assert outcomes(s) == {(0, 1, 1, 0, 0), (1, 0, 1, 0, 0), (1, 1, 0, 0, 0)}
    s.store_mask = 1 << KIND["sugar"]  # another client's player warehoused sugar first
    d = s.to_dict()
    assert State.from_dict(d).legal_moves() == [Move.parse("keep:corn"), Move.parse("keep:indigo")]
    assert outcomes(s) == {(0, 1, 1, 0, 0), (1, 0, 1, 0, 0)}
    s.store_mask = 1 << KIND["indigo"] | 1 << KIND["corn"]  # more kinds than warehouses
    with pytest.raises(PositionError, match="leave no storage choice"):
        State.from_dict(s.to_dict())


def test_vp_chips_running_out_in_captain_phase_ends_after_the_round() -> None:
    s = fresh(3)
    s.players[2].vp, s.vp_supply = 73, 2
    goods(s, 0, corn=3)
    s = play(pick(s, "captain"), "load:corn@6")
    assert s.end_triggered and s.vp_supply == 2 - 4 and s.players[0].vp == 4
    assert s.phase == 0 and not s.is_terminal  # the round goes on
    while not s.is_terminal:
        s = s.apply(s.legal_moves()[0], Rng(0))
    assert s.current_player is None and s.legal_moves() == []


def _owner(s, *names: str):  # type: ignore[no-untyped-def]
    build(s, 0, *names)
    return s.players[0]


def test_guild_hall_bonus() -> None:
    s = fresh(3)
    p = _owner(s, "guild_hall", "sugar_mill", "small_sugar_mill", "small_indigo_plant", "coffee_roaster")
    assert _score(p) == 4 + 2 + 1 + 1 + 3 + (2 + 1 + 1 + 2)


def test_residence_bonus_by_island_spaces() -> None:
    for tiles, bonus in ((8, 4), (9, 4), (10, 5), (11, 6), (12, 7)):
        s = fresh(3)
        p = _owner(s, "residence")
        plant(s, 0, "corn", tiles - 1, colonists=0)
        assert _score(p) == 4 + bonus, tiles


def test_fortress_twenty_colonists_give_six() -> None:
    s = fresh(3)
    p = _owner(s, "fortress")
    p.san_juan = 19  # + the Fortress's own colonist = 20
    assert _score(p) == 4 + 6


def test_customs_house_counts_chips_only() -> None:
    s = fresh(3)
    p = _owner(s, "customs_house", "harbor")
    p.vp = 23
    assert _score(p) == 23 + 4 + 3 + 5


def test_city_hall_counts_violet_buildings_itself_included() -> None:
    s = fresh(3)
    p = _owner(s, "city_hall", "harbor", "small_market", "indigo_plant")
    assert _score(p) == 4 + 3 + 1 + 2 + 3


def test_large_building_bonus_needs_a_colonist() -> None:
    s = fresh(3)
    build(s, 0, "city_hall", colonists=0)
    assert _score(s.players[0]) == 4


def test_tiebreak_doubloons_plus_goods_and_shared_wins() -> None:
    s = fresh(3)
    for p in s.players:
        p.vp = 10
    s.players[1].doubloons, s.players[2].doubloons = 5, 4
    s.players[2].goods[0] = 1
    assert s.winners() == [1, 2] and s.returns() == [0.0, 0.5, 0.5]
    s.players[2].goods[1] = 1
    assert s.winners() == [2]


def test_scores_include_building_vp_occupied_or_not() -> None:
    s = fresh(3)
    build(s, 1, "tobacco_storage", colonists=0)
    s.players[1].vp = 3
    assert s.scores()[1] == 3 + 3 and BUILDING_IDS["tobacco_storage"] == 4
