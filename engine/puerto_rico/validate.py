"""Validation of a Puerto Rico position, done on its state vector: the ranges of the
schema (schema.py), then the consistency rules below.

The C decoder (native/mm_puerto_rico.c) runs the same checks in the same order and
reports the same vector index, so a position rejected by one engine is rejected by
the other at the same field.  Order: every field's range in vector order, then the
invariants below in the order written.  A failure is ``(index, message)``.

Layout v1 (base games, ``check_vector``) and v2 (Expansion I, ``check_vector_v2``) share
the checks: ``Layout`` holds each version's offsets, and the checks marked "v2" run only
on v2 vectors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .data import (
    BUILDINGS, CITY_SPACES, DRAFT_PICKS, DRAFT_SLOTS, FORESTS, GOODS, ISLAND_SPACES, LARGE_WAREHOUSE,
    LIBRARY, NUM_BASE_BUILDINGS, NUM_BUILDINGS, ROLES, SETUPS, SMALL_WAREHOUSE, UNIVERSITY, building_cost,
    building_count, FREE_BARRELS, STOREHOUSE, STOREHOUSE_BARRELS,
)
from .moves import NUM_SLOTS, SLOT_BUILDING, SLOT_QUARRY
from .schema import V1 as SCHEMA_V1
from .schema import V2 as SCHEMA_V2

NK = len(GOODS)
MAX_PLAYERS, MAX_SHIPS, MAX_ROLES = 5, 3, len(ROLES)
# Global fields shared by both layouts (codec.py documents them).
G_CURRENT, G_CHOOSER, G_TURN, G_PICKS = 5, 6, 7, 8
G_COLONIST_SUPPLY, G_VP_SUPPLY, G_TO_PLACE, G_LAST_SLOT, G_PRODUCED = 10, 12, 14, 15, 16
G_STORE_MASK, G_QUARRY_SUPPLY = 18, 19
# v2 globals.
G_FOREST_SUPPLY, G_HACIENDA_TILE, G_WINDOW, G_PRIVILEGE_LEFT = 20, 21, 22, 23
G_BM_BUILDING, G_BM_DUE, G_BM_GIVEN, G_WHARF_BARRELS, G_MADE, G_KEPT = 24, 25, 26, 27, 28, 33
G_BM_DECLINED = G_KEPT + NK
# Offsets inside a player record (v2 inserts forests and small_wharf_done before buildings).
P_DOUBLOONS, P_VP, P_GOODS, P_PLANT, P_PCOL, P_QUARRIES, P_QCOL, P_SANJUAN, P_WHARF = (
    0, 1, 2, 7, 12, 17, 18, 19, 20)
P_FORESTS, P_SMALL_WHARF = 21, 22
PHASE_ROLE, PHASE_SETTLER, PHASE_MAYOR, PHASE_BUILDER, PHASE_CRAFTSMAN = 0, 1, 2, 3, 4
PHASE_CAPTAIN, PHASE_STORAGE, PHASE_END, PHASE_DRAFT, PHASE_GUESTS = 6, 7, 8, 9, 10
#: The role card whose phase is being played, by phase (and, v2, by Guest House window).
PHASE_CARD = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 5}
WINDOWS = (4, 5, 6, PHASE_END)

Failure = tuple[int, str]
_SPACES = [b.spaces for b in BUILDINGS]


@dataclass(frozen=True)
class Layout:
    """Offsets of one layout version (codec.py documents the fields)."""

    version: int
    buildings: int  # building types per building list
    globals: int  # global fields before the piles
    player_extra: int  # player fields between wharf_done and buildings
    goods: int = 0
    house: int = 0
    deck: int = 0
    faceup: int = 0
    discard: int = 0
    bsupply: int = 0
    in_game: int = 0  # v2: one flag per building type (production buildings always 1)
    role_doubloons: int = 0
    role_taken: int = 0
    ships: int = 0
    players: int = 0
    p_build: int = 0  # offset of the buildings inside a player record
    player_len: int = 0
    length: int = 0
    slots: int = 0  # Mayor slots
    last_phase: int = 0


def _offsets(version: int, buildings: int, globals_: int, player_extra: int) -> Layout:
    goods = globals_
    bsupply = goods + 5 * NK
    role_doubloons = bsupply + buildings * (2 if version == 2 else 1)
    players = role_doubloons + 2 * MAX_ROLES + 3 * MAX_SHIPS
    p_build = P_WHARF + 1 + player_extra
    return Layout(version, buildings, globals_, player_extra, goods=goods, house=goods + NK,
                  deck=goods + 2 * NK, faceup=goods + 3 * NK, discard=goods + 4 * NK, bsupply=bsupply,
                  in_game=bsupply + buildings, role_doubloons=role_doubloons,
                  role_taken=role_doubloons + MAX_ROLES, ships=role_doubloons + 2 * MAX_ROLES,
                  players=players, p_build=p_build, player_len=p_build + buildings,
                  length=players + MAX_PLAYERS * (p_build + buildings), slots=SLOT_BUILDING + buildings,
                  last_phase=PHASE_GUESTS if version == 2 else PHASE_END)


V1 = _offsets(1, NUM_BASE_BUILDINGS, 20, 0)
V2 = _offsets(2, NUM_BUILDINGS, G_BM_DECLINED + 1, 2)
# v1 offsets by their historical names.
O_GOODS, O_HOUSE, O_DECK, O_FACEUP, O_DISCARD, O_BSUPPLY = V1.goods, V1.house, V1.deck, V1.faceup, \
    V1.discard, V1.bsupply
O_ROLE_DOUBLOONS, O_ROLE_TAKEN, O_SHIPS, O_PLAYERS = V1.role_doubloons, V1.role_taken, V1.ships, V1.players
PLAYER_LEN, P_BUILD, VECTOR_LEN = V1.player_len, V1.p_build, V1.length
assert VECTOR_LEN == 313 and V2.length == 463


def check_vector(v: Sequence[int]) -> Failure | None:
    """The first problem of a layout v1 vector, or None if it is a valid position."""
    return _check(v, V1)


def check_vector_v2(v: Sequence[int]) -> Failure | None:
    """The first problem of a layout v2 vector, or None if it is a valid position."""
    return _check(v, V2)


def check_ranges_v2(v: Sequence[int]) -> Failure | None:
    """The first pass of ``check_vector_v2`` alone: every field's range, in vector order."""
    return SCHEMA_V2.check_ranges(v)


def _check(v: Sequence[int], lay: Layout) -> Failure | None:
    return (SCHEMA_V2 if lay.version == 2 else SCHEMA_V1).check_ranges(v) or _check_invariants(v, lay)


def _check_ranges(v: Sequence[int], lay: Layout = V1) -> Failure | None:
    """Every field's range in vector order (the schema's table), after the length and version."""
    return (SCHEMA_V2 if lay.version == 2 else SCHEMA_V1).check_ranges(v)


def _check_invariants(v: Sequence[int], lay: Layout) -> Failure | None:
    n = v[1]
    if (v[4] == PHASE_END) != (v[G_CURRENT] < 0):
        return G_CURRENT, ("-1 (nobody to move) but the game is not over" if v[G_CURRENT] < 0
                           else f"must be -1 (nobody to move) in a finished game, is {v[G_CURRENT]}")
    setup = SETUPS[n]
    v2 = lay.version == 2
    players = [lay.players + p * lay.player_len for p in range(n)]
    island = list(range(P_PLANT, P_PLANT + NK)) + [P_QUARRIES] + ([P_FORESTS] if v2 else [])
    for base in players:
        used = 0
        for j in island:
            used += v[base + j]
            if used > ISLAND_SPACES:
                return base + j, f"the island has {ISLAND_SPACES} spaces, this fills {used}"
        city = v[base + lay.p_build:base + lay.p_build + lay.buildings]
        if (sum(_SPACES[b] for b, c in enumerate(city) if c >= 0) <= CITY_SPACES
                and (not v2 or all(v[lay.in_game + b] for b, c in enumerate(city) if c >= 0))):
            continue  # the loop below finds the first failure, in field order
        used = 0
        for b in range(lay.buildings):
            used += BUILDINGS[b].spaces if v[base + lay.p_build + b] >= 0 else 0
            if used > CITY_SPACES:
                return base + lay.p_build + b, f"the city has {CITY_SPACES} spaces, this fills {used}"
            if v2 and v[base + lay.p_build + b] >= 0 and not v[lay.in_game + b]:
                return base + lay.p_build + b, f"{BUILDINGS[b].name} is not in this game"
    kinds_on_ships: dict[int, int] = {}
    for s in range(len(setup.ships)):
        i = lay.ships + 3 * s
        if (v[i + 1] < 0) != (v[i + 2] == 0):
            return i + 1, "a ship carries a kind exactly when it holds barrels"
        if v[i + 1] >= 0:
            if v[i + 1] in kinds_on_ships:
                return i + 1, (f"carries {GOODS[v[i + 1]]}, already carried by "
                               f"ships[{kinds_on_ships[v[i + 1]]}]")
            kinds_on_ships[v[i + 1]] = s
    total = 0
    for k in range(NK):
        total += v[lay.house + k]
        if total > 4:
            return lay.house + k, "the trading house holds at most 4 barrels"
    total = 0
    for k in range(NK):
        total += v[lay.faceup + k]
        if total > n + 1:
            return lay.faceup + k, f"at most {n + 1} face-up plantations"
    return (_check_conservation(v, lay, setup, players) or (v2 and _check_draft(v, lay, n))
            or _check_progress(v, lay, n, players))


def _check_conservation(v: Sequence[int], lay: Layout, setup, players: list[int]) -> Failure | None:  # type: ignore[no-untyped-def]
    v2 = lay.version == 2
    for k in range(NK):
        total = v[lay.goods + k] + v[lay.house + k] + sum(v[b + P_GOODS + k] for b in players)
        total += sum(v[lay.ships + 3 * s + 2] for s in range(MAX_SHIPS) if v[lay.ships + 3 * s + 1] == k)
        if total != setup.goods[k]:
            return lay.goods + k, f"{total} {GOODS[k]} barrels in play, the game has {setup.goods[k]}"
    for k in range(NK):
        total = (v[lay.deck + k] + v[lay.faceup + k] + v[lay.discard + k]
                 + sum(v[b + P_PLANT + k] for b in players))
        if v2 and v[G_HACIENDA_TILE] == k:
            total += 1
        if total != setup.plantations[k]:
            return lay.deck + k, (f"{total} {GOODS[k]} plantations in play, "
                                  f"the game has {setup.plantations[k]}")
    total = v[G_QUARRY_SUPPLY] + sum(v[b + P_QUARRIES] for b in players)
    if total != setup.quarries:
        return G_QUARRY_SUPPLY, f"{total} quarries in play, the game has {setup.quarries}"
    if v2:
        total = v[G_FOREST_SUPPLY] + sum(v[b + P_FORESTS] for b in players)
        if total != FORESTS:
            return G_FOREST_SUPPLY, f"{total} forests in play, the game has {FORESTS}"
    cities = [v[p + lay.p_build:p + lay.p_build + lay.buildings] for p in players]
    for b in range(lay.buildings):
        count = building_count(b, len(players)) if not v2 or v[lay.in_game + b] else 0
        total = v[lay.bsupply + b] + sum(city[b] >= 0 for city in cities)
        if total != count:
            return lay.bsupply + b, f"{total} {BUILDINGS[b].name} in play, the game has {count}"
    colonists = v[G_COLONIST_SUPPLY] + v[11] + v[G_TO_PLACE]
    for p, city in zip(players, cities):
        colonists += (sum(v[p + P_PCOL:p + P_PCOL + NK]) + v[p + P_QCOL] + v[p + P_SANJUAN]
                      + sum(c for c in city if c > 0))
    if colonists != setup.colonists + setup.ship_colonists:
        return G_COLONIST_SUPPLY, (f"{colonists} colonists in play, the game has "
                                   f"{setup.colonists + setup.ship_colonists}")
    total = v[G_VP_SUPPLY] + sum(v[p + P_VP] for p in players)
    if total != setup.vp_chips:
        return G_VP_SUPPLY, f"{total} VP in play, the game has {setup.vp_chips}"
    return None


def _check_draft(v: Sequence[int], lay: Layout, n: int) -> Failure | None:
    """v2: the violet buildings in the game fill at most their cost's slots, all of them
    once the draft is over; during the draft the next seat from the governor picks."""
    swap = bool(v[2] & 1)
    taken = dict.fromkeys(DRAFT_SLOTS, 0)
    for b in range(lay.buildings):
        if BUILDINGS[b].violet and v[lay.in_game + b]:
            cost = building_cost(b, swap)
            taken[cost] += 1
            if taken[cost] > DRAFT_SLOTS[cost]:
                return lay.in_game + b, (f"{taken[cost]} buildings of cost {cost}, "
                                         f"the game has {DRAFT_SLOTS[cost]} slots")
    drafted = sum(taken.values())
    drafting = v[4] == PHASE_DRAFT
    if drafting == (drafted == DRAFT_PICKS):
        return 4, (f"{drafted} of {DRAFT_PICKS} violet buildings drafted, "
                   + ("the draft is over" if drafting else "the draft is not over"))
    if drafting and v[G_CURRENT] != (v[3] + drafted) % n:
        return G_CURRENT, f"player {(v[3] + drafted) % n} drafts next, not {v[G_CURRENT]}"
    return None


def _check_progress(v: Sequence[int], lay: Layout, n: int, players: list[int]) -> Failure | None:
    v2 = lay.version == 2
    phase, taken = v[4], sum(v[lay.role_taken:lay.role_taken + MAX_ROLES])
    if v2 and (phase == PHASE_GUESTS) != (v[G_WINDOW] >= 0):
        return G_WINDOW, "a Guest House window is open exactly in the guests phase"
    if v2 and phase == PHASE_GUESTS and v[G_WINDOW] not in WINDOWS:
        return G_WINDOW, f"{v[G_WINDOW]} is not a phase a Guest House window comes before"
    card_phase = v[G_WINDOW] if v2 and phase == PHASE_GUESTS else phase
    playing = card_phase in PHASE_CARD
    if card_phase == PHASE_END and (v[G_PICKS] or taken):
        return G_PICKS, "a finished game has no roles picked"
    if taken != v[G_PICKS] + playing:
        return G_PICKS, f"{v[G_PICKS]} roles picked this round, but {taken} role cards are taken"
    if playing and not v[lay.role_taken + PHASE_CARD[card_phase]]:
        card = PHASE_CARD[card_phase]
        return lay.role_taken + card, f"the {ROLES[card]} phase is played, so its card is taken"
    expected = {PHASE_ROLE: (v[3] + v[G_PICKS]) % n, PHASE_CRAFTSMAN: v[G_CHOOSER]}
    if phase not in (PHASE_CAPTAIN, PHASE_END, PHASE_DRAFT):
        want = expected.get(phase, (v[G_CHOOSER] + v[G_TURN]) % n)
        if v[G_CURRENT] != want:
            return G_CURRENT, f"player {want} is to move in this phase, not {v[G_CURRENT]}"
    if v2 and v[G_TURN] == n and not (phase == PHASE_SETTLER and v[players[v[G_CHOOSER]] + lay.p_build + LIBRARY] > 0):
        return G_TURN, f"turn {n} is only the settler's Library tile"
    in_captain = phase in (PHASE_CAPTAIN, PHASE_STORAGE)
    for i, allowed, idle in _phase_fields(lay, phase, v):
        if v[i] != idle and not allowed:
            return i, f"must be {idle} outside its phase, is {v[i]}"
    for p in players:
        if v[p + P_WHARF] and not in_captain:
            return p + P_WHARF, "must be 0 outside the captain phase and storage"
        if v2 and v[p + P_SMALL_WHARF] and not in_captain:
            return p + P_SMALL_WHARF, "must be 0 outside the captain phase and storage"
    if v2:
        bad = _check_progress_v2(v, lay, n, players)
        if bad:
            return bad
    if phase == PHASE_MAYOR:
        p = players[v[G_CURRENT]]
        if v[G_TO_PLACE] == 0:
            return G_TO_PLACE, "the mayor phase waits for a player with colonists to place"
        room = sum(_slot_free(v, lay, p, s) for s in range(v[G_LAST_SLOT], lay.slots))
        if room < v[G_TO_PLACE]:
            return G_TO_PLACE, f"{v[G_TO_PLACE]} colonists to place but only {room} free circles"
    if phase == PHASE_STORAGE:
        p = players[v[G_CURRENT]]
        held = sum(1 << k for k in range(NK) if v[p + P_GOODS + k])
        if v[G_STORE_MASK] & ~held:
            return G_STORE_MASK, "warehoused kinds must be kinds the player holds"
        warehouses = ((v[p + lay.p_build + SMALL_WAREHOUSE] > 0)
                      + 2 * (v[p + lay.p_build + LARGE_WAREHOUSE] > 0))
        if bin(held).count("1") <= warehouses:  # he keeps everything: never asked
            return G_CURRENT, (f"player {v[G_CURRENT]} keeps every barrel, "
                               "storage waits for one who must choose")
        if not _storage_open(v, lay, p, held, warehouses):
            return G_STORE_MASK, "the kinds warehoused and barrels kept so far leave no storage choice"
    return None


def _phase_fields(lay: Layout, phase: int, v: Sequence[int]) -> list[tuple[int, bool, int]]:
    """(index, allowed now, idle value) of the fields that only a phase in progress uses."""
    last_slot = phase == PHASE_MAYOR
    fields = [(13, phase == PHASE_SETTLER, 0), (14, phase == PHASE_MAYOR, 0), (15, last_slot, 0),
              (16, phase == PHASE_CRAFTSMAN, 0), (17, phase in (PHASE_CAPTAIN, PHASE_STORAGE), 0),
              (G_STORE_MASK, phase == PHASE_STORAGE, 0)]
    if lay.version == 1:
        return fields
    fields[2] = (15, last_slot or phase == PHASE_GUESTS or (phase == PHASE_CAPTAIN and v[G_WHARF_BARRELS] > 0)
                 or (phase == PHASE_CRAFTSMAN and v[G_PRIVILEGE_LEFT] > 0) or _library_quarry(v, lay), 0)
    fields += [(G_HACIENDA_TILE, phase == PHASE_SETTLER, -1), (G_PRIVILEGE_LEFT, phase == PHASE_CRAFTSMAN, 0),
               (G_BM_BUILDING, phase == PHASE_BUILDER, -1), (G_BM_DUE, phase == PHASE_BUILDER, 0),
               (G_BM_GIVEN, phase == PHASE_BUILDER, 0), (G_WHARF_BARRELS, phase == PHASE_CAPTAIN, 0),
               (G_BM_DECLINED, phase == PHASE_BUILDER, 0)]
    fields += [(G_MADE + k, phase == PHASE_CRAFTSMAN, 0) for k in range(NK)]
    fields += [(G_KEPT + k, phase == PHASE_STORAGE, 0) for k in range(NK)]
    return fields


def _library_quarry(v: Sequence[int], lay: Layout) -> bool:
    """Settler phase: ``last_slot`` is the quarry while the settler with an occupied Library
    took a quarry as his first tile and is yet to take his Library tile (expansion.py)."""
    chooser = lay.players + v[G_CHOOSER] * lay.player_len
    return (v[4] == PHASE_SETTLER and v[15] == SLOT_QUARRY and v[G_TURN] >= 1
            and v[chooser + lay.p_build + LIBRARY] > 0 and v[chooser + P_QUARRIES] > 0)


def _check_progress_v2(v: Sequence[int], lay: Layout, n: int, players: list[int]) -> Failure | None:
    """v2: the expansion's progress fields agree with each other and with the position."""
    phase = v[4]
    if phase == PHASE_MAYOR and v[11]:
        return 11, "the colonist ship is empty while the mayor phase places colonists"
    if v[G_HACIENDA_TILE] >= 0 and not v[13]:
        return G_HACIENDA_TILE, "a drawn Hacienda tile waits only after the Hacienda draw"
    if (v[G_BM_BUILDING] >= 0) != (v[G_BM_DUE] > 0):
        return G_BM_DUE, "give-ups are owed exactly while a Black Market build is paid"
    if v[G_BM_GIVEN] and not v[G_BM_DUE]:
        return G_BM_GIVEN, "must be 0 outside a Black Market build"
    if v[G_BM_DUE] > 3 - v[G_BM_GIVEN]:
        return G_BM_DUE, f"{v[G_BM_DUE]} give-ups owed, but only {3 - v[G_BM_GIVEN]} categories are left"
    b = v[G_BM_BUILDING]
    if b >= 0:
        city = v[players[v[G_CURRENT]] + lay.p_build:players[v[G_CURRENT]] + lay.p_build + lay.buildings]
        room = CITY_SPACES - sum(_SPACES[x] for x, c in enumerate(city) if c >= 0)
        if not v[lay.bsupply + b] or city[b] >= 0 or BUILDINGS[b].spaces > room:
            return G_BM_BUILDING, f"the player to move cannot build {BUILDINGS[b].name}"
    if v[G_BM_DECLINED] and (b < 0 or not BUILDINGS[b].circles
                             or v[players[v[G_CURRENT]] + lay.p_build + UNIVERSITY] <= 0):
        return G_BM_DECLINED, ("a University colonist is declined only in a Black Market build of a "
                               "building with a circle by the owner of an occupied University")
    if phase == PHASE_CRAFTSMAN:
        for k in range(NK):
            if bool(v[G_PRODUCED] >> k & 1) != (v[G_MADE + k] > 0):
                return G_MADE + k, "the craftsman made barrels of exactly the kinds he produced"
    if phase == PHASE_STORAGE:
        p = players[v[G_CURRENT]]
        for k in range(NK):
            if v[G_KEPT + k] > v[p + P_GOODS + k] or (v[G_KEPT + k] and v[G_STORE_MASK] >> k & 1):
                return G_KEPT + k, "kept barrels must be held and not warehoused"
    return None


def _storage_open(v: Sequence[int], lay: Layout, p: int, held: int, warehouses: int) -> bool:
    """Whether the storage choices so far, made in any order (another client's position),
    leave a choice (state.py _storage_sequences): warehouse kinds of the allowed number
    holding those named and no kept barrel's kind, with room for the barrels kept, and not
    all named and kept already (a finished choice is played on, never asked)."""
    kept = [v[G_KEPT + k] for k in range(NK)] if lay.version == 2 else [0] * NK
    storehouse = lay.version == 2 and v[p + lay.p_build + STOREHOUSE] > 0
    free = FREE_BARRELS + STOREHOUSE_BARRELS * storehouse
    size, named = min(warehouses, bin(held).count("1")), v[G_STORE_MASK]
    for m in range(1 << NK):
        if m & ~held or bin(m).count("1") != size or m & named != named or any(
                kept[k] for k in range(NK) if m >> k & 1):
            continue
        room = min(free, sum(v[p + P_GOODS + k] for k in range(NK) if not m >> k & 1))
        if sum(kept) < room or (m != named and sum(kept) == room):
            return True
    return False


def _slot_free(v: Sequence[int], lay: Layout, p: int, s: int) -> int:
    if s < NK:
        return v[p + P_PLANT + s] - v[p + P_PCOL + s]
    if s == SLOT_QUARRY:
        return v[p + P_QUARRIES] - v[p + P_QCOL]
    b = s - SLOT_BUILDING
    c = v[p + lay.p_build + b]
    return BUILDINGS[b].circles - c if c >= 0 else 0


assert NUM_SLOTS == V2.slots
