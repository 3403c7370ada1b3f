"""Traders of Genoa's whole offers through the Rules service: ApplyMove takes one
(``offer:10+silk+small_16``, a steering offer ``steer:1.4:20+silk``), from the full
position and from another seat's view, and LegalMoves lists the moves that build it; the
command line's ``apply`` takes them too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeplemind.cli import main
from meeplemind.engine.traders_of_genoa.data import D_SMALL
from meeplemind.positions.messages import message_to_dict, to_message
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


@pytest.mark.parametrize("viewer", [None, 2])
def test_apply_move_takes_a_whole_steering_offer(service: Running, viewer: int | None) -> None:
    """``steer:1.4:20+silk`` (issue 28): seat 1 pays to steer the tower to the Harbor; the
    owner's answer lists it beside his walk."""
    s = turn_start(3)
    give_goods(s, 1, "silk")
    s = play(s, "start:2.4", "hear")  # a street square: seat 1 to steer
    position = position_to_proto(s) if viewer is None else position_to_proto(s.observation(viewer), viewer)
    listed = service.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=position))
    assert [m.notation for m in listed.moves] == ["pass", "steer:1.4", "steer:3.4"]
    applied = service.rules.ApplyMove(rules_pb2.ApplyMoveRequest(position=position, move="steer:1.4:20+silk"))
    after = applied.position.traders_of_genoa
    assert after.offers[1].ducats == 20 and dict(after.offers[1].goods) == {"silk": 1}
    assert after.offers[1].target == "1.4" and after.offers[2].target == ""
    assert after.to_move == 2 and after.stage == "steer"
    heeding = service.rules.ApplyMove(rules_pb2.ApplyMoveRequest(position=applied.position, move="pass")).position
    listed = service.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=heeding))
    assert heeding.traders_of_genoa.stage == "heed" and [m.notation for m in listed.moves][-1] == "accept:1"


def test_the_command_line_applies_a_whole_steering_offer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = turn_start(3)
    give_goods(s, 1, "silk")
    path = tmp_path / "walk.json"
    path.write_text(json.dumps(message_to_dict(to_message(play(s, "start:2.4")))))
    assert main(["apply", str(path), "hear", "steer:3.4:5+silk"]) == 0
    genoa = json.loads(capsys.readouterr().out)["traders_of_genoa"]
    assert genoa["stage"] == "steer" and genoa["offers"][1]["target"] == "3.4" and genoa["to_move"] == 2
