"""Bounds on a request's free text: every string of a meeplemind.v1 request and of the
messages in it (request ids, game ids, option keys and values, moves) is at most
MAX_TEXT_BYTES of UTF-8 (LONGER_TEXT_BYTES for the few fields allowed more).

A longer one is INVALID_ARGUMENT naming the field, before any servicer copies it into
an answer, a log line or an error. A position's game state is left to its game: its
strings are names the game knows or errors that quote them shortened (walking every
state here would cost more than reading it).
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from .errors import ServiceError
from .limits import LONGER_TEXT_BYTES, MAX_TEXT_BYTES

_STRING = FieldDescriptor.TYPE_STRING
#: The oneof holding a position's game state, not walked.
GAME_STATE = "meeplemind.v1.Position.state"


class _Text(NamedTuple):
    """A field that holds text or messages holding text, and how to walk it."""

    name: str
    repeated: bool
    limit: int  # of its strings (a map's: of its string values)
    nested: Descriptor | None  # the type of its messages (a map's: of its message values)
    is_map: bool = False
    key_limit: int | None = None  # a map with string keys: their limit


def check_text(message: Message) -> None:
    """INVALID_ARGUMENT naming the first string of ``message`` over its limit, if any."""
    _check(message, "")


def _check(message: Message, path: str) -> None:
    for field in _plan(message.DESCRIPTOR):
        value = getattr(message, field.name)
        here = f"{path}.{field.name}" if path else field.name
        if field.is_map:
            for key, item in value.items():
                if field.key_limit is not None:
                    _check_string(key, here, field.key_limit, "a key of ")
                _check_item(item, f"{here}.{key}", field)
        elif field.repeated:
            for index, item in enumerate(value):
                _check_item(item, f"{here}[{index}]", field)
        elif field.nested is None or message.HasField(field.name):
            _check_item(value, here, field)


def _check_item(value: Any, path: str, field: _Text) -> None:
    if field.nested is None:
        _check_string(value, path, field.limit)
    else:
        _check(value, path)


def _check_string(text: Any, path: str, limit: int, what: str = "") -> None:
    if not isinstance(text, str) or len(text) * 4 <= limit:  # (a map's numbers); 4: the
        return  # longest UTF-8 character
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise ServiceError.invalid(path, f"{what}{size} bytes is over the limit of {limit} bytes")


@functools.cache
def _plan(descriptor: Descriptor) -> tuple[_Text, ...]:
    """The fields of ``descriptor`` that hold text, directly or in nested messages."""
    plan = []
    for field in descriptor.fields:
        if field.containing_oneof is not None and field.containing_oneof.full_name == GAME_STATE:
            continue
        nested = field.message_type
        if nested is not None and nested.GetOptions().map_entry:
            key, value = nested.fields_by_name["key"], nested.fields_by_name["value"]
            key_limit = _limit(key) if key.type == _STRING else None
            value_nested = value.message_type if value.message_type and _plan(value.message_type) else None
            if key_limit is not None or value.type == _STRING or value_nested is not None:
                plan.append(_Text(field.name, True, _limit(value), value_nested, True, key_limit))
        elif field.type == _STRING:
            plan.append(_Text(field.name, field.is_repeated, _limit(field), None))
        elif nested is not None and _plan(nested):
            plan.append(_Text(field.name, field.is_repeated, 0, nested))
    return tuple(plan)


def _limit(field: FieldDescriptor) -> int:
    return LONGER_TEXT_BYTES.get(field.full_name, MAX_TEXT_BYTES)
