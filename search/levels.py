"""Strength levels 1-10 of ``BestMove`` and of the ``level:N`` bot: the one reader of every
game's table of them (its package's ``STRENGTH_LEVELS``).

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

from ..engine import game_ids, get_game
from ..engine.game import LevelBudget
from .params import Budget

LEVELS = range(1, 11)


def _strength_levels(game_id: str) -> dict[int, LevelBudget]:
    """``game_id``'s package's ``STRENGTH_LEVELS``; ValueError for a game outside the registry."""
    try:
        return get_game(game_id).STRENGTH_LEVELS
    except KeyError:
        raise ValueError(f"no strength levels for game {game_id!r} (known: {', '.join(game_ids())})") from None


def check_level(level: int) -> int:
    """``level``, if it is one; ValueError otherwise."""
    if level not in LEVELS:
        raise ValueError(f"level {level} is not one of {LEVELS.start}..{LEVELS.stop - 1}")
    return level


def level_budget(level: int, game_id: str) -> Budget:
    """The budget of ``level`` in ``game_id``, its package's ``STRENGTH_LEVELS`` entry;
    ValueError if it is not a level, or for a game outside the registry."""
    return Budget(**_strength_levels(game_id)[check_level(level)])


def budget_text(level: int, game_id: str) -> str:
    """A level's budget in ``game_id`` in words, as the docs' tables give it: ``10 iterations``,
    ``1.9 ms of CPU``."""
    budget = level_budget(level, game_id)
    return f"{budget.cpu_ms:g} ms of CPU" if budget.cpu_ms is not None else f"{budget.iterations:g} iterations"
