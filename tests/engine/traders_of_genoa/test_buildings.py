"""Every building's action, owner income, orders, messages and special cards, with exact numbers."""

from __future__ import annotations

from meeplemind.engine.traders_of_genoa.data import (
    D_LARGE, D_MESSAGE, D_PRIVILEGE, D_SMALL, DECK_FIRST, GOODS, LARGE_ORDER_PAY, MESSAGE_PAY, OWNER_INCOME,
    SMALL_ORDER_PAY, SPECIALS,
)
from meeplemind.engine.traders_of_genoa.state import ST_EXTRAS, ST_REWARD, ST_VILLA, ST_WALK, USED

from .helpers import give_card, give_goods, give_special, mark, moves, play, square, turn_start

SILVER, COPPER, SALT, PEPPER, WHEAT, RICE, LINEN, SILK = range(8)


def taken_by_owner(building: str, players: int = 3, setup=None):  # type: ignore[no-untyped-def]
    """The owner (seat 0) starts on ``building``, the others pass, he takes the action."""
    s = turn_start(players)
    if setup:
        setup(s)
    s = play(s, f"start:{square(building)}", *["pass"] * (players - 1))
    assert moves(s)[:2] == ["take", "lapse"]
    return s, play(s, "take")


def test_guild_hall_city_hall_post_office_draw_their_decks() -> None:
    for building, deck, count in (("guild_hall", D_LARGE, 1), ("city_hall", D_SMALL, 2),
                                  ("post_office", D_MESSAGE, 2)):
        before, after = taken_by_owner(building)
        assert after.players[0].hand[deck] == before.players[0].hand[deck] + count == 1 + count
        assert after.piles[deck] == before.piles[deck] - count
        assert len(after.hand(0, deck)) == 1 + count
        assert after.players[0].actions == 1 and after.stage == ST_WALK


def test_cathedral_hands_out_two_markers_or_what_is_left() -> None:
    _, after = taken_by_owner("cathedral")
    assert (after.players[0].markers, after.players[0].reserve) == (2, 5)

    def one_left(s):  # type: ignore[no-untyped-def]
        for b in ("harbor", "park", "palace", "tavern", "trattoria", "coach_house"):
            mark(s, 0, b)
    _, after = taken_by_owner("cathedral", setup=one_left)
    assert (after.players[0].markers, after.players[0].reserve) == (1, 0)


def test_warehouses_give_one_of_each_of_their_goods() -> None:
    for building, goods in (("metal_store", (SILVER, COPPER)), ("spice_store", (SALT, PEPPER)),
                            ("grain_store", (WHEAT, RICE)), ("cloth_store", (LINEN, SILK))):
        _, after = taken_by_owner(building)
        assert [g for g in range(8) if after.players[0].goods[g]] == list(goods)
        assert all(after.supply[g] == 4 for g in goods)

    def no_silver(s):  # type: ignore[no-untyped-def]
        give_goods(s, 1, "silver", 5)
    _, after = taken_by_owner("metal_store", setup=no_silver)
    assert after.players[0].goods[SILVER] == 0 and after.players[0].goods[COPPER] == 1


def test_special_card_buildings() -> None:
    for building, kind in (("harbor", "any_good"), ("trattoria", "trade"), ("tavern", "trade"),
                           ("coach_house", "any_start"), ("park", "extra_action"),
                           ("palace", "building_action")):
        before, after = taken_by_owner(building)
        k = SPECIALS.index(kind)
        assert after.players[0].specials[k] == before.players[0].specials[k] + 1
        assert after.special_supply[k] == before.special_supply[k] - 1


def test_an_empty_supply_still_counts_as_the_action() -> None:
    def park_empty(s):  # type: ignore[no-untyped-def]
        for seat in (1, 1, 2, 2, 2):
            give_special(s, seat, "extra_action")
    _, after = taken_by_owner("park", setup=park_empty)
    assert after.players[0].specials[SPECIALS.index("extra_action")] == 0
    assert after.players[0].actions == 1


def test_marker_holders_earn_owner_income_from_the_bank() -> None:
    def owners(s):  # type: ignore[no-untyped-def]
        for seat in (0, 1, 2):
            mark(s, seat, "harbor")
    before, after = taken_by_owner("harbor", setup=owners)
    assert [p.ducats for p in after.players] == [130, 130 + OWNER_INCOME, 130 + OWNER_INCOME]


def test_villa_draws_a_privilege_or_delivers_a_large_order() -> None:
    _, after = taken_by_owner("villa_colini")  # no large order to deliver: the privilege is forced
    assert after.players[0].hand[D_PRIVILEGE] == 2

    def order(s):  # type: ignore[no-untyped-def]
        give_card(s, 0, D_LARGE, 1)  # villa Colini: silver, salt, wheat
        for good in ("silver", "salt", "wheat"):
            give_goods(s, 0, good)
    _, s = taken_by_owner("villa_colini", setup=order)
    assert s.stage == ST_VILLA and moves(s) == ["privilege", "large:1"]
    s = play(s, "large:1")
    assert s.players[0].ducats == 130 + LARGE_ORDER_PAY and sum(s.players[0].goods) == 0
    assert s.cards[DECK_FIRST[D_LARGE]] == USED and s.stage == ST_REWARD
    assert moves(s) == [f"special:{k}" for k in SPECIALS]
    s = play(s, "special:trade")
    assert s.players[0].specials[SPECIALS.index("trade")] == 1


def test_small_order_alongside_the_action_at_its_building() -> None:
    def order(s):  # type: ignore[no-untyped-def]
        give_card(s, 0, D_SMALL, 2)  # copper to the Trattoria
        give_goods(s, 0, "copper", 2)
    _, s = taken_by_owner("trattoria", setup=order)
    assert s.stage == ST_EXTRAS and "deliver:2" in moves(s)
    s = play(s, "deliver:2")
    assert s.players[0].ducats == 130 + SMALL_ORDER_PAY and s.players[0].goods[COPPER] == 1
    assert s.supply[COPPER] == 4 and s.cards[DECK_FIRST[D_SMALL] + 1] == USED
    assert not any(m.startswith("deliver") for m in moves(s))


def test_small_order_elsewhere_is_not_offered() -> None:
    def order(s):  # type: ignore[no-untyped-def]
        give_card(s, 0, D_SMALL, 2)
        give_goods(s, 0, "copper")
    _, s = taken_by_owner("tavern", setup=order)
    assert not any(m.startswith("deliver") for m in moves(s))


def test_message_pays_when_the_tower_has_visited_both_buildings() -> None:
    s = turn_start(3)
    give_card(s, 2, D_MESSAGE, 2)  # City Hall and Trattoria
    s = play(s, "start:3.5", "pass", "pass", "lapse", "move:e", "move:e")
    assert s.players[2].ducats == 130
    s = play(s, "move:s")  # onto the Trattoria: paid at once, before its negotiation
    assert s.players[2].ducats == 130 + MESSAGE_PAY
    assert s.cards[DECK_FIRST[D_MESSAGE] + 1] == USED and s.players[2].hand[D_MESSAGE] == 1
    assert s.players[2].actions == 0


def test_any_good_and_trade_cards_during_an_action() -> None:
    def cards(s):  # type: ignore[no-untyped-def]
        give_special(s, 0, "any_good")
        give_special(s, 0, "trade")
        give_goods(s, 0, "salt")
    _, s = taken_by_owner("city_hall", setup=cards)
    assert "good:silk" in moves(s) and "trade:salt>silk" in moves(s)
    s = play(s, "trade:salt>silk", "good:pepper")
    p = s.players[0]
    assert (p.goods[SALT], p.goods[SILK], p.goods[PEPPER]) == (0, 1, 1)
    assert p.specials[SPECIALS.index("trade")] == p.specials[SPECIALS.index("any_good")] == 0
    assert s.supply[SALT] == 5 and s.special_supply[SPECIALS.index("trade")] == 7


def test_building_action_card_performs_an_owned_building() -> None:
    def palace(s):  # type: ignore[no-untyped-def]
        give_special(s, 0, "building_action")
        mark(s, 0, "park")
        mark(s, 1, "park")
    _, s = taken_by_owner("city_hall", setup=palace)
    assert "palace:park" in moves(s) and "palace:city_hall" not in moves(s)
    s = play(s, "palace:park")
    assert s.players[0].specials[SPECIALS.index("extra_action")] == 1
    assert s.players[1].ducats == 130 + OWNER_INCOME  # his marker on the Park
    assert s.players[0].actions == 1  # the card's action is not one of his own


def test_goods_names_follow_the_table() -> None:
    assert GOODS[SILVER] == "silver" and GOODS[SILK] == "silk"
