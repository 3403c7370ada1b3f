"""Positions: the boundary between the wire and the engines, in one package.

A ``meeplemind.v1.Position`` goes in through one entry point, ``read`` (``checked.py``): the
game's schema reads its state message into the state vector (``vector_codec.py``), the C
decoder judges it once (``check.py``) and the answer is a ``CheckedPosition`` for the
viewer, or a ``PositionError`` naming the field in the decoder's words. Positions go out
as messages and JSON (``messages.py``). The rules (``engine/``) know nothing of messages;
this package knows the rules' states, schemas and the C engines (docs/positions.md).
"""

from .check import check_state, explain
from .checked import CheckedPosition, accept, checked_state, find_game, from_state, read, state_key, state_vector
from .messages import (load_position, message_to_dict, observe, read_position, state_dict, state_from_dict,
                       to_message, to_position)

__all__ = ["CheckedPosition", "accept", "check_state", "checked_state", "explain", "find_game", "from_state", "load_position",
           "message_to_dict", "observe", "read", "read_position", "state_dict", "state_from_dict", "state_key",
           "state_vector", "to_message", "to_position"]
