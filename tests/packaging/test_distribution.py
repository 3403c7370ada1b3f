"""Release artifacts: the sdist builds a wheel (``python -m build``: sdist, then the wheel
from the unpacked sdist, in isolated build environments), the wheel is abi3, ships no C
sources, build script or sanitizer module, and runs the engines and the search."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from meeplemind.engine import game_ids, game_key

ROOT = Path(__file__).resolve().parents[2]
VERSION_TAG = f"cp{sys.version_info.major}{sys.version_info.minor}"


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], check=True,
                   capture_output=True, timeout=900)
    return out


def test_sdist_holds_what_a_wheel_build_needs(dist: Path) -> None:
    (sdist,) = dist.glob("meeplemind-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    needed = {"setup.py", "pyproject.toml", "MANIFEST.in", "native/build_native.py", "native/cdef/api.h",
              "native/mm_ismcts.c", "native/mm_game.h", "proto/meeplemind/v1/analysis.proto"}
    assert needed <= names
    assert not [n for n in names if n.endswith((".so", ".o")) or "_pb2" in n or n.startswith("native/_mm")]
    # the build generates the C headers from the engine's Python (schemas, table generators)
    assert not [n for n in names if n.startswith("native/schema_") or n.endswith("_tables.h")]
    assert {"native/gen_traders_of_genoa.py", "engine/traders_of_genoa/schema.py"} <= names


def test_wheel_is_abi3_without_sources_or_sanitizer(dist: Path) -> None:
    (wheel,) = dist.glob("meeplemind-*.whl")
    assert wheel.name.split("-")[2:4] == [VERSION_TAG, "abi3"], wheel.name
    names = set(zipfile.ZipFile(wheel).namelist())
    native = {n for n in names if n.startswith("meeplemind/native/")}
    # weights.py loads a training generation's weights for a search (ismcts:weights=FILE)
    assert native == {"meeplemind/native/__init__.py", "meeplemind/native/weights.py", "meeplemind/native/_mm.abi3.so"}
    assert not [n for n in names if n.endswith((".c", ".h", ".proto"))]
    assert {"meeplemind/v1/analysis_pb2.py", "meeplemind/v1/analysis_pb2_grpc.py", "meeplemind/v1/analysis_pb2.pyi",
            "meeplemind/v1/analysis_pb2_grpc.pyi", "meeplemind/py.typed"} <= names
    # the web page and its bundle of the TypeScript client's calls (built before the sdist: make install)
    assert {"meeplemind/web/index.html", "meeplemind/web/rpc.js", "meeplemind/web/meeplemind-rpc.js"} <= names
    # the kept search ismcts-v2's weights (search/ismcts_bot.py)
    assert {"meeplemind/search/ismcts_v2/puerto-rico.json", "meeplemind/search/ismcts_v2/castles-of-burgundy.json"} <= names
    # every game's page files (web/games/) and engine package, found by setup.py without a list
    for key in map(game_key, game_ids()):
        assert {f"meeplemind/web/games/{key}.{kind}" for kind in ("js", "css", "py")} <= names
        assert f"meeplemind/engine/{key}/__init__.py" in names


def test_wheel_runs(dist: Path, tmp_path: Path) -> None:
    """The unpacked wheel ahead of the development install on the path: its own modules
    play, search and report the version."""
    (wheel,) = dist.glob("meeplemind-*.whl")
    zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    where = subprocess.run([sys.executable, "-c", "import meeplemind.native._mm as m; print(m.__file__)"],
                           env=env, cwd=tmp_path, capture_output=True, text=True, check=True)
    assert where.stdout.startswith(str(tmp_path / "site"))

    def cli(*args: str, stdin: str | None = None) -> str:
        return subprocess.run([sys.executable, "-m", "meeplemind", *args], env=env, cwd=tmp_path, input=stdin,
                              capture_output=True, text=True, check=True).stdout

    for game in ("castles-of-burgundy", "traders-of-genoa"):
        position = cli("new", game, "--players", "2", "--seed", "3")
        report = cli("analyze", "-", "--iterations", "200", "--seed", "1", "--json", stdin=position)
        assert '"stop_reason": "STOP_REASON_ITERATIONS"' in report
    assert cli("--version").strip() == f"meeplemind {wheel.name.split('-')[1]}"
