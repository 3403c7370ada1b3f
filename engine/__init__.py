"""Game engines: one package per game, reference rules in Python, found by game id."""

from __future__ import annotations

import functools
from types import ModuleType

from .errors import IllegalMoveError, InvalidMoveError, PositionError
from .rng import Rng


@functools.cache
def _registry() -> dict[str, ModuleType]:
    from . import castles_of_burgundy, puerto_rico  # here: the games import this package

    return {game.GAME_ID: game for game in (puerto_rico, castles_of_burgundy)}


def game_ids() -> list[str]:
    return list(_registry())  # a copy: the registry is shared


def get_game(game_id: str) -> ModuleType:
    """The engine module of ``game_id``; raises KeyError naming the known ids."""
    games = _registry()
    if game_id not in games:
        raise KeyError(f"unknown game {game_id!r} (known: {', '.join(games)})")
    return games[game_id]


__all__ = ["IllegalMoveError", "InvalidMoveError", "PositionError", "Rng", "game_ids", "get_game"]
