"""Lockstep: every C twin plays the same seeded games as its Python reference.

At every step both engines must agree on the sorted legal action ids, the state
vector, the player to move and the chance stream (the Python ``Rng`` state equals
the C rng state after each apply); at the end on scores and tie-breaks.  The
release build plays ``RELEASE_GAMES`` games of each profile (an engine, or one of its
setup variants such as Puerto Rico's expansion) over two processes, cycling through
its setups (player counts, options); the sanitizer build plays ``SANITIZER_GAMES``
more in a subprocess that preloads libasan.
"""

from __future__ import annotations

import pytest

from . import native_support as support

RELEASE_GAMES = 2000
SANITIZER_GAMES = 200
PROFILES = sorted(support.PROFILES)  # game ids and their setup variants


@pytest.mark.parametrize("name", PROFILES)
def test_lockstep_release_build(name: str) -> None:
    result = support.run_lockstep(name, RELEASE_GAMES, workers=2)
    assert result["games"] == RELEASE_GAMES
    assert result["decisions"] > 20 * RELEASE_GAMES


@pytest.mark.sanitizer
@pytest.mark.parametrize("name", PROFILES)
def test_lockstep_sanitizer_build(name: str) -> None:
    if support.sanitizer_env() is None:
        pytest.skip("libasan/libubsan not found (gcc -print-file-name)")
    result = support.run_sanitized(
        ["lockstep", "--game", name, "--games", str(SANITIZER_GAMES),
         "--first-seed", str(10 * RELEASE_GAMES)], timeout=900)
    assert result["games"] == SANITIZER_GAMES
