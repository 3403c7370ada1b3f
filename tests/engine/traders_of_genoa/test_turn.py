"""Negotiation, the tower walk, the market start, acquisition, the end and the scoring."""

from __future__ import annotations

import pytest

from meeplemind.positions import check_state
from meeplemind.engine import PositionError, Rng
from meeplemind.engine.traders_of_genoa import codec, new_game
from meeplemind.engine.traders_of_genoa.board import SQUARE
from meeplemind.engine.traders_of_genoa.data import (
    D_SMALL, DECK_FIRST, DECKS, D_PRIVILEGE, DIE_SIDES, MARKER_END_VALUE, MARKET, PRIVILEGE_PAY, ROUNDS, SPECIALS,
)
from meeplemind.engine.traders_of_genoa.state import PILE, ST_BASE, ST_DECIDE, ST_END, ST_OFFER, ST_WALK, UNSEEN

from .helpers import give_card, give_goods, give_special, mark, moves, play, turn_start


def test_an_offer_is_built_item_by_item_up_to_the_bidders_money() -> None:
    s = turn_start(3)
    s.players[1].ducats = 25
    s.players[0].ducats += 105
    give_goods(s, 1, "silk")
    give_card(s, 1, D_SMALL, 16)
    s = play(s, "start:3.4")
    assert s.stage == ST_OFFER and s.to_move == 1
    hand = ["give:large_16", "give:small_8", "give:small_16", "give:message_10", "give:privilege_9"]
    assert moves(s) == ["pass", "give:5", "give:10", "give:20", "give:silk"] + hand
    s = play(s, "give:20")  # a coin only onto a total it divides: 20 + 5, not 20 + 10 (over 25 anyway)
    assert moves(s) == ["offer", "give:5", "give:silk"] + hand
    s = play(s, "give:5", "give:small_16")  # items in building order: no silk after a card
    assert moves(s) == ["offer"] + hand[3:]
    s = play(s, "offer")
    assert s.offer_notation(1) == "offer:25+small_16" and s.to_move == 2


def test_an_offered_card_is_shown_to_everyone_and_changes_hands() -> None:
    s = turn_start(3)
    give_card(s, 1, D_SMALL, 16)
    s = play(s, "start:3.4", "offer:10+small_16", "pass")
    card = DECK_FIRST[D_SMALL] + 15
    assert s.observation(2).cards[card] == 1 and s.observation(0).cards[card] == 1
    s = play(s, "accept:1")
    assert s.cards[card] == 0 and (s.players[0].hand[D_SMALL], s.players[1].hand[D_SMALL]) == (2, 3)
    assert s.observation(2).cards[card] == UNSEEN  # back in a hidden hand: the table forgets


def test_owner_accepts_an_offer_and_the_buyer_acts() -> None:
    s = play(turn_start(3), "start:3.4", "offer:20", "offer:30")
    assert s.stage == ST_DECIDE and moves(s) == ["take", "accept:1", "accept:2"]
    s = play(s, "accept:2")
    assert [p.ducats for p in s.players] == [160, 130, 100]
    assert s.players[2].hand[1] == 3 and s.players[2].actions == 1 and s.players[0].actions == 0
    s = play(s, "move:n", "move:e", "move:e")  # street squares 2.4 2.5 2.6
    assert s.stage == ST_WALK and s.to_move == 0 and len(s.path) == 4


def test_a_good_changes_hands_with_an_offer() -> None:
    s = turn_start(3)
    give_goods(s, 1, "pepper")
    s = play(s, "start:3.4", "offer:5+pepper", "pass", "accept:1")
    assert s.players[0].goods[3] == 1 and s.players[1].goods[3] == 0
    assert (s.players[0].ducats, s.players[1].ducats) == (135, 125)


def test_one_action_per_player_per_turn() -> None:
    s = play(turn_start(3), "start:3.4", "pass", "offer:5", "accept:2", "move:w", "move:s")  # Post Office
    assert s.stage == ST_OFFER and s.to_move == 1  # seat 2 has acted: not asked
    s = play(s, "pass")
    assert moves(s) == ["take", "lapse"]
    s = play(s, "take", "move:s")  # the Post Office's second square: no second negotiation
    assert s.stage == ST_WALK and s.players[0].actions == 1
    s = play(s, "move:w")  # the Palace: seat 1 alone may still act, the owner may not take
    assert s.stage == ST_OFFER and s.to_move == 1
    s = play(s, "pass")  # lapse was the only choice; the fifth disc ended the walk and the turn
    assert s.owner == 1 and s.special_supply[SPECIALS.index("building_action")] == 5


def test_extra_action_card_allows_a_second_action() -> None:
    s = turn_start(3)
    give_special(s, 2, "extra_action")
    s = play(s, "start:3.4", "pass", "offer:5", "accept:2", "move:w", "move:s")
    assert s.to_move == 1
    s = play(s, "pass")
    assert s.to_move == 2 and s.stage == ST_OFFER  # the card lets seat 2 bid again
    s = play(s, "offer:10", "accept:2")
    assert s.players[2].actions == 2 and s.players[2].specials[SPECIALS.index("extra_action")] == 0


def test_two_player_offers_include_a_good_and_the_owner_may_act_twice() -> None:
    s = turn_start(2)
    s.players[1].ducats = 0
    s = play(s, "start:3.4")  # cards count as goods (seed): the opponent may offer one
    assert moves(s) == ["pass"] + [f"give:{DECKS[d]}_{c - DECK_FIRST[d] + 1}" for d in range(4) for c in s.hand(1, d)]
    s = turn_start(2)
    give_goods(s, 1, "silk")
    s = play(s, "start:3.4")
    assert moves(s)[:7] == ["pass", "give:5", "give:10", "give:20", "give:50", "give:100", "give:silk"]
    assert "offer" not in moves(play(s, "give:20"))  # ducats alone are no 2-player offer
    s = play(s, "offer:10+silk", "accept:1", "move:w", "move:s")  # the Post Office
    s = play(s, "take", "move:s", "move:w")  # ... the owner acted once, the Palace: a second time
    assert s.stage == ST_DECIDE and "take" in moves(s)
    s = play(s, "take")  # the fifth disc: the turn is over
    assert s.players[0].specials[SPECIALS.index("building_action")] == 1 and s.owner == 1


def test_the_tower_walks_orthogonally_without_revisits_and_stops() -> None:
    s = play(turn_start(3), "start:2.2")
    assert moves(s) == ["stop", "move:n", "move:e", "move:s", "move:w", "hear"]
    s = play(s, "move:e")
    assert "move:w" not in moves(s)  # 2.2 has a disc
    s = play(s, "move:e", "move:e")
    assert s.path == [9, 10, 11, 12]
    s = play(s, "move:s")  # 3.5: City Hall, the fifth disc
    s = play(s, "pass", "pass", "lapse")
    assert s.owner == 1  # the fifth disc ended the walk, nobody has markers: the turn is over


def test_the_market_is_never_entered() -> None:
    s = play(turn_start(3), "start:3.4", "pass", "pass", "lapse")
    assert "move:s" not in moves(s)  # 4.4 is the market
    starts = [m for m in moves(turn_start(3)) if m.startswith("start:")]
    assert len(starts) == 60 and "start:4.4" not in starts  # any square but the market's four


def _market_seed() -> int:
    """A seed whose first roll lands on the market."""
    for seed in range(1000):
        rng = Rng(seed)
        if SQUARE[rng.below(DIE_SIDES) * DIE_SIDES + rng.below(DIE_SIDES)] == MARKET:
            return seed
    raise AssertionError("no market roll in 1000 seeds")


def test_a_market_start_moves_the_round_marker_and_rolls_again() -> None:
    seed = _market_seed()
    s = play(turn_start(3), "roll", seed=seed)
    rng, markets = Rng(seed), 0
    while SQUARE[sq := rng.below(DIE_SIDES) * DIE_SIDES + rng.below(DIE_SIDES)] == MARKET:
        markets += 1
    assert markets >= 1 and s.round == markets and s.path[0] == sq


def test_acquisition_from_a_street_disc() -> None:
    s = play(turn_start(3), "start:6.4", "pass", "pass", "take", "move:w")  # the Cathedral, then 6.3
    assert s.players[0].markers == 2
    s = play(s, "stop")
    assert s.stage == ST_BASE and moves(s) == ["pass", "base:6.3"]
    s = play(s, "base:6.3")
    assert moves(s) == ["done", "mark:post_office", "mark:cathedral"]
    s = play(s, "mark:post_office")
    assert moves(s) == ["done", "mark:cathedral"]
    s = play(s, "mark:cathedral")  # no marker left: done by itself, the others have none: next turn
    assert s.owned(0) == (1 << 2) | (1 << 3) and s.players[0].markers == 0 and s.owner == 1


def test_a_used_disc_is_gone_for_the_next_player() -> None:
    s = turn_start(3)
    s.players[1].markers, s.players[1].reserve = 2, 5
    s = play(s, "start:6.4", "pass", "pass", "take", "move:w", "stop")
    s = play(s, "base:6.3", "mark:cathedral")  # the last building next to 6.3: done by itself
    assert s.owner == 1 and s.players[1].markers == 2  # seat 1 had no disc left: passed at once


def test_privileges_pay_by_the_connected_group() -> None:
    chain = ("villa_colini", "spice_store", "harbor", "grain_store", "villa_monetti", "coach_house", "metal_store")
    for size in range(0, 8):
        s = new_game(3, 1)
        for c in s.hand(0, D_PRIVILEGE):
            s.cards[c], s.piles[D_PRIVILEGE] = PILE, s.piles[D_PRIVILEGE] + 1
            s.players[0].hand[D_PRIVILEGE] -= 1
        give_card(s, 0, D_PRIVILEGE, 1)  # Villa Colini's
        for b in (chain[1:size] if size else ()) + ((chain[0],) if size else ()):
            mark(s, 0, b)
        pay = PRIVILEGE_PAY[min(size, 6)]
        assert s.scores()[0] == s.players[0].ducats + MARKER_END_VALUE * size + pay
    assert PRIVILEGE_PAY[1:] == (10, 30, 60, 100, 150, 200)


def test_an_unowned_privilege_pays_nothing() -> None:
    s = new_game(3, 1)
    give_card(s, 0, D_PRIVILEGE, 1)
    mark(s, 0, "spice_store")
    assert s.privilege_value(0, 46) == 0


def test_markers_pay_ten_each_at_the_end() -> None:
    s = new_game(3, 1)
    for c in s.hand(1, D_PRIVILEGE):
        s.cards[c], s.piles[D_PRIVILEGE] = PILE, s.piles[D_PRIVILEGE] + 1
        s.players[1].hand[D_PRIVILEGE] -= 1
    mark(s, 1, "city_hall")
    mark(s, 1, "cathedral")
    assert s.scores()[1] == 130 + 2 * MARKER_END_VALUE


def test_tie_break_more_goods() -> None:
    s = new_game(2, 3)
    for seat in (0, 1):
        for c in s.hand(seat, D_PRIVILEGE):
            s.cards[c], s.piles[D_PRIVILEGE] = PILE, s.piles[D_PRIVILEGE] + 1
            s.players[seat].hand[D_PRIVILEGE] -= 1
    give_goods(s, 1, "salt", 2)
    give_goods(s, 0, "silk")
    assert s.scores() == [130, 130] and s.tiebreaks() == [1, 2]
    assert s.winners() == [1] and s.returns() == [0.0, 1.0]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_game_ends_when_everyone_has_owned_the_tower_equally_often(players: int) -> None:
    s, rng = new_game(players, 11), Rng(5)
    turns = [0] * players
    owner, markers_at_round_end = s.owner, []
    turns[owner] += 1
    while not s.is_terminal:
        legal = s.legal_moves()
        s = s.apply(legal[rng.below(len(legal))], rng)
        if not s.is_terminal and s.owner != owner:
            owner = s.owner
            turns[owner] += 1
            if owner == s.start_player:
                markers_at_round_end.append(s.round)
    assert s.stage == ST_END and len(set(turns)) == 1
    # (a market start in a round's first turn may move the marker to the end: the round is played out)
    assert s.round >= ROUNDS[players] and all(r <= ROUNDS[players] for r in markers_at_round_end)
    assert turns[0] == len(markers_at_round_end) + 1 <= ROUNDS[players]


def test_a_position_may_hold_any_offer_the_bidder_can_pay() -> None:
    s = play(turn_start(3), "start:3.4", "offer:20")
    s.offer_ducats[1] = 15  # a client's bundle off the grid
    check_state(s)
    s = play(s, "pass", "accept:1")
    assert (s.players[0].ducats, s.players[1].ducats) == (145, 115)
    other_card = DECK_FIRST[D_SMALL] + 3  # in seat 2's hand
    cases = (("offer_ducats", 12, "offers[1].ducats"), ("offer_ducats", 135, "offers[1].ducats"),
             ("offer_ducats", 0, "offers[1].ducats"), ("goods", 1, "offers[1].goods.silk"),
             ("card", other_card, "offered_cards.small_4"), ("markers", 1, "offers[1].markers"))
    for what, value, field in cases:
        s = play(turn_start(3), "start:3.4", "offer:20")
        if what == "offer_ducats":
            s.offer_ducats[1] = value
        elif what == "goods":
            s.offer_goods[1][7] = value
        elif what == "markers":
            s.offer_markers[1] = value
        else:
            s.offered_cards[value] = 1
        with pytest.raises(PositionError) as info:
            check_state(s)
        assert info.value.path == field, what


def test_a_marker_given_up_removes_another_players() -> None:
    s = turn_start(3)
    mark(s, 1, "post_office")
    s = play(s, "start:6.4", "pass", "pass", "take", "move:w", "stop", "base:6.3")
    assert moves(s) == ["done", "mark:post_office", "mark:cathedral", "oust:post_office@1"]
    s = play(s, "oust:post_office@1")
    assert not s.marks[2] & 2 and (s.players[1].reserve, s.players[0].reserve) == (7, 6)
    assert s.players[0].markers == 1 and "oust" not in " ".join(moves(s))  # once per base
    s = play(s, "mark:post_office")
    assert s.owned(0) == 1 << 2 and s.owner == 1


def test_render_shows_the_tower_the_offers_and_the_players() -> None:
    s = turn_start(3)
    give_goods(s, 1, "silk")
    text = str(play(s, "start:1.1", "offer:20+silk"))
    assert text.splitlines()[0].startswith("*1 VC HA")
    assert "offers S2 20+silk" in text and "S2 130 ducats | goods silk:1" in text


def test_only_a_player_who_may_still_act_bids_in_a_position() -> None:
    """A client's position where a player who has acted (and holds no extra-action card)
    bids or is to bid is refused by both decoders at the same field: accepting it would
    spend a card he does not have."""
    from meeplemind.native import NativeDecodeError, NativeGame

    native = NativeGame("traders-of-genoa")
    s = play(turn_start(3), "start:3.4", "offer:20")  # seat 1 offered, seat 2 to bid
    for seat, field in ((1, "offers[1].ducats"), (2, "to_move")):
        bad = s.copy()
        bad.players[seat].actions = 1
        with pytest.raises(PositionError) as info:
            check_state(bad)
        assert info.value.path == field
        with pytest.raises(NativeDecodeError) as native_info:
            native.decode(bad.encode())
        assert codec.LAYOUT[native_info.value.index] == field
        give_special(bad, seat, "extra_action")  # a card allows one more action
        check_state(bad)
        native.decode(bad.encode())
