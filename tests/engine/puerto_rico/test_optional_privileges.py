"""Optional privileges (decision table row "Optional privileges"): where taking the mayor's
colonist or the captain's VP chip could trigger the game end, a decline is a move; both
engines agree on every position of the scenarios."""

from __future__ import annotations

import numpy as np
import pytest

from meeplemind.engine import InvalidMoveError, PositionError, Rng
from meeplemind.engine.puerto_rico import Move, State
from meeplemind.native import NativeGame

from .helpers import build, chips, fresh, fresh_expansion, goods, legal, pick, play, with_buildings

pytest.importorskip("meeplemind.native._mm", reason="the native engines are not built")


def same_in_c(s: State, *moves: str) -> State:
    """Play ``moves`` in both engines, checking legal moves and states after each."""
    native = NativeGame("puerto-rico")
    buf, rng = native.decode(s.encode()), Rng(3)
    rng_state = rng.state
    for text in moves:
        assert native.legal_moves(buf).tolist() == s.legal_action_ids()
        s = s.apply(text, rng)
        rng_state = native.apply(buf, Move.parse(text).id, rng_state)
        assert np.array_equal(native.encode(buf), s.encode()), text
    assert native.legal_moves(buf).tolist() == s.legal_action_ids()
    return s


def colonists_left(s: State, supply: int) -> State:
    """Leave ``supply`` colonists in the supply (the rest wait in player 2's San Juan)."""
    s.players[2].san_juan += s.colonist_supply - supply
    s.colonist_supply = supply
    return s


def test_notation() -> None:
    for text in ("decline:mayor", "decline:captain"):
        assert str(Move.parse(text)) == text and Move.from_id(Move.parse(text).id) == Move.parse(text)
    with pytest.raises(InvalidMoveError, match="decline:builder"):
        Move.parse("decline:builder")


@pytest.mark.parametrize("supply, offered", [(2, False), (3, True), (4, False)])
def test_mayor_declines_the_colonist_the_ship_needs(supply: int, offered: bool) -> None:
    """3 players: the ship needs at least 3 colonists; with 3 in the supply the mayor's
    colonist would leave 2 and end the game."""
    s = colonists_left(fresh(3), supply)
    assert ("decline:mayor" in legal(s)) == offered
    if not offered:
        return
    taken = same_in_c(s, "role:mayor")
    assert taken.end_triggered and taken.colonist_supply == 0
    declined = same_in_c(s, "decline:mayor")
    assert not declined.end_triggered and declined.colonist_supply == 0 and declined.colonist_ship == 3
    assert declined.role_taken[1] and declined.players[0].colonists() == s.players[0].colonists() + 1


def test_library_mayor_may_decline_both_colonists() -> None:
    s = fresh_expansion(3, governor=0)
    build(s, 0, "library")
    for supply, offered in ((2, False), (3, True), (4, True), (5, False)):
        t = s.copy()
        colonists_left(t, supply)
        assert ("decline:mayor" in legal(t)) == offered, supply
    t = colonists_left(s.copy(), 4)
    assert same_in_c(t, "role:mayor").end_triggered
    assert not same_in_c(t, "decline:mayor").end_triggered


def test_captain_declines_the_last_chip() -> None:
    s = fresh(3)
    goods(s, 0, corn=2)
    chips(s, 2, s.vp_supply - 3)  # 3 chips left: 2 for the corn, the privilege's would be the last
    s = pick(s, "captain")
    assert s.current_player == 0 and "decline:captain" in legal(s)
    taken = same_in_c(s, "load:corn@4")
    assert taken.players[0].vp == 3 and taken.end_triggered
    declined = same_in_c(s, "decline:captain")
    assert declined.captain_loaded and declined.current_player == 0
    assert "decline:captain" not in legal(declined)
    loaded = same_in_c(declined, "load:corn@4")
    assert loaded.players[0].vp == 2 and not loaded.end_triggered and loaded.vp_supply == 1


def test_captain_takes_his_chip_when_it_cannot_hurt() -> None:
    for left in (2, 4):  # the load alone ends the game, or the chips last anyway
        s = fresh(3)
        goods(s, 0, corn=2)
        chips(s, 2, s.vp_supply - left)
        assert "decline:captain" not in legal(pick(s, "captain"))


def test_a_lone_decline_is_a_position_the_service_plays() -> None:
    """A position read from another client may stop where the decline is one of two moves;
    after the decline the captain's single load is forced and plays itself."""
    s = fresh(3)
    goods(s, 0, corn=2)
    s.ship_count, s.ship_kind = [4, 5, 0], [1, 2, -1]  # one empty ship left
    s.goods_supply[1] -= 4
    s.goods_supply[2] -= 5
    chips(s, 2, s.vp_supply - 3)
    s = pick(s, "captain")
    assert legal(s) == ["decline:captain", "load:corn@6"]
    assert State.from_dict(s.to_dict()).legal_moves() == s.legal_moves()
    after = play(s, "decline:captain")
    assert after.players[0].vp == 2 and not after.end_triggered


# -- the Hospice and University colonists (from the supply): declining variants of the moves

def test_declining_notation() -> None:
    for text in ("settle:coffee/decline", "settle:quarry/decline", "forest:sugar/decline",
                 "build:harbor/decline", "build:church/decline"):
        m = Move.parse(text)
        assert str(m) == text and m.declined and Move.from_id(m.id) == m
        assert m.id != Move.parse(text.removesuffix("/decline")).id
    for text in ("pass/decline", "craft:corn/decline", "settle:coffee/decline/decline", "build:statue/decline"):
        with pytest.raises(InvalidMoveError, match="decline"):
            Move.parse(text)


@pytest.mark.parametrize("supply, offered", [(2, False), (3, True), (4, False)])
def test_hospice_colonist_declined_when_it_could_end_the_game(supply: int, offered: bool) -> None:
    """3 players: the ship needs at least 3; the Hospice colonist from a supply of 3 leaves 2."""
    s = fresh(3)
    build(s, 0, "hospice")
    s = pick(colonists_left(s, supply), "settler")
    declines = [m for m in legal(s) if m.endswith("/decline")]
    assert bool(declines) == offered
    if not offered:
        return
    assert declines == sorted(f"{m}/decline" for m in legal(s) if m.startswith("settle:") and m not in declines)
    taken = same_in_c(s, "settle:quarry")
    assert taken.players[0].quarry_colonists == 1 and taken.colonist_supply == 2
    declined = same_in_c(s, "settle:quarry/decline")
    assert declined.players[0].quarries == 1 and declined.players[0].quarry_colonists == 0
    assert declined.colonist_supply == 3 and declined.current_player == 1
    kind = next(m for m in legal(s) if m.startswith("settle:") and m not in declines and m != "settle:quarry")
    k = Move.parse(kind).arg
    assert same_in_c(s, kind).players[0].plantation_colonists[k] == s.players[0].plantation_colonists[k] + 1
    assert same_in_c(s, f"{kind}/decline").players[0].plantation_colonists[k] == s.players[0].plantation_colonists[k]


def test_hospice_colonist_from_the_ship_is_never_declined() -> None:
    s = fresh(3)
    build(s, 0, "hospice")
    s = pick(colonists_left(s, 0), "settler")
    assert not [m for m in legal(s) if m.endswith("/decline")]
    assert same_in_c(s, "settle:quarry").colonist_ship == s.colonist_ship - 1


def test_hospice_forest_and_library_tiles() -> None:
    """A forest's Hospice colonist (to San Juan) may be declined; the settler's Library tile
    brings none, so it is never asked."""
    s = fresh_expansion(3, governor=0, buildings=with_buildings(hospice="guest_house"))
    build(s, 0, "hospice", "forest_house", "library")
    s = pick(colonists_left(s, 3), "settler")
    moves = legal(s)
    forest = next(m for m in moves if m.startswith("forest:"))
    assert f"{forest}/decline" in moves and "settle:quarry/decline" in moves
    assert same_in_c(s, forest).players[0].san_juan == 1
    declined = same_in_c(s, f"{forest}/decline")
    assert declined.players[0].san_juan == 0 and declined.players[0].forests == 1
    after = same_in_c(declined, "pass", "pass")  # the others pass: the settler's Library tile
    assert after.current_player == 0 and after.colonist_supply == 3
    assert not [m for m in legal(after) if m.endswith("/decline")]


def test_university_colonist_declined_when_it_could_end_the_game() -> None:
    s = fresh(3)
    build(s, 0, "university")
    s.players[0].doubloons = 12
    s = pick(colonists_left(s, 3), "builder")
    moves = legal(s)
    builds = [m for m in moves if m.startswith("build:") and not m.endswith("/decline")]
    assert [m for m in moves if m.endswith("/decline")] == sorted(f"{m}/decline" for m in builds)
    taken = same_in_c(s, "build:harbor")
    assert taken.players[0].buildings[Move.parse("build:harbor").arg] == 1 and taken.colonist_supply == 2
    declined = same_in_c(s, "build:harbor/decline")
    assert declined.players[0].buildings[Move.parse("build:harbor").arg] == 0
    assert declined.colonist_supply == 3 and declined.current_player == 1
    s.colonist_supply, s.players[2].san_juan = 4, s.players[2].san_juan - 1
    assert not [m for m in legal(s) if m.endswith("/decline")]


def test_university_with_the_expansion_buildings() -> None:
    """Expansion buildings decline with ids of their own (v2); the Statue has no circle."""
    s = fresh_expansion(3, governor=0, buildings=with_buildings(university="library"))
    build(s, 0, "university", "black_market")
    s.players[0].doubloons = 30
    s = pick(colonists_left(s, 3), "builder")
    moves = legal(s)
    assert len(moves) > 32  # more than the C engine's old bound on a legal list
    assert "build:church/decline" in moves and "build:statue" in moves and "build:statue/decline" not in moves
    declined = same_in_c(s, "build:church/decline")
    assert declined.players[0].buildings[Move.parse("build:church").arg] == 0 and declined.colonist_supply == 3


# -- a Black Market build: the University colonist comes after the give-ups

FOREST_HOUSE = Move.parse("build:forest_house").arg


def _black_market_builder(supply: int, san_juan: int = 0, **barrels: int) -> State:
    """3 players, seat 0 with an occupied University and Black Market, no doubloons, the
    builder's phase: the Forest House (2, 1 with the privilege) is a one-doubloon shortfall."""
    s = fresh_expansion(3, governor=0, buildings=with_buildings(university="library"))
    build(s, 0, "university", "black_market")
    s.players[0].doubloons = 0
    s.players[0].san_juan, s.colonist_supply = san_juan, s.colonist_supply - san_juan
    for kind, n in barrels.items():
        goods(s, 0, **{kind: n})
    return pick(colonists_left(s, supply), "builder")


def test_black_market_build_declines_the_university_colonist() -> None:
    """With 3 in the supply the colonist would end the game; the give-up (one corn barrel) is
    forced, so each build plays to its end."""
    s = _black_market_builder(3, corn=1)
    assert "build:forest_house" in legal(s) and "build:forest_house/decline" in legal(s)
    assert "build:statue/decline" not in legal(s)
    paid = same_in_c(s, "build:forest_house")
    assert paid.players[0].buildings[FOREST_HOUSE] == 1 and paid.colonist_supply == 2
    declined = same_in_c(s, "build:forest_house/decline")
    assert declined.players[0].buildings[FOREST_HOUSE] == 0 and declined.colonist_supply == 3
    assert declined.players[0].goods[0] == 0 and declined.current_player == 1


def test_the_declined_colonist_waits_in_the_position_through_the_give_ups() -> None:
    """Two barrel kinds: the give-up is a choice, so the position between the build and the
    colonist carries the decline (progress.black_market.colonist_declined)."""
    s = _black_market_builder(3, corn=1, indigo=1)
    waiting = same_in_c(s, "build:forest_house/decline")
    assert legal(waiting) == ["give:corn", "give:indigo"]
    d = waiting.to_dict()
    assert d["progress"]["black_market"] == {"building": "forest_house", "due": 1, "given": "",
                                              "colonist_declined": True}
    assert State.from_dict(d) == waiting
    assert not same_in_c(s, "build:forest_house").to_dict()["progress"]["black_market"]["colonist_declined"]
    built = same_in_c(waiting, "give:indigo")
    assert built.players[0].buildings[FOREST_HOUSE] == 0 and built.colonist_supply == 3
    assert built.to_dict()["progress"]["black_market"]["colonist_declined"] is False


@pytest.mark.parametrize("supply, san_juan, offered", [(2, 1, True), (2, 0, False), (4, 1, False), (1, 1, False)])
def test_a_given_up_colonist_counts_before_the_university_takes_one(supply: int, san_juan: int,
                                                                     offered: bool) -> None:
    """A colonist given up returns to the supply before the University takes one: from 2 (one
    short of the ship's 3) it makes 3, and the University colonist would end the game again."""
    s = _black_market_builder(supply, san_juan, corn=1 - san_juan)
    assert ("build:forest_house/decline" in legal(s)) == offered
    if not offered:
        return
    paid = same_in_c(s, "build:forest_house")  # the San Juan colonist is the one give-up: forced
    assert paid.players[0].san_juan == 0 and paid.colonist_supply == 2
    declined = same_in_c(s, "build:forest_house/decline")
    assert declined.players[0].buildings[FOREST_HOUSE] == 0 and declined.colonist_supply == 3


def test_a_declined_colonist_is_checked_against_the_position() -> None:
    s = _black_market_builder(3, corn=1, indigo=1)
    waiting = play(s, "build:forest_house/decline")
    d = s.to_dict()
    d["progress"]["black_market"]["colonist_declined"] = True
    with pytest.raises(PositionError) as info:
        State.from_dict(d)
    assert info.value.path == "progress.black_market.colonist_declined"
    assert "Black Market build" in info.value.problem
    d = waiting.to_dict()
    d["players"][0]["buildings"] = [b for b in d["players"][0]["buildings"] if b["building"] != "university"]
    d["building_supply"]["university"] += 1
    d["colonist_supply"] += 1
    with pytest.raises(PositionError) as info:
        State.from_dict(d)
    assert info.value.path == "progress.black_market.colonist_declined"
    d = fresh_expansion(3).to_dict()
    d["progress"]["black_market"]["colonist_declined"] = True
    with pytest.raises(PositionError, match="must be 0 outside its phase, is 1"):
        State.from_dict(d)


def _decline_starts() -> list[State]:
    """Positions where the Hospice or University colonist may be declined (also in a Black
    Market build)."""
    hospice = fresh(3)
    build(hospice, 0, "hospice")
    university = fresh(4)
    build(university, 0, "university")
    university.players[0].doubloons = 12
    forest = fresh_expansion(3, buildings=with_buildings(hospice="guest_house", university="library"))
    build(forest, 0, "hospice", "forest_house", "university")
    forest.players[0].doubloons = 12
    starts = [pick(colonists_left(hospice, 3), "settler"), pick(colonists_left(university, 4), "builder"),
              pick(colonists_left(forest.copy(), 3), "settler"), pick(colonists_left(forest, 3), "builder"),
              _black_market_builder(2, 1, indigo=1)]
    assert all(any(m.declined for m in s.legal_moves()) for s in starts)
    return starts


@pytest.mark.parametrize("seed", range(4))
def test_random_games_through_declines_agree_in_c(seed: int) -> None:
    """From each decline position, a decline (even seeds) or a random move, then random moves
    to the end: the same legal moves and states in C."""
    for start in _decline_starts():
        choose, draws = Rng(seed), Rng(3)  # same_in_c applies with Rng(3)
        s, moves = start, []
        if seed % 2 == 0:
            moves.append(str(next(m for m in start.legal_moves() if m.declined)))
            s = s.apply(moves[-1], draws)
        while not s.is_terminal:
            legal_ids = s.legal_action_ids()
            moves.append(str(Move.from_id(legal_ids[choose.below(len(legal_ids))])))
            s = s.apply(moves[-1], draws)
        assert same_in_c(start, *moves).scores() == s.scores()
