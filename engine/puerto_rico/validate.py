"""Validation of a Puerto Rico position, done on its state vector.

The C decoder (native/mm_puerto_rico.c) runs the same checks in the same order and
reports the same vector index, so a position rejected by one engine is rejected by
the other at the same field.  Order: every field's range in vector order, then the
invariants below in the order written.  A failure is ``(index, message)``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from .data import BUILDINGS, CITY_SPACES, GOODS, ISLAND_SPACES, NUM_BUILDINGS, ROLES, SETUPS, building_count
from .moves import NUM_SLOTS, SLOT_BUILDING, SLOT_QUARRY

NK = len(GOODS)
MAX_PLAYERS, MAX_SHIPS, MAX_ROLES = 5, 3, len(ROLES)
LIMIT = 1000  # doubloons, VP chips and role-card doubloons are at most this
# Vector offsets (codec.py documents the layout).
G_CURRENT, G_CHOOSER, G_TURN, G_PICKS = 5, 6, 7, 8
G_COLONIST_SUPPLY, G_VP_SUPPLY, G_TO_PLACE, G_STORE_MASK, G_QUARRY_SUPPLY = 10, 12, 14, 18, 19
O_GOODS, O_HOUSE, O_DECK, O_FACEUP, O_DISCARD, O_BSUPPLY = 20, 25, 30, 35, 40, 45
O_ROLE_DOUBLOONS, O_ROLE_TAKEN, O_SHIPS, O_PLAYERS = 68, 76, 84, 93
PLAYER_LEN = 21 + NUM_BUILDINGS
# Offsets inside a player record.
P_DOUBLOONS, P_VP, P_GOODS, P_PLANT, P_PCOL, P_QUARRIES, P_QCOL, P_SANJUAN, P_WHARF, P_BUILD = (
    0, 1, 2, 7, 12, 17, 18, 19, 20, 21)
VECTOR_LEN = O_PLAYERS + MAX_PLAYERS * PLAYER_LEN
PHASE_ROLE, PHASE_MAYOR, PHASE_CRAFTSMAN, PHASE_CAPTAIN, PHASE_STORAGE, PHASE_END = 0, 2, 4, 6, 7, 8
#: The role card whose phase is being played, by phase.
PHASE_CARD = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 5}

Failure = tuple[int, str]


def _range(v: Sequence[int], i: int, lo: int, hi: int) -> Failure | None:
    if v[i] < lo:
        return i, f"{v[i]} is below {lo}"
    if v[i] > hi:
        return i, f"{v[i]} is above {hi}"
    return None


def check_vector(v: Sequence[int]) -> Failure | None:
    """The first problem of a state vector, or None if it is a valid position."""
    if len(v) != VECTOR_LEN:
        return -1, f"vector has {len(v)} entries, expected {VECTOR_LEN}"
    if v[0] != 1:
        return 0, f"layout version {v[0]} is not 1"
    return _check_ranges(v) or _check_invariants(v)


def _check_ranges(v: Sequence[int]) -> Failure | None:
    bad = _range(v, 1, 2, 5)
    if bad:
        return bad
    n = v[1]
    for i, lo, hi, bound in _range_table(n, v[4] == PHASE_END):
        if bound >= 0:
            hi = v[bound]
        if not lo <= v[i] <= hi:
            problem = _range(v, i, lo, hi)[1]  # type: ignore[index]
            seat = (i - O_PLAYERS) // PLAYER_LEN
            if i >= O_PLAYERS and seat >= n:
                problem += f" (seat {seat} is not in a {n}-player game)"
            return i, problem
    return None


@functools.lru_cache(maxsize=None)
def _range_table(n: int, ended: bool) -> tuple[tuple[int, int, int, int], ...]:
    """(index, lo, hi, bound) of every field in vector order.  ``bound`` >= 0 names the
    field whose value is the upper limit instead of ``hi`` (colonists on tiles)."""
    setup = SETUPS[n]
    colonists = setup.colonists + setup.ship_colonists
    per_round = 6 if n == 2 else n
    checks = [(2, 0, 1), (3, 0, n - 1), (4, 0, PHASE_END), (5, -1, -1) if ended else (5, 0, n - 1),
              (6, 0, n - 1), (7, 0, n - 1), (8, 0, per_round - 1), (9, 0, 1), (10, 0, colonists),
              (11, 0, colonists), (12, -LIMIT, setup.vp_chips), (13, 0, 1), (14, 0, colonists),
              (15, 0, NUM_SLOTS - 1), (16, 0, 31), (17, 0, 1), (18, 0, 31), (19, 0, setup.quarries)]
    checks += [(O_GOODS + k, 0, setup.goods[k]) for k in range(NK)]
    checks += [(O_HOUSE + k, 0, 4) for k in range(NK)]
    for pile in (O_DECK, O_FACEUP, O_DISCARD):
        checks += [(pile + k, 0, setup.plantations[k]) for k in range(NK)]
    checks += [(O_BSUPPLY + b, 0, building_count(b, n)) for b in range(NUM_BUILDINGS)]
    checks += [(O_ROLE_DOUBLOONS + r, 0, LIMIT) if r < setup.roles else (O_ROLE_DOUBLOONS + r, -1, -1)
               for r in range(MAX_ROLES)]
    checks += [(O_ROLE_TAKEN + r, 0, 1 if r < setup.roles else 0) for r in range(MAX_ROLES)]
    for s in range(MAX_SHIPS):
        cap = setup.ships[s] if s < len(setup.ships) else 0
        i = O_SHIPS + 3 * s
        checks += [(i, cap, cap), (i + 1, -1, NK - 1 if cap else -1), (i + 2, 0, cap)]
    table = [(i, lo, hi, -1) for i, lo, hi in checks]
    for p in range(MAX_PLAYERS):
        base = O_PLAYERS + p * PLAYER_LEN
        if p >= n:
            table += [(base + j, -1, -1, -1) if j >= P_BUILD else (base + j, 0, 0, -1)
                      for j in range(PLAYER_LEN)]
            continue
        fields = [(P_DOUBLOONS, 0, LIMIT, -1), (P_VP, 0, LIMIT, -1)]
        fields += [(P_GOODS + k, 0, setup.goods[k], -1) for k in range(NK)]
        fields += [(P_PLANT + k, 0, ISLAND_SPACES, -1) for k in range(NK)]
        fields += [(P_PCOL + k, 0, 0, base + P_PLANT + k) for k in range(NK)]
        fields += [(P_QUARRIES, 0, setup.quarries, -1), (P_QCOL, 0, 0, base + P_QUARRIES),
                   (P_SANJUAN, 0, colonists, -1), (P_WHARF, 0, 1, -1)]
        fields += [(P_BUILD + b, -1, BUILDINGS[b].circles, -1) for b in range(NUM_BUILDINGS)]
        table += [(base + j, lo, hi, bound) for j, lo, hi, bound in fields]
    return tuple(table)


def _check_invariants(v: Sequence[int]) -> Failure | None:
    n = v[1]
    setup = SETUPS[n]
    players = [O_PLAYERS + p * PLAYER_LEN for p in range(n)]
    for base in players:
        used = 0
        for j in list(range(P_PLANT, P_PLANT + NK)) + [P_QUARRIES]:
            used += v[base + j]
            if used > ISLAND_SPACES:
                return base + j, f"the island has {ISLAND_SPACES} spaces, this fills {used}"
        used = 0
        for b in range(NUM_BUILDINGS):
            used += BUILDINGS[b].spaces if v[base + P_BUILD + b] >= 0 else 0
            if used > CITY_SPACES:
                return base + P_BUILD + b, f"the city has {CITY_SPACES} spaces, this fills {used}"
    kinds_on_ships: dict[int, int] = {}
    for s in range(len(setup.ships)):
        i = O_SHIPS + 3 * s
        if (v[i + 1] < 0) != (v[i + 2] == 0):
            return i + 1, "a ship carries a kind exactly when it holds barrels"
        if v[i + 1] >= 0:
            if v[i + 1] in kinds_on_ships:
                return i + 1, (f"carries {GOODS[v[i + 1]]}, already carried by "
                               f"ships[{kinds_on_ships[v[i + 1]]}]")
            kinds_on_ships[v[i + 1]] = s
    total = 0
    for k in range(NK):
        total += v[O_HOUSE + k]
        if total > 4:
            return O_HOUSE + k, "the trading house holds at most 4 barrels"
    total = 0
    for k in range(NK):
        total += v[O_FACEUP + k]
        if total > n + 1:
            return O_FACEUP + k, f"at most {n + 1} face-up plantations"
    return _check_conservation(v, setup, players) or _check_progress(v, n, players)


def _check_conservation(v: Sequence[int], setup, players: list[int]) -> Failure | None:  # type: ignore[no-untyped-def]
    for k in range(NK):
        total = v[O_GOODS + k] + v[O_HOUSE + k] + sum(v[b + P_GOODS + k] for b in players)
        total += sum(v[O_SHIPS + 3 * s + 2] for s in range(MAX_SHIPS) if v[O_SHIPS + 3 * s + 1] == k)
        if total != setup.goods[k]:
            return O_GOODS + k, f"{total} {GOODS[k]} barrels in play, the game has {setup.goods[k]}"
    for k in range(NK):
        total = (v[O_DECK + k] + v[O_FACEUP + k] + v[O_DISCARD + k]
                 + sum(v[b + P_PLANT + k] for b in players))
        if total != setup.plantations[k]:
            return O_DECK + k, (f"{total} {GOODS[k]} plantations in play, "
                                f"the game has {setup.plantations[k]}")
    total = v[G_QUARRY_SUPPLY] + sum(v[b + P_QUARRIES] for b in players)
    if total != setup.quarries:
        return G_QUARRY_SUPPLY, f"{total} quarries in play, the game has {setup.quarries}"
    for b in range(NUM_BUILDINGS):
        count = building_count(b, len(players))
        total = v[O_BSUPPLY + b] + sum(v[p + P_BUILD + b] >= 0 for p in players)
        if total != count:
            return O_BSUPPLY + b, f"{total} {BUILDINGS[b].name} in play, the game has {count}"
    colonists = v[G_COLONIST_SUPPLY] + v[11] + v[G_TO_PLACE]
    for p in players:
        colonists += (sum(v[p + P_PCOL:p + P_PCOL + NK]) + v[p + P_QCOL] + v[p + P_SANJUAN]
                      + sum(max(0, v[p + P_BUILD + b]) for b in range(NUM_BUILDINGS)))
    if colonists != setup.colonists + setup.ship_colonists:
        return G_COLONIST_SUPPLY, (f"{colonists} colonists in play, the game has "
                                   f"{setup.colonists + setup.ship_colonists}")
    total = v[G_VP_SUPPLY] + sum(v[p + P_VP] for p in players)
    if total != setup.vp_chips:
        return G_VP_SUPPLY, f"{total} VP in play, the game has {setup.vp_chips}"
    return None


def _check_progress(v: Sequence[int], n: int, players: list[int]) -> Failure | None:
    phase, taken = v[4], sum(v[O_ROLE_TAKEN:O_ROLE_TAKEN + MAX_ROLES])
    playing = phase in PHASE_CARD
    if phase == PHASE_END and (v[G_PICKS] or taken):
        return G_PICKS, "a finished game has no roles picked"
    if taken != v[G_PICKS] + playing:
        return G_PICKS, f"{v[G_PICKS]} roles picked this round, but {taken} role cards are taken"
    if playing and not v[O_ROLE_TAKEN + PHASE_CARD[phase]]:
        card = PHASE_CARD[phase]
        return O_ROLE_TAKEN + card, f"the {ROLES[card]} phase is played, so its card is taken"
    expected = {PHASE_ROLE: (v[3] + v[G_PICKS]) % n, PHASE_CRAFTSMAN: v[G_CHOOSER]}
    if phase not in (PHASE_CAPTAIN, PHASE_END):
        want = expected.get(phase, (v[G_CHOOSER] + v[G_TURN]) % n)
        if v[G_CURRENT] != want:
            return G_CURRENT, f"player {want} is to move in this phase, not {v[G_CURRENT]}"
    owned = {13: phase == 1, 14: phase == PHASE_MAYOR, 15: phase == PHASE_MAYOR,
             16: phase == PHASE_CRAFTSMAN, 17: phase in (PHASE_CAPTAIN, PHASE_STORAGE),
             G_STORE_MASK: phase == PHASE_STORAGE}
    for i, allowed in owned.items():
        if v[i] and not allowed:
            return i, f"must be 0 outside its phase, is {v[i]}"
    for p in players:
        if v[p + P_WHARF] and phase not in (PHASE_CAPTAIN, PHASE_STORAGE):
            return p + P_WHARF, "must be 0 outside the captain phase and storage"
    if phase == PHASE_MAYOR:
        p = players[v[G_CURRENT]]
        if v[G_TO_PLACE] == 0:
            return G_TO_PLACE, "the mayor phase waits for a player with colonists to place"
        room = sum(_slot_free(v, p, s) for s in range(v[15], NUM_SLOTS))
        if room < v[G_TO_PLACE]:
            return G_TO_PLACE, f"{v[G_TO_PLACE]} colonists to place but only {room} free circles"
    if phase == PHASE_STORAGE:
        p = players[v[G_CURRENT]]
        held = sum(1 << k for k in range(NK) if v[p + P_GOODS + k])
        if v[G_STORE_MASK] & ~held:
            return G_STORE_MASK, "warehoused kinds must be kinds the player holds"
    return None


def _slot_free(v: Sequence[int], p: int, s: int) -> int:
    if s < NK:
        return v[p + P_PLANT + s] - v[p + P_PCOL + s]
    if s == SLOT_QUARRY:
        return v[p + P_QUARRIES] - v[p + P_QCOL]
    b = s - SLOT_BUILDING
    c = v[p + P_BUILD + b]
    return BUILDINGS[b].circles - c if c >= 0 else 0
