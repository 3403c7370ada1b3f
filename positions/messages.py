"""Positions as messages and JSON: the proto3 JSON mapping of ``meeplemind.v1.Position``.

A position file is ``{"game": "puerto-rico", "viewer": 0, "puerto_rico": {...}}``:
the game id, the seat whose view it is, and the game's state under the game's key
(its id with ``-`` as ``_``).  Files are read by protobuf's own ``json_format``, as the
proto3 JSON spec has it: lowerCamelCase or proto field names, default values omitted
or not, unknown fields refused with their path, then checked (``checked.read``).  They
are written with the proto field names and every default printed.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from google.protobuf import json_format, message_factory
from google.protobuf.message import Message

from ..engine import get_game
from ..engine.errors import PositionError
from ..engine.game_state import GameState
from ..engine.schema import schema_for
from ..v1.position_pb2 import Position
from . import vector_codec
from .vector_codec import MessageType
from .check import as_vector
from .checked import CheckedPosition, accept, read, state_key

#: The proto3 JSON of a message (``message_to_dict``): what a position file holds.
Json = dict[str, Any]


def state_message(state: GameState) -> Message:
    """The state message of ``state`` (``PuertoRicoState``...), written from its state
    vector through the game's schema (``vector_codec.write``)."""
    vector = state.encode().tolist()
    message: Message = vector_codec.write(schema_for(get_game(state.game_id).SCHEMAS, vector), vector)
    return message


def state_dict(state: GameState) -> Json:
    """The proto3 JSON of the state's message, written from its vector by the schema."""
    return message_to_dict(state_message(state))


def state_from_dict(game_id: str, data: object, check: bool = True) -> GameState:
    """The state of a game's state message as proto3 JSON (what a position holds under
    the game's key), read by protobuf and the schema, judged by the C decoder (``check``;
    False: a vector the caller knows C accepts) and built by the game's ``decode``; raises
    PositionError naming the field under the state."""
    game = get_game(game_id)
    descriptor = Position.DESCRIPTOR.fields_by_name[state_key(game_id)].message_type
    assert descriptor is not None  # a game's field in Position is its state message
    if not isinstance(data, dict):
        raise json_error(data, descriptor)
    try:
        message = json_format.ParseDict(data, message_factory.GetMessageClass(descriptor)())
    except (json_format.ParseError, AttributeError, TypeError):
        raise json_error(data, descriptor) from None
    vector = vector_codec.read(game.schema_of(message), message)
    if check:
        return accept(game, as_vector(vector)).state()
    return game.decode(vector)


def to_message(state: GameState, viewer: int | None = None) -> Position:
    """The ``Position`` of ``state`` as it is, for ``viewer`` (default: the player to
    move): a full-information state stays one (a host's truth, which a search masks to
    the viewer's observation itself); ``observe(state, viewer)`` writes what the viewer
    sees (docs/positions.md)."""
    if viewer is None:
        viewer = state.current_player if state.current_player is not None else 0
    position = Position(game=state.game_id, viewer=viewer)
    getattr(position, state_key(state.game_id)).CopyFrom(state_message(state))
    return position


def observe(state: GameState, viewer: int) -> Position:
    """The ``Position`` of what ``viewer`` sees of ``state``: its observation."""
    return to_message(state.observation(viewer), viewer)


def message_to_dict(message: Message) -> Json:
    """The proto3 JSON of a message as position files hold it: proto field names, every
    default printed, keys in field-number order."""
    data = json_format.MessageToDict(message, preserving_proto_field_name=True,
                                     always_print_fields_with_no_presence=True)
    return _in_field_order(data, message.DESCRIPTOR)


def _in_field_order(data: Json, descriptor: MessageType) -> Json:
    ordered: Json = {}
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


def to_position(state: GameState, viewer: int | None = None) -> Json:
    """The Position JSON object of ``state`` as it is (``to_message``), for ``viewer``."""
    return message_to_dict(to_message(state, viewer))


def parse_position(data: object) -> Position:
    """A Position JSON value read by protobuf's proto3 JSON parser; errors name the field."""
    if isinstance(data, dict) and isinstance(data.get("game"), str):
        try:
            get_game(data["game"])  # an unknown game first, as the service answers it
        except KeyError as e:
            raise PositionError("game", str(e.args[0])) from None
    if not isinstance(data, dict):
        raise json_error(data, Position.DESCRIPTOR)
    try:
        return json_format.ParseDict(data, Position())
    except (json_format.ParseError, AttributeError, TypeError):
        raise json_error(data, Position.DESCRIPTOR) from None


def read_position(data: object) -> CheckedPosition:
    """A Position JSON value parsed and checked (``checked.read``); errors name the field."""
    return read(parse_position(data))


#: The file name that stands for standard input.
STDIN = "-"


def read_data(path: str) -> object:
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


def read_message(path: str) -> Position:
    """A position file (``-``: standard input) read as a ``meeplemind.v1.Position`` by
    protobuf's proto3 JSON parser; errors name the file or the field path."""
    return parse_position(read_data(path))


def read_json(path: str) -> Json:
    """A position file as the proto3 JSON dict of its message (proto field names, every
    default printed): what a client sends for it."""
    return message_to_dict(read_message(path))


def json_error(data: object, descriptor: MessageType, path: str = "") -> PositionError:
    """The first field of ``data`` (JSON of the message ``descriptor``) that protobuf's
    parser refuses, named by its path, with the parser's reason."""
    if not isinstance(data, dict):
        return PositionError(path or "position", f"expected a JSON object, got {type(data).__name__}")
    fields = {**{f.json_name: f for f in descriptor.fields}, **{f.name: f for f in descriptor.fields}}
    for key, value in data.items():
        field = fields.get(key)
        at = f"{path}.{key}" if path else key
        if field is None:
            return PositionError(at, f"unknown field (known: {', '.join(f.name for f in descriptor.fields)})")
        try:
            json_format.ParseDict({key: value}, message_factory.GetMessageClass(descriptor)())  # type: ignore[arg-type]  # upb's too
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


def _innermost(problem: str) -> str:
    """The parser's own words without its chain of 'Failed to parse X field:' and 'at ...'."""
    problem = re.sub(r"Failed to parse \w+ field: ", "", problem)
    return re.sub(r' at "?[A-Z][\w.\[\]]*"?', "", problem).strip().rstrip(".")


def load_position(path: str) -> CheckedPosition:
    """Read and check a position file as the service reads a Position; errors name the
    file and the field."""
    return read(read_message(path))


def dumps(position: Json) -> str:
    return json.dumps(position, indent=1)
