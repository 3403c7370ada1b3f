"""Puerto Rico (base game and Expansion I, 2-5 players): the reference rules in Python."""

from .codec import (LAYOUT, LAYOUT_V2, LAYOUT_VERSION, VECTOR_LEN, VECTOR_LEN_V2, decode,
                    layout_for)
from ..game import LevelBudget, SWITCH, SearchTuning
from .data import PLAYER_COUNTS
from .expansion import SETUP_OPTIONS, ExpansionState
from .schema import SCHEMAS, schema_of
from .moves import ALL_MOVES, ALL_MOVES_V2, NUM_ACTIONS, NUM_ACTIONS_V2, Move
from .start import new_game
from .state import OPTIONS, State

GAME_ID = "puerto-rico"
ORDER = 1  # its place in listings
TITLE = "Puerto Rico"
SCORE_UNIT = "VP"  # what a score counts
#: Every ``new_game`` option and the text values it takes, the default first (None: any
#: text, default empty): the true/false rule switches and Expansion I's setup options.
OPTION_VALUES: dict[str, tuple[str, ...] | None] = {
    **{name: SWITCH for name in OPTIONS}, **SETUP_OPTIONS}
#: The rule variants every tool covers (tests, corpora): ``new_game`` options.
VARIANTS: tuple[dict[str, str], ...] = ({}, {"expansion": "new-buildings"},
                                       {"expansion": "new-buildings", "draft": "random"})

#: The bench signature's setups (``search/bench.py``).
BENCH_SETUPS: tuple[tuple[dict[str, str], int], ...] = (({}, 2), ({}, 4), ({"expansion": "new-buildings"}, 3))
#: Per player count, the least C playouts per reference-workload unit its engine keeps
#: (``search/bench.py`` engine_over_reference; docs/measurements.md: about 0.8 of the
#: ratio measured, tests/search/test_engine_speed.py).
SPEED_FLOORS: dict[int, float] = {2: 2.1, 4: 1.17}

#: The default search's tuning: PUCT over the game's move priors and 40-move playouts scored
#: by the learned evaluation (issue 21: at 10 ms of CPU a move against ismcts-v1 at 40 ms,
#: 2-player games 0.820 of 200, 95% CI [0.761, 0.867]; docs/measurements.md).
SEARCH_TUNING: SearchTuning = {"exploration": 0.0, "prior_weight": 1.0, "playout_moves": 40}

#: Strength levels 1-10 (``search.levels``), measured on 2 players (docs/search.md, "Strength
#: levels and the Elo ladder"): every step at least 50 Elo, its 95% interval included.
STRENGTH_LEVELS: dict[int, LevelBudget] = {
    1: {"iterations": 10}, 2: {"iterations": 30}, 3: {"cpu_ms": 1}, 4: {"cpu_ms": 1.9}, 5: {"cpu_ms": 3.5},
    6: {"cpu_ms": 6.5}, 7: {"cpu_ms": 12}, 8: {"cpu_ms": 40}, 9: {"cpu_ms": 160}, 10: {"cpu_ms": 1000},
}

__all__ = ["BENCH_SETUPS", "SEARCH_TUNING", "STRENGTH_LEVELS", "SCHEMAS", "SPEED_FLOORS", "schema_of",
           "ALL_MOVES", "ALL_MOVES_V2", "ExpansionState", "GAME_ID", "ORDER", "LAYOUT", "LAYOUT_V2",
           "LAYOUT_VERSION", "NUM_ACTIONS", "NUM_ACTIONS_V2", "OPTIONS", "OPTION_VALUES", "PLAYER_COUNTS",
           "SCORE_UNIT", "SETUP_OPTIONS", "TITLE", "VARIANTS", "VECTOR_LEN", "VECTOR_LEN_V2", "Move", "State", "decode",
           "layout_for", "new_game"]
