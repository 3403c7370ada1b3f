"""Random C playouts per CPU-second of several commits' engines, timed in one process
(issue 32, point 6; docs/measurements.md keeps what it printed).

Each commit is checked out into a worktree under ``--work``, the bench's reference workload
(``native/mm_reference.[ch]``, unchanged since it was added) is copied in, its C sources are
compiled with its own release flags into a plain shared library, and its own Python engine
writes the bench's start position.  The libraries are then loaded side by side (ctypes) and
timed in interleaved rounds, so the machine's load falls on every commit alike::

    .venv/bin/python tools/engine_history.py GAME PLAYERS 6bbe5ed e7a3b97 HEAD --rounds 40
    valgrind --tool=callgrind --branch-sim=yes --toggle-collect=mm_playouts \\
        .venv/bin/python tools/engine_history.py GAME PLAYERS 6bbe5ed --rounds 1 --games 100

(the second counts the instructions and mispredicted branches inside ``mm_playouts``).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import runpy
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH_SEED, REFERENCE_SEED = 20261130, 77
#: The start position, written by the commit's own engine (run with the commit's packages first on the path).
START = """
import json, sys
sys.path.insert(0, sys.argv[1])
import importlib
try:
    from meeplemind.engine import get_game
    game = get_game(sys.argv[2])
except (ImportError, KeyError, ValueError):  # a game the commit has not registered yet
    game = importlib.import_module("meeplemind.engine." + sys.argv[2].replace("-", "_"))
print(json.dumps([int(x) for x in game.new_game(int(sys.argv[3]), int(sys.argv[4])).encode()]))
"""


def checkout(commit: str, work: Path) -> Path:
    """The commit's worktree with the reference workload copied in and its packages laid out
    under ``<tree>/.packages`` (pyproject.toml's package-dir) for its Python engine."""
    short = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", commit], check=True,
                           capture_output=True, text=True).stdout.strip()
    tree = work / short
    if not tree.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-f", "--detach", str(tree), commit],
                       check=True, capture_output=True)
    for name in ("mm_reference.c", "mm_reference.h"):
        shutil.copy(ROOT / "native" / name, tree / "native" / name)
    packages = tree / ".packages"
    if not packages.exists():
        folders = tomllib.loads((tree / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
        (packages / "meeplemind").mkdir(parents=True)
        for item in (tree / folders["meeplemind"]).iterdir():
            (packages / "meeplemind" / item.name).symlink_to(item)
        for package, folder in folders.items():
            target = packages.joinpath(*package.split("."))
            if package != "meeplemind" and not target.exists():
                target.symlink_to(tree / folder)
    return tree


def build(tree: Path) -> Path:
    """The commit's C sources as one shared library, compiled with its release flags (its
    build script generates its headers when run, as its build does)."""
    library = tree / ".packages" / "engine.so"
    if library.exists():
        return library
    cwd = Path.cwd()
    os.chdir(tree)
    try:
        flags = runpy.run_path(str(tree / "native" / "build_native.py"))["FLAGS"]["release"]
    finally:
        os.chdir(cwd)
    sources = sorted(str(p) for p in (tree / "native").glob("*.c"))
    subprocess.run(["gcc", "-shared", "-fPIC", "-fwrapv", "-g", f"-I{tree / 'native'}", *flags, *sources,
                    "-o", str(library), "-lm"], check=True)
    return library


class Engine:
    """One commit's library, decoded start and time spent."""

    def __init__(self, commit: str, work: Path, game: str, players: int) -> None:
        tree = checkout(commit, work)
        self.commit, self.lib = commit, ctypes.CDLL(str(build(tree)))
        self.lib.mm_find_game.restype = ctypes.c_void_p
        self.lib.mm_playouts.restype = ctypes.c_int64
        self.lib.mm_playouts.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_uint64,
                                         ctypes.c_int]
        self.lib.mm_reference_work.restype = ctypes.c_int64
        self.lib.mm_reference_work.argtypes = [ctypes.c_int64, ctypes.c_uint64]
        self.game = ctypes.c_void_p(self.lib.mm_find_game(game.encode()))
        vector = json.loads(subprocess.run([sys.executable, "-c", START, str(tree / ".packages"), game,
                                            str(players), str(BENCH_SEED)],
                                           check=True, capture_output=True, text=True).stdout)
        self.state = ctypes.create_string_buffer(1 << 16)
        verdict = ctypes.create_string_buffer(4096)
        status = self.lib.mm_decode(self.game, self.state, (ctypes.c_int32 * len(vector))(*vector),
                                    len(vector), verdict)
        if status:
            raise SystemExit(f"{commit}: its engine refused its own start ({status})")
        self.games = self.decisions = 0
        self.seconds = 0.0

    def play(self, games: int, seed: int) -> None:
        t0 = time.process_time()
        self.decisions += self.lib.mm_playouts(self.game, self.state, games, seed, 0)
        self.seconds += time.process_time() - t0
        self.games += games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("commits", nargs="+")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--games", type=int, default=50, help="playouts per commit per round")
    parser.add_argument("--work", type=Path, default=Path("/tmp/engine_history"))
    args = parser.parse_args()
    engines = [Engine(c, args.work, args.game, args.players) for c in args.commits]
    reference, units, spent = engines[0].lib.mm_reference_work, 20, 0.0
    for r in range(args.rounds):
        for engine in engines:
            engine.play(args.games, BENCH_SEED + r)
        t0 = time.process_time()
        reference(units, REFERENCE_SEED + r)
        spent += time.process_time() - t0
    per_unit = units * args.rounds / spent
    print(f"{args.game} {args.players}p: reference {per_unit:,.0f} units per CPU-second")
    for e in engines:
        rate = e.games / e.seconds
        print(f"  {e.commit:12s} {rate:9,.0f} playouts per CPU-second  ratio {rate / per_unit:.3f}  "
              f"{e.decisions / e.games:.1f} decisions a game")


if __name__ == "__main__":
    main()
