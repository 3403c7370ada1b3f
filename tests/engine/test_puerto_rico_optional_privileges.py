"""Optional privileges (decision table row "Optional privileges"): where taking the mayor's
colonist or the captain's VP chip could trigger the game end, a decline is a move; both
engines agree on every position of the scenarios."""

from __future__ import annotations

import numpy as np
import pytest

from meeplemind.engine import InvalidMoveError, Rng
from meeplemind.engine.puerto_rico import Move, State
from meeplemind.native import NativeGame

from .pr_helpers import build, chips, fresh, fresh_expansion, goods, legal, pick, play

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
