"""Property tests: seeded random games to the end with the invariants checked after every move.

After every move: at least two legal moves while the game is not over (single moves are
played automatically), sorted ids, and every legal move's notation round-trips.  In a
share of the games, also after every move: the state vector round-trips (decoding
validates every field: conservation of every component against the setup, no negative
counts, phase bookkeeping), and in fewer the JSON position round-trips too (its schema
round trips are also checked at every step of the conformance suite's games).
500 games per player count run in CI, in chunks so pytest-xdist spreads them.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeplemind.engine import InvalidMoveError, Rng
from meeplemind.engine.puerto_rico import ALL_MOVES, NUM_ACTIONS, Move, State, decode, new_game

GAMES_PER_COUNT, CHUNK = 500, 50  # per player count, with the cheap checks
VECTOR_EVERY, JSON_EVERY = 10, 50  # of those games: round trips after every move


def play_checked(players: int, seed: int) -> int:
    state, rng, moves = new_game(players, seed), Rng(seed * 7919 + players), 0
    vector, as_json = seed % VECTOR_EVERY == 0, seed % JSON_EVERY == 0
    while True:
        if vector:
            assert decode(state.encode()) == state
        if as_json:
            assert State.from_dict(json.loads(json.dumps(state.to_dict()))) == state
        legal = state.legal_moves()
        if state.is_terminal:
            assert legal == [] and state.current_player is None
            return moves
        assert len(legal) >= 2 and [m.id for m in legal] == sorted(m.id for m in legal)
        for m in legal:
            assert Move.parse(str(m)) == m and Move.from_id(m.id) == m
        state = state.apply(legal[rng.below(len(legal))], rng)
        moves += 1
        assert moves < 5000, "a random game should end"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("chunk", range(GAMES_PER_COUNT // CHUNK))
def test_random_games_keep_every_invariant(players: int, chunk: int) -> None:
    for seed in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        play_checked(players, seed)


def test_every_action_id_has_one_notation() -> None:
    ids = [m.id for m in ALL_MOVES]
    assert len(ids) == len(set(ids)) and max(ids) < NUM_ACTIONS
    for m in ALL_MOVES:
        assert Move.parse(str(m)) == m


@given(st.text(max_size=30))
def test_parse_never_crashes(text: str) -> None:
    try:
        m = Move.parse(text)
    except InvalidMoveError:
        return
    assert Move.parse(str(m)) == m
