"""Castles of Burgundy states as the int32 state vector (``encode``/``decode``).

A position's message is read into and written from the vector by the generic codec
(``engine/vector_codec.py``) through schema.py; ``decode`` has the C decoder check the
whole position (``engine/native_check.py``: every range, conservation of every tile and
goods tile, estate rules, bonus tiles, turn bookkeeping) and raises ``PositionError``
naming the field path.

Layout version 1: engine indices are 0-based (tile kinds 0-48, data.TILE_NAMES; goods
0-5, goods number - 1; depots 0-5; cells 0-36, space - 1) and -1 is "none".  The field
path, range and state attribute of every cell are in schema.py's table, bound here to
``State`` and ``Player`` and to the C twin's struct (``native/layout_castles_of_burgundy.h``)
by ``engine/layout.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import native_check
from ..layout import Binding
from .state import Player, State
from .schema import GAME_ID
from .schema import V1 as SCHEMA

#: Field path of every state-vector index (names the field a decoder rejects).
LAYOUT = SCHEMA.names()
VECTOR_LEN = SCHEMA.length
LAYOUT_VERSION = SCHEMA.version
_BINDING = Binding(SCHEMA, State, Player)


def layout_for(vec: Any) -> tuple[str, ...]:
    """The field names of ``vec``'s entries (one layout so far)."""
    return LAYOUT


def validate(s: State) -> None:
    """Raise PositionError unless ``s`` is a consistent position with a move to play."""
    native_check.check(GAME_ID, encode(s), LAYOUT)


def encode(s: State) -> np.ndarray:
    return np.asarray(_BINDING.encode(s), dtype=np.int32)


def decode(vec: Any, check: bool = True) -> State:
    """The State of a vector written by ``encode``, after the C decoder accepts it;
    ``check=False`` builds the reference State of a vector already accepted (lockstep
    tests, a search's checked root)."""
    v = np.asarray(vec).ravel().tolist()
    if check:
        native_check.check(GAME_ID, v, LAYOUT)
    fields, seats = _BINDING.decode(v)
    return State(players=[Player(**seat) for seat in seats], **fields)

