"""Strength levels 1-10 of ``BestMove`` and of the ``level:N`` bot.

A level is a budget of one search thread, CPU time or iterations, never the clock, so
a level plays as strong under load as on an idle machine (the server's ``max_time_ms``
still caps the wall clock).  Levels 3-10 search CPU time, 1000 ms at level 10 and half
as long at each level below; levels 1 and 2 search a few iterations, so that level 1
is a beginner's opponent the heuristic bot beats.  ``meeplemind ladder`` measures the
levels' Elo (README, "Strength levels").
"""

from __future__ import annotations

from typing import Any

#: Level -> its budget on one search thread: ``cpu_ms`` (CPU milliseconds) or ``iterations``.
LEVEL_BUDGETS: dict[int, dict[str, int | float]] = {
    1: {"iterations": 10},
    2: {"iterations": 30},
    **{level: {"cpu_ms": 1000 / 2 ** (10 - level)} for level in range(3, 11)},
}
LEVELS = range(min(LEVEL_BUDGETS), max(LEVEL_BUDGETS) + 1)


def level_budget(level: int) -> dict[str, Any]:
    """The ``analyze`` budget of a level; ValueError if it is not one."""
    if level not in LEVEL_BUDGETS:
        raise ValueError(f"level {level} is not one of {LEVELS.start}..{LEVELS.stop - 1}")
    return LEVEL_BUDGETS[level] | {"threads": 1}
