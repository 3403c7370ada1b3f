"""The games' fixed facts the page draws with, served as ``/facts.json``: per game, its
``web/games/<game>.py``'s ``facts()``, read from the engines' own tables (nothing about a
board is written twice), for every game of the registry, with the review's marks
(``meeplemind.client.types.MARKS``)."""

from __future__ import annotations

import functools
import importlib
from typing import Any

from ..client.types import MARK_FLOOR, MARKS
from ..engine import game_ids, game_key


@functools.cache
def facts() -> dict[str, Any]:
    """Per game id: what the page needs besides a position to draw it, and to mark a review."""
    marks = {"marks": [[m.share, m.symbol, m.name] for m in MARKS], "floor": MARK_FLOOR}
    return {game_id: {**importlib.import_module(f"{__package__}.games.{game_key(game_id)}").facts(),
                      "review_marks": marks} for game_id in game_ids()}
