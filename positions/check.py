"""Positions are validated by one decoder: the game's C decoder (native/mm_<game>.c).

It checks a state vector's length, layout version, player count and every cell's range
(the schema's table, generated into its header), then the consistency rules, and names
the vector index and the rule broken in its own words: its verdict. ``decode`` turns a
refusal into a ``PositionError`` naming the cell's field path (the schema's) in those words,
from the one decode, so every path (the command line, the Rules and Analysis RPCs, the web
gateway, review) rejects a position with the same field and words.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from ..engine import get_game
from ..engine.errors import PositionError
from ..engine.game_state import GameState
from ..native import NativeDecodeError, NativeGame

Vector = npt.NDArray[np.int32]


@functools.cache
def native(game_id: str) -> NativeGame:
    """The C engine of ``game_id``, made once."""
    return NativeGame(game_id)


def refusal(game_id: str, vector: Vector, error: NativeDecodeError) -> PositionError:
    """The C decoder's refusal of ``vector`` as a PositionError naming the cell's field path
    (the layout its version names; ``state`` for the vector as a whole) in the decoder's words."""
    layout = get_game(game_id).layout_for(vector)
    return PositionError(layout[error.index] if 0 <= error.index < len(layout) else "state", error.why)


def decode(game_id: str, vector: Vector) -> bytearray:
    """The C state of ``vector`` (one decode), or its refusal raised as a PositionError
    naming the field (``refusal``)."""
    try:
        return native(game_id).decode(vector)
    except NativeDecodeError as e:
        raise refusal(game_id, vector, e) from None


def as_vector(values: object) -> Vector:
    """A state vector as the C engines read it: a contiguous 1-D int32 array."""
    return np.ascontiguousarray(np.asarray(values, dtype=np.int32).ravel())


def check_state(state: GameState) -> Vector:
    """The state vector of ``state`` once the C decoder accepts it; PositionError naming the
    field otherwise (a reference state the rules made is always accepted)."""
    vector = as_vector(state.encode())
    decode(state.game_id, vector)
    return vector


def explain(game_id: str, vector: Vector, error: NativeDecodeError) -> ValueError:
    """A refusal a search reported (its C decode gives the code and the index, not the words)
    as a PositionError in the decoder's words: the vector decoded again. Positions read by
    ``positions.read`` never get here: their one decode already gave the verdict. A game
    without a package (a test's toy engine) keeps the index alone."""
    try:
        get_game(game_id)
    except KeyError:
        return error
    try:
        decode(game_id, vector)
    except PositionError as e:
        return e
    return error
