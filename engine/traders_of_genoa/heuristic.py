"""A rule-based Traders of Genoa player: values every action in ducats and plays greedily.

It completes orders (delivers large orders at villas, playing its any-good and trade cards
there first when they complete one, and small orders alongside actions; spends special cards
on the goods they need; a villa is worth to it the large order its goods and cards complete
there, less the cards), bids for an action at most about half of what the action is worth
to it (in ducats; in 2-player games, where an offer needs an item besides ducats, with the
item it loses least by: a good no order of its asks for, never an order it could complete),
accepts the offer worth the most (or takes the action when
that is worth more), walks the tower towards the buildings it values, and places its
markers next to as many buildings as it can.  Steering: as the owner it hears steering
offers when another player may value a building next to the tower more than it does, and
accepts the one worth most beyond the target's worth to itself; as a bidder it steers
towards the building next to the tower it values most, bidding as for an action.  It is
the arena's baseline, not a search.
"""

from __future__ import annotations

from ..rng import Rng
from .board import NEIGHBOUR, SQUARE, STREET_BUILDINGS
from .data import (
    BUILDINGS, CARD_DECK, DECKS, DECK_FIRST, D_LARGE, D_SMALL, LARGE_ORDER_PAY, LARGE_ORDERS, MARKER_END_VALUE, NUM_GOODS,
    OFFER_COINS, OFFER_STEP, S_ANY_GOOD, S_TRADE, SMALL_ORDER_PAY, SMALL_ORDERS,
)
from .moves import A_ACCEPT, A_GIVE, I_CARD, I_GOOD, I_MARKER, I_SPECIAL, Move
from .state import ST_HEED, ST_STEER, ST_VILLA, State

#: What one card drawn from a deck, one marker and one special card are worth (ducats).
CARD_VALUE = {"large": 25.0, "small": 14.0, "message": 10.0, "privilege": 18.0}
MARKER_VALUE = 12.0
SPECIAL_VALUE = (5.0, 6.0, 8.0, 8.0, 6.0)  # any_start, trade, any_good, building_action, extra_action
GOOD_VALUE = 5.0
NEEDED_GOOD_VALUE = 12.0  # a good an order in hand asks for
BID_SHARE = 0.5  # of an action's worth
REWARD_VALUE = 10.0  # the special card a large order earns
PALACE_COST = 15.0  # a building-action card spent


def choose_move(state: State, rng: Rng) -> Move:
    seat = state.to_move
    scored = [(_score(state, seat, Move.from_id(a)), rng.next64(), a) for a in state.legal_action_ids()]
    return Move.from_id(max(scored)[2])


def needed_goods(s: State, seat: int) -> list[int]:
    """How many of each good the orders in ``seat``'s hand ask for."""
    need = [0] * NUM_GOODS
    for c in s.hand(seat, D_LARGE):
        for g in LARGE_ORDERS[c - DECK_FIRST[D_LARGE]][1]:
            need[g] += 1
    for c in s.hand(seat, D_SMALL):
        need[SMALL_ORDERS[c - DECK_FIRST[D_SMALL]][0]] += 1
    return need


def good_value(s: State, seat: int, g: int) -> float:
    return NEEDED_GOOD_VALUE if needed_goods(s, seat)[g] > s.players[seat].goods[g] else GOOD_VALUE


def item_value(s: State, seat: int, item: int) -> float:
    """What one item of an offer (``moves.ITEM_NAMES``) is worth to ``seat``."""
    if item < I_GOOD:
        return float(OFFER_COINS[item])
    if item < I_CARD:
        return good_value(s, seat, item - I_GOOD)
    if item < I_SPECIAL:
        return CARD_VALUE[DECKS[CARD_DECK[item - I_CARD]]]
    if item < I_MARKER:
        return SPECIAL_VALUE[item - I_SPECIAL]
    return MARKER_VALUE


def offer_worth(s: State, bidder: int, seat: int) -> float:
    """What ``bidder``'s offer (so far) is worth to ``seat``."""
    ducats = max(s.offer_ducats[bidder], 0)
    return ducats + sum(item_value(s, seat, i) for i in s.offer_items(bidder))


def action_value(s: State, seat: int, b: int) -> float:
    """What taking the action of building ``b`` is worth to ``seat`` (ducats)."""
    p = s.players[seat]
    spec = BUILDINGS[b]
    if spec.action == "draw":
        deck, cards = spec.arg
        value = CARD_VALUE[deck] * cards
    elif spec.action == "markers":
        value = MARKER_VALUE * min(spec.arg, p.reserve)
    elif spec.action == "villa":
        value = max([CARD_VALUE["privilege"]] + [LARGE_ORDER_PAY + REWARD_VALUE - cost
                                                 for _, cost in _completable_orders(s, seat, b)])
    elif spec.action == "goods":
        value = sum(good_value(s, seat, g) for g in spec.arg if s.supply[g])
    else:
        value = SPECIAL_VALUE[spec.arg] if s.special_supply[spec.arg] else 0.0
    for c in s.hand(seat, D_SMALL):
        good, building = SMALL_ORDERS[c - DECK_FIRST[D_SMALL]]
        if building == b and p.goods[good]:
            value += SMALL_ORDER_PAY
            break
    return value


def large_order_cost(s: State, seat: int, order: int) -> float | None:
    """What the goods cards ``seat`` must play to complete large order ``order`` cost him
    (0: he holds its goods; any-good cards first, then trades of goods it does not use, each
    at ``SPECIAL_VALUE``), or None when his goods and cards cannot complete it."""
    p, want = s.players[seat], LARGE_ORDERS[order][1]
    short = [max(want.count(g) - p.goods[g], 0) for g in range(NUM_GOODS)]
    if any(short[g] > s.supply[g] for g in range(NUM_GOODS)):
        return None
    spare = sum(max(p.goods[g] - want.count(g), 0) for g in range(NUM_GOODS))
    missing, any_good = sum(short), p.specials[S_ANY_GOOD]
    if missing > any_good + min(p.specials[S_TRADE], spare):
        return None
    by_any = min(missing, any_good)
    return by_any * SPECIAL_VALUE[S_ANY_GOOD] + (missing - by_any) * SPECIAL_VALUE[S_TRADE]


def _completable_orders(s: State, seat: int, villa: int) -> list[tuple[int, float]]:
    """The large orders of villa ``villa`` in ``seat``'s hand that his goods and goods cards
    complete, with what the cards cost (``large_order_cost``)."""
    orders = [c - DECK_FIRST[D_LARGE] for c in s.hand(seat, D_LARGE)]
    costs = [(o, large_order_cost(s, seat, o)) for o in orders if LARGE_ORDERS[o][0] == villa]
    return [(o, cost) for o, cost in costs if cost is not None]


def villa_card_value(s: State, seat: int, give: int | None, get: int) -> float | None:
    """At a villa, what a goods card that brings ``get`` (for ``give``, a trade) is worth to
    the actor ``seat`` when it goes towards a large order of the villa his cards complete:
    the order's pay and reward less the card; None when it does not."""
    goods, card = s.players[seat].goods, SPECIAL_VALUE[S_ANY_GOOD if give is None else S_TRADE]
    wants = [LARGE_ORDERS[order][1] for order, _ in _completable_orders(s, seat, s.site)]
    towards = any(w.count(get) > goods[get] and (give is None or goods[give] > w.count(give)) for w in wants)
    return LARGE_ORDER_PAY + REWARD_VALUE - card if towards else None


def bid_site(s: State, seat: int) -> int:
    """The building ``seat`` bids for: the action on offer, or his steering offer's target."""
    return SQUARE[s.offer_target[seat]] if s.stage == ST_STEER else s.site


def steering_gain(s: State, seat: int) -> float:
    """What the owner ``seat`` may expect from hearing steering offers: the most another
    player who may act would bid for a target (``BID_SHARE`` of its worth to him) beyond
    the target's worth to the owner."""
    best = 0.0
    for t in s.steering_targets():
        b = SQUARE[t]
        mine = action_value(s, seat, b) if s.may_act(seat) else 0.0
        for q in range(s.num_players):
            if q != seat and s.may_act(q):
                best = max(best, BID_SHARE * action_value(s, q, b) - mine)
    return best


def _give_score(s: State, seat: int, item: int) -> float:
    """An offer's next item: the largest coin that keeps the bid within ``BID_SHARE`` of the
    action's worth to the bidder, then, in 2-player games (an offer needs an item besides
    ducats), the item he loses least by; never another item (-1)."""
    budget = BID_SHARE * action_value(s, seat, bid_site(s, seat))
    spent = max(s.offer_ducats[seat], 0) + sum(give_cost(s, seat, i) for i in s.offer_items(seat))
    cheapest = _cheapest_item(s, seat) if s.num_players == 2 and not s.offer_items(seat) else None
    if item < I_GOOD:
        reserve = 0.0 if cheapest is None else give_cost(s, seat, cheapest)
        return float(OFFER_COINS[item]) if spent + OFFER_COINS[item] + reserve <= budget else -1.0
    return 0.5 if item == cheapest and spent + give_cost(s, seat, item) <= budget else -1.0


def give_cost(s: State, seat: int, item: int) -> float:
    """What ``seat`` loses by giving one item of an offer away: a good his orders use up
    (he holds no more of it than they ask for) at ``NEEDED_GOOD_VALUE``, another good at
    ``GOOD_VALUE``, anything else at its worth (``item_value``)."""
    if I_GOOD <= item < I_CARD:
        g = item - I_GOOD
        return NEEDED_GOOD_VALUE if needed_goods(s, seat)[g] >= s.players[seat].goods[g] else GOOD_VALUE
    return item_value(s, seat, item)


def _cheapest_item(s: State, seat: int) -> int | None:
    """The item besides ducats ``seat`` may add to his offer that he loses least by (the
    first of equals), or None."""
    items = [a - A_GIVE for a in s.legal_action_ids() if A_GIVE + I_GOOD <= a < A_ACCEPT]
    return min(items, key=lambda i: (give_cost(s, seat, i), i), default=None)


def _score(s: State, seat: int, m: Move) -> float:
    k, a = m.kind, m.arg
    p = s.players[seat]
    if k == "give":
        return _give_score(s, seat, a)
    if k == "offer":
        return 0.1
    if k == "pass":
        return 0.0
    if k == "accept" and s.stage == ST_HEED:  # the bid beyond the target's worth to the owner
        mine = action_value(s, seat, SQUARE[s.offer_target[a]]) if s.may_act(seat) else 0.0
        return offer_worth(s, a, seat) - mine
    if k == "accept":
        return offer_worth(s, a, seat)
    if k == "hear":
        return steering_gain(s, seat)
    if k == "steer":  # a target worth bidding for
        return BID_SHARE * action_value(s, seat, SQUARE[a]) - OFFER_STEP
    if k == "take":
        return action_value(s, seat, s.site)
    if k == "lapse":
        return 0.0
    if k == "roll":
        return 1.0
    if k == "start":
        return action_value(s, seat, SQUARE[a]) if SQUARE[a] >= 0 else 0.0
    if k == "move":
        to = NEIGHBOUR[s.path[-1]][a]
        b = SQUARE[to]
        if b >= 0:
            return 0.0 if s.building_visited(b) else 1.0 + action_value(s, seat, b) * 0.1
        return 0.5 + 0.5 * sum(1 for x in STREET_BUILDINGS[to] if not s.marks[x] >> seat & 1)
    if k == "stop":
        return 0.2
    if k == "privilege":
        return CARD_VALUE["privilege"]
    if k == "large":
        return float(LARGE_ORDER_PAY)
    if k == "special":
        return SPECIAL_VALUE[a]
    if k in ("good", "trade") and s.stage == ST_VILLA:  # towards a large order of the villa
        towards = villa_card_value(s, seat, a if k == "trade" else None, m.extra if k == "trade" else a)
        if towards is not None:
            return towards
    if k == "good":
        return 3.0 if needed_goods(s, seat)[a] > p.goods[a] else -1.0
    if k == "trade":
        need = needed_goods(s, seat)
        gain = need[m.extra] > p.goods[m.extra]
        loss = need[a] >= p.goods[a]
        return 2.0 if gain and not loss else -1.0
    if k == "deliver":
        return float(SMALL_ORDER_PAY)
    if k == "palace":
        return action_value(s, seat, a) - PALACE_COST
    if k == "done":
        return 0.0
    if k == "base":
        return sum(1.0 for x in STREET_BUILDINGS[a] if not s.marks[x] >> seat & 1)
    if k == "mark":
        return MARKER_END_VALUE
    if k == "oust":
        return -1.0  # a marker for a marker: never worth it to this player
    return 0.0
