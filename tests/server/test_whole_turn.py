"""BestMove's whole turn: the mover's consecutive decisions, each searched, in one call."""

from __future__ import annotations

import random
from typing import Any

import pytest

from meeplemind.engine import Rng, get_game
from meeplemind.search.ismcts import NativeHandle, stop_reasons
from meeplemind.server.convert import position_to_proto, stop_reason_to_proto
from meeplemind.v1 import analysis_pb2

from .conftest import Running

pytest.importorskip("meeplemind.native._mm", reason="the native engines are not built")


def keeps_the_turn(state: Any, move: Any) -> bool:
    """Whether ``move`` leaves ``state``'s mover to move again, drawing no chance."""
    rng = Rng(0)
    after = state.apply(move, rng)
    return rng.state == 0 and after.current_player == state.current_player


def turn_of_several_decisions(game_id: str, players: int, seed: int) -> Any:
    """The first position of a random game where every legal move keeps the mover to move
    (e.g. a Mayor placement with colonists left to place)."""
    state, pick = get_game(game_id).new_game(players, seed), random.Random(seed)
    for step in range(10**5):
        moves = state.legal_moves()
        if len(moves) > 1 and all(keeps_the_turn(state, m) for m in moves):
            return state
        state = state.play(pick.choice(moves), step)
    raise AssertionError("no such position")


@pytest.mark.parametrize(("game_id", "players"), [("puerto-rico", 3), ("castles-of-burgundy", 2)])
def test_best_move_answers_the_whole_turn(service: Running, game_id: str, players: int) -> None:
    state = turn_of_several_decisions(game_id, players, seed=4)
    mover = state.current_player
    budget = analysis_pb2.SearchBudget(iterations=40, threads=1)
    answer = service.analysis.BestMove(analysis_pb2.BestMoveRequest(
        position=position_to_proto(state), budget=budget, seed=9, whole_turn=True))
    turn = list(answer.turn)
    assert len(turn) >= 2 and (turn[0].move, turn[0].line, turn[0].stats) == (answer.move, answer.line, answer.stats)
    for index, decision in enumerate(turn):
        # each decision is the one BestMove gives for its position, with seed + index
        alone = service.analysis.BestMove(analysis_pb2.BestMoveRequest(
            position=position_to_proto(state), budget=budget, seed=9 + index))
        assert decision.move == alone.move and decision.line.visits == alone.line.visits
        assert state.current_player == mover and decision.stats.player == mover
        if index < len(turn) - 1:
            assert keeps_the_turn(state, decision.move)
        state = state.apply(decision.move, Rng(0))
    assert state.current_player != mover or state.is_terminal or not keeps_the_turn(state, state.legal_moves()[0])


def test_without_whole_turn_the_answer_has_no_turn(service: Running) -> None:
    state = turn_of_several_decisions("puerto-rico", 3, seed=4)
    answer = service.analysis.BestMove(analysis_pb2.BestMoveRequest(
        position=position_to_proto(state), budget=analysis_pb2.SearchBudget(iterations=20)))
    assert answer.move and not answer.turn


def test_a_turn_ends_at_a_move_that_draws_chance(service: Running) -> None:
    """A turn's last decision gives the turn to another seat or draws chance (here: the first
    turn of a game, a role then its phase's first decision)."""
    state = get_game("puerto-rico").new_game(3, 1)
    answer = service.analysis.BestMove(analysis_pb2.BestMoveRequest(
        position=position_to_proto(state), budget=analysis_pb2.SearchBudget(iterations=30), seed=1,
        whole_turn=True))
    assert [d.move for d in answer.turn][:1] == [answer.move]
    for decision in answer.turn[:-1]:
        assert keeps_the_turn(state, decision.move)
        state = state.apply(decision.move, Rng(0))
    assert not keeps_the_turn(state, answer.turn[-1].move)


def test_every_native_stop_reason_is_a_stop_reason_of_the_contract() -> None:
    for name in stop_reasons(NativeHandle.load("puerto-rico").lib).values():
        assert analysis_pb2.StopReason.Name(stop_reason_to_proto(name)) == f"STOP_REASON_{name.upper()}"
