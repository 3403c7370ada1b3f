"""Castles of Burgundy moves: a small hashable value, its notation and its action id.

A die action names the die it uses by the value rolled (``@5``: the die showing 5); the
workers it costs are implied (the fewest that turn the die into the number the action
needs).  Actions without ``@`` use no die: the castle's extra action and the building
effects.  Printed numbers throughout: depots 1-6, depot slots 1-4, black-depot slots 1-8,
estate spaces 1-37, goods 1-6 (the die number of the goods colour).  Notation (stable,
round-trips through ``Move.parse``)::

    take:3.2@5      take the tile in slot 2 of depot 3 with the 5-die (2 workers: 5 -> 3)
    place:17@1      add a storage tile to space 17 with the 1-die
    sell:4@4        sell all goods 4 with the 4-die
    workers@6       take workers with the 6-die
    take:3.2  place:17  sell:4  workers   the same without a die (castle, buildings)
    tile:church     which storage tile goes onto the chosen space (when several fit)
    discard:mine    storage full: the stored tile that leaves the game for the new one
    buy:black3      buy slot 3 of the black depot (2 silverlings, once per turn)
    buy:3.2         buy from a numbered depot (knowledge #6)
    ship:4          a ship takes the goods of depot 4
    ship:1+2        ... of two neighbouring depots (knowledge #5)
    goods:3         which new goods colour fills a free goods space (when not all fit)
    pass            end the turn without buying, or decline a building's effect

Action ids form a fixed space of ``NUM_ACTIONS`` integers shared with the C engine;
``Move.id`` and ``Move.from_id`` convert.  A source ``s`` is 0 for no die, else the die value.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InvalidMoveError
from .board import NUM_CELLS
from .data import BLACK_SLOTS, DEPOT_PAIRS, DEPOT_SLOTS, NUM_DEPOTS, NUM_GOODS, NUM_TILES, TILE_IDS, TILE_NAMES

SOURCES = 7  # no die, dice 1-6
DEPOT_SPACES = NUM_DEPOTS * DEPOT_SLOTS
# Action-id ranges (mirrored by the C engine).
A_PASS = 0
A_WORKERS = 1  # + source
A_SELL = A_WORKERS + SOURCES  # + source * 6 + goods
A_TAKE = A_SELL + SOURCES * NUM_GOODS  # + source * 24 + depot * 4 + slot
A_PLACE = A_TAKE + SOURCES * DEPOT_SPACES  # + source * 37 + cell
A_TILE = A_PLACE + SOURCES * NUM_CELLS  # + tile kind
A_DISCARD = A_TILE + NUM_TILES  # + tile kind
A_BUY_BLACK = A_DISCARD + NUM_TILES  # + black slot
A_BUY = A_BUY_BLACK + BLACK_SLOTS  # + depot * 4 + slot
A_SHIP = A_BUY + DEPOT_SPACES  # + depot
A_SHIP_PAIR = A_SHIP + NUM_DEPOTS  # + pair (depots d and d + 1, pair 5: depots 6 and 1)
A_GOODS = A_SHIP_PAIR + len(DEPOT_PAIRS)  # + goods
NUM_ACTIONS = A_GOODS + NUM_GOODS

@dataclass(frozen=True, slots=True)
class Move:
    """One decision: ``kind``, its 0-based target ``arg`` (goods, depot * 4 + slot, cell,
    tile kind, black slot, depot or pair) and the die ``source`` (0: none, else 1-6)."""

    kind: str
    arg: int = 0
    source: int = 0

    def __str__(self) -> str:
        k, a = self.kind, self.arg
        at = f"@{self.source}" if self.source else ""
        if k == "pass":
            return k
        if k == "workers":
            return f"workers{at}"
        if k == "sell":
            return f"sell:{a + 1}{at}"
        if k in ("take", "buy"):
            return f"{k}:{a // DEPOT_SLOTS + 1}.{a % DEPOT_SLOTS + 1}{at}"
        if k == "place":
            return f"place:{a + 1}{at}"
        if k in ("tile", "discard"):
            return f"{k}:{TILE_NAMES[a]}"
        if k == "buy_black":
            return f"buy:black{a + 1}"
        if k == "ship":
            return f"ship:{a + 1}"
        if k == "ship_pair":
            return "ship:{}+{}".format(*sorted(d + 1 for d in DEPOT_PAIRS[a]))
        return f"goods:{a + 1}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse notation; raises InvalidMoveError naming what is wrong."""
        t = text.strip()
        body, at, die = t.partition("@")
        source = 0
        if at:
            if len(die) != 1 or die not in "123456":
                raise InvalidMoveError(f"move {text!r}: the die after '@' must be 1-6")
            source = int(die)
        if body == "pass" and not at:
            return cls("pass")
        if body == "workers":
            return cls("workers", 0, source)
        verb, sep, rest = body.partition(":")
        if not sep or not rest:
            raise InvalidMoveError(f"move {text!r}: expected VERB:ARGUMENT, 'workers' or 'pass'")
        if at and verb not in ("sell", "take", "place"):
            raise InvalidMoveError(f"move {text!r}: only take, place, sell and workers use a die")
        if verb == "sell":
            return cls("sell", _number(text, rest, NUM_GOODS), source)
        if verb == "take":
            return cls("take", _depot_slot(text, rest), source)
        if verb == "place":
            return cls("place", _number(text, rest, NUM_CELLS), source)
        if verb in ("tile", "discard"):
            if rest not in TILE_IDS:
                raise InvalidMoveError(f"move {text!r}: unknown tile {rest!r}")
            return cls(verb, TILE_IDS[rest])
        if verb == "buy":
            if rest.startswith("black"):
                return cls("buy_black", _number(text, rest[5:], BLACK_SLOTS))
            return cls("buy", _depot_slot(text, rest))
        if verb == "ship":
            first, plus, second = rest.partition("+")
            if not plus:
                return cls("ship", _number(text, rest, NUM_DEPOTS))
            pair = (_number(text, first, NUM_DEPOTS), _number(text, second, NUM_DEPOTS))
            for i, p in enumerate(DEPOT_PAIRS):
                if sorted(p) == list(pair):
                    return cls("ship_pair", i)
            raise InvalidMoveError(f"move {text!r}: depots {first} and {second} are not neighbours "
                                   f"(written lower first)")
        if verb == "goods":
            return cls("goods", _number(text, rest, NUM_GOODS))
        raise InvalidMoveError(f"move {text!r}: unknown verb {verb!r}")

    @property
    def id(self) -> int:
        k, a, s = self.kind, self.arg, self.source
        if k == "pass":
            return A_PASS
        if k == "workers":
            return A_WORKERS + s
        if k == "sell":
            return A_SELL + s * NUM_GOODS + a
        if k == "take":
            return A_TAKE + s * DEPOT_SPACES + a
        if k == "place":
            return A_PLACE + s * NUM_CELLS + a
        return _BASE[k] + a

    @classmethod
    def from_id(cls, action: int) -> Move:
        return _BY_ID[action]


_BASE = {"tile": A_TILE, "discard": A_DISCARD, "buy_black": A_BUY_BLACK, "buy": A_BUY,
         "ship": A_SHIP, "ship_pair": A_SHIP_PAIR, "goods": A_GOODS}


def _number(text: str, digits: str, count: int) -> int:
    """A printed number 1..count as a 0-based index."""
    if not digits.isdigit() or digits[0] == "0" or not 1 <= int(digits) <= count:
        raise InvalidMoveError(f"move {text!r}: {digits!r} is not a number from 1 to {count}")
    return int(digits) - 1


def _depot_slot(text: str, rest: str) -> int:
    depot, dot, slot = rest.partition(".")
    if not dot:
        raise InvalidMoveError(f"move {text!r}: expected DEPOT.SLOT such as 3.2")
    return _number(text, depot, NUM_DEPOTS) * DEPOT_SLOTS + _number(text, slot, DEPOT_SLOTS)


def _all_moves() -> list[Move]:
    moves = [Move("pass")]
    for s in range(SOURCES):
        moves.append(Move("workers", 0, s))
        moves += [Move("sell", g, s) for g in range(NUM_GOODS)]
        moves += [Move("take", a, s) for a in range(DEPOT_SPACES)]
        moves += [Move("place", c, s) for c in range(NUM_CELLS)]
    moves += [Move(k, t) for k in ("tile", "discard") for t in range(NUM_TILES)]
    moves += [Move("buy_black", i) for i in range(BLACK_SLOTS)]
    moves += [Move("buy", a) for a in range(DEPOT_SPACES)]
    moves += [Move("ship", d) for d in range(NUM_DEPOTS)]
    moves += [Move("ship_pair", i) for i in range(len(DEPOT_PAIRS))]
    moves += [Move("goods", g) for g in range(NUM_GOODS)]
    return moves


_BY_ID = {m.id: m for m in _all_moves()}
ALL_MOVES = tuple(sorted(_BY_ID.values(), key=lambda m: m.id))
