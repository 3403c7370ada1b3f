"""Positions other clients send: finished games (their result), positions with a single
legal move (forced), and CPU-time budgets, over a real channel."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from pathlib import Path
from typing import Any

import grpc
import pytest

from meeplemind.cli import main
from meeplemind.engine import Rng, get_game
from meeplemind.engine.position import dumps, to_position
from meeplemind.server.convert import position_to_proto, result_from_proto
from meeplemind.client.errors import field_violations
from meeplemind.v1 import analysis_pb2, rules_pb2

from .conftest import Running

pytest.importorskip("meeplemind.native._mm", reason="the native engines are not built")

GAMES = [("puerto-rico", 3, {}), ("puerto-rico", 2, {"expansion": "new-buildings"}),
         ("castles-of-burgundy", 2, {})]


def last_two(game_id: str, players: int, options: dict[str, Any], seed: int = 1) -> tuple[Any, str, int, Any]:
    """A random game's last position before the end, its last move, the seed of that move's
    chance and the finished state."""
    state, pick = get_game(game_id).new_game(players, seed, **options), random.Random(seed)
    for move_seed in range(10**6):
        move = pick.choice(state.legal_moves())
        after = state.play(move, move_seed)
        if after.is_terminal:
            return state, str(move), move_seed, after
        state = after
    raise AssertionError("the game did not end")


def forced(game_id: str, players: int, options: dict[str, Any], seed: int = 2) -> Any:
    """The first position of a random game with exactly one legal move (moves played with
    ``play_forced=False``, as another client would send them)."""
    state, rng, pick = get_game(game_id).new_game(players, seed, **options), Rng(seed), random.Random(seed)
    while len(state.legal_moves()) != 1:
        state = state.apply(pick.choice(state.legal_moves()), rng, play_forced=False)
    return state


@pytest.mark.parametrize(("game_id", "players", "options"), GAMES)
def test_a_finished_game_has_its_result_in_every_answer(service: Running, game_id: str, players: int,
                                                        options: dict[str, Any]) -> None:
    before, move, move_seed, over = last_two(game_id, players, options)
    expected = asdict(over.result())
    assert sorted(expected["ranks"])[0] == 1 and expected["winners"] == [
        p for p, rank in enumerate(expected["ranks"]) if rank == 1]
    applied = service.rules.ApplyMove(rules_pb2.ApplyMoveRequest(position=position_to_proto(before),
                                                                 move=move, seed=move_seed))
    assert result_from_proto(applied) == expected
    position = position_to_proto(over, 0)
    listed = service.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=position))
    assert not listed.moves and not listed.HasField("current_player")
    assert result_from_proto(listed) == expected
    analyzed = service.analysis.Analyze(analysis_pb2.AnalyzeRequest(position=position))
    assert analyzed.stats.stop_reason == analysis_pb2.STOP_REASON_TERMINAL and not analyzed.moves
    assert result_from_proto(analyzed) == expected
    best = service.analysis.BestMove(analysis_pb2.BestMoveRequest(position=position, level=1))
    assert (best.move, best.HasField("line")) == ("", False)
    assert best.stats.stop_reason == analysis_pb2.STOP_REASON_TERMINAL and result_from_proto(best) == expected
    stream = list(service.analysis.AnalyzeStream(analysis_pb2.AnalyzeStreamRequest(position=position)))
    assert stream[-1].final and result_from_proto(stream[-1]) == expected


def test_a_game_going_on_has_no_result(service: Running) -> None:
    position = position_to_proto(get_game("puerto-rico").new_game(3, 1))
    assert not service.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=position)).HasField("result")
    applied = service.rules.ApplyMove(rules_pb2.ApplyMoveRequest(position=position, move="role:settler"))
    assert not applied.HasField("result")


@pytest.mark.parametrize(("game_id", "players", "options"), GAMES)
def test_a_forced_position_is_answered_with_its_move(service: Running, game_id: str, players: int,
                                                     options: dict[str, Any]) -> None:
    state = forced(game_id, players, options)
    (only,) = state.legal_moves()
    position = position_to_proto(state)
    listed = service.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=position))
    assert [m.notation for m in listed.moves] == [str(only)] and not listed.HasField("result")
    analyzed = service.analysis.Analyze(analysis_pb2.AnalyzeRequest(
        position=position, seed=3, budget=analysis_pb2.SearchBudget(iterations=50, threads=2)))
    assert [m.move for m in analyzed.moves] == [str(only)] and analyzed.moves[0].pv == [str(only)]
    unsearched = (analyzed.moves[0].visits, analyzed.moves[0].win_rate, list(analyzed.moves[0].expected_scores))
    assert unsearched == (0, 0.0, []) and analyzed.stats.iterations == 0
    assert analyzed.stats.stop_reason == analysis_pb2.STOP_REASON_SINGLE_MOVE
    # a level's whole budget (level 10: a second of CPU) is not spent either
    best = service.analysis.BestMove(analysis_pb2.BestMoveRequest(position=position, level=10, seed=3))
    assert best.move == str(only) and best.line.visits == best.stats.iterations == 0
    assert best.stats.stop_reason == analysis_pb2.STOP_REASON_SINGLE_MOVE and best.stats.cpu_ms < 500
    stream = list(service.analysis.AnalyzeStream(analysis_pb2.AnalyzeStreamRequest(
        position=position, budget=analysis_pb2.SearchBudget(time_ms=5000))))
    assert len(stream) == 1 and stream[0].final and [m.move for m in stream[0].moves] == [str(only)]
    assert stream[0].stats.stop_reason == analysis_pb2.STOP_REASON_SINGLE_MOVE
    applied = service.rules.ApplyMove(rules_pb2.ApplyMoveRequest(position=position, move=str(only), seed=4))
    assert applied.position == position_to_proto(state.apply(only, Rng(4)), applied.position.viewer)


def test_cpu_budget_ends_the_search_and_names_its_stop(service: Running) -> None:
    position = position_to_proto(get_game("puerto-rico").new_game(4, 3))
    answer = service.analysis.Analyze(analysis_pb2.AnalyzeRequest(
        position=position, budget=analysis_pb2.SearchBudget(cpu_ms=60, threads=1)))
    assert answer.stats.stop_reason == analysis_pb2.STOP_REASON_CPU_TIME
    assert 60 <= answer.stats.cpu_ms < 60 + 50 and answer.stats.iterations > 0  # one iteration past at most
    with pytest.raises(grpc.RpcError) as refused:
        service.analysis.Analyze(analysis_pb2.AnalyzeRequest(
            position=position, budget=analysis_pb2.SearchBudget(cpu_ms=-1)))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field_violations(refused.value) == [("budget.cpu_ms", "-1 is below 0")]


def test_cli_asks_the_service_about_a_finished_game(service: Running, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    _, _, _, over = last_two("puerto-rico", 3, {})
    path = tmp_path / "over.json"
    path.write_text(dumps(to_position(over)))
    assert main(["moves", str(path), "--server", service.address]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"game over: Seat {over.winners()[0] + 1} wins") and len(printed.splitlines()) == 4
    assert main(["analyze", str(path), "--server", service.address, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["stats"]["stop_reason"] == "STOP_REASON_TERMINAL" and report["moves"] == []
    assert report["result"] == asdict(over.result())


def test_a_privilege_decline_is_asked_and_played_by_the_service(service: Running) -> None:
    """The captain's one question is whether to take his last VP chip: LegalMoves lists
    the decline beside his single load, BestMove answers one of them, ApplyMove plays the
    decline and then the forced load."""
    state = get_game("puerto-rico").new_game(3, 1)
    seat = state.current_player
    state.players[seat].goods[0], state.goods_supply[0] = 2, state.goods_supply[0] - 2
    state.ship_kind, state.ship_count = [1, 2, -1], [4, 5, 0]
    state.goods_supply[1] -= 4
    state.goods_supply[2] -= 5
    other = state.players[(seat + 1) % 3]
    other.vp_chips, state.vp_supply = state.vp_supply - 3, 3
    state = state.play("role:captain")
    position = position_to_proto(state)
    listed = service.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=position))
    assert [m.notation for m in listed.moves] == ["decline:captain", "load:corn@6"]
    best = service.analysis.BestMove(analysis_pb2.BestMoveRequest(position=position, level=2, seed=1))
    assert best.move in ("decline:captain", "load:corn@6")
    applied = service.rules.ApplyMove(rules_pb2.ApplyMoveRequest(position=position, move="decline:captain"))
    after = position_to_proto(state.play("decline:captain"), applied.position.viewer)
    assert applied.position == after and after.puerto_rico.players[seat].vp_chips == 2
