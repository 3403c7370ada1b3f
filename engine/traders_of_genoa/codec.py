"""Traders of Genoa positions as the int32 state vector (``encode``/``decode``).

Layout version 2, engine indices 0-based, -1 for none.  The C decoder
(native/mm_traders_of_genoa.c) is the one validator (``positions/check.py``): the player
count, every field's range in vector order, then the consistency rules in their order.
The field path, range and state attribute of every cell are in schema.py's table, bound
here to ``State`` and ``Player`` and to the C twin's struct
(``native/layout_traders_of_genoa.h``) by ``engine/layout.py``; the path's squares are
followed by -1 in the vector, the State lists the squares only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..layout import Binding
from .schema import V2 as SCHEMA
from .state import Player, State

LAYOUT_VERSION = SCHEMA.version
VECTOR_LEN = SCHEMA.length
#: Field path of every state-vector index (names the field a decoder rejects).
LAYOUT = SCHEMA.names()
_BINDING = Binding(SCHEMA, State, Player)


def layout_for(vec: Any) -> tuple[str, ...]:
    """The field names of ``vec``'s entries (one layout)."""
    return LAYOUT


def encode(s: State) -> np.ndarray:
    return np.asarray(_BINDING.encode(s), dtype=np.int32)


def decode(vec: Any) -> State:
    """The State of a vector written by ``encode``: a vector the C decoder accepted
    (``positions.check``), which is the one check of positions."""
    fields, seats = _BINDING.decode(np.asarray(vec).ravel().tolist())
    fields["path"] = [square for square in fields["path"] if square >= 0]
    return State(players=[Player(**seat) for seat in seats], **fields)
