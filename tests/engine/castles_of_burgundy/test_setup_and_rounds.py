"""Setup by player count (rules §3-§4) and the round and phase structure (§5)."""

from __future__ import annotations

import pytest

from meeplemind.engine import Rng
from meeplemind.engine.castles_of_burgundy import State, new_game
from meeplemind.engine.castles_of_burgundy.board import START_CELL
from meeplemind.positions import check_state
from meeplemind.engine.castles_of_burgundy.data import (
    BLACK_BACKED, COLOUR_BACKED, DEPOT_LAYOUT, DEPOT_SLOTS, NUM_DEPOTS, T_CASTLE, TILE_COLOUR,
)
from meeplemind.engine.castles_of_burgundy.state import ST_END

from .helpers import check, fresh, put


@pytest.mark.parametrize("n, black", [(2, 4), (3, 6), (4, 8)])
def test_setup_by_player_count(n: int, black: int) -> None:
    s = new_game(n, seed=11)
    check_state(s)
    for d in range(NUM_DEPOTS):
        for slot in range(DEPOT_SLOTS):
            t = s.depots[d * DEPOT_SLOTS + slot]
            if slot < n:
                assert TILE_COLOUR[t] == DEPOT_LAYOUT[d][slot]
            else:
                assert t == -1
    assert sum(t >= 0 for t in s.black) == black and s.black[black:] == [-1] * (8 - black)
    assert sorted(s.ranking) == list(range(n)) and s.ranking == s.round_order
    assert s.ranking == [(s.ranking[0] + i) % n for i in range(n)]  # clockwise from the start player
    for rank, seat in enumerate(s.ranking):
        p = s.players[seat]
        assert p.workers == rank + 1 and p.silverlings == 1 and p.vp == 0
        assert sum(p.goods) == 3 and p.storage == [-1, -1, -1]
        assert [c for c, t in enumerate(p.estate) if t >= 0] == [START_CELL]
        assert p.estate[START_CELL] == T_CASTLE
        assert all(1 <= d <= 6 for d in p.dice) and p.dice == sorted(p.dice)
    # The phase's five goods: the first is already on a depot, four are shown on the round spaces.
    assert s.round_goods[0] == -1 and all(g >= 0 for g in s.round_goods[1:])
    assert sum(s.depot_goods) == 1
    assert sum(s.goods_pool) == 42 - 3 * n - 5
    assert s.stack[T_CASTLE] == COLOUR_BACKED[T_CASTLE] - n - sum(t == T_CASTLE for t in s.depots)
    assert sum(s.stack) == sum(COLOUR_BACKED) - n - 6 * n
    assert sum(s.black_stack) == sum(BLACK_BACKED) - black


def test_seed_decides_the_start_player_and_replays() -> None:
    starts = {new_game(4, seed).ranking[0] for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    assert new_game(3, 5) == new_game(3, 5)
    assert new_game(3, 5) != new_game(3, 6)


def test_bad_setup_arguments() -> None:
    with pytest.raises(ValueError, match="players: 5"):
        new_game(5)
    with pytest.raises(ValueError, match="options: unknown option 'x'"):
        new_game(2, 0, x=True)


def idle_turn(s: State, rng: Rng) -> State:
    """The player to move takes workers with both dice and declines to buy."""
    before = (s.phase, s.round, s.turn)
    while not s.is_terminal and (s.phase, s.round, s.turn) == before:
        die = s.players[s.current].dice[1]
        s = s.apply(f"workers@{die}" if die else "pass", rng)
    return s


def play_rounds(s: State, rounds: int, rng: Rng) -> State:
    target = s.phase * 5 + s.round + rounds
    while not s.is_terminal and s.phase * 5 + s.round < target:
        s = idle_turn(s, rng)
    return s


def test_rounds_roll_dice_and_move_the_round_goods() -> None:
    s, rng = check(fresh(2, seed=3)), Rng(9)
    shown = list(s.round_goods)
    s = play_rounds(s, 1, rng)
    assert (s.phase, s.round, s.turn) == (0, 1, 0)
    assert s.round_goods == [-1, -1] + shown[2:]
    assert sum(s.depot_goods) == 2
    assert all(p.dice[0] >= 1 for p in s.players)
    check_state(s)


def test_phase_end_pays_mines_and_refills_the_depots() -> None:
    s, rng = fresh(2, seed=4), Rng(5)
    put(s, 0, {25: "mine", 30: "mine"})
    put(s, 1, {25: "mine"})
    check(s)
    old_depots = [t for t in s.depots + s.black if t >= 0]
    silver = [p.silverlings for p in s.players]
    s = play_rounds(s, 5, rng)
    assert (s.phase, s.round) == (1, 0)
    assert [p.silverlings - x for p, x in zip(s.players, silver)] == [2, 1]
    assert sum(s.discarded) == len(old_depots)
    assert sum(t >= 0 for t in s.depots) == 12 and sum(t >= 0 for t in s.black) == 4
    assert s.round_goods[0] == -1 and all(g >= 0 for g in s.round_goods[1:])
    check_state(s)


def test_a_game_of_idle_turns_ends_after_25_rounds() -> None:
    s, rng = fresh(2, seed=6), Rng(7)
    turns = 0
    while not s.is_terminal:
        s = idle_turn(s, rng)
        turns += 1
    assert turns == 25 * 2 and s.stage == ST_END and s.current_player is None
    assert s.legal_moves() == [] and sum(s.goods_pool) == 42 - 25
    check_state(s)
