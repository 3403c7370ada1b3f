"""The state vector's field paths are the position message's fields, and the declarative
schema (once the one-schema boundary is in) describes the same vector as the codec."""

from __future__ import annotations

import pytest

from meeplemind.engine.traders_of_genoa import codec
from meeplemind.engine.traders_of_genoa.data import PLAYER_COUNTS


def test_every_vector_field_is_a_field_of_the_position_message() -> None:
    from meeplemind.v1 import position_pb2, traders_of_genoa_pb2

    message = traders_of_genoa_pb2.TradersOfGenoaState.DESCRIPTOR
    player = message.fields_by_name["players"].message_type
    assert position_pb2.Position.DESCRIPTOR.fields_by_name["traders_of_genoa"].message_type is message
    for path in codec.LAYOUT[2:]:
        head, _, rest = path.partition(".")
        name = head.partition("[")[0]
        assert name in message.fields_by_name, path
        if name == "players":
            assert rest.partition(".")[0] in player.fields_by_name, path


def test_the_schema_describes_the_codec_vector() -> None:
    schema = pytest.importorskip("meeplemind.engine.schema")  # the schema branch's format
    from meeplemind.engine.traders_of_genoa.schema import SCHEMAS, V1

    assert SCHEMAS == (V1,) and isinstance(V1, schema.Schema)
    assert V1.names() == codec.LAYOUT and V1.length == codec.VECTOR_LEN
    for n in PLAYER_COUNTS:
        ranges = V1.ranges(n)
        for i in range(2, codec.VECTOR_LEN):
            lo, hi, bound = ranges[i]
            assert (lo, hi) == codec.field_range(n, i) and bound == -1, codec.LAYOUT[i]
