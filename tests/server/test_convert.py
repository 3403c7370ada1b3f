"""The field-by-field Position conversion agrees with json_format, and falls back to it."""

from __future__ import annotations

import json

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message

from meeplemind.engine.position import to_position
from meeplemind.server.convert import dict_to_message, message_to_dict
from meeplemind.v1 import analysis_pb2, position_pb2, rules_pb2

from .conftest import played


def _json_format_dict(message: Message) -> dict:
    return json_format.MessageToDict(message, preserving_proto_field_name=True,
                                      always_print_fields_with_no_presence=True)


@pytest.mark.parametrize("players,seed,moves", [(2, 1, 0), (3, 2, 40), (4, 3, 150), (5, 4, 400)])
def test_positions_convert_as_json_format_does(players: int, seed: int, moves: int) -> None:
    data = to_position(played(players, seed, moves))
    message = json_format.ParseDict(data, position_pb2.Position())
    assert json.dumps(message_to_dict(message)) == json.dumps(data)
    assert message_to_dict(message) == _json_format_dict(message)
    assert dict_to_message(data, position_pb2.Position()) == message


def test_unset_message_fields_are_left_out() -> None:
    assert message_to_dict(position_pb2.Position(game="puerto-rico")) == {"game": "puerto-rico", "viewer": 0}
    assert not dict_to_message({"game": "x", "viewer": 1}, position_pb2.Position()).HasField("puerto_rico")
    assert dict_to_message({"puerto_rico": {}}, position_pb2.Position()).HasField("puerto_rico")


@pytest.mark.parametrize("message", [
    rules_pb2.NewGameRequest(game="puerto-rico", players=3, seed=2**40, options={"a": "true"}),
    analysis_pb2.SearchStats(iterations=2**40, elapsed_ms=1.5, stop_reason=analysis_pb2.STOP_REASON_TIME),
])
def test_maps_enums_floats_and_64_bit_integers_are_left_to_json_format(message: Message) -> None:
    data = message_to_dict(message)
    assert data == _json_format_dict(message)
    assert dict_to_message(data, type(message)()) == message
