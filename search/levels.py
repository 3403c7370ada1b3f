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

from .params import Budget

#: Level -> its budget on one search thread: CPU milliseconds or iterations.
LEVEL_BUDGETS: dict[int, Budget] = {
    1: Budget(iterations=10),
    2: Budget(iterations=30),
    3: Budget(cpu_ms=1),
    4: Budget(cpu_ms=1.9),
    5: Budget(cpu_ms=3.5),
    6: Budget(cpu_ms=6.5),
    7: Budget(cpu_ms=12),
    8: Budget(cpu_ms=40),
    9: Budget(cpu_ms=160),
    10: Budget(cpu_ms=1000),
}
LEVELS = range(min(LEVEL_BUDGETS), max(LEVEL_BUDGETS) + 1)


def budget_text(level: int) -> str:
    """A level's budget in words, as docs/search.md's table gives it: ``10 iterations``,
    ``1.9 ms of CPU``."""
    budget = LEVEL_BUDGETS[level]
    return f"{budget.cpu_ms:g} ms of CPU" if budget.cpu_ms is not None else f"{budget.iterations:g} iterations"


def level_budget(level: int) -> Budget:
    """The budget of a level; ValueError if it is not one."""
    if level not in LEVEL_BUDGETS:
        raise ValueError(f"level {level} is not one of {LEVELS.start}..{LEVELS.stop - 1}")
    return LEVEL_BUDGETS[level]
