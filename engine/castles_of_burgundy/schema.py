"""The Castles of Burgundy state vector (layout 1) as a table in ``engine/schema.py``'s format.

Numbers a position prints 1-based (rounds, estate spaces, goods colours, depots) are
0-based in the vector (``first=-1``); -1 is "none".
"""

from __future__ import annotations

from ..schema import Cell, Rule, Schema, by_players, cell, counts, per_seat
from .board import NUM_CELLS
from .data import (LIMIT, BLACK_BACKED, BLACK_SLOTS, COLOUR_BACKED, COLOURS, DEPOT_SLOTS, GOODS_PER_COLOUR,
                   NUM_DEPOTS, NUM_GOODS, NUM_TILES, PHASE_NAMES, ROUNDS, SETUPS, STORAGE, TILE_NAMES,
                   TILE_TOTAL)
from .state import STAGES

C_GAME = "mm_castles_of_burgundy_game"  # the C engine's mm_game: its registration in C
C_PREFIX = "MM_COB"  # of the names in the generated native/schema_castles_of_burgundy.h
GAME_ID = "castles-of-burgundy"
#: Constants of the rules the C engine reads from the generated header (``MM_COB_<NAME>``).
C_CONSTANTS = {"LIMIT": LIMIT}
FIRST, LAST = min(SETUPS), max(SETUPS)
MAX_PLAYERS = LAST
#: Names the C decoder's rejections quote (``MM_COB_NAMES_<NAME>``).
C_NAMES = {"TILES": TILE_NAMES, "COLOURS": COLOURS}
#: State attributes the C state computes (``engine/layout.py``): the player to move.
C_COMPUTED = ("current",)
TILES = ("",) + TILE_NAMES
BONUS = ("", "first", "second")


def _n(value: object) -> tuple[int, ...]:
    return by_players(FIRST, LAST, value)  # type: ignore[arg-type]


def _globals() -> list[Cell]:
    cells = [
        cell("version", 1, 1, "fixed"),
        cell("players", FIRST, LAST, "length"),
        cell("phase", 0, len(PHASE_NAMES) - 1, "enum", names=tuple(PHASE_NAMES)),
        cell("round", 0, ROUNDS - 1, first=-1),
        cell("stage", 0, len(STAGES) - 1, "enum", names=STAGES),
        cell("turn", 0, _n(lambda n: n - 1)),
        cell("current_player", -1, _n(lambda n: n - 1), attr="current"),
        cell("bought", 0, 1, "bool"),
        cell("pending.tile", -1, NUM_TILES - 1, "enum", names=TILES, first=-1, attr="pending_tile"),
        cell("pending.cell", -1, NUM_CELLS - 1, first=-1, attr="pending_cell"),
        cell("pending.ship_depots", 0, (1 << NUM_DEPOTS) - 1, "mask",
             names=tuple(str(d + 1) for d in range(NUM_DEPOTS)), attr="ship_mask"),
        cell("pending.goods_chosen", 0, (1 << NUM_GOODS) - 1, "mask",
             names=tuple(str(g + 1) for g in range(NUM_GOODS)), attr="goods_chosen"),
    ]
    for track, attr in (("turn_order", "ranking"), ("round_order", "round_order")):
        cells += [cell(f"{track}[{i}]", _n(lambda n: 0 if i < n else -1), _n(lambda n: n - 1 if i < n else -1),
                       empty=-1, attr=attr) for i in range(MAX_PLAYERS)]
    return cells


def _board() -> list[Cell]:
    cells = [cell(f"depots[{d}].tiles[{s}]", -1, _n(lambda n: NUM_TILES - 1 if s < SETUPS[n].depot_slots else -1),
                  "enum", names=TILES, first=-1, empty=-1) for d in range(NUM_DEPOTS) for s in range(DEPOT_SLOTS)]
    cells += [cell(f"black_depot[{i}]", -1, _n(lambda n: NUM_TILES - 1 if i < SETUPS[n].black_slots else -1),
                   "enum", names=TILES, first=-1, empty=-1, attr="black") for i in range(BLACK_SLOTS)]
    cells += [cell(f"depots[{d}].goods[{g}]", 0, GOODS_PER_COLOUR, attr="depot_goods") for d in range(NUM_DEPOTS)
              for g in range(NUM_GOODS)]
    cells += [cell(f"round_goods[{r}]", -1, NUM_GOODS - 1, first=-1) for r in range(ROUNDS)]
    cells += [cell(f"hidden.goods[{g}]", 0, GOODS_PER_COLOUR, attr="goods_pool") for g in range(NUM_GOODS)]
    cells += counts("hidden.tiles", TILE_NAMES, 0, lambda k: COLOUR_BACKED[k], attr="stack")
    cells += counts("hidden.black_tiles", TILE_NAMES, 0, lambda k: BLACK_BACKED[k], attr="black_stack")
    cells += counts("discarded", TILE_NAMES, 0, lambda k: TILE_TOTAL[k])
    return cells


def _player() -> list[Cell]:
    cells = [cell("silverlings", 0, LIMIT), cell("workers", 0, LIMIT), cell("vp", 0, LIMIT)]
    cells += [cell(f"dice[{i}]", 0, 6) for i in range(2)]
    cells += [cell(f"goods[{g}]", 0, GOODS_PER_COLOUR) for g in range(NUM_GOODS)]
    cells += [cell(f"sold[{g}]", 0, GOODS_PER_COLOUR) for g in range(NUM_GOODS)]
    cells += counts("bonus_tiles", COLOURS, 0, len(BONUS) - 1, "entry", names=BONUS, attr="bonus")
    cells += [cell(f"storage[{i}]", -1, NUM_TILES - 1, "enum", names=TILES, first=-1, empty=-1)
              for i in range(STORAGE)]
    cells += [cell(f"estate[{c + 1}]", -1, NUM_TILES - 1, "entry", names=TILES, first=-1, empty=-1)
              for c in range(NUM_CELLS)]
    return cells


RULES = (
    Rule("tracks", "turn_order[0]", "every seat once on the turn-order track and in the round order"),
    Rule("depots", "depots[0].tiles[0]",
         "depot tiles match their printed colour and back; black depot tiles are black-backed"),
    Rule("players", "players[0].dice[0]",
         "dice ascending, storage packed and ascending, the estate connected from the castle"),
    Rule("conservation", "hidden.goods[0]", "every tile and goods tile of the game is somewhere"),
    Rule("goods_to_come", "hidden.goods[0]", "the hidden goods tiles fill the round spaces of every phase to come"),
    Rule("bonus_tiles", "players[0].bonus_tiles.castle",
         "bonus tiles are won by completed colours, first and second once"),
    Rule("progress", "stage", "the stage, the player to move and the pending action agree; "
                              "the phase's round goods agree with the round"),
    Rule("has_move", "current_player", "the player to move has a legal move"),
)

V1 = Schema(GAME_ID, 1, (FIRST, LAST), tuple(_globals() + _board() + per_seat(MAX_PLAYERS, _player)), RULES,
            packed=("players[*].storage",), full=("depots[*].tiles", "black_depot"))
SCHEMAS = (V1,)


def schema_of(message: object) -> Schema:
    """The layout of a CastlesOfBurgundyState message (there is one)."""
    return V1
