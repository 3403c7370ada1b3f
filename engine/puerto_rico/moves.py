"""Puerto Rico moves: a small hashable value, its notation and its action id.

Notation (stable, round-trips through ``Move.parse``)::

    pass                  decline (settle, build, sell, or the Wharf when nothing else loads)
    role:captain          pick a role card (prospector2 is the second prospector card)
    settle:coffee         take a face-up plantation
    settle:quarry         take a quarry (settler privilege or Construction Hut)
    hacienda              draw the Hacienda's extra face-down plantation first
    build:harbor          build
    place:corn            Mayor: one colonist onto a corn plantation
    place:quarry          ... onto a quarry
    place:coffee_roaster  ... onto a building circle
    craft:tobacco         craftsman's privilege barrel
    sell:coffee           sell one barrel to the trading house
    load:corn@6           load corn onto the ship of capacity 6
    wharf:corn            ship all corn through the Wharf
    store:sugar           keep all sugar in a warehouse (storage after the Captain)
    keep:coffee           keep the one free barrel (storage after the Captain)

Action ids form a fixed space of ``NUM_ACTIONS`` integers shared with the C engine
(native/mm_puerto_rico.h); ``Move.id`` and ``Move.from_id`` convert.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InvalidMoveError
from .data import BUILDING_IDS, BUILDINGS, GOODS, NUM_BUILDINGS, ROLES

# Action-id ranges (mirrored in native/mm_puerto_rico.h, checked by the lockstep tests).
A_PASS = 0
A_ROLE = 1
A_SETTLE = 9
A_QUARRY = 14
A_HACIENDA = 15
A_BUILD = 24
A_PLACE = 64
A_CRAFT = 112
A_SELL = 117
A_LOAD = 128  # + kind * 5 + (capacity - 4)
A_WHARF = 153
A_STORE = 158
A_KEEP = 163
NUM_ACTIONS = 192

#: Mayor slots in canonical placement order: plantation kinds, quarry, buildings by id.
SLOT_QUARRY = len(GOODS)
SLOT_BUILDING = SLOT_QUARRY + 1
SLOT_NAMES = GOODS + ("quarry",) + tuple(b.name for b in BUILDINGS)
NUM_SLOTS = len(SLOT_NAMES)
MIN_CAPACITY, MAX_CAPACITY = 4, 8

_KIND = {g: i for i, g in enumerate(GOODS)}
_ROLE = {r: i for i, r in enumerate(ROLES)}
_SLOT = {s: i for i, s in enumerate(SLOT_NAMES)}
_KIND_ACTIONS = {"craft": A_CRAFT, "sell": A_SELL, "wharf": A_WHARF, "store": A_STORE, "keep": A_KEEP}


@dataclass(frozen=True, slots=True)
class Move:
    """One decision: ``kind`` is the verb, ``arg`` its index (kind, role, building, slot)
    and ``capacity`` the ship for ``load``."""

    kind: str
    arg: int = 0
    capacity: int = 0

    def __str__(self) -> str:
        k, a = self.kind, self.arg
        if k in ("pass", "hacienda"):
            return k
        if k == "role":
            return f"role:{ROLES[a]}"
        if k == "settle":
            return f"settle:{GOODS[a]}"
        if k == "quarry":
            return "settle:quarry"
        if k == "build":
            return f"build:{BUILDINGS[a].name}"
        if k == "place":
            return f"place:{SLOT_NAMES[a]}"
        if k == "load":
            return f"load:{GOODS[a]}@{self.capacity}"
        return f"{k}:{GOODS[a]}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse notation; raises InvalidMoveError naming what is wrong."""
        t = text.strip()
        if t in ("pass", "hacienda"):
            return cls(t)
        verb, sep, rest = t.partition(":")
        if not sep or not rest:
            raise InvalidMoveError(f"move {text!r}: expected VERB:ARGUMENT, 'pass' or 'hacienda'")
        try:
            if verb == "role":
                return cls("role", _ROLE[rest])
            if verb == "settle":
                return cls("quarry") if rest == "quarry" else cls("settle", _KIND[rest])
            if verb == "build":
                return cls("build", BUILDING_IDS[rest])
            if verb == "place":
                return cls("place", _SLOT[rest])
            if verb == "load":
                good, at, cap = rest.partition("@")
                capacity = int(cap) if at and cap.isdigit() else -1
                if not MIN_CAPACITY <= capacity <= MAX_CAPACITY:
                    raise InvalidMoveError(f"move {text!r}: expected load:KIND@CAPACITY (4-8)")
                return cls("load", _KIND[good], capacity)
            if verb in _KIND_ACTIONS:
                return cls(verb, _KIND[rest])
        except KeyError:
            raise InvalidMoveError(f"move {text!r}: unknown {verb} argument {rest!r}") from None
        raise InvalidMoveError(f"move {text!r}: unknown verb {verb!r}")

    @property
    def id(self) -> int:
        k, a = self.kind, self.arg
        if k == "pass":
            return A_PASS
        if k == "hacienda":
            return A_HACIENDA
        if k == "quarry":
            return A_QUARRY
        if k == "load":
            return A_LOAD + a * 5 + self.capacity - MIN_CAPACITY
        base = {"role": A_ROLE, "settle": A_SETTLE, "build": A_BUILD, "place": A_PLACE, **_KIND_ACTIONS}
        return base[k] + a

    @classmethod
    def from_id(cls, action: int) -> Move:
        return _BY_ID[action]


def _all_moves() -> list[Move]:
    kinds = range(len(GOODS))
    moves = [Move("pass"), Move("hacienda"), Move("quarry")]
    moves += [Move("role", r) for r in range(len(ROLES))]
    moves += [Move("settle", k) for k in kinds]
    moves += [Move("build", b) for b in range(NUM_BUILDINGS)]
    moves += [Move("place", s) for s in range(NUM_SLOTS)]
    moves += [Move(v, k) for v in _KIND_ACTIONS for k in kinds]
    moves += [Move("load", k, c) for k in kinds for c in range(MIN_CAPACITY, MAX_CAPACITY + 1)]
    return moves


_BY_ID = {m.id: m for m in _all_moves()}
ALL_MOVES = tuple(sorted(_BY_ID.values(), key=lambda m: m.id))
