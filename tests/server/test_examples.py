"""The README's client examples run against a real server."""

from __future__ import annotations

import runpy
from pathlib import Path

from meeplemind.engine.position import dumps, to_position
from meeplemind.engine.puerto_rico import new_game

from .conftest import Running

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_hint_client(service: Running) -> None:
    hints = runpy.run_path(str(EXAMPLES / "hint_client.py"))["hints"]
    moves = hints(service.address, dumps(to_position(new_game(4, 2))), time_ms=100)
    assert 1 <= len(moves) <= 3 and moves[0].move.startswith("role:")


def test_bot_loop_plays_a_whole_game(service: Running) -> None:
    play = runpy.run_path(str(EXAMPLES / "bot_loop.py"))["play"]
    assert play(service.address, players=2, level=1) > 50
