"""Lockstep: every C twin plays the same seeded games as its Python reference.

At every step both engines must agree on the sorted legal action ids, the state
vector, the player to move and the chance stream (the Python ``Rng`` state equals
the C rng state after each apply); at the end on scores and tie-breaks.  The
release build plays ``lockstep_games`` games of each profile (an engine, or one of its
setup variants such as Puerto Rico's expansion) over two processes, cycling through
its setups (player counts, options); the sanitizer build plays its ``sanitizer_games``
more in a subprocess that preloads libasan.  ``make test-deep`` plays ``DEEP_GAMES``.
The counts checked are the workers' own (games finished per setup, decisions, the
shortest game), and the driver itself is shown to catch a twin that strays.
"""

from __future__ import annotations

from typing import Any

import pytest

from meeplemind.native import NativeGame

from . import native_support as support

DEEP_GAMES = 10_000
PROFILES = sorted(support.PROFILES)  # game ids and their setup variants


def _check(name: str, result: dict[str, int], games: int) -> None:
    """Every game finished, each setup got its share, no game was trivially short."""
    profile = support.profile(name)
    setups, shortest = len(profile.setups), profile.shortest_game
    assert result["games"] == games, result
    assert [result.get(f"setup_{s}", 0) for s in range(setups)] == \
        [len(range(s, games, setups)) for s in range(setups)], result
    assert result["shortest"] >= shortest and result["decisions"] > 1.5 * shortest * games, result


@pytest.mark.parametrize("name", PROFILES)
def test_lockstep_release_build(name: str) -> None:
    games = support.profile(name).lockstep_games
    _check(name, support.run_lockstep(name, games, workers=2), games)


@pytest.mark.sanitizer
@pytest.mark.parametrize("name", PROFILES)
def test_lockstep_sanitizer_build(name: str) -> None:
    if support.sanitizer_env() is None:
        pytest.skip("libasan/libubsan not found (gcc -print-file-name)")
    prof = support.profile(name)
    result = support.run_sanitized(
        ["lockstep", "--game", name, "--games", str(prof.sanitizer_games),
         "--first-seed", str(10 * prof.lockstep_games)], timeout=900)
    _check(name, result, prof.sanitizer_games)


@pytest.mark.deep
@pytest.mark.parametrize("name", PROFILES)
def test_lockstep_deep(name: str) -> None:
    first_seed = 100 * support.profile(name).lockstep_games
    _check(name, support.run_lockstep(name, DEEP_GAMES, workers=2, first_seed=first_seed), DEEP_GAMES)


class _Straying:
    """A C twin that differs from its reference in one way (``fault``)."""

    def __init__(self, game_id: str, fault: str) -> None:
        self._native, self._fault = NativeGame(game_id), fault

    def __getattr__(self, name: str) -> Any:
        return getattr(self._native, name)

    def apply(self, buf: Any, action: int, rng_state: int) -> int:
        after = self._native.apply(buf, action, rng_state)
        return after + 1 if self._fault == "rng" else after

    def legal_moves(self, buf: Any) -> Any:
        moves = self._native.legal_moves(buf)
        return moves[:-1] if self._fault == "moves" and len(moves) > 1 else moves

    def scores(self, buf: Any) -> Any:
        scores = self._native.scores(buf)
        return scores + 1 if self._fault == "scores" else scores


@pytest.mark.parametrize("fault, message", [("rng", "rng streams diverged"), ("moves", "legal moves differ"),
                                            ("scores", "scores")])
@pytest.mark.parametrize("name", PROFILES)
def test_the_driver_catches_a_straying_twin(name: str, fault: str, message: str) -> None:
    prof = support.profile(name)
    with pytest.raises(AssertionError, match=message):
        support.lockstep_game(_Straying(prof.game_id, fault), prof, prof.setups[0], seed=2)  # type: ignore[arg-type]
