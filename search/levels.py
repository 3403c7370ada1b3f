"""Strength levels 1-10 of ``BestMove`` and of the ``level:N`` bot: the one table of them.

A level is a budget of one search thread, CPU time or iterations, never the clock, so
a level plays as strong under load as on an idle machine (the server's ``max_time_ms``
still caps the wall clock).  Levels 1 and 2 search a few iterations, so that level 1
is a beginner's opponent the heuristic bot beats; levels 3-10 search CPU time, the
steps growing with the budget because every doubling of a search's time buys less
strength than the one before.  The budgets are set so each level is at least 50 Elo
above the one below on ``meeplemind ladder``'s measurement.  docs/search.md's table
("Strength levels and the Elo ladder") quotes ``budget_text`` of each level, which a
test checks, and the ``level`` comment in analysis.proto refers to that table.
"""

from __future__ import annotations

from typing import Any

#: Level -> its budget on one search thread: ``cpu_ms`` (CPU milliseconds) or ``iterations``.
LEVEL_BUDGETS: dict[int, dict[str, int | float]] = {
    1: {"iterations": 10},
    2: {"iterations": 30},
    3: {"cpu_ms": 1},
    4: {"cpu_ms": 1.9},
    5: {"cpu_ms": 3.5},
    6: {"cpu_ms": 6.5},
    7: {"cpu_ms": 12},
    8: {"cpu_ms": 40},
    9: {"cpu_ms": 160},
    10: {"cpu_ms": 1000},
}
LEVELS = range(min(LEVEL_BUDGETS), max(LEVEL_BUDGETS) + 1)


def budget_text(level: int) -> str:
    """A level's budget in words, as docs/search.md's table gives it: ``10 iterations``,
    ``1.9 ms of CPU``."""
    (kind, amount), = LEVEL_BUDGETS[level].items()
    return f"{amount:g} iterations" if kind == "iterations" else f"{amount:g} ms of CPU"


def level_budget(level: int) -> dict[str, Any]:
    """The ``analyze`` budget of a level; ValueError if it is not one."""
    if level not in LEVEL_BUDGETS:
        raise ValueError(f"level {level} is not one of {LEVELS.start}..{LEVELS.stop - 1}")
    return LEVEL_BUDGETS[level] | {"threads": 1}
