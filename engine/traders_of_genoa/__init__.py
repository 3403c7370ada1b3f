"""Traders of Genoa (2001, 2-5 players): the reference rules in Python."""

from ..game import SearchTuning
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

#: The default search's tuning: the defaults (no move priors, no learned evaluation).
SEARCH_TUNING: SearchTuning = {}

__all__ = ["BENCH_SETUPS", "SEARCH_TUNING", "SCHEMAS", "schema_of",
           "ALL_MOVES", "GAME_ID", "ORDER", "LAYOUT", "LAYOUT_VERSION", "NUM_ACTIONS", "OPTIONS", "OPTION_VALUES",
           "PLAYER_COUNTS", "SCORE_UNIT", "TITLE", "VARIANTS", "VECTOR_LEN", "Move", "State", "decode",
           "layout_for", "new_game"]
