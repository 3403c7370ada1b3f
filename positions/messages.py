"""Positions as JSON: the proto3 JSON mapping of ``meeplemind.v1.Position``.

A position file is ``{"game": "puerto-rico", "viewer": 0, "puerto_rico": {...}}``:
the game id, the seat whose view it is, and the game's state under the game's key
(its id with ``-`` as ``_``).  Files are read by protobuf's own ``json_format``, as the
proto3 JSON spec has it: lowerCamelCase or proto field names, default values omitted
or not, unknown fields refused with their path.  They are written with the proto field
names and every default printed.
"""

from __future__ import annotations

import json
import re
import sys
from typing import TYPE_CHECKING, Any

from ..engine import get_game
from ..engine.errors import PositionError
from ..engine.schema import schema_for

if TYPE_CHECKING:
    from ..v1.position_pb2 import Position


def state_key(game_id: str) -> str:
    return game_id.replace("-", "_")


def state_message(state: Any) -> Any:
    """The state message of ``state`` (``PuertoRicoState``...), written from its state
    vector through the game's schema (``vector_codec.write``)."""
    from . import vector_codec

    vector = state.encode().tolist()
    return vector_codec.write(schema_for(get_game(state.game_id).SCHEMAS, vector), vector)


def state_from_dict(game_id: str, data: Any, check: bool = True) -> Any:
    """The state of a game's state message as proto3 JSON (what a position holds under
    the game's key), read by protobuf, the schema and the game's ``decode`` (checked by
    the C decoder, the reference State built from the vector it accepts); raises
    PositionError naming the field under the state. ``check=False`` leaves the
    consistency checks to a native decoder."""
    from google.protobuf import json_format, message_factory

    from . import vector_codec
    from ..v1 import position_pb2

    game = get_game(game_id)
    descriptor = position_pb2.Position.DESCRIPTOR.fields_by_name[state_key(game_id)].message_type
    assert descriptor is not None  # a game's field in Position is its state message
    try:
        message = json_format.ParseDict(data, message_factory.GetMessageClass(descriptor)())
    except (json_format.ParseError, AttributeError, TypeError):
        raise json_error(data, descriptor) from None
    return game.decode(vector_codec.read(game.schema_of(message), message), check=check)


def to_message(state: Any, viewer: int | None = None) -> Position:
    """The ``Position`` of ``state`` as it is, for ``viewer`` (default: the player to
    move): a full-information state stays one (a host's truth, which a search masks to
    the viewer's observation itself); ``observe(state, viewer)`` writes what the viewer
    sees (docs/positions.md)."""
    from ..v1 import position_pb2  # here: the rules need no protobuf

    if viewer is None:
        viewer = state.current_player if state.current_player is not None else 0
    position = position_pb2.Position(game=state.game_id, viewer=viewer)
    getattr(position, state_key(state.game_id)).CopyFrom(state_message(state))
    return position


def observe(state: Any, viewer: int) -> Position:
    """The ``Position`` of what ``viewer`` sees of ``state``: its observation."""
    return to_message(state.observation(viewer), viewer)


def message_to_dict(message: Any) -> dict[str, Any]:
    """The proto3 JSON of a message as position files hold it: proto field names, every
    default printed, keys in field-number order."""
    from google.protobuf import json_format

    data = json_format.MessageToDict(message, preserving_proto_field_name=True,
                                     always_print_fields_with_no_presence=True)
    return _in_field_order(data, message.DESCRIPTOR)


def _in_field_order(data: dict[str, Any], descriptor: Any) -> dict[str, Any]:
    ordered: dict[str, Any] = {}
    for field in descriptor.fields:
        if field.name not in data:
            continue
        value = data[field.name]
        nested = field.message_type
        if nested is not None and not nested.GetOptions().map_entry:
            if isinstance(value, list):
                value = [_in_field_order(item, nested) for item in value]
            else:
                value = _in_field_order(value, nested)
        ordered[field.name] = value
    return ordered


def to_position(state: Any, viewer: int | None = None) -> dict[str, Any]:
    """The Position JSON object of ``state`` as it is (``to_message``), for ``viewer``."""
    return message_to_dict(to_message(state, viewer))


def parse_position(data: Any) -> Any:
    """A Position JSON value read by protobuf's proto3 JSON parser; errors name the field."""
    from google.protobuf import json_format

    from ..v1 import position_pb2

    if isinstance(data, dict) and isinstance(data.get("game"), str):
        try:
            get_game(data["game"])  # an unknown game first, as the service answers it
        except KeyError as e:
            raise PositionError("game", str(e.args[0])) from None
    try:
        return json_format.ParseDict(data, position_pb2.Position())
    except (json_format.ParseError, AttributeError, TypeError):
        raise json_error(data, position_pb2.Position.DESCRIPTOR) from None


def from_position(data: Any, check: bool = True) -> tuple[Any, int]:
    """(state, viewer) from a Position JSON value; raises PositionError naming the field.
    ``check=False`` leaves the consistency checks to a native decoder."""
    return from_message(parse_position(data), check)


#: The file name that stands for standard input.
STDIN = "-"


def read_data(path: str) -> Any:
    """A JSON file's value (``-``: standard input), unchecked; errors name the file."""
    try:
        if path == STDIN:
            text, path = sys.stdin.read(), "<stdin>"
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise PositionError("", f"{path}: {e.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PositionError("", f"{path}: not JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    return data


def read_message(path: str) -> Any:
    """A position file (``-``: standard input) read as a ``meeplemind.v1.Position`` by
    protobuf's proto3 JSON parser; errors name the file or the field path."""
    return parse_position(read_data(path))


def read_json(path: str) -> dict[str, Any]:
    """A position file as the proto3 JSON dict of its message (proto field names, every
    default printed): what a client sends for it."""
    return message_to_dict(read_message(path))


def state_vector(position: Any) -> Any:
    """The state vector of a ``Position`` message of a known game, read by the game's
    schema (``vector_codec``: names, keys and lengths checked); the ranges and rules are
    the decoders'. Errors name the field path."""
    import numpy as np

    from . import vector_codec

    key = state_key(position.game)
    if position.WhichOneof("state") != key:
        raise PositionError(key, f"missing (the {position.game} state)")
    message = getattr(position, key)
    try:
        return np.asarray(vector_codec.read(get_game(position.game).schema_of(message), message), dtype=np.int32)
    except PositionError as e:
        raise PositionError(f"{key}.{e.path}" if e.path else key, e.problem) from None


def from_message(position: Any, check: bool = True) -> tuple[Any, int]:
    """``(state, viewer)`` of a ``Position`` message; raises PositionError naming the
    field path (``game`` for an unknown game). ``check=False`` leaves the consistency
    checks to a native decoder."""
    try:
        game = get_game(position.game)
    except KeyError as e:
        raise PositionError("game", str(e.args[0]) if position.game else
                            "missing (a game id such as 'puerto-rico')") from None
    vector = state_vector(position)
    key = state_key(position.game)
    try:
        state = game.decode(vector, check=check)
    except PositionError as e:
        raise PositionError(f"{key}.{e.path}" if e.path else key, e.problem) from None
    seats = state.num_players  # unchecked, a count the game has not: the native decoder names it
    if not 0 <= position.viewer < seats and (check or seats in game.PLAYER_COUNTS):
        raise PositionError("viewer", f"{position.viewer} is not a seat of this {seats}-player game")
    return state, position.viewer


def json_error(data: Any, descriptor: Any, path: str = "") -> PositionError:
    """The first field of ``data`` (JSON of the message ``descriptor``) that protobuf's
    parser refuses, named by its path, with the parser's reason."""
    from google.protobuf import json_format

    if not isinstance(data, dict):
        return PositionError(path or "position", f"expected a JSON object, got {type(data).__name__}")
    fields = {**{f.json_name: f for f in descriptor.fields}, **{f.name: f for f in descriptor.fields}}
    for key, value in data.items():
        field = fields.get(key)
        at = f"{path}.{key}" if path else key
        if field is None:
            return PositionError(at, f"unknown field (known: {', '.join(f.name for f in descriptor.fields)})")
        try:
            json_format.ParseDict({key: value}, _message_class(descriptor)())
            continue
        except json_format.ParseError as e:
            problem = str(e).split("\n", 1)[0]
        nested = field.message_type
        if nested is not None and not nested.GetOptions().map_entry:
            items = enumerate(value) if field.is_repeated and isinstance(value, list) else None
            if items is not None:
                for i, item in items:
                    found = json_error(item, nested, f"{at}[{i}]")
                    if found.problem != "":
                        return found
            elif not field.is_repeated:
                return json_error(value, nested, at)
        return PositionError(at, _innermost(problem))
    return PositionError(path, "")


def _message_class(descriptor: Any) -> Any:
    from google.protobuf import message_factory

    return message_factory.GetMessageClass(descriptor)


def _innermost(problem: str) -> str:
    """The parser's own words without its chain of 'Failed to parse X field:' and 'at ...'."""
    problem = re.sub(r"Failed to parse \w+ field: ", "", problem)
    return re.sub(r' at "?[A-Z][\w.\[\]]*"?', "", problem).strip().rstrip(".")


def load_position(path: str) -> tuple[Any, int]:
    """Read and check a position file as the service reads a Position; errors name the
    file and the field."""
    return from_message(read_message(path))


def dumps(position: dict[str, Any]) -> str:
    return json.dumps(position, indent=1)
