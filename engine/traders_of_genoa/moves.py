"""Traders of Genoa moves: a small hashable value, its notation and its action id.

Notation (stable, round-trips through ``Move.parse``); seats are 0-based like a position's
``viewer``, squares ``row.col`` 1-8 (red die, blue die), cards by their number in their
deck (1-16, 1-14)::

    roll              the tower owner rolls for the start square (he holds an any-start card)
    start:3.6         ... or plays the any-start card for square 3.6
    move:n            the tower moves north (n e s w); ``stop`` ends the walk
    give:20           add to one's offer for the action on offer: 20 ducats (a coin, 5 10 20
                      50 100, added to a total it divides), ``give:silk`` a good,
                      ``give:small_16`` a card of one's hand, ``give:special:trade`` a special
                      card, ``give:marker`` an ownership marker from one's hand
    offer             make the offer built so far (``ITEM_NAMES``: ducats first, then the other
                      items in ``ITEM_NAMES`` order)
    offer:25+silk+silk+small_16
                      a whole offer in one (``offer_moves``: its gives, then ``offer``)
    pass              no offer (also: no ownership base)
    hear              at the walk, the tower owner calls for steering offers
    steer:3.4         open a steering offer: the tower to move onto square 3.4 (a building
                      next to it), whose action the bidder buys with the items given next
    steer:3.4:25+silk a whole steering offer in one (``offer_moves``: steer, gives, ``offer``)
    accept:2          the tower owner sells the action to seat 2's offer (answering steering
                      offers: the tower moves to seat 2's target, seat 2 buys its action)
    take / lapse      ... takes the action himself / lets it lapse
    privilege         a villa's action: draw a privilege
    large:3           ... or deliver large order 3 (its three goods) at this villa
    special:trade     the special card a large order earns
    good:silk         play an any-good card: take one silk
    trade:salt>silk   play a trade card: one salt for one silk
    deliver:5         complete small order 5 alongside the action at its building
    palace:harbor     play a building-action card: the action of an owned building
    done              end the extras of an action (also: end placing markers)
    base:2.3          use the tower's disc on street square 2.3 to place markers
    mark:harbor       place an ownership marker on a building next to the base
    oust:harbor@2     ... or first give up a marker to remove seat 2's from a building there
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InvalidMoveError
from .board import DIRECTIONS, NUM_SQUARES, SIDE, square_name
from .data import (
    BUILDING_NAMES, CARD_NAMES, DECK_SIZES, D_LARGE, D_SMALL, GOODS, MAX_PLAYERS, NUM_BUILDINGS, NUM_CARDS,
    NUM_GOODS, OFFER_COINS, OFFER_STEP, SPECIALS,
)

SIMPLE = ("roll", "stop", "pass", "take", "lapse", "privilege", "done", "offer")
#: What an offer is built from, in the order it is built (an item's index is its ``give``
#: move's argument): coins, goods, cards, special cards, a marker.
ITEM_NAMES = (tuple(map(str, OFFER_COINS)) + GOODS + CARD_NAMES + tuple(f"special:{k}" for k in SPECIALS)
              + ("marker",))
I_GOOD = len(OFFER_COINS)
I_CARD = I_GOOD + NUM_GOODS
I_SPECIAL = I_CARD + NUM_CARDS
I_MARKER = I_SPECIAL + len(SPECIALS)
TRADES = NUM_GOODS * (NUM_GOODS - 1)
# Action-id ranges (mirrored by the C engine).
A_ROLL, A_STOP, A_PASS, A_TAKE, A_LAPSE, A_PRIVILEGE, A_DONE, A_OFFER = range(len(SIMPLE))
A_MOVE = len(SIMPLE)  # + direction
A_START = A_MOVE + len(DIRECTIONS)  # + square
A_GIVE = A_START + NUM_SQUARES  # + item
A_ACCEPT = A_GIVE + len(ITEM_NAMES)  # + seat
A_LARGE = A_ACCEPT + MAX_PLAYERS  # + large order
A_SPECIAL = A_LARGE + DECK_SIZES[D_LARGE]  # + special card
A_GOOD = A_SPECIAL + len(SPECIALS)  # + good
A_TRADE = A_GOOD + NUM_GOODS  # + trade index (give * 7 + the other goods in order)
A_DELIVER = A_TRADE + TRADES  # + small order
A_PALACE = A_DELIVER + DECK_SIZES[D_SMALL]  # + building
A_BASE = A_PALACE + NUM_BUILDINGS  # + square
A_MARK = A_BASE + NUM_SQUARES  # + building
A_OUST = A_MARK + NUM_BUILDINGS  # + building * MAX_PLAYERS + seat
A_HEAR = A_OUST + NUM_BUILDINGS * MAX_PLAYERS
A_STEER = A_HEAR + 1  # + square
NUM_ACTIONS = A_STEER + NUM_SQUARES


def trade_id(give: int, get: int) -> int:
    return A_TRADE + give * (NUM_GOODS - 1) + (get if get < give else get - 1)


@dataclass(frozen=True, slots=True)
class Move:
    """One decision: ``kind`` and its arguments (``arg``: square, seat, card, good, item or
    building; ``extra``: a trade's good received or an ousted seat, -1 for none)."""

    kind: str
    arg: int = 0
    extra: int = -1

    def __str__(self) -> str:
        k, a = self.kind, self.arg
        if k in SIMPLE:
            return k
        if k == "hear":
            return k
        if k == "move":
            return f"move:{DIRECTIONS[a]}"
        if k in ("start", "base", "steer"):
            return f"{k}:{square_name(a)}"
        if k == "give":
            return f"give:{ITEM_NAMES[a]}"
        if k == "accept":
            return f"accept:{a}"
        if k in ("large", "deliver"):
            return f"{k}:{a + 1}"
        if k == "special":
            return f"special:{SPECIALS[a]}"
        if k == "good":
            return f"good:{GOODS[a]}"
        if k == "trade":
            return f"trade:{GOODS[a]}>{GOODS[self.extra]}"
        if k == "oust":
            return f"oust:{BUILDING_NAMES[a]}@{self.extra}"
        return f"{k}:{BUILDING_NAMES[a]}"  # palace, mark

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse notation; raises InvalidMoveError naming what is wrong."""
        t = text.strip()
        if t in SIMPLE or t == "hear":
            return cls(t)
        verb, sep, rest = t.partition(":")
        if not sep or not rest:
            raise InvalidMoveError(f"move {text!r}: expected VERB:ARGUMENT or one of {', '.join(SIMPLE)}, hear")
        if verb == "move":
            return cls("move", _name(text, rest, DIRECTIONS, "direction"))
        if verb == "steer" and ":" in rest:
            raise InvalidMoveError(f"move {text!r}: a whole steering offer is applied as its moves (offer_moves)")
        if verb in ("start", "base", "steer"):
            return cls(verb, _square(text, rest))
        if verb == "give":
            return cls("give", _name(text, rest, ITEM_NAMES, "coin or item"))
        if verb == "offer":
            raise InvalidMoveError(f"move {text!r}: a whole offer is applied as its gives (offer_moves)")
        if verb == "accept":
            return cls("accept", _number(text, rest, MAX_PLAYERS, 0))
        if verb == "large":
            return cls("large", _number(text, rest, DECK_SIZES[D_LARGE], 1))
        if verb == "deliver":
            return cls("deliver", _number(text, rest, DECK_SIZES[D_SMALL], 1))
        if verb == "special":
            return cls("special", _name(text, rest, SPECIALS, "special card"))
        if verb == "good":
            return cls("good", _name(text, rest, GOODS, "good"))
        if verb == "trade":
            give, gt, get = rest.partition(">")
            a, b = _name(text, give, GOODS, "good"), _name(text, get, GOODS, "good") if gt else -1
            if b < 0 or a == b:
                raise InvalidMoveError(f"move {text!r}: expected trade:GOOD>OTHER_GOOD")
            return cls("trade", a, b)
        if verb == "oust":
            building, at, seat = rest.partition("@")
            if not at:
                raise InvalidMoveError(f"move {text!r}: expected oust:BUILDING@SEAT")
            return cls("oust", _name(text, building, BUILDING_NAMES, "building"), _number(text, seat, MAX_PLAYERS, 0))
        if verb in ("palace", "mark"):
            return cls(verb, _name(text, rest, BUILDING_NAMES, "building"))
        raise InvalidMoveError(f"move {text!r}: unknown verb {verb!r}")

    @property
    def id(self) -> int:
        k, a = self.kind, self.arg
        if k in SIMPLE:
            return SIMPLE.index(k)
        if k == "hear":
            return A_HEAR
        if k == "trade":
            return trade_id(a, self.extra)
        if k == "oust":
            return A_OUST + a * MAX_PLAYERS + self.extra
        return _BASE[k] + a

    @classmethod
    def from_id(cls, action: int) -> Move:
        return _BY_ID[action]


_BASE = {"move": A_MOVE, "start": A_START, "give": A_GIVE, "accept": A_ACCEPT, "large": A_LARGE, "special": A_SPECIAL,
         "good": A_GOOD, "deliver": A_DELIVER, "palace": A_PALACE, "base": A_BASE, "mark": A_MARK, "steer": A_STEER}


def coins(ducats: int) -> list[int]:
    """The coins (indices in OFFER_COINS) that build ``ducats`` in the order the rules allow:
    each coin divides the total it is added to."""
    out, total = [], 0
    for i in reversed(range(len(OFFER_COINS))):
        while total + OFFER_COINS[i] <= ducats and total % OFFER_COINS[i] == 0:
            out.append(i)
            total += OFFER_COINS[i]
    return out


def is_offer(text: str) -> bool:
    """Whether ``text`` is a whole offer (``offer:25+silk``, ``steer:3.4:25+silk``), not one move."""
    t = text.strip()
    return t.startswith("offer:") or (t.startswith("steer:") and t.count(":") >= 2)


def offer_moves(text: str) -> list[Move]:
    """A whole offer ``offer:25+silk+silk+small_16`` (items joined by ``+`` in any order: at
    most one number of ducats, a multiple of 5, and item names as ``give`` takes them) as
    its moves: the coins, the items in building order, then ``offer``; a whole steering
    offer ``steer:3.4:25+silk`` is ``steer:3.4`` and then the same."""
    verb, _, rest = text.strip().partition(":")
    opening = []
    if verb == "steer":
        square, _, rest = rest.partition(":")
        opening = [Move("steer", _square(text, square))]
    ducats, items = -1, []
    for word in rest.split("+"):
        if word.isdigit():
            if ducats >= 0 or int(word) % OFFER_STEP or (len(word) > 1 and word[0] == "0"):
                raise InvalidMoveError(f"move {text!r}: at most one amount of ducats, a multiple of {OFFER_STEP}")
            ducats = int(word)
        elif word in ITEM_NAMES[I_GOOD:]:
            items.append(ITEM_NAMES.index(word))
        else:
            raise InvalidMoveError(f"move {text!r}: {word!r} is not an amount of ducats or an item "
                                   "(a good, a card such as small_16, special:trade, marker)")
    gives = coins(max(ducats, 0)) + sorted(items)
    if not gives:
        raise InvalidMoveError(f"move {text!r}: an offer of nothing is 'pass'")
    return opening + [Move("give", i) for i in gives] + [Move("offer")]


def _name(text: str, word: str, names: tuple[str, ...], what: str) -> int:
    if word not in names:
        raise InvalidMoveError(f"move {text!r}: {word!r} is not a {what} ({', '.join(names)})")
    return names.index(word)


def _number(text: str, digits: str, count: int, first: int) -> int:
    """A number ``first``..``first + count - 1`` as a 0-based index."""
    if not digits.isdigit() or not first <= int(digits) < first + count or (len(digits) > 1 and digits[0] == "0"):
        raise InvalidMoveError(f"move {text!r}: {digits!r} is not a number from {first} to {first + count - 1}")
    return int(digits) - first


def _square(text: str, rest: str) -> int:
    row, dot, col = rest.partition(".")
    if not dot:
        raise InvalidMoveError(f"move {text!r}: expected a square ROW.COLUMN such as 3.6")
    return _number(text, row, SIDE, 1) * SIDE + _number(text, col, SIDE, 1)


def _all_moves() -> list[Move]:
    moves = [Move(k) for k in SIMPLE]
    moves += [Move("move", d) for d in range(len(DIRECTIONS))]
    moves += [Move("start", s) for s in range(NUM_SQUARES)]
    moves += [Move("give", i) for i in range(len(ITEM_NAMES))]
    moves += [Move("accept", p) for p in range(MAX_PLAYERS)]
    moves += [Move("large", c) for c in range(DECK_SIZES[D_LARGE])]
    moves += [Move("special", k) for k in range(len(SPECIALS))]
    moves += [Move("good", g) for g in range(NUM_GOODS)]
    moves += [Move("trade", a, b) for a in range(NUM_GOODS) for b in range(NUM_GOODS) if a != b]
    moves += [Move("deliver", c) for c in range(DECK_SIZES[D_SMALL])]
    moves += [Move("palace", b) for b in range(NUM_BUILDINGS)]
    moves += [Move("base", s) for s in range(NUM_SQUARES)]
    moves += [Move("mark", b) for b in range(NUM_BUILDINGS)]
    moves += [Move("oust", b, q) for b in range(NUM_BUILDINGS) for q in range(MAX_PLAYERS)]
    moves += [Move("hear")] + [Move("steer", s) for s in range(NUM_SQUARES)]
    return moves


_BY_ID = {m.id: m for m in _all_moves()}
ALL_MOVES = tuple(sorted(_BY_ID.values(), key=lambda m: m.id))
assert [m.id for m in ALL_MOVES] == list(range(NUM_ACTIONS))
