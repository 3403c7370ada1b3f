"""Property tests of Expansion I: seeded games (2-5 players, the draft as moves, at random
and from a fixed list; uniform and heuristic movers) to the end, 224 in all.

At every step of every game: at least two legal moves while the game goes on, sorted ids,
every legal move's notation and id round-trip, only legal moves are played, and chance
comes only from the rng passed in.  Of 24 games, at every step: the JSON position and the
layout v2 vector round-trip to an equal state (decoding validates every field and the
conservation of every component, forests and drafted buildings included), and the
observation and a determinization of the player to move agree with the position.  The
other 200 games validate the vector every 16 moves and at the end.  Mutated vectors of
real positions are rejected with a PositionError or accepted as positions that play on
consistently.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplemind.engine import PositionError, Rng
from meeplemind.engine.puerto_rico import ExpansionState, Move, State, decode, new_game
from meeplemind.engine.puerto_rico.heuristic import choose_move

from .helpers import NEW_BUILDINGS

FULL_GAMES, LIGHT_GAMES, CHUNKS = 24, 200, 8
_SETUPS = ({}, {"draft": "random"}, {"buildings": NEW_BUILDINGS})


def _round_trips(state: ExpansionState, seed: int) -> None:
    assert State.from_dict(json.loads(json.dumps(state.to_dict())), check=False) == state
    assert decode(state.encode()) == state  # validates
    if not state.is_terminal:
        viewer = state.current_player
        assert state.observation(viewer) == state
        assert state.determinize(viewer, Rng(seed)).legal_action_ids() == state.legal_action_ids()


def play_checked(players: int, seed: int, full: bool) -> ExpansionState:
    state = new_game(players, seed, expansion="new-buildings", **_SETUPS[seed % 3])
    assert isinstance(state, ExpansionState)
    rng, moves = Rng(seed * 7919 + players), 0
    while True:
        if full or moves % 16 == 0 or state.is_terminal:
            _round_trips(state, seed)
        legal = state.legal_moves()
        if state.is_terminal:
            assert legal == [] and state.current_player is None
            return state
        assert len(legal) >= 2 and [m.id for m in legal] == sorted(m.id for m in legal)
        for m in legal:
            assert Move.parse(str(m)) == m and Move.from_id(m.id) == m
        move = choose_move(state, rng) if seed % 2 else legal[rng.below(len(legal))]
        assert move in legal
        state = state.apply(move, rng)
        moves += 1
        assert moves < 5000, "a game should end"


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_expansion_games_round_trip_at_every_step(chunk: int) -> None:
    per = FULL_GAMES // CHUNKS
    for seed in range(chunk * per, (chunk + 1) * per):
        end = play_checked(2 + seed % 4, seed, full=True)
        assert end.winners() and end.window == -1


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_expansion_games_keep_every_invariant(chunk: int) -> None:
    per = LIGHT_GAMES // CHUNKS
    for seed in range(10_000 + chunk * per, 10_000 + (chunk + 1) * per):
        end = play_checked(2 + seed % 4, seed, full=False)
        assert end.winners() and end.window == -1


def test_mutated_v2_vectors_are_rejected_or_play_on() -> None:
    """A unit change, a unit moved between two fields, two fields swapped or a small value
    in a global field: decode raises PositionError, or gives a state that re-encodes to the
    same vector and stays valid for 10 moves."""
    corpus = []
    for seed in range(8):
        s, rng = new_game(2 + seed % 4, seed, expansion="new-buildings", **_SETUPS[seed % 3]), Rng(seed)
        while not s.is_terminal:
            corpus.append(s.encode())
            s = s.apply(choose_move(s, rng), rng)
    gen, accepted = np.random.default_rng(7), 0
    for i in range(3000):
        v = corpus[gen.integers(len(corpus))].copy()
        a, b, kind = gen.integers(len(v)), gen.integers(len(v)), i % 4
        if kind == 0:
            v[a] += gen.choice((-1, 1))
        elif kind == 1:
            v[a], v[b] = v[a] - 1, v[b] + 1
        elif kind == 2:
            v[a], v[b] = v[b], v[a]
        else:
            v[gen.integers(38)] = gen.integers(-1, 8)
        try:
            state = decode(v)
        except PositionError:
            continue
        accepted += 1
        assert np.array_equal(state.encode(), v)
        rng = Rng(i)
        for _ in range(10):
            if state.is_terminal:
                break
            legal = state.legal_moves()
            state = state.apply(legal[rng.below(len(legal))], rng)
            decode(state.encode())
    assert accepted > 200
