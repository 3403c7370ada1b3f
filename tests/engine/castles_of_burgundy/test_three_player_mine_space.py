"""3 players: the castle space of depot 6 takes a castle in phases A, C, E and a mine in
phases B and D (2011 rulebook, page 3; rules §3), in both engines and both readers."""

from __future__ import annotations

import numpy as np
import pytest

from meeplemind.engine import PositionError, Rng
from meeplemind.engine.castles_of_burgundy import new_game
from meeplemind.positions import check_state
from meeplemind.engine.castles_of_burgundy.data import CASTLE, DEPOT_SLOTS, MINE, TILE_COLOUR, depot_colour
from meeplemind.native import NativeDecodeError, NativeGame

from .helpers import depot, last_turn_of_phase

SPACE = 5 * DEPOT_SLOTS + 2  # depot 6, slot 2 (the third space)


def test_depot_colour_by_phase_and_player_count() -> None:
    assert [depot_colour(3, phase, 5, 2) for phase in range(5)] == [CASTLE, MINE, CASTLE, MINE, CASTLE]
    assert {depot_colour(4, phase, 5, 2) for phase in range(5)} == {CASTLE}
    assert {depot_colour(3, phase, 1, 1) for phase in range(5)} == {CASTLE}  # depot 2's castle


@pytest.mark.parametrize("seed", range(3))
def test_every_phase_lays_its_colour_in_both_engines(seed: int) -> None:
    """Each phase start (the last turn of a phase ended) lays a castle in A, C, E and a
    mine in B, D; the C engine draws the same tiles from the same rng."""
    native = NativeGame("castles-of-burgundy")
    s = new_game(3, seed=seed)
    assert TILE_COLOUR[s.depots[SPACE]] == CASTLE
    for phase in range(1, 5):
        s = last_turn_of_phase(s)
        buf = native.decode(s.encode())
        seat, chance = s.current_player, Rng(seed * 7 + phase)
        rng_state = chance.state
        while s.phase < phase:
            action = s.legal_action_ids()[0]
            s = s.apply(s.move_from_id(action), chance)
            rng_state = native.apply(buf, action, rng_state)
        assert seat is not None and np.array_equal(native.encode(buf), s.encode())
        assert TILE_COLOUR[s.depots[SPACE]] == (MINE if phase in (1, 3) else CASTLE)
        check_state(s)


def test_readers_accept_a_mine_there_only_in_phases_b_and_d() -> None:
    native = NativeGame("castles-of-burgundy")
    for phase in range(5):
        s = new_game(3, seed=4)
        s.phase = phase
        depot(s, 6, 3, "mine")
        if phase in (1, 3):
            check_state(s)
            native.decode(s.encode())
            continue
        with pytest.raises(PositionError, match="a mine tile on a castle space"):
            check_state(s)
        with pytest.raises(NativeDecodeError):
            native.decode(s.encode())
    s = new_game(4, seed=4)
    s.phase = 1
    depot(s, 6, 3, "mine")
    with pytest.raises(PositionError, match="on a castle space"):
        check_state(s)
