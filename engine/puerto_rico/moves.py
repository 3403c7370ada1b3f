"""Puerto Rico moves: a small hashable value, its notation and its action id.

Notation (stable, round-trips through ``Move.parse``)::

    pass                  decline (settle, build, sell, or the Wharf when nothing else loads)
    role:captain          pick a role card (prospector2 is the second prospector card)
    decline:mayor         pick the Mayor declining its privilege colonist, offered when
                          taking it could trigger the game end (the last supply colonists)
    decline:captain       Captain phase, before the captain's first load: decline its
                          privilege VP, offered when taking it could trigger the game end
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
    keep:coffee           keep the one free barrel (storage after the Captain; with a
                          Storehouse one barrel at a time, kinds in ascending order)
    settle:coffee/decline settle (also ``settle:quarry/decline``, ``forest:sugar/decline``)
                          or build (``build:harbor/decline``) declining the Hospice or
                          University colonist, offered beside the move with the colonist
                          when that colonist, from the supply, could trigger the game
                          end (``State._colonist_may_end``)

Expansion I, *The New Buildings* (games with ``expansion=new-buildings``)::

    draft:church          setup: put a building type on a free violet slot of its cost
    forest:sugar          Forest House: take the face-up sugar plantation as a forest
    hacienda:plant        place the drawn Hacienda tile as a plantation ...
    hacienda:forest       ... or, with a Forest House, take a forest instead
    give:colonist@corn    Black Market: give up a colonist (from a slot or ``san_juan``) ...
    give:sugar            ... a barrel ...
    give:vp               ... or a VP chip (one of each at most, in this order)
    guest:indigo_plant    Guest House: move one guest to a circle (slots non-decreasing)
    post:coffee           sell one barrel to one's own Trading Post
    small_wharf:corn      Small Wharf: ship one more barrel (kinds non-decreasing; ``pass`` ends)
    pass                  also: end one's Guest House moves, or the Small Wharf load

The Library's extra settler tile and craftsman barrel reuse ``settle``/``forest`` and
``craft``; the Storehouse barrels reuse ``keep``: they are the same decisions.

Action ids form a fixed space shared with the C engine (native/mm_puerto_rico.h):
``NUM_ACTIONS`` ids for base games (layout v1; building and placing the new buildings fit in
the ``A_BUILD`` and ``A_PLACE`` ranges) and ``NUM_ACTIONS_V2`` for expansion games (layout
v2: the ranges from ``A_FOREST`` on).  ``Move.id`` and ``Move.from_id`` convert.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InvalidMoveError
from .data import BUILDING_IDS, BUILDINGS, CAPTAIN, GOODS, MAYOR, NUM_BASE_BUILDINGS, NUM_BUILDINGS, ROLES, VIOLET

# Action-id ranges (mirrored in native/mm_puerto_rico.h, checked by the lockstep tests).
A_PASS = 0
A_ROLE = 1
A_SETTLE = 9
A_QUARRY = 14
A_HACIENDA = 15
A_DECLINE = 16  # + role (mayor, captain): an optional privilege declined
A_BUILD = 24  # + building id (0..36)
A_PLACE = 64  # + slot (0..42)
A_CRAFT = 112
A_SELL = 117
A_LOAD = 128  # + kind * 5 + (capacity - 4)
A_WHARF = 153
A_STORE = 158
A_KEEP = 163
A_SETTLE_DECLINE = 122  # + kind, + SLOT_QUARRY: settled without the Hospice colonist
A_BUILD_DECLINE = 168  # + base building id: built without the University colonist
NUM_ACTIONS = 192
# Expansion I (layout v2 only).
A_FOREST = 192  # + kind
A_HACIENDA_PLANT = 197
A_HACIENDA_FOREST = 198
A_POST = 199  # + kind
A_SMALL_WHARF = 204  # + kind
A_GIVE = 209  # + kind; A_GIVE + 5 is give:vp
A_GIVE_COLONIST = 215  # + slot (0..42), + SLOT_SAN_JUAN (43)
A_GUEST = 259  # + slot (0..42)
A_DRAFT = 302  # + building id (violet buildings only)
A_FOREST_DECLINE = 339  # + kind: a forest without the Hospice colonist
A_BUILD_DECLINE_V2 = 344  # + building id - NUM_BASE_BUILDINGS: an expansion building, ditto
NUM_ACTIONS_V2 = 358

#: Mayor slots in canonical placement order: plantation kinds, quarry, buildings by id.
SLOT_QUARRY = len(GOODS)
SLOT_BUILDING = SLOT_QUARRY + 1
SLOT_NAMES = GOODS + ("quarry",) + tuple(b.name for b in BUILDINGS)
NUM_SLOTS = len(SLOT_NAMES)
SLOT_SAN_JUAN = NUM_SLOTS  # the Black Market may take a colonist from San Juan
GIVE_VP = len(GOODS)
MIN_CAPACITY, MAX_CAPACITY = 4, 8
#: The roles whose privilege can be declined by a move (the others are taken when harmless).
DECLINABLE = (MAYOR, CAPTAIN)
#: The moves that may decline the colonist they bring (Hospice, University): ``VERB:ARG/decline``.
DECLINING = ("settle", "quarry", "forest", "build")
_DECLINED = "/decline"

_KIND = {g: i for i, g in enumerate(GOODS)}
_ROLE = {r: i for i, r in enumerate(ROLES)}
_SLOT = {s: i for i, s in enumerate(SLOT_NAMES)}
_SOURCE = {**_SLOT, "san_juan": SLOT_SAN_JUAN}
_KIND_ACTIONS = {"craft": A_CRAFT, "sell": A_SELL, "wharf": A_WHARF, "store": A_STORE, "keep": A_KEEP,
                 "forest": A_FOREST, "post": A_POST, "small_wharf": A_SMALL_WHARF}
_HACIENDA_TILE = ("plant", "forest")


@dataclass(frozen=True, slots=True)
class Move:
    """One decision: ``kind`` is the verb, ``arg`` its index (kind, role, building, slot;
    ``give``: a kind or ``GIVE_VP``; ``hacienda_tile``: 0 plant, 1 forest), ``capacity``
    the ship for ``load`` and ``declined`` whether a ``DECLINING`` move goes without the
    Hospice or University colonist."""

    kind: str
    arg: int = 0
    capacity: int = 0
    declined: bool = False

    def __str__(self) -> str:
        if self.declined:
            return str(Move(self.kind, self.arg)) + _DECLINED
        k, a = self.kind, self.arg
        if k in ("pass", "hacienda"):
            return k
        if k in ("role", "decline"):
            return f"{k}:{ROLES[a]}"
        if k == "settle":
            return f"settle:{GOODS[a]}"
        if k == "quarry":
            return "settle:quarry"
        if k in ("build", "draft"):
            return f"{k}:{BUILDINGS[a].name}"
        if k in ("place", "guest"):
            return f"{k}:{SLOT_NAMES[a]}"
        if k == "load":
            return f"load:{GOODS[a]}@{self.capacity}"
        if k == "hacienda_tile":
            return f"hacienda:{_HACIENDA_TILE[a]}"
        if k == "give":
            return "give:vp" if a == GIVE_VP else f"give:{GOODS[a]}"
        if k == "give_colonist":
            return "give:colonist@" + ("san_juan" if a == SLOT_SAN_JUAN else SLOT_NAMES[a])
        return f"{k}:{GOODS[a]}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse notation; raises InvalidMoveError naming what is wrong."""
        t = text.strip()
        if t.endswith(_DECLINED):
            move = cls.parse(t[:-len(_DECLINED)])
            circles = move.kind != "build" or BUILDINGS[move.arg].circles
            if move.kind not in DECLINING or move.declined or not circles:
                raise InvalidMoveError(f"move {text!r}: only settle, forest and build moves "
                                       "(of a building with a circle) decline a colonist")
            return cls(move.kind, move.arg, declined=True)
        if t in ("pass", "hacienda"):
            return cls(t)
        verb, sep, rest = t.partition(":")
        if not sep or not rest:
            raise InvalidMoveError(f"move {text!r}: expected VERB:ARGUMENT, 'pass' or 'hacienda'")
        try:
            if verb == "role":
                return cls("role", _ROLE[rest])
            if verb == "decline":
                if _ROLE[rest] not in DECLINABLE:
                    raise KeyError(rest)
                return cls("decline", _ROLE[rest])
            if verb == "settle":
                return cls("quarry") if rest == "quarry" else cls("settle", _KIND[rest])
            if verb == "build":
                return cls("build", BUILDING_IDS[rest])
            if verb == "draft":
                if BUILDING_IDS[rest] not in VIOLET:
                    raise InvalidMoveError(f"move {text!r}: {rest} is not a violet building")
                return cls("draft", BUILDING_IDS[rest])
            if verb in ("place", "guest"):
                return cls(verb, _SLOT[rest])
            if verb == "hacienda":
                return cls("hacienda_tile", _HACIENDA_TILE.index(rest))
            if verb == "give":
                what, at, source = rest.partition("@")
                if what == "colonist" and at:
                    return cls("give_colonist", _SOURCE[source])
                return cls("give", GIVE_VP) if rest == "vp" else cls("give", _KIND[rest])
            if verb == "load":
                good, at, cap = rest.partition("@")
                capacity = int(cap) if at and cap.isdigit() else -1
                if not MIN_CAPACITY <= capacity <= MAX_CAPACITY:
                    raise InvalidMoveError(f"move {text!r}: expected load:KIND@CAPACITY (4-8)")
                return cls("load", _KIND[good], capacity)
            if verb in _KIND_ACTIONS:
                return cls(verb, _KIND[rest])
        except (KeyError, ValueError):
            raise InvalidMoveError(f"move {text!r}: unknown {verb} argument {rest!r}") from None
        raise InvalidMoveError(f"move {text!r}: unknown verb {verb!r}")

    @property
    def id(self) -> int:
        k, a = self.kind, self.arg
        if self.declined:
            return _declined_id(k, a)
        if k == "pass":
            return A_PASS
        if k == "hacienda":
            return A_HACIENDA
        if k == "quarry":
            return A_QUARRY
        if k == "load":
            return A_LOAD + a * 5 + self.capacity - MIN_CAPACITY
        return _BASE[k] + a

    @classmethod
    def from_id(cls, action: int) -> Move:
        return _BY_ID[action]


_BASE = {"role": A_ROLE, "decline": A_DECLINE, "settle": A_SETTLE, "build": A_BUILD, "place": A_PLACE, **_KIND_ACTIONS,
         "hacienda_tile": A_HACIENDA_PLANT, "give": A_GIVE, "give_colonist": A_GIVE_COLONIST,
         "guest": A_GUEST, "draft": A_DRAFT}


def _declined_id(kind: str, arg: int) -> int:
    if kind == "settle":
        return A_SETTLE_DECLINE + arg
    if kind == "quarry":
        return A_SETTLE_DECLINE + SLOT_QUARRY
    if kind == "forest":
        return A_FOREST_DECLINE + arg
    if arg < NUM_BASE_BUILDINGS:
        return A_BUILD_DECLINE + arg
    return A_BUILD_DECLINE_V2 + arg - NUM_BASE_BUILDINGS


def _all_moves() -> list[Move]:
    kinds = range(len(GOODS))
    moves = [Move("pass"), Move("hacienda"), Move("quarry")]
    moves += [Move("role", r) for r in range(len(ROLES))]
    moves += [Move("decline", r) for r in DECLINABLE]
    moves += [Move("settle", k) for k in kinds]
    moves += [Move("build", b) for b in range(NUM_BUILDINGS)]
    moves += [Move("place", s) for s in range(NUM_SLOTS)]
    moves += [Move(v, k) for v in _KIND_ACTIONS for k in kinds]
    moves += [Move("load", k, c) for k in kinds for c in range(MIN_CAPACITY, MAX_CAPACITY + 1)]
    moves += [Move("hacienda_tile", t) for t in range(len(_HACIENDA_TILE))]
    moves += [Move("give", k) for k in range(GIVE_VP + 1)]
    moves += [Move("give_colonist", s) for s in range(SLOT_SAN_JUAN + 1)]
    moves += [Move("guest", s) for s in range(NUM_SLOTS)]
    moves += [Move("draft", b) for b in VIOLET]
    moves += [Move(m.kind, m.arg, declined=True) for m in moves if m.kind in DECLINING
              and (m.kind != "build" or BUILDINGS[m.arg].circles)]
    return moves


_BY_ID = {m.id: m for m in _all_moves()}
#: Every move of the base game's id space, and every move of an expansion game.
ALL_MOVES = tuple(sorted((m for m in _BY_ID.values() if m.id < NUM_ACTIONS), key=lambda m: m.id))
ALL_MOVES_V2 = tuple(sorted(_BY_ID.values(), key=lambda m: m.id))
