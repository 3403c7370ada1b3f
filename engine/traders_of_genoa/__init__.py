"""Traders of Genoa (2001, 2-5 players): the reference rules in Python."""

from ..game import LevelBudget, SearchTuning
from .codec import LAYOUT, LAYOUT_VERSION, VECTOR_LEN, decode, layout_for
from .data import PLAYER_COUNTS
from .moves import ALL_MOVES, NUM_ACTIONS, Move
from .schema import GAME_ID, SCHEMAS, schema_of
from .state import OPTIONS, State, new_game

ORDER = 3  # its place in listings
TITLE = "Traders of Genoa"
SCORE_UNIT = "ducats"  # what a score counts
#: Every ``new_game`` option and the text values it takes (none).
OPTION_VALUES: dict[str, tuple[str, ...] | None] = {}
#: The rule variants every tool covers (tests, corpora): ``new_game`` options.
VARIANTS: tuple[dict[str, str], ...] = ({},)

#: The bench signature's setups (``search/bench.py``).
BENCH_SETUPS: tuple[tuple[dict[str, str], int], ...] = (({}, 2), ({}, 4))
#: Per player count, the least C playouts per reference-workload unit its engine keeps
#: (``search/bench.py`` engine_over_reference; docs/measurements.md: about 0.8 of the
#: ratio measured, tests/search/test_engine_speed.py; measured on the offers built item by
#: item of issue 28, whose playouts are about twice as long).
SPEED_FLOORS: dict[int, float] = {2: 2.2, 4: 0.8}

#: The default search's tuning: PUCT over the move priors (issue 28: priors from the playout
#: policy's values keep offers built item by item sane) and 20-move playouts scored by the
#: learned evaluation (native/mm_traders_of_genoa_eval.c); with 2 players the priors weigh
#: twice as much and the reward's margin counts over 100 ducats, not 10
#: (docs/games/traders-of-genoa.md#strength).
SEARCH_TUNING: SearchTuning = {"exploration": 0.0, "prior_weight": 1.0, "playout_moves": 20,
                               "by_players": {2: {"prior_weight": 2.0, "margin_scale": 100.0}}}

#: Strength levels 1-10 (``search.levels``), measured on 2 players (docs/games/traders-of-genoa.md):
#: level 2 at 100 iterations (at 30 or 50 it played no better than level 1's 10), the CPU levels
#: 3.5 ms and up; the steps clear +50 Elo up to level 4, levels 6-10 unmeasured.
STRENGTH_LEVELS: dict[int, LevelBudget] = {
    1: {"iterations": 10}, 2: {"iterations": 100}, 3: {"cpu_ms": 3.5}, 4: {"cpu_ms": 10}, 5: {"cpu_ms": 30},
    6: {"cpu_ms": 80}, 7: {"cpu_ms": 200}, 8: {"cpu_ms": 400}, 9: {"cpu_ms": 700}, 10: {"cpu_ms": 1000},
}

__all__ = ["BENCH_SETUPS", "SEARCH_TUNING", "STRENGTH_LEVELS", "SCHEMAS", "SPEED_FLOORS", "schema_of",
           "ALL_MOVES", "GAME_ID", "ORDER", "LAYOUT", "LAYOUT_VERSION", "NUM_ACTIONS", "OPTIONS", "OPTION_VALUES",
           "PLAYER_COUNTS", "SCORE_UNIT", "TITLE", "VARIANTS", "VECTOR_LEN", "Move", "State", "decode",
           "layout_for", "new_game"]
