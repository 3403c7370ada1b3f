"""Positions are validated by one decoder: the game's C decoder (native/mm_<game>.c).

It checks a state vector's length, layout version, player count and every cell's range
(the schema's table, generated into its header), then the consistency rules, and names
the vector index and the rule broken in its own words. ``check`` turns that verdict into
a ``PositionError`` naming the cell's field path (the schema's), so every path (the
command line, the Rules and Analysis RPCs, the web gateway, review) rejects a position
with the same field and words.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from ..engine.errors import PositionError


@functools.cache
def native(game_id: str) -> Any:
    """The C engine of ``game_id`` (a ``meeplemind.native.NativeGame``), made once."""
    from ..native import NativeGame

    return NativeGame(game_id)


def check(game_id: str, vector: Any, layout: Sequence[str]) -> None:
    """Raise PositionError naming the field (``layout[index]``; ``state`` for the vector
    as a whole) unless the C decoder accepts ``vector`` as a position of ``game_id``."""
    from ..native import NativeDecodeError

    try:
        native(game_id).decode(vector)
    except NativeDecodeError as e:
        raise PositionError(layout[e.index] if 0 <= e.index < len(layout) else "state", e.why) from None
