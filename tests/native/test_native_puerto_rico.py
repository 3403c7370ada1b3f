"""The Puerto Rico C engine through meeplemind.native: sizes and ids against the
Python constants, the wrapper's checks, and the playout policies."""

from __future__ import annotations

import numpy as np
import pytest

from meeplemind.engine.puerto_rico import LAYOUT_VERSION, NUM_ACTIONS, VECTOR_LEN, moves, new_game
from meeplemind.native import NativeDecodeError, NativeGame, load

ACTION_RANGES = ("A_PASS", "A_ROLE", "A_SETTLE", "A_QUARRY", "A_HACIENDA", "A_BUILD", "A_PLACE",
                 "A_CRAFT", "A_SELL", "A_LOAD", "A_WHARF", "A_STORE", "A_KEEP")


@pytest.fixture(scope="module")
def native() -> NativeGame:
    return NativeGame("puerto-rico")


def play_out(native: NativeGame, buf: bytearray, seed: int, policy: int = 0) -> bytearray:
    rng = seed
    while native.current_player(buf) >= 0:
        action, rng = native.rollout_move(buf, rng, policy)
        rng = native.apply(buf, action, rng)
    return buf


def test_game_info_matches_python(native: NativeGame) -> None:
    assert native.layout_version == LAYOUT_VERSION
    assert native.vector_len == VECTOR_LEN
    assert native.num_actions == NUM_ACTIONS
    assert native.max_players == 5
    assert native.max_legal >= 24  # pass + every building
    assert native.state_bytes > 0


def test_action_ids_match_moves(native: NativeGame) -> None:
    lib = native.lib
    for name in ACTION_RANGES:
        assert getattr(lib, f"MM_PR_{name}") == getattr(moves, name), name
    assert lib.MM_PR_NUM_ACTIONS == NUM_ACTIONS
    assert lib.MM_PR_VECTOR_LEN == VECTOR_LEN
    assert lib.MM_PR_LAYOUT_VERSION == LAYOUT_VERSION


def test_load_is_cached_per_variant() -> None:
    assert load() is load("release")
    with pytest.raises(ValueError, match="variant"):
        load("debug")
    with pytest.raises(ValueError, match="game_id"):
        NativeGame("chess")


def with_field(vec: np.ndarray, index: int, value: int) -> np.ndarray:
    out = vec.copy()
    out[index] = value
    return out


def test_decode_errors_name_the_field(native: NativeGame) -> None:
    lib, vec = native.lib, new_game(3, seed=1).encode()
    cases = [(vec[:-1], lib.MM_ERR_LENGTH, -1), (with_field(vec, 0, 2), lib.MM_ERR_VERSION, 0),
             (with_field(vec, 1, 6), lib.MM_ERR_RANGE, 1),
             (with_field(vec, 10, vec[10] - 1), lib.MM_ERR_INVARIANT, 10)]  # a colonist lost
    for bad, code, index in cases:
        with pytest.raises(NativeDecodeError) as info:
            native.decode(bad)
        assert (info.value.code, info.value.index) == (code, index)
        assert isinstance(info.value, ValueError)


def test_state_round_trip_and_queries(native: NativeGame) -> None:
    state = new_game(4, seed=3)
    buf = native.decode(state.encode())
    assert np.array_equal(native.encode(buf), state.encode())
    assert native.num_players(buf) == 4
    assert native.current_player(buf) == state.current_player
    assert native.legal_moves(buf).tolist() == state.legal_action_ids()
    assert native.scores(buf).shape == (4, 2)


def test_apply_checks_legality_and_buffers(native: NativeGame) -> None:
    buf = native.decode(new_game(2, seed=5).encode())
    before = bytes(buf)
    with pytest.raises(ValueError, match="not legal"):
        native.apply(buf, moves.A_KEEP, 1)
    assert bytes(buf) == before
    with pytest.raises(ValueError, match="bytes"):
        native.legal_moves(buf[:-1])
    with pytest.raises(ValueError, match="writable"):
        native.apply(bytes(buf), int(native.legal_moves(buf)[0]), 1)


def test_determinize_changes_nothing(native: NativeGame) -> None:
    buf = native.decode(new_game(5, seed=2).encode())
    before = bytes(buf)
    assert native.determinize(buf, 3, 99) == 99
    assert bytes(buf) == before


def test_finished_game(native: NativeGame) -> None:
    buf = play_out(native, native.decode(new_game(3, seed=4).encode()), seed=4)
    assert native.current_player(buf) == -1
    assert native.legal_moves(buf).size == 0
    with pytest.raises(ValueError, match="over"):
        native.rollout_move(buf, 1)
    assert native.playouts(buf, 10, 1) == 0


def test_playouts_are_reproducible(native: NativeGame) -> None:
    buf = native.decode(new_game(4, seed=0).encode())
    for policy in (0, 1):
        decisions = native.playouts(buf, 50, 123, policy)
        assert decisions > 50 * 100
        assert native.playouts(buf, 50, 123, policy) == decisions
    with pytest.raises(ValueError, match="policy"):
        native.playouts(buf, 1, 1, 2)


def test_heuristic_policy_beats_random(native: NativeGame) -> None:
    wins, games = 0.0, 100
    for i in range(games):
        buf = native.decode(new_game(4, seed=i).encode())
        rng, hero = i, i % 4
        while (player := native.current_player(buf)) >= 0:
            action, rng = native.rollout_move(buf, rng, 1 if player == hero else 0)
            rng = native.apply(buf, action, rng)
        keys = [tuple(row) for row in native.scores(buf).tolist()]
        if keys[hero] == max(keys):
            wins += 1 / keys.count(max(keys))
    assert wins / games > 0.6
