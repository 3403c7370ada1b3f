"""Every C state-vector decoder under random and mutated vectors (the profile's ``fuzz_vectors``).

Mutants of positions from real games (boundary and random values, swaps, unit
moves between fields, several fields at once, length changes, fully random
vectors) and sweeps of the fields saying who is to move go to the C decoder of
both builds: no crash, hang or sanitizer report, every accepted vector
round-trips, and on a large sample the verdict (code, index, words) on a vector the
schema's ranges refuse is the schema's, and one in range is accepted or refused by a
consistency rule named at a cell (the rules themselves: test_decoder_rules.py). The
counts checked are the driver's own (vectors fed, verdicts compared, accepted positions
played out, every kind of verdict reached), and the driver is shown to catch a decoder
that names the wrong field.
``make test-deep`` feeds ``DEEP_VECTORS`` per profile.
"""

from __future__ import annotations

from typing import Any

import pytest

from meeplemind.native import NativeGame

from . import native_support as support

COMPARED_MUTANTS = 20_000
SANITIZER_VECTORS = 20_000
DEEP_VECTORS = 1_000_000
PROFILES = sorted(support.PROFILES)  # game ids and their setup variants


def _check(result: dict[str, int], vectors: int, compared: int) -> None:
    lib = support.LIB
    codes = (lib.MM_OK, lib.MM_ERR_LENGTH, lib.MM_ERR_VERSION, lib.MM_ERR_RANGE, lib.MM_ERR_INVARIANT)
    swept = result["vectors"] - vectors  # the sweeps come before the mutants
    assert swept > 1000, result
    assert result["compared"] == swept + compared, result
    assert sum(result[f"code_{code}"] for code in codes) == result["vectors"], result
    for code in codes:  # accepted, and every kind of rejection, all reached
        assert result.get(f"code_{code}", 0) > vectors // 100, result
    assert result["played_out"] == result[f"code_{lib.MM_OK}"] // 50, result


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
    vectors = support.profile(name).fuzz_vectors
    _check(support.run_fuzz(name, vectors, COMPARED_MUTANTS), vectors, COMPARED_MUTANTS)


@pytest.mark.sanitizer
@pytest.mark.parametrize("name", PROFILES)
def test_fuzz_sanitizer_build(name: str) -> None:
    if support.sanitizer_env() is None:
        pytest.skip("libasan/libubsan not found (gcc -print-file-name)")
    result = support.run_sanitized(["fuzz", "--game", name, "--vectors", str(SANITIZER_VECTORS)], timeout=900)
    _check(result, SANITIZER_VECTORS, 0)


@pytest.mark.deep
@pytest.mark.parametrize("name", PROFILES)
def test_fuzz_deep(name: str) -> None:
    _check(support.run_fuzz(name, DEEP_VECTORS, COMPARED_MUTANTS, seed=2), DEEP_VECTORS, COMPARED_MUTANTS)


class _Misnaming:
    """A decoder that names the field after the one it rejects."""

    def __init__(self, game_id: str) -> None:
        self._native = NativeGame(game_id)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._native, name)

    def decode(self, vec: Any) -> Any:
        try:
            return self._native.decode(vec)
        except support.NativeDecodeError as e:
            raise support.NativeDecodeError(e.code, e.index + 1) from None


def test_the_driver_catches_a_decoder_naming_the_wrong_field(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(support, "NativeGame", _Misnaming)
    with pytest.raises(AssertionError, match="C says"):
        support.run_fuzz("castles-of-burgundy", 100, 100, sweep_bases=2)
