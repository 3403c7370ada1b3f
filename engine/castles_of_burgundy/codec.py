"""Castles of Burgundy states as the int32 state vector (``encode``/``decode``).

A position's message is read into and written from the vector by the generic codec
(``positions/vector_codec.py``) through schema.py; the C decoder checks the
whole position (``positions/check.py``: every range, conservation of every tile and
goods tile, estate rules, bonus tiles, turn bookkeeping) and raises ``PositionError``
naming the field path.

State vector, layout version 1 (``VECTOR_LEN`` = 498 int32).  Engine indices are 0-based:
tile kinds 0-48 (data.TILE_NAMES), goods 0-5 (goods number - 1), depots 0-5, cells 0-36
(space - 1); -1 is "none".  The C decoder range-checks every field in this order, then the
consistency rules of native/mm_castles_of_burgundy.c::

      0 version (1)          1 players (2-4)       2 phase (A-E = 0-4)    3 round (0-4)
      4 stage (turn discard tile castle city_hall carpenter church market warehouse ship
              goods end = 0-11)
      5 turn (index into round_order)               6 current player (-1 at the end)
      7 bought (0/1)         8 pending tile (-1: none; the tile waiting in stage discard)
      9 pending cell (-1: none; stage tile)        10 ship depots (bitmask; stage goods)
     11 goods chosen (bitmask; stage goods)
     12 turn_order[4]: the turn-order track, first player first (-1: absent seat)
     16 round_order[4]: the track at the start of this round (-1: absent seat)
     20 depots[6] x slots[4]: tile kind (-1: empty; slots beyond the player count -1)
     44 black depot[8]: tile kind (-1: empty; slots beyond 4/6/8 -1)
     52 depots[6] x goods[6]: goods tiles on each depot's goods space
     88 round_goods[5]: goods of the phase's round spaces (-1: moved to a depot)
     93 hidden goods[6]: goods tiles not yet seen (later phases and out of the game)
     99 hidden tiles[49]: the colour-backed stacks, per tile kind
    148 hidden black tiles[49]: the black-backed stack, per tile kind
    197 discarded[49]: tiles out of the game, per tile kind
    246 players[4] x 63 (absent seats: 0, storage and estate -1):
        +0 silverlings  +1 workers  +2 vp  +3 dice[2] (ascending, 0: used)
        +5 goods[6]  +11 sold[6]  +17 bonus tiles[6] per colour (0, 1 first, 2 second)
        +23 storage[3] (ascending, -1 last)  +26 estate[37] (tile kind per cell, -1: empty)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .board import NUM_CELLS
from .data import (
    BLACK_SLOTS, DEPOT_SLOTS, NUM_DEPOTS, NUM_GOODS, NUM_TILES,
    ROUNDS, STORAGE,
)
from .state import Player, State
from .schema import MAX_PLAYERS
from .schema import V1 as SCHEMA

_BONUS_NAMES = ("first", "second")
_CELL_KEYS = {str(c + 1): c for c in range(NUM_CELLS)}


#: Field path of every state-vector index (names the field a decoder rejects).
LAYOUT = SCHEMA.names()
VECTOR_LEN = SCHEMA.length
LAYOUT_VERSION = SCHEMA.version
O_PLAYERS = SCHEMA.index("players[0].silverlings")
PLAYER_LEN = SCHEMA.index("players[1].silverlings") - O_PLAYERS


def layout_for(vec: Any) -> tuple[str, ...]:
    """The field names of ``vec``'s entries (one layout so far)."""
    return LAYOUT


def encode(s: State) -> np.ndarray:
    n = s.num_players
    pad = [-1] * (MAX_PLAYERS - n)
    v = [LAYOUT_VERSION, n, s.phase, s.round, s.stage, s.turn, s.current, int(s.bought),
         s.pending_tile, s.pending_cell, s.ship_mask, s.goods_chosen]
    v += s.ranking + pad + s.round_order + pad
    for pile in (s.depots, s.black, s.depot_goods, s.round_goods, s.goods_pool, s.stack,
                 s.black_stack, s.discarded):
        v += pile
    for p in s.players:
        v += [p.silverlings, p.workers, p.vp, *p.dice, *p.goods, *p.sold, *p.bonus, *p.storage,
              *p.estate]
    absent = [0] * (PLAYER_LEN - STORAGE - NUM_CELLS) + [-1] * (STORAGE + NUM_CELLS)
    v += absent * (MAX_PLAYERS - n)
    return np.asarray(v, dtype=np.int32)


def decode(vec: Any) -> State:
    """The State of a vector written by ``encode``: a vector the C decoder accepted
    (``positions.check``), which is the one check of positions."""
    v = np.asarray(vec).ravel().tolist()
    n = v[1]
    pos = 12

    def take(k: int) -> list[int]:
        nonlocal pos
        pos += k
        return v[pos - k:pos]

    ranking, order = take(MAX_PLAYERS)[:n], take(MAX_PLAYERS)[:n]
    depots, black = take(NUM_DEPOTS * DEPOT_SLOTS), take(BLACK_SLOTS)
    depot_goods, round_goods = take(NUM_DEPOTS * NUM_GOODS), take(ROUNDS)
    goods_pool, stack, black_stack, discarded = (take(NUM_GOODS), take(NUM_TILES), take(NUM_TILES),
                                                 take(NUM_TILES))
    players = []
    for p in range(n):
        f = v[O_PLAYERS + p * PLAYER_LEN:O_PLAYERS + (p + 1) * PLAYER_LEN]
        players.append(Player(estate=f[26:], storage=f[23:26], goods=f[5:11], sold=f[11:17],
                              bonus=f[17:23], dice=f[3:5], silverlings=f[0], workers=f[1], vp=f[2]))
    s = State(players=players, phase=v[2], round=v[3], stage=v[4], turn=v[5], bought=bool(v[7]),
              pending_tile=v[8], pending_cell=v[9], ship_mask=v[10], goods_chosen=v[11],
              ranking=ranking, round_order=order, depots=depots, black=black,
              depot_goods=depot_goods, round_goods=round_goods, goods_pool=goods_pool, stack=stack,
              black_stack=black_stack, discarded=discarded)
    return s


# ------------------------------------------------------------------------ dicts
