"""The Puerto Rico C engine through meeplemind.native: sizes and ids against the
Python constants, both state-vector layouts (base games v1, Expansion I v2), the
wrapper's checks, the Storehouse's canonical storage, and the playout policies."""

from __future__ import annotations

import numpy as np
import pytest

from meeplemind.engine import Rng
from meeplemind.engine import PositionError
from meeplemind.engine.puerto_rico import (
    LAYOUT_V2, LAYOUT_VERSION, NUM_ACTIONS, NUM_ACTIONS_V2, VECTOR_LEN, VECTOR_LEN_V2, decode, moves, new_game,
)
from meeplemind.engine.puerto_rico.data import GOODS
from meeplemind.engine.puerto_rico.state import PH_STORAGE, State
from meeplemind.native import NativeDecodeError, NativeGame, load

from ..engine.puerto_rico.helpers import build, fresh_expansion, goods, pick, with_buildings

ACTION_RANGES = ("A_PASS", "A_ROLE", "A_SETTLE", "A_QUARRY", "A_HACIENDA", "A_BUILD", "A_PLACE",
                 "A_CRAFT", "A_SELL", "A_LOAD", "A_WHARF", "A_STORE", "A_KEEP", "A_FOREST",
                 "A_HACIENDA_PLANT", "A_HACIENDA_FOREST", "A_POST", "A_SMALL_WHARF", "A_GIVE",
                 "A_GIVE_COLONIST", "A_GUEST", "A_DRAFT")
EXPANSION = {"expansion": "new-buildings"}
SETUPS = ({}, EXPANSION, {**EXPANSION, "draft": "random"})


@pytest.fixture(scope="module")
def native() -> NativeGame:
    return NativeGame("puerto-rico")


def play_out(native: NativeGame, buf: bytearray, seed: int, policy: int = 0) -> bytearray:
    rng = seed
    while native.current_player(buf) >= 0:
        action, rng = native.rollout_move(buf, rng, policy)
        rng = native.apply(buf, action, rng)
    return buf


def test_game_info_reports_the_larger_layout(native: NativeGame) -> None:
    assert native.layout_version == 2
    assert native.vector_len == VECTOR_LEN_V2
    assert native.num_actions == NUM_ACTIONS_V2
    assert native.max_players == 5
    assert native.max_legal >= 31  # the first draft pick: every violet building
    assert native.state_bytes > 0


def test_action_ids_match_moves(native: NativeGame) -> None:
    lib = native.lib
    for name in ACTION_RANGES:
        assert getattr(lib, f"MM_PR_{name}") == getattr(moves, name), name
    assert (lib.MM_PR_NUM_ACTIONS, lib.MM_PR_NUM_ACTIONS_V2) == (NUM_ACTIONS, NUM_ACTIONS_V2)
    assert (lib.MM_PR_VECTOR_LEN, lib.MM_PR_VECTOR_LEN_V2) == (VECTOR_LEN, VECTOR_LEN_V2)
    assert (lib.MM_PR_LAYOUT_VERSION, lib.MM_PR_LAYOUT_VERSION_V2) == (LAYOUT_VERSION, 2)


@pytest.mark.parametrize("options", SETUPS)
def test_encode_writes_the_layout_decoded(native: NativeGame, options: dict[str, str]) -> None:
    vec = new_game(4, seed=3, **options).encode()
    assert len(vec) == (VECTOR_LEN_V2 if options else VECTOR_LEN)
    buf = native.decode(vec)
    assert np.array_equal(native.encode(buf), vec)
    play_out(native, buf, seed=3)
    assert len(native.encode(buf)) == len(vec)


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
    v2 = new_game(3, seed=1, **EXPANSION).encode()
    cases = [(vec[:-1], lib.MM_ERR_LENGTH, -1), (with_field(vec, 0, 3), lib.MM_ERR_VERSION, 0),
             (with_field(vec, 1, 6), lib.MM_ERR_RANGE, 1),
             (with_field(vec, 10, vec[10] - 1), lib.MM_ERR_INVARIANT, 10),  # a colonist lost
             # the layout is told by the version, else by the length (codec.py)
             (with_field(vec, 0, 2), lib.MM_ERR_LENGTH, -1),
             (with_field(v2, 0, 1), lib.MM_ERR_LENGTH, -1),
             (v2[:-1], lib.MM_ERR_LENGTH, -1), (with_field(v2, 0, 3), lib.MM_ERR_VERSION, 0),
             (np.array([], dtype=np.int32), lib.MM_ERR_LENGTH, -1),
             (with_field(v2, 20, 13), lib.MM_ERR_RANGE, 20),  # forest supply
             (with_field(v2, 20, 11), lib.MM_ERR_INVARIANT, 20),  # a forest lost
             (with_field(v2, LAYOUT_V2.index("new_buildings.violet_buildings.small_market"), 1),
              lib.MM_ERR_INVARIANT, LAYOUT_V2.index("building_supply.small_market"))]  # in the game, no copies
    for bad, code, index in cases:
        with pytest.raises(NativeDecodeError) as info:
            native.decode(bad)
        assert (info.value.code, info.value.index) == (code, index)
        assert isinstance(info.value, ValueError)


def test_black_market_decline_is_decoded_and_checked(native: NativeGame) -> None:
    """progress.black_market.colonist_declined: the C twin plays a Black Market build declining
    the University colonist through a give-up choice, and its decoder takes the cell only
    during such a build of a building with a circle by an occupied University's owner."""
    s = fresh_expansion(3, governor=0, buildings=with_buildings(university="library"))
    build(s, 0, "university", "black_market")
    s.players[0].doubloons = 0
    goods(s, 0, corn=1, indigo=1)
    s.players[2].san_juan += s.colonist_supply - 3  # 3 left: the University colonist would end the game
    s.colonist_supply = 3
    s = pick(s, "builder")
    at = LAYOUT_V2.index("progress.black_market.colonist_declined")
    buf = native.decode(s.encode())
    declined = moves.Move.parse("build:forest_house/decline").id
    assert declined in native.legal_moves(buf).tolist()
    native.apply(buf, declined, 1)
    waiting = native.encode(buf)
    assert waiting[at] == 1 and decode(waiting).bm_declined
    native.apply(buf, moves.Move.parse("give:indigo").id, 1)
    built = native.encode(buf)
    assert built[at] == 0 and built[LAYOUT_V2.index("players[0].buildings.forest_house")] == 0
    assert built[LAYOUT_V2.index("colonist_supply")] == 3
    without_university = waiting.copy()
    university = LAYOUT_V2.index("players[0].buildings.university")
    without_university[university] = -1
    without_university[LAYOUT_V2.index("building_supply.university")] += 1
    without_university[LAYOUT_V2.index("colonist_supply")] += 1
    outside = with_field(new_game(3, seed=1, **EXPANSION).encode(), at, 1)  # the draft
    for bad in (outside, with_field(s.encode(), at, 1), without_university):
        with pytest.raises(NativeDecodeError) as info:
            native.decode(bad)
        assert (info.value.code, info.value.index) == (native.lib.MM_ERR_INVARIANT, at)
        with pytest.raises(PositionError) as python:
            decode(bad)
        assert python.value.path == "progress.black_market.colonist_declined"
    with pytest.raises(NativeDecodeError) as info:
        native.decode(with_field(waiting, at, 2))
    assert (info.value.code, info.value.index) == (native.lib.MM_ERR_RANGE, at)


@pytest.mark.parametrize("options", SETUPS)
def test_state_round_trip_and_queries(native: NativeGame, options: dict[str, str]) -> None:
    state = new_game(4, seed=3, **options)
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


@pytest.mark.parametrize("options", SETUPS)
def test_finished_game(native: NativeGame, options: dict[str, str]) -> None:
    buf = play_out(native, native.decode(new_game(3, seed=4, **options).encode()), seed=4)
    assert native.current_player(buf) == -1
    assert native.legal_moves(buf).size == 0
    with pytest.raises(ValueError, match="over"):
        native.rollout_move(buf, 1)
    assert native.playouts(buf, 10, 1) == 0


@pytest.mark.parametrize("options", SETUPS)
def test_playouts_are_reproducible(native: NativeGame, options: dict[str, str]) -> None:
    buf = native.decode(new_game(4, seed=0, **options).encode())
    for policy in (0, 1):
        decisions = native.playouts(buf, 50, 123, policy)
        assert decisions > 50 * 100
        assert native.playouts(buf, 50, 123, policy) == decisions
    with pytest.raises(ValueError, match="policy"):
        native.playouts(buf, 1, 1, 2)


@pytest.mark.parametrize("options", SETUPS)
def test_heuristic_policy_beats_random(native: NativeGame, options: dict[str, str]) -> None:
    wins, games = 0.0, 100
    for i in range(games):
        buf = native.decode(new_game(4, seed=i, **options).encode())
        rng, hero = i, i % 4
        while (player := native.current_player(buf)) >= 0:
            action, rng = native.rollout_move(buf, rng, 1 if player == hero else 0)
            rng = native.apply(buf, action, rng)
        keys = [tuple(row) for row in native.scores(buf).tolist()]
        if keys[hero] == max(keys):
            wins += 1 / keys.count(max(keys))
    assert wins / games > 0.6


def _storage_position(held: list[int], storehouse: bool) -> State:
    """Seat 0 of a 3-player expansion game holds ``held`` with an occupied Large
    Warehouse and, if ``storehouse``, a Storehouse; every ship is full, so the Captain
    goes straight to storage."""
    s = fresh_expansion(3, governor=0, buildings=with_buildings(large_warehouse="small_wharf"))
    for i, (cap, kind) in enumerate(zip(s.ship_capacity, (4, 3, 2))):
        s.ship_kind[i], s.ship_count[i] = kind, cap
        s.goods_supply[kind] -= cap
    build(s, 0, "large_warehouse", *(["storehouse"] if storehouse else []))
    goods(s, 0, **{g: n for g, n in zip(GOODS, held) if n})
    return pick(s, "captain")


def _walk_storage(native: NativeGame, state: State, buf: bytearray) -> int:
    """Every storage move sequence of the player to move through both engines; returns
    the outcomes reached."""
    assert np.array_equal(native.encode(buf), state.encode())
    legal = state.legal_action_ids()
    assert native.legal_moves(buf).tolist() == legal
    if state.phase != PH_STORAGE or state.current_player != 0:
        return 1
    outcomes = 0
    for action in legal:
        child = bytearray(buf)
        native.apply(child, action, 0)
        outcomes += _walk_storage(native, state.apply(state.move_from_id(action), Rng(0)), child)
    return outcomes


@pytest.mark.parametrize("storehouse,least", [(True, 400), (False, 200)])
def test_storage_sequences_match_python(native: NativeGame, storehouse: bool, least: int) -> None:
    """Canonical storage with one or four free barrels and two warehouse kinds, every
    move sequence, for random holdings (what random games rarely reach)."""
    rng, limits, outcomes = np.random.default_rng(7), (10, 11, 5, 4, 5), 0
    for _ in range(40):
        held = [int(rng.integers(0, limit + 1)) if rng.random() < 0.7 else 0 for limit in limits]
        state = _storage_position(held, storehouse)
        outcomes += _walk_storage(native, state, native.decode(state.encode()))
    assert outcomes > least
