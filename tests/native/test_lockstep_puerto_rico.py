"""Lockstep: the C twin plays the same seeded games as the Python reference.

At every step both engines must agree on the sorted legal action ids, the state
vector, the player to move and the chance stream (the Python ``Rng`` state equals
the C rng state after each apply); at the end on scores and tie-breaks.  The
release build plays 2,000 games over two processes, the sanitizer build 200 more
in a subprocess that preloads libasan.
"""

from __future__ import annotations

import pytest

from . import pr_native_support as support

RELEASE_GAMES = 2000
SANITIZER_GAMES = 200


def test_lockstep_release_build() -> None:
    result = support.run_lockstep(RELEASE_GAMES, workers=2)
    assert result["games"] == RELEASE_GAMES
    assert result["decisions"] > 100 * RELEASE_GAMES


@pytest.mark.sanitizer
def test_lockstep_sanitizer_build() -> None:
    if support.sanitizer_env() is None:
        pytest.skip("libasan/libubsan not found (gcc -print-file-name)")
    result = support.run_sanitized(
        ["lockstep", "--games", str(SANITIZER_GAMES), "--first-seed", str(10 * RELEASE_GAMES)],
        timeout=600)
    assert result["games"] == SANITIZER_GAMES
