"""Positions written from the state vector print as json_format reads them back."""

from __future__ import annotations

import json

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message

from meeplemind.engine import Rng, get_game
from meeplemind.positions.messages import to_position
from meeplemind.positions.messages import message_to_dict
from meeplemind.server.convert import position_to_proto
from meeplemind.v1 import analysis_pb2, position_pb2, rules_pb2

from .conftest import played


def _json_format_dict(message: Message) -> dict:
    return json_format.MessageToDict(message, preserving_proto_field_name=True,
                                      always_print_fields_with_no_presence=True)


@pytest.mark.parametrize("players,seed,moves", [(2, 1, 0), (3, 2, 40), (4, 3, 150), (5, 4, 400)])
def test_positions_convert_as_json_format_does(players: int, seed: int, moves: int) -> None:
    state = played(players, seed, moves)
    data = to_position(state)
    message = json_format.ParseDict(data, position_pb2.Position())
    assert json.dumps(message_to_dict(message)) == json.dumps(data)
    assert message_to_dict(message) == _json_format_dict(message)
    assert position_to_proto(state) == message


@pytest.mark.parametrize("players", [2, 3, 4])
def test_maps_of_plain_values_convert_as_json_format_does(players: int) -> None:
    """The Castles of Burgundy's maps (tile counts, bonus tiles, estates keyed by cell number)."""
    game, rng = get_game("castles-of-burgundy"), Rng(players)
    state = game.new_game(players, players)
    for _ in range(90):
        legal = state.legal_moves()
        state = state.apply(legal[rng.below(len(legal))], rng)
    data = to_position(state)
    message = json_format.ParseDict(data, position_pb2.Position())
    assert message_to_dict(message) == data == _json_format_dict(message)
    assert position_to_proto(state) == message
    assert data["castles_of_burgundy"]["players"][0]["estate"]  # keyed by cell numbers as text


def test_unset_message_fields_are_left_out() -> None:
    assert message_to_dict(position_pb2.Position(game="puerto-rico")) == {"game": "puerto-rico", "viewer": 0}


@pytest.mark.parametrize("message", [
    rules_pb2.NewGameRequest(game="puerto-rico", players=3, seed=2**40, options={"a": "true"}),
    analysis_pb2.SearchStats(iterations=2**40, elapsed_ms=1.5, stop_reason=analysis_pb2.STOP_REASON_TIME),
])
def test_other_messages_convert_as_json_format_does(message: Message) -> None:
    """A map of strings, enums, floats and 64-bit integers."""
    data = message_to_dict(message)
    assert data == _json_format_dict(message)
    assert json_format.ParseDict(data, type(message)()) == message
