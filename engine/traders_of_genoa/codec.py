"""Traders of Genoa positions as the int32 state vector, and its validation.

Layout version 1 (``VECTOR_LEN`` int32), engine indices 0-based, -1 for none.  The C
decoder (native/mm_traders_of_genoa.c) checks the same things in the same order and
reports the same index: the player count, every field's range in vector order
(``FIELDS``), then the invariants of ``check_vector`` in the order written::

      0 version   1 players   2 start_player   3 owner (tower)   4 round (marker)
      5 stage (start offer decide villa reward extras walk base mark end)   6 to_move
      7 site (building)   8 actor   9 delivered   10 base (square)   11 last_mark
     12 used_discs (bitmask over path)   13 acquirer   14 ousted
     15 path[5] (squares, -1 after the last)
     20 offers[5] x 2: ducats (-1: no offer; any multiple of 5 in a position, the grid in
        moves), good (-1: none)
     30 supply[8] goods   38 special_supply[5]   43 marks[18] (bitmask of seats)
     61 cards[60]: every card's location (seat 0-4, 5 pile, 6 used, 7 unseen)   121 piles[4]
    125 players[5] x 21: ducats, goods[8], specials[5], markers, reserve, hand[4] (cards per
        deck), actions
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import PositionError
from .board import NEIGHBOUR, NUM_SQUARES, SQUARE
from .data import (
    BUILDINGS, CARD_NAMES, DECK_FIRST, DECK_SIZES, DECKS, GOODS, GOODS_PER_KIND, LIMIT, MARKERS_PER_PLAYER,
    MARKET, MAX_ACTIONS, MAX_PLAYERS, NUM_BUILDINGS, NUM_CARDS, NUM_GOODS, OFFER_STEP, S_EXTRA_ACTION, SPECIAL_COUNTS,
    SPECIALS, STREET, TOWER_DISCS,
)
from .state import (
    PILE, ST_BASE, ST_DECIDE, ST_END, ST_EXTRAS, ST_MARK, ST_OFFER, ST_REWARD, ST_START, ST_VILLA,
    ST_WALK, STAGES, UNSEEN, Player, State,
)

LAYOUT_VERSION = 1
G_PLAYERS, G_START, G_OWNER, G_ROUND, G_STAGE, G_TO_MOVE, G_SITE, G_ACTOR, G_DELIVERED = range(1, 10)
G_BASE, G_LAST_MARK, G_USED_DISCS, G_ACQUIRER, G_OUSTED = range(10, 15)
O_PATH = 15
O_OFFERS = O_PATH + TOWER_DISCS
O_SUPPLY = O_OFFERS + 2 * MAX_PLAYERS
O_SPECIAL_SUPPLY = O_SUPPLY + NUM_GOODS
O_MARKS = O_SPECIAL_SUPPLY + len(SPECIALS)
O_LOCATION = O_MARKS + NUM_BUILDINGS
O_PILES = O_LOCATION + NUM_CARDS
O_PLAYERS = O_PILES + len(DECKS)
P_DUCATS, P_GOODS = 0, 1
P_SPECIALS = P_GOODS + NUM_GOODS
P_MARKERS = P_SPECIALS + len(SPECIALS)
P_RESERVE = P_MARKERS + 1
P_CARDS = P_RESERVE + 1
P_ACTIONS = P_CARDS + len(DECKS)
PLAYER_LEN = P_ACTIONS + 1
VECTOR_LEN = O_PLAYERS + MAX_PLAYERS * PLAYER_LEN


def _layout() -> list[str]:
    names = ["version", "players", "start_player", "owner", "round", "stage", "to_move", "site", "actor",
             "delivered", "base", "last_mark", "used_discs", "acquirer", "ousted"]
    names += [f"path[{i}]" for i in range(TOWER_DISCS)]
    names += [f"offers[{p}].{f}" for p in range(MAX_PLAYERS) for f in ("ducats", "good")]
    names += [f"supply.{g}" for g in GOODS]
    names += [f"special_supply.{k}" for k in SPECIALS]
    names += [f"marks.{b[0]}" for b in BUILDINGS]
    names += [f"cards.{name}" for name in CARD_NAMES]
    names += [f"piles.{d}" for d in DECKS]
    for p in range(MAX_PLAYERS):
        at = f"players[{p}]."
        names += [at + "ducats"] + [f"{at}goods.{g}" for g in GOODS] + [f"{at}specials.{k}" for k in SPECIALS]
        names += [at + "markers", at + "reserve"] + [f"{at}hand.{d}" for d in DECKS] + [at + "actions"]
    return names


#: Field path of every state-vector index (names the field a decoder rejects).
LAYOUT = tuple(_layout())


def layout_for(vec: Any) -> tuple[str, ...]:
    return LAYOUT


def field_range(n: int, i: int) -> tuple[int, int]:
    """The range of vector entry ``i >= 2`` in an ``n``-player position (the C decoder's
    ``field_range`` is this function)."""
    if i < O_PATH:
        return {G_START: (0, n - 1), G_OWNER: (0, n - 1), G_ROUND: (0, LIMIT), G_STAGE: (0, len(STAGES) - 1),
                G_TO_MOVE: (-1, n - 1), G_SITE: (-1, NUM_BUILDINGS - 1), G_ACTOR: (-1, n - 1),
                G_DELIVERED: (0, 1), G_BASE: (-1, NUM_SQUARES - 1), G_LAST_MARK: (-1, NUM_BUILDINGS - 1),
                G_USED_DISCS: (0, (1 << TOWER_DISCS) - 1), G_ACQUIRER: (0, n - 1), G_OUSTED: (0, 1)}[i]
    if i < O_OFFERS:
        return -1, NUM_SQUARES - 1
    if i < O_SUPPLY:
        seat, good = divmod(i - O_OFFERS, 2)
        return -1, (NUM_GOODS - 1 if good else LIMIT) if seat < n else -1
    if i < O_SPECIAL_SUPPLY:
        return 0, GOODS_PER_KIND
    if i < O_MARKS:
        return 0, SPECIAL_COUNTS[i - O_SPECIAL_SUPPLY]
    if i < O_LOCATION:
        return 0, (1 << n) - 1
    if i < O_PILES:
        return 0, UNSEEN
    if i < O_PLAYERS:
        return 0, DECK_SIZES[i - O_PILES]
    seat, j = divmod(i - O_PLAYERS, PLAYER_LEN)
    if seat >= n:
        return 0, 0
    if j == P_DUCATS:
        return 0, LIMIT
    if j < P_SPECIALS:
        return 0, GOODS_PER_KIND
    if j < P_MARKERS:
        return 0, SPECIAL_COUNTS[j - P_SPECIALS]
    if j < P_CARDS:
        return 0, MARKERS_PER_PLAYER
    if j < P_ACTIONS:
        return 0, DECK_SIZES[j - P_CARDS]
    return 0, MAX_ACTIONS


Failure = tuple[int, str]


def check_ranges(v: Sequence[int]) -> Failure | None:
    """The first pass: the player count, then every field's range in vector order."""
    n = v[G_PLAYERS]
    if not 2 <= n <= MAX_PLAYERS:
        return G_PLAYERS, f"{n} players is not supported (2-{MAX_PLAYERS})"
    for i in range(2, VECTOR_LEN):
        lo, hi = field_range(n, i)
        if v[i] < lo:
            return i, f"{v[i]} is below {lo}"
        if v[i] > hi:
            return i, f"{v[i]} is above {hi}" + (" (no such seat)" if i >= O_PLAYERS else "")
    return None


def check_vector(v: Sequence[int]) -> Failure | None:
    """The first problem of a state vector, or None if it is a valid position."""
    if len(v) != VECTOR_LEN:
        return -1, f"vector has {len(v)} entries, expected {VECTOR_LEN}"
    if v[0] != LAYOUT_VERSION:
        return 0, f"layout version {v[0]} is not {LAYOUT_VERSION}"
    return check_ranges(v) or _check_turn(v) or _check_offers(v) or _check_conservation(v) or _check_cards(v)


def _player(v: Sequence[int], seat: int, j: int) -> int:
    return v[O_PLAYERS + seat * PLAYER_LEN + j]


def _may_act(v: Sequence[int], seat: int) -> bool:
    """``State.may_act`` on the vector: ``seat`` may still take an action this turn."""
    limit = 1 + (v[G_PLAYERS] == 2 and seat == v[G_OWNER] and _player(v, 1 - seat, P_ACTIONS) > 0)
    return _player(v, seat, P_ACTIONS) < limit or _player(v, seat, P_SPECIALS + S_EXTRA_ACTION) > 0


def _check_turn(v: Sequence[int]) -> Failure | None:
    """The tower's path and who is to move at this stage."""
    n, stage, owner = v[G_PLAYERS], v[G_STAGE], v[G_OWNER]
    length = next((i for i in range(TOWER_DISCS) if v[O_PATH + i] < 0), TOWER_DISCS)
    path = list(v[O_PATH:O_PATH + length])
    for i in range(TOWER_DISCS):
        s = v[O_PATH + i]
        if i >= length:
            if s >= 0:
                return O_PATH + i, "the path lists its squares first, then -1"
        elif SQUARE[s] == MARKET:
            return O_PATH + i, "the tower never stands on the market"
        elif s in path[:i]:
            return O_PATH + i, "the tower never visits a square twice in a turn"
        elif i and s not in NEIGHBOUR[path[i - 1]]:
            return O_PATH + i, "the tower moves one square orthogonally"
    for i in range(TOWER_DISCS):
        if v[G_USED_DISCS] >> i & 1 and (i >= len(path) or SQUARE[path[i]] != STREET):
            return G_USED_DISCS, f"disc {i} is not on a street square"
    acting = stage in (ST_VILLA, ST_REWARD, ST_EXTRAS)
    negotiating = stage in (ST_OFFER, ST_DECIDE)
    want = {G_TO_MOVE: -1 if stage == ST_END else None, G_SITE: None if negotiating or acting else -1,
            G_ACTOR: None if acting else -1, G_DELIVERED: None if stage == ST_EXTRAS else 0,
            G_BASE: None if stage == ST_MARK else -1, G_LAST_MARK: None if stage == ST_MARK else -1,
            G_ACQUIRER: None if stage in (ST_BASE, ST_MARK) else 0, G_OUSTED: None if stage == ST_MARK else 0}
    for i, value in want.items():
        if value is not None and v[i] != value:
            return i, f"must be {value} at stage {STAGES[stage]}"
        if value is None and v[i] < 0 and i != G_LAST_MARK:
            return i, f"must be set at stage {STAGES[stage]}"
    if stage in (ST_START, ST_END) and path:
        return O_PATH, f"the tower has no path at stage {STAGES[stage]}"
    if stage not in (ST_START, ST_END) and not path:
        return O_PATH, f"the tower stands on the board at stage {STAGES[stage]}"
    if stage in (ST_OFFER, ST_DECIDE) and SQUARE[path[-1]] != v[G_SITE]:
        return G_SITE, "the action on offer is the building the tower stands on"
    if stage == ST_VILLA and BUILDINGS[v[G_SITE]][1] != "villa":
        return G_SITE, "only a villa offers a privilege or a large order"
    if stage == ST_REWARD and not any(v[O_SPECIAL_SUPPLY:O_MARKS]):
        return G_STAGE, "a large order's special card needs one in the supply"
    if stage == ST_MARK:
        base = v[G_BASE]
        if base not in path or not v[G_USED_DISCS] >> path.index(base) & 1:
            return G_BASE, "the base is a street square of the path whose disc is used"
        if v[G_LAST_MARK] >= 0 and not v[O_MARKS + v[G_LAST_MARK]] >> v[G_TO_MOVE] & 1:
            return G_LAST_MARK, "the last building marked carries the player's marker"
    if stage in (ST_OFFER,) and v[G_TO_MOVE] == owner:
        return G_TO_MOVE, "the tower owner makes no offer"
    if stage == ST_OFFER and not _may_act(v, v[G_TO_MOVE]):
        return G_TO_MOVE, "the bidder to move may still act this turn"
    if stage in (ST_START, ST_DECIDE, ST_WALK) and v[G_TO_MOVE] != owner:
        return G_TO_MOVE, f"the tower owner {owner} is to move"
    if acting and v[G_TO_MOVE] != v[G_ACTOR]:
        return G_TO_MOVE, f"the actor {v[G_ACTOR]} is to move"
    if stage in (ST_BASE, ST_MARK) and v[G_TO_MOVE] != (owner + v[G_ACQUIRER]) % n:
        return G_TO_MOVE, "the acquirer is to move"
    return None


def _check_offers(v: Sequence[int]) -> Failure | None:
    n, stage = v[G_PLAYERS], v[G_STAGE]
    for seat in range(n):
        at = O_OFFERS + 2 * seat
        amount, good = v[at], v[at + 1]
        if amount < 0:
            if good >= 0:
                return at + 1, "a good is offered with ducats (0 or more)"
            continue
        if stage not in (ST_OFFER, ST_DECIDE) or seat == v[G_OWNER]:
            return at, "offers are made to the tower owner during a negotiation"
        if not _may_act(v, seat):
            return at, "an offer comes from a player who may still act this turn"
        if amount % OFFER_STEP or amount > _player(v, seat, P_DUCATS):
            return at, f"an offer is a multiple of {OFFER_STEP} ducats the bidder has"
        if good >= 0 and not _player(v, seat, P_GOODS + good):
            return at + 1, "an offered good is one the bidder holds"
        if good < 0 and (amount == 0 or n == 2):
            return at + 1, "an offer of no ducats, and any 2-player offer, includes a good"
    return None


def _check_conservation(v: Sequence[int]) -> Failure | None:
    n = v[G_PLAYERS]
    for g in range(NUM_GOODS):
        total = v[O_SUPPLY + g] + sum(_player(v, p, P_GOODS + g) for p in range(n))
        if total != GOODS_PER_KIND:
            return O_SUPPLY + g, f"{total} {GOODS[g]} in play, the game has {GOODS_PER_KIND}"
    for k in range(len(SPECIALS)):
        total = v[O_SPECIAL_SUPPLY + k] + sum(_player(v, p, P_SPECIALS + k) for p in range(n))
        if total != SPECIAL_COUNTS[k]:
            return O_SPECIAL_SUPPLY + k, f"{total} {SPECIALS[k]} cards in play, the game has {SPECIAL_COUNTS[k]}"
    for p in range(n):
        placed = sum(1 for b in range(NUM_BUILDINGS) if v[O_MARKS + b] >> p & 1)
        total = placed + _player(v, p, P_MARKERS) + _player(v, p, P_RESERVE)
        if total != MARKERS_PER_PLAYER:
            return O_PLAYERS + p * PLAYER_LEN + P_RESERVE, \
                f"{total} markers of seat {p} in play, each player has {MARKERS_PER_PLAYER}"
    return None


def _check_cards(v: Sequence[int]) -> Failure | None:
    """Every card has one location, and the public counts agree with the known cards."""
    n = v[G_PLAYERS]
    for c in range(NUM_CARDS):
        loc = v[O_LOCATION + c]
        if n <= loc < PILE:
            return O_LOCATION + c, f"seat {loc} is not in a {n}-player game"
    for d in range(len(DECKS)):
        cards = range(DECK_FIRST[d], DECK_FIRST[d] + DECK_SIZES[d])
        count = [0] * (UNSEEN + 1)
        for c in cards:
            count[v[O_LOCATION + c]] += 1
        if count[PILE] > v[O_PILES + d]:
            return O_PILES + d, f"{count[PILE]} cards are known to be in the pile of {v[O_PILES + d]}"
        hidden = v[O_PILES + d] - count[PILE]
        for p in range(n):
            held = _player(v, p, P_CARDS + d)
            if count[p] > held:
                return O_PLAYERS + p * PLAYER_LEN + P_CARDS + d, f"{count[p]} cards are known in a hand of {held}"
            hidden += held - count[p]
        if hidden != count[UNSEEN]:
            return O_PILES + d, f"{count[UNSEEN]} unseen {DECKS[d]} cards for {hidden} unknown places"
    return None


def validate(s: State) -> None:
    """Raise PositionError unless ``s`` is a consistent position."""
    _raise(check_vector(encode(s).tolist()))


def _raise(bad: Failure | None) -> None:
    if bad:
        raise PositionError(LAYOUT[bad[0]] if bad[0] >= 0 else "state", bad[1])


def encode(s: State) -> np.ndarray:
    n = s.num_players
    v = [LAYOUT_VERSION, n, s.start_player, s.owner, s.round, s.stage, s.to_move, s.site, s.actor,
         int(s.delivered), s.base, s.last_mark, s.used_discs, s.acquirer, int(s.ousted)]
    v += s.path + [-1] * (TOWER_DISCS - len(s.path))
    for seat in range(MAX_PLAYERS):
        v += [s.offer_ducats[seat], s.offer_goods[seat]] if seat < n else [-1, -1]
    v += s.supply + s.special_supply + s.marks + s.location + s.piles
    for p in s.players:
        v += [p.ducats, *p.goods, *p.specials, p.markers, p.reserve, *p.cards, p.actions]
    v += [0] * (PLAYER_LEN * (MAX_PLAYERS - n))
    return np.asarray(v, dtype=np.int32)


def decode(vec: Any, check: bool = True) -> State:
    """The State of a vector written by ``encode``; validated unless ``check=False`` (a
    vector the native decoder has accepted)."""
    v = np.asarray(vec).ravel().tolist()
    if check:
        _raise(check_vector(v))
    n = v[G_PLAYERS]
    players = []
    for seat in range(n):
        f = v[O_PLAYERS + seat * PLAYER_LEN:O_PLAYERS + (seat + 1) * PLAYER_LEN]
        players.append(Player(ducats=f[P_DUCATS], goods=f[P_GOODS:P_SPECIALS], specials=f[P_SPECIALS:P_MARKERS],
                              markers=f[P_MARKERS], reserve=f[P_RESERVE], cards=f[P_CARDS:P_ACTIONS],
                              actions=f[P_ACTIONS]))
    return State(players=players, start_player=v[G_START], owner=v[G_OWNER], round=v[G_ROUND],
                 stage=v[G_STAGE], to_move=v[G_TO_MOVE], site=v[G_SITE], actor=v[G_ACTOR],
                 delivered=bool(v[G_DELIVERED]), base=v[G_BASE], last_mark=v[G_LAST_MARK],
                 used_discs=v[G_USED_DISCS], acquirer=v[G_ACQUIRER], ousted=bool(v[G_OUSTED]),
                 path=[s for s in v[O_PATH:O_OFFERS] if s >= 0], offer_ducats=v[O_OFFERS:O_OFFERS + 2 * n:2],
                 offer_goods=v[O_OFFERS + 1:O_OFFERS + 2 * n:2],
                 supply=v[O_SUPPLY:O_SPECIAL_SUPPLY], special_supply=v[O_SPECIAL_SUPPLY:O_MARKS],
                 marks=v[O_MARKS:O_LOCATION], location=v[O_LOCATION:O_PILES], piles=v[O_PILES:O_PLAYERS])

