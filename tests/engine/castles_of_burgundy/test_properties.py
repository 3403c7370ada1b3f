"""Property tests: seeded random games to the end with the invariants checked after every move.

After every move: at least two legal moves while the game is not over (single moves are
played automatically), sorted ids inside the action space, the played move's notation and
id round-trip.  In a share of the games, also after every move: the state vector and the JSON
position round-trip (both fully validate: conservation of every tile and goods tile, estate
rules, turn bookkeeping).  Sampled decision points check that no two legal moves reach the
same position and that determinization agrees with the observation.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeplemind.positions import checked_state
from meeplemind.positions import state_dict, state_from_dict
from meeplemind.engine import InvalidMoveError, PositionError, Rng
from meeplemind.engine.castles_of_burgundy import (
    ALL_MOVES, LAYOUT, NUM_ACTIONS, VECTOR_LEN, Move, State, new_game,
)

GAMES, CHUNK = 200, 50  # per player count, with the cheap checks
VECTOR_GAMES, JSON_GAMES = 20, 4  # per player count, round trips after every move


def random_game(players: int, seed: int, vector: bool = False, as_json: bool = False) -> State:
    state, rng, moves = new_game(players, seed), Rng(seed * 7919 + players), 0
    while True:
        if vector:
            assert checked_state("castles-of-burgundy", state.encode()) == state
        if as_json:
            assert state_from_dict(State.game_id, json.loads(json.dumps(state_dict(state)))) == state
        ids = state.legal_action_ids()
        if state.is_terminal:
            assert ids == [] and state.current_player is None
            return state
        assert len(ids) >= 2 and ids == sorted(set(ids)) and 0 <= ids[0] and ids[-1] < NUM_ACTIONS
        move = Move.from_id(ids[rng.below(len(ids))])
        assert Move.parse(str(move)) == move and Move.from_id(move.id) == move
        state = state.apply(move, rng)
        moves += 1
        assert moves < 2000, "a random game should end"


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("chunk", range(GAMES // CHUNK))
def test_random_games_reach_the_end_with_legal_moves(players: int, chunk: int) -> None:
    for seed in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        s = random_game(players, seed)
        assert all(p.dice == [0, 0] for p in s.players) and s.round_goods == [-1] * 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_state_vector_round_trips_after_every_move(players: int) -> None:
    for seed in range(VECTOR_GAMES):
        random_game(players, 10_000 + seed, vector=True)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_json_round_trips_after_every_move(players: int) -> None:
    for seed in range(JSON_GAMES):
        random_game(players, 20_000 + seed, as_json=True)


def sampled_positions(players: int, seed: int, every: int, last_rounds: bool = False) -> list[State]:
    """Every ``every``-th decision of a random game (and every decision in the last round of
    a phase, where the depots are about to be cleared, if ``last_rounds``)."""
    state, rng, out, k = new_game(players, seed), Rng(seed), [], 0
    while not state.is_terminal:
        if k % every == 0 or (last_rounds and state.round == 4):
            out.append(state)
        ids = state.legal_action_ids()
        state = state.apply(Move.from_id(ids[rng.below(len(ids))]), rng)
        k += 1
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_two_legal_moves_reach_the_same_position(players: int) -> None:
    for seed in range(5):
        for s in sampled_positions(players, 30_000 + seed, 4, last_rounds=True):
            successors = [s.apply(m, Rng(77)) for m in s.legal_moves()]
            for i, a in enumerate(successors):
                for b in successors[i + 1:]:
                    assert a != b


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinization_agrees_with_the_observation(players: int) -> None:
    for s in sampled_positions(players, 40_000 + players, 25):
        for viewer in range(players):
            seen = s.observation(viewer)
            d = s.determinize(viewer, Rng(viewer))
            public, hidden = _split(state_dict(seen))
            d_public, d_hidden = _split(state_dict(d))
            assert d_public == public and d_hidden == hidden  # the hidden multisets are kept
            assert checked_state("castles-of-burgundy", d.encode()) == d and d.legal_action_ids() == s.legal_action_ids()
            if not d.is_terminal:  # a sample plays on like the position
                m = d.legal_moves()[0]
                assert d.apply(m, Rng(5)) == s.apply(m, Rng(5))


def _split(data: dict) -> tuple[dict, dict]:  # type: ignore[type-arg]
    hidden = data.pop("hidden")
    assert set(hidden) == {"goods", "tiles", "black_tiles"}  # counts only, never an order
    return data, hidden


def test_hidden_parts_are_counts_and_future_dice_are_not_in_a_position() -> None:
    s = new_game(3, 1)
    data = state_dict(s)
    assert sum(data["hidden"]["goods"]) == 42 - 9 - 5
    assert all(isinstance(n, int) for n in data["hidden"]["tiles"].values())
    assert not any("dice" in key for key in data)  # only the dice rolled this round, per player


def test_action_space() -> None:
    ids = [m.id for m in ALL_MOVES]
    assert ids == list(range(NUM_ACTIONS)) and NUM_ACTIONS < 1024
    assert len({str(m) for m in ALL_MOVES}) == NUM_ACTIONS
    for m in ALL_MOVES:
        assert Move.parse(str(m)) == m and Move.from_id(m.id) == m and eval(repr(m)) == m
    assert len(LAYOUT) == VECTOR_LEN == 498


@given(st.text(max_size=30))
def test_parse_never_crashes(text: str) -> None:
    try:
        m = Move.parse(text)
    except InvalidMoveError:
        return
    assert Move.parse(str(m)) == m


_POSITIONS = [s for n in (2, 3, 4) for s in sampled_positions(n, 50_000 + n, 40)]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(_POSITIONS) - 1), st.integers(0, VECTOR_LEN - 1), st.integers(-3, 60))
def test_decoding_a_changed_vector_fails_cleanly_or_is_valid(which: int, index: int, value: int) -> None:
    vec = _POSITIONS[which].encode()
    vec[index] = value
    try:
        s = checked_state("castles-of-burgundy", vec)
    except PositionError as e:
        assert e.path in LAYOUT or e.path in ("state", "current_player")
        return
    assert checked_state("castles-of-burgundy", s.encode()) == s


_JUNK = st.one_of(st.none(), st.booleans(), st.integers(-5, 50), st.text(max_size=12),
                  st.lists(st.integers(-1, 8), max_size=7), st.dictionaries(st.text(max_size=6), st.integers(-1, 9),
                                                                          max_size=3))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(_POSITIONS) - 1), st.data())
def test_reading_a_changed_position_fails_cleanly_or_is_valid(which: int, data: st.DataObject) -> None:
    position = state_dict(_POSITIONS[which])
    node, path = position, []
    while isinstance(node, (dict, list)) and node:
        keys = sorted(node) if isinstance(node, dict) else range(len(node))
        key = data.draw(st.sampled_from(list(keys)))
        path.append(key)
        if not isinstance(node[key], (dict, list)) or data.draw(st.booleans()):
            node[key] = data.draw(_JUNK)
            break
        node = node[key]
    try:
        s = state_from_dict(State.game_id, position)
    except PositionError as e:
        assert e.path and str(e).startswith(e.path)
        return
    assert state_from_dict(State.game_id, state_dict(s)) == s
