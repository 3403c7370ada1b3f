"""meeplemind.client needs neither the server nor numpy, cffi or a compiler: imported with
those blocked, and as the meeplemind-client distribution built and installed into a fresh
virtual environment, it talks to a real server, and a program using it passes mypy --strict
with only the installed wheel's types (its ``py.typed`` is true)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from meeplemind.server.app import create_server

REPOSITORY = Path(__file__).resolve().parents[2]
#: What a client must not need: the server's dependencies and meeplemind's other packages.
BLOCKED = ("numpy", "cffi", "prometheus_client", "grpc_health", "grpc_reflection", "meeplemind.engine",
           "meeplemind.native", "meeplemind.search", "meeplemind.server")

SESSION = """
import sys
from meeplemind.client import Client
with Client(sys.argv[1]) as client:
    position = client.new_game("puerto-rico", 3, seed=7)
    best = client.best_move(position, level=1, seed=1)
    after = client.apply(position, best.move).position
    assert client.legal_moves(after) and client.analyze(after, iterations=50).stats.iterations == 50
print("ok", best.move, sorted(m for m in sys.modules if m.split(".")[0] in ("numpy", "cffi")))
"""


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    server, port = create_server("127.0.0.1:0")
    server.start()
    yield f"127.0.0.1:{port}"
    server.stop(None).wait()


def test_the_client_imports_nothing_of_the_server(address: str) -> None:
    blocker = textwrap.dedent(f"""
        import importlib.abc, sys
        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if any(name == b or name.startswith(b + ".") for b in {BLOCKED!r}):
                    raise ImportError(f"{{name}} is blocked: a client must not need it")
        sys.meta_path.insert(0, Block())
    """)
    run = subprocess.run([sys.executable, "-c", blocker + SESSION, address], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("ok ") and run.stdout.rstrip().endswith("[]")


@pytest.mark.slow  # a minute: a wheel build and grpcio installed into a fresh environment
def test_the_distribution_installs_and_works_alone(tmp_path: Path, address: str) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels),
                    str(REPOSITORY / "clients" / "python")], check=True, capture_output=True, timeout=600)
    (wheel,) = wheels.glob("meeplemind_client-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"meeplemind/client/py.typed", "meeplemind/v1/py.typed", "meeplemind/v1/rules_pb2.pyi",
            "meeplemind/v1/analysis_pb2_grpc.pyi"} <= names
    env = tmp_path / "env"
    venv.create(env, with_pip=True)
    python = env / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], check=True,
                   capture_output=True, timeout=600)
    installed = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze"], check=True,
                               capture_output=True, text=True).stdout.lower()
    assert "meeplemind-client==" in installed and "grpcio==" in installed
    assert not {"numpy", "cffi", "meeplemind"} & {line.split("==")[0] for line in installed.split()}
    run = subprocess.run([str(python), "-c", SESSION, address], capture_output=True, text=True, timeout=120,
                         cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("ok ")
    _assert_typed_for(python, tmp_path)


#: A typed program against the installed client and messages (their .pyi stubs).
TYPED = """
from meeplemind.client import Client
from meeplemind.v1 import position_pb2

def best_line(address: str) -> tuple[str, int]:
    with Client(address) as client:
        position = client.new_game("puerto-rico", 3, seed=7)
        best = client.best_move(position, level=1, seed=1)
        return best.move, len(client.legal_moves(client.apply(position, best.move).position))

def players(position: position_pb2.Position) -> int:
    return len(position.puerto_rico.players)
"""


def _assert_typed_for(python: Path, tmp_path: Path) -> None:
    """mypy --strict on TYPED sees the environment's packages only (with the stubs grpcio and
    protobuf need): an error there means the wheel's ``py.typed`` promises too much."""
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "types-protobuf", "types-grpcio",
                    "types-grpcio-status"], check=True, capture_output=True, timeout=600)
    program = tmp_path / "typed_program.py"
    program.write_text(TYPED)
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-executable",
                          str(python), str(program)], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
