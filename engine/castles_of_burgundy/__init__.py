"""The Castles of Burgundy (2011 base game, 2-4 players, estate board No. 1): the reference
rules in Python."""

from ..game import LevelBudget, SearchTuning
from .codec import LAYOUT, LAYOUT_VERSION, VECTOR_LEN, decode, layout_for
from .data import PLAYER_COUNTS
from .schema import SCHEMAS, schema_of
from .moves import ALL_MOVES, NUM_ACTIONS, Move
from .state import OPTIONS, State, new_game

GAME_ID = "castles-of-burgundy"
ORDER = 2  # its place in listings
TITLE = "The Castles of Burgundy"
SCORE_UNIT = "VP"  # what a score counts
#: Every ``new_game`` option and the text values it takes (the 2011 rules: none).
OPTION_VALUES: dict[str, tuple[str, ...] | None] = {}
#: The rule variants every tool covers (tests, corpora): ``new_game`` options.
VARIANTS: tuple[dict[str, str], ...] = ({},)

#: The bench signature's setups (``search/bench.py``).
BENCH_SETUPS: tuple[tuple[dict[str, str], int], ...] = (({}, 2), ({}, 4))
#: Per player count, the least C playouts per reference-workload unit its engine keeps
#: (``search/bench.py`` engine_over_reference; docs/measurements.md: about 0.8 of the
#: ratio measured, tests/search/test_engine_speed.py).
SPEED_FLOORS: dict[int, float] = {2: 1.3, 4: 0.7}

#: The default search's tuning: PUCT over the game's move priors and 40-move playouts scored
#: by the learned evaluation (issue 21: at 10 ms of CPU a move against ismcts-v1 at 40 ms,
#: 2-player games 0.810 of 200, 95% CI [0.750, 0.858]; docs/measurements.md).
SEARCH_TUNING: SearchTuning = {"exploration": 0.0, "prior_weight": 1.0, "playout_moves": 40}

#: Strength levels 1-10 (``search.levels``), measured on 2 players (docs/games/castles-of-burgundy.md):
#: from level 5 up 2.8x a level (at 1.85x a level the steps above level 5 were short of +50
#: Elo); the steps clear +50 up to level 5.
STRENGTH_LEVELS: dict[int, LevelBudget] = {
    1: {"iterations": 10}, 2: {"iterations": 30}, 3: {"cpu_ms": 1}, 4: {"cpu_ms": 1.9}, 5: {"cpu_ms": 5.4},
    6: {"cpu_ms": 15}, 7: {"cpu_ms": 43}, 8: {"cpu_ms": 120}, 9: {"cpu_ms": 350}, 10: {"cpu_ms": 1000},
}

__all__ = ["BENCH_SETUPS", "SEARCH_TUNING", "STRENGTH_LEVELS", "SCHEMAS", "SPEED_FLOORS", "schema_of",
           "ALL_MOVES", "GAME_ID", "ORDER", "LAYOUT", "LAYOUT_VERSION", "NUM_ACTIONS", "OPTIONS", "OPTION_VALUES",
           "PLAYER_COUNTS", "SCORE_UNIT", "TITLE", "VARIANTS", "VECTOR_LEN", "Move", "State", "decode",
           "layout_for", "new_game"]
