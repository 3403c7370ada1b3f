"""Every C state-vector decoder under random and mutated vectors.

Mutants of positions from real games (boundary and random values, swaps, unit
moves between fields, several fields at once, length changes, fully random
vectors) and sweeps of the fields saying who is to move go to the C decoder of
both builds: no crash, hang or sanitizer report, every accepted vector
round-trips, and on a large sample the verdict (code, index) equals the Python
reference decoder's.
"""

from __future__ import annotations

import pytest

from meeplemind.native import NativeGame

from . import native_support as support

VECTORS = 100_000
COMPARED_MUTANTS = 25_000
PROFILES = sorted(support.PROFILES)  # game ids and their setup variants


@pytest.mark.parametrize("name", PROFILES)
def test_round_trips(name: str) -> None:
    prof = support.profile(name)
    native = NativeGame(prof.game_id)
    positions = support.corpus(native, prof, 20, seed=7)
    assert len(positions) > 1000
    for v in positions:
        support.round_trip(native, v)


@pytest.mark.parametrize("name", PROFILES)
def test_fuzz_release_build(name: str) -> None:
    result = support.run_fuzz(name, VECTORS, COMPARED_MUTANTS)
    assert result["vectors"] >= VECTORS
    assert result["compared"] >= 20_000
    lib = support.LIB
    for code in (lib.MM_OK, lib.MM_ERR_LENGTH, lib.MM_ERR_VERSION, lib.MM_ERR_RANGE,
                 lib.MM_ERR_INVARIANT):  # accepted, and every kind of rejection, all reached
        assert result.get(f"code_{code}", 0) > 1000, result


@pytest.mark.sanitizer
@pytest.mark.parametrize("name", PROFILES)
def test_fuzz_sanitizer_build(name: str) -> None:
    if support.sanitizer_env() is None:
        pytest.skip("libasan/libubsan not found (gcc -print-file-name)")
    result = support.run_sanitized(["fuzz", "--game", name, "--vectors", str(VECTORS)], timeout=900)
    assert result["vectors"] >= VECTORS
