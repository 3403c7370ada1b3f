"""Strength levels 1-10 of ``BestMove`` and of the ``level:N`` bot: every game's table of them.

A level is a budget of one search thread, CPU time or iterations, never the clock, so
a level plays as strong under load as on an idle machine (the server's ``max_time_ms``
still caps the wall clock).  The low levels search a few iterations, so that level 1
is a beginner's opponent; the others search CPU time, the steps growing with the budget
because every doubling of a search's time buys less strength than the one before.  A
game's search gains differently from its budget, so each game has its own table, aimed
at each level at least 50 Elo above the one below on ``meeplemind ladder``'s measurement
of that game at 2 players (docs/search.md, "Strength levels and the Elo ladder", and the
game's page in docs/games/, say how far each table meets it); every player count plays
the 2-player table.  Those docs quote ``budget_text`` of each level, which a test checks,
and the ``level`` comment in analysis.proto refers to them.
"""

from __future__ import annotations

from .params import Budget

#: Puerto Rico's levels, measured on 2 players (docs/search.md), where every game's table starts.
_PUERTO_RICO: dict[int, Budget] = {
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
#: Game id -> level -> its budget on one search thread: CPU milliseconds or iterations.  The
#: other games' CPU levels grow faster than Puerto Rico's (their ladders' steps at 1.85x a
#: level were short of +50), and Genoa's level 2 is 100 iterations (at 30 or 50 it played
#: no better than level 1's 10).
LEVEL_BUDGETS: dict[str, dict[int, Budget]] = {
    "puerto-rico": _PUERTO_RICO,
    "castles-of-burgundy": _PUERTO_RICO | {5: Budget(cpu_ms=5.4), 6: Budget(cpu_ms=15), 7: Budget(cpu_ms=43),
                                           8: Budget(cpu_ms=120), 9: Budget(cpu_ms=350)},
    "traders-of-genoa": _PUERTO_RICO | {2: Budget(iterations=100), 3: Budget(cpu_ms=3.5), 4: Budget(cpu_ms=10),
                                        5: Budget(cpu_ms=30), 6: Budget(cpu_ms=80), 7: Budget(cpu_ms=200),
                                        8: Budget(cpu_ms=400), 9: Budget(cpu_ms=700)},
}
LEVELS = range(1, 11)


def _table(game_id: str) -> dict[int, Budget]:
    if game_id not in LEVEL_BUDGETS:
        raise ValueError(f"no strength levels for game {game_id!r} (known: {', '.join(LEVEL_BUDGETS)})")
    return LEVEL_BUDGETS[game_id]


def check_level(level: int) -> int:
    """``level``, if it is one; ValueError otherwise."""
    if level not in LEVELS:
        raise ValueError(f"level {level} is not one of {LEVELS.start}..{LEVELS.stop - 1}")
    return level


def level_budget(level: int, game_id: str) -> Budget:
    """The budget of ``level`` in ``game_id``; ValueError if it is not a level, or the game has no levels."""
    return _table(game_id)[check_level(level)]


def budget_text(level: int, game_id: str) -> str:
    """A level's budget in ``game_id`` in words, as the docs' tables give it: ``10 iterations``,
    ``1.9 ms of CPU``."""
    budget = level_budget(level, game_id)
    return f"{budget.cpu_ms:g} ms of CPU" if budget.cpu_ms is not None else f"{budget.iterations:g} iterations"
