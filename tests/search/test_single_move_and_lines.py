"""A position with one legal move is answered at once (no budget spent), by ``analyze`` and
by the bots; lines of play name the seat that plays each of their moves."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from meeplemind.engine import Rng, get_game
from meeplemind.search import analyze
from meeplemind.search.bots import make_bot
from meeplemind.search.ismcts import NativeHandle, stop_reasons
from meeplemind.search.params import Budget, game_params


def forced(game_id: str, players: int, seed: int = 2):  # type: ignore[no-untyped-def]
    """The first position of a random game with exactly one legal move (moves played with
    ``play_forced=False``, as another client would send them)."""
    state, rng, pick = get_game(game_id).new_game(players, seed), Rng(seed), random.Random(seed)
    while len(state.legal_moves()) != 1:
        state = state.apply(pick.choice(state.legal_moves()), rng, play_forced=False)
    return state


@pytest.mark.parametrize(("game_id", "players"), [("puerto-rico", 3), ("castles-of-burgundy", 2)])
@pytest.mark.parametrize("budget", [Budget(iterations=10**6, threads=2), Budget(cpu_ms=60_000.0), Budget(time_ms=60_000.0)])
def test_a_single_legal_move_is_answered_at_once(game_id: str, players: int, budget: Budget) -> None:
    state = forced(game_id, players)
    (only,) = state.legal_moves()
    result = analyze(state, budget, replace(game_params(game_id), seed=1))
    assert (result.stopped_by, result.iterations) == ("single_move", 0)
    assert result.cpu_ms < 1000  # of a budget of 60 s, or 10^6 iterations
    (move,) = result.moves
    assert (move.move, move.visits, move.win_rate, move.expected_scores, move.pv, move.pv_players) == (
        str(only), 0, 0.0, [], [str(only)], [state.current_player])


def test_a_bot_plays_a_single_legal_move_without_searching() -> None:
    state = forced("puerto-rico", 4)
    bot = make_bot("ismcts:cpu_ms=60000", seed=1)
    assert str(bot.choose(state)) == str(state.legal_moves()[0])


def test_two_legal_moves_are_searched() -> None:
    state = get_game("puerto-rico").new_game(3, 1)
    assert len(state.legal_moves()) > 1
    result = analyze(state, Budget(iterations=200), replace(game_params(state.game_id), seed=1))
    assert (result.stopped_by, result.iterations) == ("iterations", 200)


@pytest.mark.parametrize("players", [2, 4])
def test_a_line_names_the_seat_of_each_move(players: int) -> None:
    """A PV's seats are those the game gives when its moves are played (a role choice passes
    the turn to the next seat in Puerto Rico, the seat to move when the line starts)."""
    state = get_game("puerto-rico").new_game(players, 5)
    result = analyze(state, Budget(iterations=3000, threads=1), replace(game_params(state.game_id), seed=2))
    for move in result.moves[:3]:
        assert len(move.pv_players) == len(move.pv) >= 2
        assert move.pv_players[0] == state.current_player
        after = state.apply(move.pv[0], Rng(0), play_forced=False)
        assert move.pv_players[1] == after.current_player
        assert set(move.pv_players) <= set(range(players))


def test_every_native_stop_reason_has_a_name() -> None:
    lib = NativeHandle.load("puerto-rico").lib
    names = stop_reasons(lib)
    assert names[lib.MM_ISMCTS_STOP_SINGLE_MOVE] == "single_move"
    assert {"iterations", "time", "nodes", "cancelled", "terminal", "cpu_time", "single_move"} == set(names.values())
