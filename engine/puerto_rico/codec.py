"""Puerto Rico states as the int32 state vector (``encode``/``decode``).

A position's message is read into and written from the vector by the generic codec
(``engine/vector_codec.py``) through schema.py; ``decode`` has the C decoder check the
whole position (``engine/native_check.py``: every range, conservation of every component
against the setup for the player count, phase bookkeeping) and raises ``PositionError``
naming the field path.

Layout version 1 is a base game's, version 2 an Expansion I game's (its globals after
v1's twenty, its ``in_game`` flags after the building supply, two player fields before
the buildings, 37 building types); the field path, range and state attribute of every
cell are in the tables of schema.py, and ``engine/layout.py`` binds them to ``State``
(and ``ExpansionState``) and ``Player`` here and to the C twin's struct
(``native/layout_puerto_rico.h``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import native_check
from ..layout import Binding
from ..schema import schema_for
from .expansion import EXPANSION, ExpansionState
from .state import Player, State
from .schema import GAME_ID, SCHEMAS
from .schema import V1 as SCHEMA_V1
from .schema import V2 as SCHEMA_V2

LAYOUT_VERSION = SCHEMA_V1.version
#: Field path of every state-vector index (used to name the field the C decoder rejects).
LAYOUT = SCHEMA_V1.names()
VECTOR_LEN = len(LAYOUT)
LAYOUT_V2 = SCHEMA_V2.names()
VECTOR_LEN_V2 = len(LAYOUT_V2)
_LAYOUTS = {SCHEMA_V1.version: LAYOUT, SCHEMA_V2.version: LAYOUT_V2}
_OPTIONS = {"options": lambda s: int(s.options.get("university_factory_swap", False))}
#: Each layout's cells bound to the state classes, by version.
BINDINGS = {SCHEMA_V1.version: Binding(SCHEMA_V1, State, Player, _OPTIONS),
             SCHEMA_V2.version: Binding(SCHEMA_V2, ExpansionState, Player, _OPTIONS)}


def validate(s: State) -> None:
    """Raise PositionError unless ``s`` is a consistent position with a move to play."""
    _check(encode(s))


def layout_for(v: Any) -> tuple[str, ...]:
    """The field names of ``v``'s entries: the layout its version names (or, for an
    unknown version, its length names)."""
    try:
        return _LAYOUTS[schema_for(SCHEMAS, v).version]
    except (IndexError, ValueError):
        return LAYOUT_V2 if len(v) == VECTOR_LEN_V2 else LAYOUT


def _check(v: Any) -> None:
    """Raise PositionError naming the field unless the C decoder accepts ``v``."""
    native_check.check(GAME_ID, v, layout_for(v))


def encode(s: State) -> np.ndarray:
    """The state vector: layout v2 for expansion games, v1 otherwise."""
    version = SCHEMA_V2.version if isinstance(s, ExpansionState) else SCHEMA_V1.version
    return np.asarray(BINDINGS[version].encode(s), dtype=np.int32)


def decode(vec: Any, check: bool = True) -> State:
    """The State of a vector written by ``encode`` (either layout, by its version field),
    after the C decoder accepts it; ``check=False`` builds the reference State of a vector
    already accepted (lockstep tests, a search's checked root)."""
    v = [int(x) for x in np.asarray(vec).ravel()]
    if check:
        _check(v)
    binding = BINDINGS[schema_for(SCHEMAS, v).version]
    fields, seats = binding.decode(v)
    fields["options"] = {"university_factory_swap": bool(fields["options"] & 1)}
    if binding.state is ExpansionState:
        fields["options"]["expansion"] = EXPANSION
    return binding.state(players=[Player(**seat) for seat in seats], **fields)  # type: ignore[no-any-return]

