"""The heuristic bot's offers (engine/traders_of_genoa/heuristic.py) and the C playout policy's:
within half of what the action is worth, ducats first, and in 2-player games the item the
bidder loses least by."""

from __future__ import annotations

from meeplemind.engine.rng import Rng
from meeplemind.engine.traders_of_genoa.data import D_LARGE, DECK_FIRST, GOODS, LARGE_ORDERS
from meeplemind.engine.traders_of_genoa.heuristic import BID_SHARE, action_value, choose_move, needed_goods
from meeplemind.engine.traders_of_genoa.moves import Move
from meeplemind.engine.traders_of_genoa.state import ST_OFFER, State
from meeplemind.native import NativeGame

from .helpers import give_goods, play, square, turn_start


def _heuristic_offer(s: State) -> tuple[State, list[str]]:
    """The heuristic bidder's moves until its offer is made or it passes."""
    bidder, made = s.to_move, []
    while s.stage == ST_OFFER and s.to_move == bidder:
        move = choose_move(s, Rng(1))
        made.append(str(move))
        s = play(s, str(move))
    return s, made


def test_a_2_player_offer_holds_a_spare_good_never_a_good_its_order_uses() -> None:
    s = turn_start(2, seed=3)
    s.players[1].ducats = 200
    order = s.hand(1, D_LARGE)[0] - DECK_FIRST[D_LARGE]
    villa, wanted = LARGE_ORDERS[order]
    used, spare = wanted[0], next(g for g in range(len(GOODS)) if needed_goods(s, 1)[g] == 0)
    give_goods(s, 1, GOODS[used])
    give_goods(s, 1, GOODS[spare])
    s = play(s, f"start:{square('city_hall')}")
    assert s.stage == ST_OFFER and s.to_move == 1
    worth = action_value(s, 1, s.site)
    s, made = _heuristic_offer(s)
    assert made[-1] == "offer" and made[-2] == f"give:{GOODS[spare]}", made
    assert all(m.startswith("give:") and m.removeprefix("give:").isdigit() for m in made[:-2]), made
    coins = sum(int(m.removeprefix("give:")) for m in made[:-2])
    assert coins + 5 <= BID_SHARE * worth < coins + 5 + 5 + 5  # the spare good counts 5


def test_a_3_player_offer_is_ducats_within_half_the_worth() -> None:
    s = turn_start(3, seed=3)
    s.players[1].ducats = 200
    s = play(s, f"start:{square('city_hall')}")  # two small orders: 28 ducats to it
    worth = action_value(s, 1, s.site)
    s, made = _heuristic_offer(s)
    coins = [int(m.removeprefix("give:")) for m in made[:-1]]
    assert made[-1] == "offer" and len(coins) == len(made) - 1, made
    assert sum(coins) <= BID_SHARE * worth < sum(coins) + 5


def test_the_c_playout_policy_adds_the_item_worth_least_in_2_player_offers() -> None:
    """The C twin of the 2-player offer (without the orders): coins while the item worth least
    still fits the half, then that item (a good before any card), never an order card."""
    native = NativeGame("traders-of-genoa")
    s = turn_start(2, seed=3)
    s.players[1].ducats = 200
    give_goods(s, 1, "silk")
    s = play(s, f"start:{square('city_hall')}")  # two small orders: 28 ducats to it, a bid of 14
    buf = native.decode(s.encode())
    priors = native.move_priors(buf)
    assert priors is not None
    by_move = {str(Move.from_id(int(a))): p for a, p in zip(native.legal_moves(buf), priors)}
    cards = [m for m in by_move if m.startswith("give:") and "_" in m]
    assert cards and max(by_move, key=by_move.__getitem__) == "give:5"  # 5 + the good's 5 fit 14; 10 + 5 do not
    assert by_move["give:silk"] > max(by_move[m] for m in cards)
    s = play(s, "give:5")
    buf = native.decode(s.encode())
    priors = native.move_priors(buf)
    assert priors is not None
    by_move = {str(Move.from_id(int(a))): p for a, p in zip(native.legal_moves(buf), priors)}
    assert max(by_move, key=by_move.__getitem__) == "give:silk"
