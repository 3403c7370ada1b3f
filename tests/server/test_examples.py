"""The README's client examples run against a real server."""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from meeplemind.positions.messages import dumps, to_position
from meeplemind.engine.puerto_rico import new_game

from .conftest import Running

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_hint_client(service: Running) -> None:
    hints = runpy.run_path(str(EXAMPLES / "hint_client.py"))["hints"]
    moves = hints(service.address, dumps(to_position(new_game(4, 2))), time_ms=100)
    assert 1 <= len(moves) <= 3 and moves[0].move.startswith("role:")


def test_bot_loop_plays_a_whole_game(service: Running) -> None:
    play = runpy.run_path(str(EXAMPLES / "bot_loop.py"))["play"]
    played = play(service.address, players=2, level=1)
    assert played.moves > 50 and played.winners
    assert played.turns < played.moves  # a whole turn (a Mayor's placements, ...) per BestMove


def test_bot_loop_prints_the_winner(service: Running) -> None:
    done = subprocess.run([sys.executable, str(EXAMPLES / "bot_loop.py"), service.address], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0 and "won" in done.stdout and "Seat " in done.stdout


@pytest.mark.parametrize("script,args,status,message", [
    ("hint_client.py", [], 2, "usage: hint_client.py [-h] position [address]"),
    ("hint_client.py", ["missing.json"], 2, "hint_client.py: error: missing.json: No such file or directory"),
    ("bot_loop.py", ["127.0.0.1:1"], 1, "bot_loop.py: error: 127.0.0.1:1: UNAVAILABLE: "),
])
def test_examples_print_usage_and_errors_not_tracebacks(tmp_path: Path, script: str, args: list[str],
                                                        status: int, message: str) -> None:
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *args], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == status and message in done.stderr and "Traceback" not in done.stderr
