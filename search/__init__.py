"""The search API: native ISMCTS analysis of a position within a ``Budget``, with ``SearchParams``."""

from .ismcts import Analysis, MoveInfo, NativeHandle, SearchableState, SearchStop, analyze
from .params import Budget, SearchParams, game_params

__all__ = ["Analysis", "Budget", "MoveInfo", "NativeHandle", "SearchParams", "SearchStop", "SearchableState", "analyze",
           "game_params"]
