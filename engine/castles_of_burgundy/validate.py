"""Validation of a Castles of Burgundy position, done on its state vector.

The C decoder runs the same checks in the same order and reports the same vector index,
so a position rejected by one engine is rejected by the other at the same field.  Order:
every field's range in vector order, then the invariants below in the order written.  A
failure is ``(index, message)``; index -1 is the vector as a whole.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import CELL_COLOUR, COLOUR_CELLS, NEIGHBOURS, NUM_CELLS, REGION_OF, REGIONS, START_CELL
from .data import (
    BLACK_BACKED, BLACK_SLOTS, BUILDING, COLOUR_BACKED, COLOURS, DEPOT_PAIRS,
    DEPOT_SLOTS, GOODS_PER_COLOUR, GOODS_SPACES, K_DUPLICATE_BUILDINGS, K_TWO_DEPOT_SHIP,
    NUM_COLOURS, NUM_DEPOTS, NUM_GOODS, NUM_TILES, PHASES, ROUNDS, STORAGE, T_CASTLE,
    T_SHIP, TILE_COLOUR, TILE_NAMES, TILE_TOTAL, depot_colour,
)
from .schema import V1 as SCHEMA
from .state import ST_DISCARD, ST_END, ST_GOODS, ST_TILE

LAYOUT_VERSION = 1
MAX_PLAYERS = 4
# Vector offsets (codec.py documents the layout).
G_PLAYERS, G_PHASE, G_ROUND, G_STAGE, G_TURN, G_CURRENT, G_BOUGHT = 1, 2, 3, 4, 5, 6, 7
G_PENDING_TILE, G_PENDING_CELL, G_SHIP_MASK, G_GOODS_CHOSEN = 8, 9, 10, 11
O_RANKING = 12
O_ROUND_ORDER = O_RANKING + MAX_PLAYERS
O_DEPOTS = O_ROUND_ORDER + MAX_PLAYERS
O_BLACK = O_DEPOTS + NUM_DEPOTS * DEPOT_SLOTS
O_DEPOT_GOODS = O_BLACK + BLACK_SLOTS
O_ROUND_GOODS = O_DEPOT_GOODS + NUM_DEPOTS * NUM_GOODS
O_GOODS_POOL = O_ROUND_GOODS + ROUNDS
O_STACK = O_GOODS_POOL + NUM_GOODS
O_BLACK_STACK = O_STACK + NUM_TILES
O_DISCARDED = O_BLACK_STACK + NUM_TILES
O_PLAYERS = O_DISCARDED + NUM_TILES
# Offsets inside a player record.
P_SILVERLINGS, P_WORKERS, P_VP, P_DICE = 0, 1, 2, 3
P_GOODS = P_DICE + 2
P_SOLD = P_GOODS + NUM_GOODS
P_BONUS = P_SOLD + NUM_GOODS
P_STORAGE = P_BONUS + NUM_COLOURS
P_ESTATE = P_STORAGE + STORAGE
PLAYER_LEN = P_ESTATE + NUM_CELLS
VECTOR_LEN = O_PLAYERS + MAX_PLAYERS * PLAYER_LEN

Failure = tuple[int, str]


def check_vector(v: Sequence[int]) -> Failure | None:
    """The first problem of a state vector, or None if it is a valid position."""
    bad = SCHEMA.check_ranges(v)
    if bad:
        return bad
    n = v[G_PLAYERS]
    players = [O_PLAYERS + p * PLAYER_LEN for p in range(n)]
    return (_check_board(v, n) or _check_players(v, players) or _check_conservation(v, players)
            or _check_bonus_tiles(v, players) or _check_progress(v, n, players))


def _check_ranges(v: Sequence[int]) -> Failure | None:
    """The first pass (of a vector with the right length and version): the player count,
    then every field's range in vector order (the schema's table)."""
    return SCHEMA.check_ranges(v)


def _check_board(v: Sequence[int], n: int) -> Failure | None:
    for base, name in ((O_RANKING, "turn_order"), (O_ROUND_ORDER, "round_order")):
        seen: set[int] = set()
        for i in range(n):
            if v[base + i] in seen:
                return base + i, f"player {v[base + i]} appears twice in the {name}"
            seen.add(v[base + i])
    for a in range(NUM_DEPOTS * DEPOT_SLOTS):
        t = v[O_DEPOTS + a]
        if t < 0:
            continue
        printed = depot_colour(n, v[G_PHASE], a // DEPOT_SLOTS, a % DEPOT_SLOTS)
        if TILE_COLOUR[t] != printed:
            return O_DEPOTS + a, f"a {TILE_NAMES[t]} tile on a {COLOURS[printed]} space"
        if not COLOUR_BACKED[t]:
            return O_DEPOTS + a, f"{TILE_NAMES[t]} has a black back, it belongs to the black depot"
    for i in range(BLACK_SLOTS):
        t = v[O_BLACK + i]
        if t >= 0 and not BLACK_BACKED[t]:
            return O_BLACK + i, f"no {TILE_NAMES[t]} tile has a black back"
    for r in range(ROUNDS):
        moved = r <= v[G_ROUND]
        if (v[O_ROUND_GOODS + r] < 0) != moved:
            return O_ROUND_GOODS + r, ("the goods of this and earlier rounds are on the depots" if moved
                                       else "the goods of a later round of the phase must be shown")
    return None


def _check_players(v: Sequence[int], players: list[int]) -> Failure | None:
    for base in players:
        if v[base + P_DICE] > v[base + P_DICE + 1]:
            return base + P_DICE, "dice are listed in ascending order (0: used)"
        s = base + P_STORAGE
        for i in range(1, STORAGE):
            if (v[s + i] >= 0 and (v[s + i - 1] < 0 or v[s + i - 1] > v[s + i])):
                return s + i, "storage is listed in ascending order, empty spaces last"
        estate = [v[base + P_ESTATE + c] for c in range(NUM_CELLS)]
        e = base + P_ESTATE
        if estate[START_CELL] != T_CASTLE:
            return e + START_CELL, "the start castle stands on space 19"
        for c, t in enumerate(estate):
            if t >= 0 and TILE_COLOUR[t] != CELL_COLOUR[c]:
                return e + c, f"a {TILE_NAMES[t]} tile on a {COLOURS[CELL_COLOUR[c]]} space"
        if not _connected(estate):
            return e, "every tile of the estate is joined to the start castle"
        if K_DUPLICATE_BUILDINGS not in estate:
            for c, t in enumerate(estate):
                if t >= 0 and CELL_COLOUR[c] == BUILDING and any(
                        estate[x] == t for x in REGIONS[REGION_OF[c]] if x < c):
                    return e + c, f"a second {TILE_NAMES[t]} in one city needs knowledge #1"
        held = 0
        for g in range(NUM_GOODS):
            held += v[base + P_GOODS + g] > 0
            if held > GOODS_SPACES:
                return base + P_GOODS + g, f"goods of more than {GOODS_SPACES} colours are stored"
        for colour in range(NUM_COLOURS):
            if v[base + P_BONUS + colour] and any(estate[c] < 0 for c in COLOUR_CELLS[colour]):
                return base + P_BONUS + colour, "a bonus tile needs every space of its colour filled"
    ships = [sum(1 for c in range(NUM_CELLS) if v[b + P_ESTATE + c] == T_SHIP) for b in players]
    for i in range(1, len(players)):
        if ships[v[O_RANKING + i]] > ships[v[O_RANKING + i - 1]]:
            return O_RANKING + i, "the turn-order track is ordered by ships placed"
    return None


def _connected(estate: list[int]) -> bool:
    seen, todo = {START_CELL}, [START_CELL]
    while todo:
        for nb in NEIGHBOURS[todo.pop()]:
            if estate[nb] >= 0 and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == sum(1 for t in estate if t >= 0)


def _check_conservation(v: Sequence[int], players: list[int]) -> Failure | None:
    counts = [v[O_STACK + k] + v[O_BLACK_STACK + k] + v[O_DISCARDED + k] for k in range(NUM_TILES)]
    placed = ([v[O_DEPOTS + a] for a in range(NUM_DEPOTS * DEPOT_SLOTS)]
              + [v[O_BLACK + i] for i in range(BLACK_SLOTS)] + [v[G_PENDING_TILE]])
    for b in players:
        placed += [v[b + P_STORAGE + i] for i in range(STORAGE)]
        placed += [v[b + P_ESTATE + c] for c in range(NUM_CELLS)]
    for t in placed:
        if t >= 0:
            counts[t] += 1
    for k in range(NUM_TILES):
        if counts[k] != TILE_TOTAL[k]:
            return O_STACK + k, f"{counts[k]} {TILE_NAMES[k]} tiles in play, the game has {TILE_TOTAL[k]}"
    for g in range(NUM_GOODS):
        total = v[O_GOODS_POOL + g] + sum(v[O_DEPOT_GOODS + d * NUM_GOODS + g] for d in range(NUM_DEPOTS))
        total += sum(1 for r in range(ROUNDS) if v[O_ROUND_GOODS + r] == g)
        total += sum(v[b + P_GOODS + g] + v[b + P_SOLD + g] for b in players)
        if total != GOODS_PER_COLOUR:
            return O_GOODS_POOL + g, f"{total} goods {g + 1} tiles in play, the game has {GOODS_PER_COLOUR}"
    hidden, need = sum(v[O_GOODS_POOL:O_GOODS_POOL + NUM_GOODS]), ROUNDS * (PHASES - 1 - v[G_PHASE])
    if hidden < need:
        return O_GOODS_POOL, f"{hidden} goods tiles hidden, the phases to come show {need}"
    return None


def _check_bonus_tiles(v: Sequence[int], players: list[int]) -> Failure | None:
    for colour in range(NUM_COLOURS):
        holders = [0, 0, 0]
        for b in players:
            holders[v[b + P_BONUS + colour]] += 1
        for rank in (1, 2):
            if holders[rank] > 1:
                b = next(b for b in players if v[b + P_BONUS + colour] == rank)
                return b + P_BONUS + colour, f"{holders[rank]} players hold the same bonus tile"
        if holders[2] and not holders[1]:
            b = next(b for b in players if v[b + P_BONUS + colour] == 2)
            return b + P_BONUS + colour, "the second bonus tile goes after the first"
        for b in players:
            complete = all(v[b + P_ESTATE + c] >= 0 for c in COLOUR_CELLS[colour])
            if complete and not v[b + P_BONUS + colour] and holders[1] + holders[2] < 2:
                return b + P_BONUS + colour, "a completed colour takes a bonus tile while one is left"
    return None


def _check_progress(v: Sequence[int], n: int, players: list[int]) -> Failure | None:
    stage, turn = v[G_STAGE], v[G_TURN]
    if stage == ST_END:
        for i, want in ((G_PHASE, PHASES - 1), (G_ROUND, ROUNDS - 1), (G_TURN, 0), (G_CURRENT, -1)):
            if v[i] != want:
                return i, f"must be {want} once the game is over"
        for b in players:
            if v[b + P_DICE + 1]:
                return b + P_DICE + 1, "every die is used once the game is over"
    else:
        if v[G_CURRENT] != v[O_ROUND_ORDER + turn]:
            return G_CURRENT, f"player {v[O_ROUND_ORDER + turn]} is to move, not {v[G_CURRENT]}"
        for i in range(n):
            b = players[v[O_ROUND_ORDER + i]]
            if i < turn and v[b + P_DICE + 1]:
                return b + P_DICE + 1, "a player who has had his turn this round has used his dice"
            if i > turn and not v[b + P_DICE]:
                return b + P_DICE, "a player still to move this round has both dice"
    me = players[v[G_CURRENT]] if stage != ST_END else -1
    owned = ((G_BOUGHT, stage != ST_END), (G_PENDING_TILE, stage == ST_DISCARD),
             (G_PENDING_CELL, stage == ST_TILE), (G_SHIP_MASK, stage == ST_GOODS),
             (G_GOODS_CHOSEN, stage == ST_GOODS))
    for i, allowed in owned:
        unset = -1 if i in (G_PENDING_TILE, G_PENDING_CELL) else 0
        if v[i] != unset and not allowed:
            return i, f"must be {unset} at this stage, is {v[i]}"
        if v[i] == unset and allowed and i not in (G_BOUGHT, G_GOODS_CHOSEN):
            return i, "must be set at this stage"
    if stage == ST_DISCARD and v[me + P_STORAGE + STORAGE - 1] < 0:
        return G_PENDING_TILE, "a tile waits for a storage space only when storage is full"
    if stage == ST_TILE:
        c = v[G_PENDING_CELL]
        if v[me + P_ESTATE + c] >= 0 or not any(v[me + P_ESTATE + x] >= 0 for x in NEIGHBOURS[c]):
            return G_PENDING_CELL, "the chosen space must be empty and next to a placed tile"
    if stage == ST_GOODS:
        mask = v[G_SHIP_MASK]
        pairs = [1 << a | 1 << b for a, b in DEPOT_PAIRS]
        single = bin(mask).count("1") == 1
        knows = any(v[me + P_ESTATE + c] == K_TWO_DEPOT_SHIP for c in range(NUM_CELLS))
        if not single and not (mask in pairs and knows):
            return G_SHIP_MASK, "a ship takes goods from one depot, or two neighbours with knowledge #5"
    return None
