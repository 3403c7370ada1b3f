"""A libFuzzer run of every game's C state-vector decoder (``make test-deep``).

``native/fuzz/mm_decode_fuzz.c`` is built with clang's libFuzzer and the address and
undefined-behaviour sanitizers (``-fno-wrapv``: signed overflow is caught), seeded with
positions of played games, and run for ``FUZZ_SECONDS``: any crash, sanitizer report,
vector that does not round-trip, or accepted position without a move fails the test.
"""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from meeplemind.engine import game_ids
from meeplemind.positions.messages import state_key
from meeplemind.native import NativeGame

from . import native_support as support

FUZZ_SECONDS = 300
SEEDS_PER_PROFILE = 40
NATIVE = support.ROOT / "native"
HARNESS = NATIVE / "fuzz" / "mm_decode_fuzz.c"
#: The games in the order of the harness's first input byte: the registry's (MM_GAMES in the
#: generated schema_games.h), each C engine named by its game's schema (C_GAME).
C_GAMES = {importlib.import_module(f"meeplemind.engine.{state_key(g)}.schema").C_GAME: g for g in game_ids()}
GAMES = [C_GAMES[name] for name in
         re.findall(r"&(\w+)", re.search(r"#define MM_GAMES (.*)", (NATIVE / "schema_games.h").read_text()).group(1))]
FLAGS = ["-g", "-O1", "-std=c11", "-fsanitize=fuzzer,address,undefined", "-fno-sanitize-recover=all",
         "-fno-wrapv"]


def _build(directory: Path) -> Path:
    clang = shutil.which("clang")
    if clang is None:
        pytest.skip("clang is needed (make test-deep installs it)")
    binary = directory / "mm_decode_fuzz"
    sources = [str(HARNESS), *map(str, sorted(NATIVE.glob("*.c")))]
    built = subprocess.run([clang, *FLAGS, f"-I{NATIVE}", *sources, "-o", str(binary)],
                           capture_output=True, text=True)
    assert built.returncode == 0, f"the fuzzer did not build (libFuzzer: libclang-rt-dev):\n{built.stderr[-3000:]}"
    return binary


def _seeds(directory: Path) -> Path:
    """Every profile's played positions as fuzzer inputs: the game's byte, then the vector."""
    seeds = directory / "seeds"
    seeds.mkdir()
    for name in sorted(support.PROFILES):
        prof = support.profile(name)
        vectors = support.corpus(NativeGame(prof.game_id), prof, 4, seed=3)
        for i, vector in enumerate(vectors[:: max(1, len(vectors) // SEEDS_PER_PROFILE)]):
            data = bytes([GAMES.index(prof.game_id)]) + vector.astype("<i4").tobytes()
            (seeds / f"{name}-{i}").write_bytes(data)
    return seeds


@pytest.mark.deep
def test_libfuzzer_decoders(tmp_path: Path) -> None:
    assert set(GAMES) == {support.profile(name).game_id for name in support.PROFILES}
    binary, seeds = _build(tmp_path), _seeds(tmp_path)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    run = subprocess.run([str(binary), f"-max_total_time={FUZZ_SECONDS}", "-print_final_stats=1",
                          "-timeout=10", "-rss_limit_mb=2048", f"-artifact_prefix={tmp_path}/", str(corpus),
                          str(seeds)], capture_output=True, text=True, timeout=FUZZ_SECONDS + 600)
    report = run.stderr[-4000:]
    assert run.returncode == 0 and "ERROR:" not in run.stderr, report
    executed = int(re.search(r"stat::number_of_executed_units:\s*(\d+)", run.stderr).group(1))
    assert executed > 100 * FUZZ_SECONDS, report
