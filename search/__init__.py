"""The search API: native ISMCTS analysis of a position (budgets, threads, result shaping)."""

from .ismcts import Analysis, MoveInfo, NativeHandle, SearchableState, analyze

__all__ = ["Analysis", "MoveInfo", "NativeHandle", "SearchableState", "analyze"]
