"""The search API: native ISMCTS analysis of a position (budgets, threads, result shaping)."""

from .ismcts import Analysis, MoveInfo, NativeGame, SearchableState, analyze

__all__ = ["Analysis", "MoveInfo", "NativeGame", "SearchableState", "analyze"]
