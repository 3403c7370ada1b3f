"""Strength levels 1-10 of ``BestMove`` and of the ``level:N`` bot.

A level is a CPU-time budget of one search thread: level 10 searches 1000 ms of
CPU, each level below half as long as the one above.  CPU time, not the clock, so a
level plays as strong under load as on an idle machine (the server's ``max_time_ms``
still caps the wall clock).  ``meeplemind ladder`` measures the levels' Elo (README,
"Strength levels").
"""

from __future__ import annotations

from typing import Any

#: Level -> CPU milliseconds of its one search thread.
LEVEL_CPU_MS = {level: 1000 / 2 ** (10 - level) for level in range(1, 11)}
LEVELS = range(min(LEVEL_CPU_MS), max(LEVEL_CPU_MS) + 1)


def level_budget(level: int) -> dict[str, Any]:
    """The ``analyze`` budget of a level; ValueError if it is not one."""
    if level not in LEVEL_CPU_MS:
        raise ValueError(f"level {level} is not one of {LEVELS.start}..{LEVELS.stop - 1}")
    return {"cpu_ms": LEVEL_CPU_MS[level], "threads": 1}
