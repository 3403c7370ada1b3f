"""Traders of Genoa's whole offers through the Rules service: ApplyMove takes one
(``offer:10+silk+small_16``), from the full position and from another seat's view, and
LegalMoves lists the moves that build it."""

from __future__ import annotations

import pytest

from meeplemind.engine.traders_of_genoa.data import D_SMALL
from meeplemind.server.convert import position_to_proto
from meeplemind.v1 import rules_pb2

from ..engine.traders_of_genoa.helpers import give_card, give_goods, play, turn_start
from .conftest import Running

pytest.importorskip("meeplemind.native._mm", reason="the native engines are not built")


@pytest.mark.parametrize("viewer", [None, 2])
def test_apply_move_takes_a_whole_offer(service: Running, viewer: int | None) -> None:
    s = turn_start(3)
    give_goods(s, 1, "silk")
    give_card(s, 1, D_SMALL, 16)
    s = play(s, "start:3.4")  # the City Hall: seat 1 to offer
    position = position_to_proto(s) if viewer is None else position_to_proto(s.observation(viewer), viewer)
    listed = service.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=position))
    assert "give:small_16" in [m.notation for m in listed.moves] or viewer is not None
    applied = service.rules.ApplyMove(rules_pb2.ApplyMoveRequest(position=position, move="offer:10+silk+small_16"))
    after = applied.position.traders_of_genoa
    assert after.offers[1].ducats == 10 and dict(after.offers[1].goods) == {"silk": 1}
    assert list(after.offered_cards) == ["small_16"] and after.cards["small_16"] == "1"  # shown to every seat
    assert after.to_move == 2 and after.stage == "offer"
