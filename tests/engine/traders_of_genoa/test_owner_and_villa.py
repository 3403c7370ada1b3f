"""The owner's decision once anyone offered, and a large order completed with special cards
(issue 28's rules fixes; the C twin replays these scenarios in tests/native)."""

from __future__ import annotations

from meeplemind.engine.traders_of_genoa.data import D_LARGE, DECK_FIRST, LARGE_ORDER_PAY
from meeplemind.engine.traders_of_genoa.state import ST_DECIDE, ST_REWARD, ST_VILLA, USED, State

from .helpers import give_card, give_goods, give_special, moves, play, square, turn_start


def offered() -> State:
    """Seat 1 offers 10 ducats for the City Hall, seat 2 passes: the owner decides."""
    return play(turn_start(3), f"start:{square('city_hall')}", "offer:10", "pass")


def unoffered() -> State:
    return play(turn_start(3), f"start:{square('city_hall')}", "pass", "pass")


def acted_owner_offered() -> State:
    """The owner has acted this turn; at the next building seat 1 offers, seat 2 passes."""
    return play(turn_start(3), f"start:{square('city_hall')}", "pass", "pass", "take", "move:w", "move:s",
                "offer:5", "pass")  # the Post Office


def villa_short_one_good() -> State:
    """The owner takes villa Colini's action holding large order 1 (silver, salt, wheat)
    with silver and salt only, and an any-good card."""
    s = turn_start(3)
    give_card(s, 0, D_LARGE, 1)
    give_goods(s, 0, "silver")
    give_goods(s, 0, "salt")
    give_special(s, 0, "any_good")
    return play(s, f"start:{square('villa_colini')}", "pass", "pass", "take")


def villa_with_a_trade() -> State:
    """As above, with pepper instead of wheat and a trade card instead."""
    s = turn_start(3)
    give_card(s, 0, D_LARGE, 1)
    for good in ("silver", "salt", "pepper"):
        give_goods(s, 0, good)
    give_special(s, 0, "trade")
    return play(s, f"start:{square('villa_colini')}", "pass", "pass", "take")


SCENARIOS = (offered, unoffered, acted_owner_offered, villa_short_one_good, villa_with_a_trade)


def test_once_anyone_offered_the_owner_sells_or_takes() -> None:
    s = offered()
    assert s.stage == ST_DECIDE and moves(s) == ["take", "accept:1"]


def test_without_offers_the_action_may_lapse() -> None:
    assert moves(unoffered()) == ["take", "lapse"]


def test_an_owner_who_has_acted_must_sell_to_an_offer() -> None:
    s = acted_owner_offered()  # the single move left, accept:1, plays itself
    assert (s.players[0].ducats, s.players[1].ducats, s.players[1].actions) == (135, 125, 1)


def test_an_any_good_card_completes_a_large_order_at_the_villa() -> None:
    s = villa_short_one_good()
    assert s.stage == ST_VILLA and "good:wheat" in moves(s) and "large:1" not in moves(s)
    s = play(s, "good:wheat")
    assert s.stage == ST_VILLA and moves(s) == ["privilege", "large:1"]
    s = play(s, "large:1")
    assert s.players[0].ducats == 130 + LARGE_ORDER_PAY and sum(s.players[0].goods) == 0
    assert s.cards[DECK_FIRST[D_LARGE]] == USED and s.stage == ST_REWARD


def test_a_trade_card_completes_a_large_order_at_the_villa() -> None:
    s = play(villa_with_a_trade(), "trade:pepper>wheat")
    assert s.stage == ST_VILLA and "large:1" in moves(s)
    assert play(s, "large:1").players[0].ducats == 130 + LARGE_ORDER_PAY
