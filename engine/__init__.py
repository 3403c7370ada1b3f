"""Game engines: one package per game, reference rules in Python, found by game id."""

from __future__ import annotations

import functools
import importlib
import pkgutil
from typing import TYPE_CHECKING, cast

from .errors import IllegalMoveError, InvalidMoveError, PositionError
from .game import OptionError, parse_options
from .rng import Rng

if TYPE_CHECKING:
    from .game import Game


@functools.cache
def _registry() -> dict[str, Game]:
    """Every game package under engine/ (one with a ``GAME_ID`` and its place in listings,
    ``ORDER``; a package still without a place is not listed), by ``ORDER``."""
    packages = [importlib.import_module(f"{__name__}.{m.name}") for m in pkgutil.iter_modules(__path__) if m.ispkg]
    games = sorted((cast("Game", p) for p in packages if hasattr(p, "GAME_ID") and hasattr(p, "ORDER")),
                   key=lambda g: g.ORDER)
    return {game.GAME_ID: game for game in games}


def game_ids() -> list[str]:
    return list(_registry())  # a copy: the registry is shared


def get_game(game_id: str) -> Game:
    """The game package of ``game_id`` (a ``Game``); raises KeyError naming the known ids."""
    games = _registry()
    if game_id not in games:
        raise KeyError(f"unknown game {game_id!r} (known: {', '.join(games)})")
    return games[game_id]


def game_key(game_id: str) -> str:
    """The name of a game's engine package (``engine/<key>/``), which names the game's files
    elsewhere too (web/games/, native/, proto/) and is its field in a ``Position``."""
    name: str = getattr(get_game(game_id), "__name__")
    return name.rpartition(".")[2]


__all__ = ["IllegalMoveError", "InvalidMoveError", "OptionError", "PositionError", "Rng", "game_ids", "game_key", "get_game",
           "parse_options"]
