"""Traders of Genoa (2001, 2-5 players): the reference rules in Python."""

from .codec import LAYOUT, LAYOUT_VERSION, VECTOR_LEN, decode, layout_for
from .data import PLAYER_COUNTS
from .moves import ALL_MOVES, NUM_ACTIONS, Move
from .state import OPTIONS, State, new_game

GAME_ID = "traders-of-genoa"
TITLE = "Traders of Genoa"
#: Every ``new_game`` option and the text values it takes (none).
OPTION_VALUES: dict[str, tuple[str, ...] | None] = {}
#: The rule variants every tool covers (tests, corpora): ``new_game`` options.
VARIANTS: tuple[dict[str, str], ...] = ({},)

__all__ = ["ALL_MOVES", "GAME_ID", "LAYOUT", "LAYOUT_VERSION", "NUM_ACTIONS", "OPTIONS", "OPTION_VALUES",
           "PLAYER_COUNTS", "TITLE", "VARIANTS", "VECTOR_LEN", "Move", "State", "decode", "layout_for",
           "new_game"]
