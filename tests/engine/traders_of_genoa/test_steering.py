"""Steering offers (issue 28): at the walk the owner may hear offers to move the tower onto
a building next to it whose action the bidder then buys; he accepts one or walks on
(docs/games/traders-of-genoa.md, "Steering offers"; the C twin replays these scenarios in
tests/native)."""

from __future__ import annotations

import pytest

from meeplemind.engine import InvalidMoveError, Rng
from meeplemind.engine.traders_of_genoa.data import D_MESSAGE, D_SMALL, MESSAGES, BUILDING_NAMES, MESSAGE_PAY
from meeplemind.engine.traders_of_genoa.heuristic import choose_move, steering_gain
from meeplemind.engine.traders_of_genoa.moves import Move, is_offer, offer_moves
from meeplemind.engine.traders_of_genoa.state import ST_EXTRAS, ST_HEED, ST_OFFER, ST_STEER, ST_WALK, State

from .helpers import give_card, give_goods, moves, play, square, turn_start

STREET = "2.4"  # a street square between the Harbor (1.4, north) and the City Hall (3.4, south)


def at_the_walk(players: int = 3) -> State:
    """The owner's tower stands on a street square next to two buildings."""
    return play(turn_start(players), f"start:{STREET}")


def heard() -> State:
    return play(at_the_walk(), "hear")


def one_offer() -> State:
    """Seat 1 offers 20 ducats to steer the tower to the Harbor, seat 2 passes."""
    return play(heard(), "steer:1.4", "give:20", "offer", "pass")


def two_offers() -> State:
    s = at_the_walk()
    give_goods(s, 2, "silk")
    return play(s, "hear", "steer:1.4:20", "steer:3.4:5+silk")


def two_players() -> State:
    """In a 2-player game seat 1 holds a good: ducats alone are no offer."""
    s = at_the_walk(2)
    give_goods(s, 1, "salt")
    return play(s, "hear")


SCENARIOS = (at_the_walk, heard, one_offer, two_offers, two_players)


def test_the_owner_may_hear_steering_offers_at_the_walk() -> None:
    assert moves(at_the_walk()) == ["stop", "move:n", "move:e", "move:s", "move:w", "hear"]


def test_each_bidder_names_a_building_next_to_the_tower_or_passes() -> None:
    s = heard()
    assert s.stage == ST_STEER and s.to_move == 1
    assert moves(s) == ["pass", "steer:1.4", "steer:3.4"]  # the Harbor, the City Hall
    opened = play(s, "steer:1.4")
    assert opened.offer_target[1] == Move.parse("steer:1.4").arg and opened.offer_ducats[1] == 0
    assert "offer" not in moves(opened) and "pass" not in moves(opened)  # something must be given
    assert "offer" in moves(play(opened, "give:5"))


def test_accepting_moves_the_tower_and_sells_the_action() -> None:
    s = one_offer()
    assert s.stage == ST_HEED and s.to_move == 0
    assert moves(s) == ["stop", "move:n", "move:e", "move:s", "move:w", "accept:1"]
    before = [p.ducats for p in s.players]
    after = play(s, "accept:1")
    assert [square_of for square_of in after.path] == [Move.parse(f"start:{STREET}").arg, Move.parse("steer:1.4").arg]
    assert [p.ducats for p in after.players] == [before[0] + 20, before[1] - 20, before[2]]
    assert after.actor == 1 and after.players[1].actions == 1 and after.stage == ST_EXTRAS
    assert after.site == BUILDING_NAMES.index("harbor") and after.offer_target == [-1] * 3


def test_the_owner_refuses_by_walking_on() -> None:
    s = play(one_offer(), "move:e")
    assert s.stage == ST_WALK and s.offer_ducats == [-1] * 3 and s.offer_target == [-1] * 3
    assert [p.ducats for p in s.players] == [p.ducats for p in one_offer().players]
    assert "hear" in moves(s)  # a new square: he may hear again
    onto = play(one_offer(), "move:n")  # onto the target without accepting: its usual negotiation
    assert onto.stage == ST_OFFER and onto.site == BUILDING_NAMES.index("harbor") and onto.to_move == 1


def test_the_owner_answers_once_per_square() -> None:
    s = play(heard(), "pass", "pass")
    assert s.stage == ST_HEED and moves(s) == ["stop", "move:n", "move:e", "move:s", "move:w"]


def test_the_owner_sees_every_offer_whole() -> None:
    s = two_offers()
    assert s.stage == ST_HEED and moves(s)[-2:] == ["accept:1", "accept:2"]
    assert s.offer_notation(2) == "steer:3.4:5+silk" and s.offer_target[2] == Move.parse("steer:3.4").arg
    after = play(s, "accept:2")
    assert after.path[-1] == Move.parse("steer:3.4").arg and after.players[2].actions == 1
    assert after.players[0].goods[7] == 1 and after.players[2].goods[7] == 0  # the silk changed hands


def test_a_player_who_has_acted_does_not_steer() -> None:
    s = play(turn_start(3), f"start:{square('city_hall')}", "offer:10", "pass", "accept:1")
    assert s.stage == ST_WALK and "hear" not in moves(s)  # next to the City Hall only, visited
    s = play(s, "move:n")
    assert s.players[1].actions == 1 and "hear" in moves(s)
    after = play(s, "hear")
    assert after.to_move == 2 and after.stage == ST_STEER  # seat 1 is skipped


def test_two_player_steering_offers_hold_more_than_ducats() -> None:
    s = two_players()
    assert moves(s) == ["pass", "steer:1.4", "steer:3.4"]
    opened = play(s, "steer:1.4", "give:20")
    assert "offer" not in moves(opened) and "give:salt" in moves(opened)
    assert play(opened, "give:salt", "offer").stage == ST_HEED


def test_a_message_pays_when_the_tower_is_steered_in() -> None:
    """Seat 2's message 2 names the City Hall, visited first, and the Trattoria, which seat 1
    steers the tower onto."""
    assert {BUILDING_NAMES[b] for b in MESSAGES[1]} == {"city_hall", "trattoria"}
    s = turn_start(3)
    give_card(s, 2, D_MESSAGE, 2)
    s = play(s, "start:3.5", "pass", "pass", "take", "move:e", "move:e", "hear", "steer:4.7:10", "pass")
    before = [p.ducats for p in s.players]
    after = play(s, "accept:1")
    assert [p.ducats for p in after.players] == [before[0] + 10, before[1] - 10, before[2] + MESSAGE_PAY]


def test_a_whole_steering_offer_is_its_moves() -> None:
    assert is_offer("steer:1.4:25+silk") and not is_offer("steer:1.4")
    assert [str(m) for m in offer_moves("steer:1.4:25+silk")] == ["steer:1.4", "give:20", "give:5", "give:silk", "offer"]
    with pytest.raises(InvalidMoveError, match="whole steering offer"):
        Move.parse("steer:1.4:25")
    with pytest.raises(InvalidMoveError, match="not a number from 1 to 8"):
        offer_moves("steer:9.9:25")
    assert str(Move.parse("hear")) == "hear" and Move.from_id(Move.parse("steer:3.4").id) == Move.parse("steer:3.4")
    whole = heard().apply("steer:1.4:20", Rng(0))
    assert whole == play(heard(), "steer:1.4", "give:20", "offer")


def _bot_plays(s: State, count: int) -> list[str]:
    rng, played = Rng(1), []
    for _ in range(count):
        move = choose_move(s, rng)
        played.append(str(move))
        s = s.apply(move, rng)
    return played


def test_the_heuristic_bot_makes_and_answers_steering_offers() -> None:
    """Seat 1 can complete small order 1 (silver to the Harbor): the owner hears, seat 1
    steers to the Harbor bidding about half its worth to him and is accepted; an owner who
    can complete that order himself refuses and walks there."""
    s = at_the_walk()
    give_card(s, 1, D_SMALL, 1)
    give_goods(s, 1, "silver")
    assert steering_gain(s, 0) > 0
    assert _bot_plays(s, 8)[:4] == ["hear", "steer:1.4", "give:20", "offer"]
    assert "accept:1" in _bot_plays(s, 8)
    give_card(s, 0, D_SMALL, 12)  # pepper to the Harbor: worth more to the owner than seat 1's bid
    give_goods(s, 0, "pepper")
    answer = play(s, "hear", "steer:1.4:20", "pass")
    assert choose_move(answer, Rng(1)) == Move.parse("move:n")
