"""The C state-vector decoder under random and mutated vectors.

Mutants of positions from real games (boundary and random values, swaps, unit
moves between fields, several fields at once, length changes, fully random
vectors) and sweeps of the global fields go to the C decoder of both builds: no
crash, hang or sanitizer report, every accepted vector round-trips, and on a large
sample the verdict (code, index) equals validate.check_vector plus codec's
no-legal-move check.
"""

from __future__ import annotations

import pytest

from meeplemind.native import NativeGame

from . import pr_native_support as support

VECTORS = 100_000
COMPARED_MUTANTS = 25_000


@pytest.fixture(scope="module")
def native() -> NativeGame:
    return NativeGame(support.GAME_ID)


def test_round_trips(native: NativeGame) -> None:
    positions = support.corpus(native, 20, seed=7)
    assert len(positions) > 2000
    for v in positions:
        support.round_trip(native, v)


def test_fuzz_release_build() -> None:
    result = support.run_fuzz(VECTORS, COMPARED_MUTANTS)
    assert result["vectors"] >= VECTORS
    assert result["compared"] >= 20_000
    lib = support.LIB
    for code in (lib.MM_OK, lib.MM_ERR_LENGTH, lib.MM_ERR_VERSION, lib.MM_ERR_RANGE,
                 lib.MM_ERR_INVARIANT):  # accepted, and every kind of rejection, all reached
        assert result.get(f"code_{code}", 0) > 1000, result


@pytest.mark.sanitizer
def test_fuzz_sanitizer_build() -> None:
    if support.sanitizer_env() is None:
        pytest.skip("libasan/libubsan not found (gcc -print-file-name)")
    result = support.run_sanitized(["fuzz", "--vectors", str(VECTORS)], timeout=600)
    assert result["vectors"] >= VECTORS
