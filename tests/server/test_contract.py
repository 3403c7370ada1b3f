"""The wire contract: Position's JSON mapping is the position file, the generated code
is built (not committed), and buf lint is clean."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest
from google.protobuf import json_format

from meeplemind.positions.messages import dumps, to_position
from meeplemind.positions.messages import message_to_dict
from meeplemind.v1 import position_pb2

from .conftest import played

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUF_VERSION = "1.75.0"


@pytest.mark.parametrize("players,seed,moves", [(2, 1, 0), (3, 2, 25), (4, 3, 60), (5, 4, 140),
                                                (4, 5, 400), (3, 6, 2000)])
def test_position_json_is_the_proto3_mapping(players: int, seed: int, moves: int) -> None:
    data = to_position(played(players, seed, moves))
    message = json_format.ParseDict(data, position_pb2.Position())
    assert dumps(message_to_dict(message)) == dumps(data)
    binary = position_pb2.Position.FromString(message.SerializeToString())
    assert dumps(message_to_dict(binary)) == dumps(data)


def test_cli_position_file_parses_unchanged() -> None:
    printed = subprocess.run([sys.executable, "-m", "meeplemind", "new", "puerto-rico", "--players", "5",
                              "--seed", "9"], capture_output=True, text=True, check=True).stdout
    message = json_format.Parse(printed, position_pb2.Position())
    assert dumps(message_to_dict(message)) + "\n" == printed


def test_generated_code_is_built_not_committed() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    generated = [f"app/v1/{name}" for name in ("rules_pb2.py", "rules_pb2_grpc.py",
                                                "analysis_pb2.pyi", "position_pb2.py")]
    for name in generated:
        assert (ROOT / name).exists(), f"{name} was not generated"
    ignored = subprocess.run(["git", "check-ignore", "app/v1/__init__.py", *generated], cwd=ROOT,
                             capture_output=True, text=True).stdout.split()
    assert ignored == generated


def _buf() -> pathlib.Path:
    """buf from the npm registry, installed once into the user's cache."""
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("node and npm are needed for buf")
    cache = pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"))
    prefix = cache / "meeplemind" / f"buf-{BUF_VERSION}"
    buf = prefix / "node_modules" / ".bin" / "buf"
    if not buf.exists():
        subprocess.run(["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
                        f"@bufbuild/buf@{BUF_VERSION}"], check=True, capture_output=True, timeout=300)
    return buf


def test_buf_lint_is_clean() -> None:
    result = subprocess.run([str(_buf()), "lint"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
