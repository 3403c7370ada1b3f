"""meeplemind.client against a real server: every method of Client and AsyncClient, positions
as messages and dicts, errors with their field violations, bearer tokens and TLS."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import grpc
import pytest

from meeplemind.client import (Analysis, AsyncClient, BestMove, Client, ClientError, FieldViolation,
                               GameResult, LegalMove, Review)
from meeplemind.engine import Rng, get_game
from meeplemind.positions.messages import read_position, to_position
from meeplemind.server.app import create_server
from meeplemind.server.convert import position_to_proto
from meeplemind.v1 import position_pb2, rules_pb2

from ..game_records import BEFORE, planted_blunder, record_json
from .conftest import Running, StartServer, make_certificate
from .test_finished_and_forced import last_two
from .test_standard import TOKEN
from .test_whole_turn import turn_of_several_decisions


def finished_position() -> dict[str, Any]:
    state, rng = get_game("puerto-rico").new_game(2, 3), Rng(3)
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_moves()), rng)
    return to_position(state)


def test_rules_methods(service: Running) -> None:
    with Client(service.address) as client:
        games = client.list_games()
        assert [g.id for g in games] == ["puerto-rico", "castles-of-burgundy", "traders-of-genoa"]
        assert games[0].player_counts == [2, 3, 4, 5] and "expansion" in {o.name for o in games[0].options}
        position = client.new_game("puerto-rico", 3, seed=7)
        assert isinstance(position, position_pb2.Position) and position.game == "puerto-rico"
        as_dict = client.new_game("puerto-rico", 3, seed=7, as_dict=True)
        state = read_position(as_dict).state()
        assert to_position(state) == as_dict
        moves = client.legal_moves(as_dict)
        assert moves == [LegalMove(str(m), m.id) for m in state.legal_moves()]
        assert client.legal_moves(position) == moves
        after = client.apply(position, "role:settler", seed=5, as_dict=True)
        assert after.position == to_position(state.apply("role:settler", Rng(5)), as_dict["viewer"])
        assert (after.result, after.over) == (None, False)
        expansion = client.new_game("puerto-rico", 3, options={"expansion": "new-buildings"}, as_dict=True)
        assert expansion["puerto_rico"] != as_dict["puerto_rico"]
        assert client.result(position) == GameResult(False, state.current_player, [], [], [], [])
        finished = finished_position()
        over = client.result(finished)
        assert over.over and over.current_player is None
        if "result" in rules_pb2.LegalMovesResponse.DESCRIPTOR.fields_by_name:  # the contract with GameResult
            state = read_position(finished).state()
            assert (over.scores, over.winners) == (state.scores(), state.winners())


def test_observe_and_a_follower_s_shown_outcomes(service: Running) -> None:
    with Client(service.address) as client:
        truth = client.new_game("traders-of-genoa", 3, seed=4, as_dict=True)
        state = read_position(truth).state()
        seen = client.observe({**truth, "viewer": 2}, as_dict=True)
        assert seen == to_position(state.observation(2), 2)
        move = state.legal_moves()[0]
        after = client.apply(seen, str(move), seed=1, shown=[], as_dict=True).position
        assert after == to_position(state.observation(2).follow(move, Rng(1), 2), 2)
        with pytest.raises(ClientError) as refused:
            client.apply(seen, str(move), shown=["square:1.1"])
        assert [v.field for v in refused.value.violations] == ["shown"]


def test_analysis_methods(service: Running, position_dict: dict) -> None:
    with Client(service.address) as client:
        analysis = client.analyze(position_dict, iterations=300, threads=1, seed=3, max_moves=2, request_id="a")
        assert isinstance(analysis, Analysis) and analysis.request_id == "a" and analysis.final
        assert len(analysis.moves) == 2 and analysis.stats.iterations == 300
        assert analysis.stats.stop_reason == "iterations" and analysis.moves[0].pv[0] == analysis.moves[0].move
        reports = list(client.analyze_stream(position_dict, time_ms=400, report_every_ms=50))
        assert [r.final for r in reports] == [False] * (len(reports) - 1) + [True] and len(reports) > 2
        assert reports[0].stats.stop_reason == "" and reports[-1].stats.stop_reason == "time"
        best = client.best_move(position_dict, level=3, seed=2)  # level 3: CPU time (search/levels.py)
        assert isinstance(best, BestMove) and best.stats.stop_reason == "cpu_time" and best.line.move == best.move
        assert client.best_move(position_dict, level=1, seed=2).stats.iterations == 10  # level 1: iterations
        assert client.best_move(position_dict, iterations=120).stats.iterations == 120
        with pytest.raises(ValueError, match="^level: a level and a budget"):
            client.best_move(position_dict, level=2, iterations=10)
        assert best.turn == [] and best.line.pv_players[0] == best.stats.player


def test_apply_returns_the_result_of_the_last_move(service: Running) -> None:
    before, move, move_seed, over = last_two("puerto-rico", 3, {})
    with Client(service.address) as client:
        applied = client.apply(position_to_proto(before), move, seed=move_seed)
    assert applied.over and applied.result is not None and applied.result.winners == over.winners()
    assert applied.result.scores == over.scores()


def test_best_move_whole_turn(service: Running) -> None:
    state = turn_of_several_decisions("puerto-rico", 3, seed=4)
    with Client(service.address) as client:
        best = client.best_move(position_to_proto(state), iterations=30, threads=1, seed=1, whole_turn=True)
    assert len(best.turn) >= 2 and best.turn[0].move == best.move
    assert all(t.stats.player == state.current_player and t.line.visits > 0 for t in best.turn)


def test_review(service: Running) -> None:
    start, moves = planted_blunder()
    seen: list[tuple[int, int]] = []
    with Client(service.address) as client:
        review = client.review(record_json(start, moves), iterations=1500, threads=1, seats=[0], seed=11,
                               on_move=lambda m: seen.append((m.index, m.rounds)), request_id="rv")
    assert isinstance(review, Review) and review.request_id == "rv" and review.stop_reason == ""
    # every move in game order, then the refined ones again, the last of each the review's
    indices = [m.index for m in review.moves]
    assert [i for i, _ in seen[:len(indices)]] == indices and review.moves_skipped == 0
    assert len(seen) > len(indices) and {i for i, _ in seen[len(indices):]} <= set(indices)
    assert [m.rounds for m in review.moves] == [dict(seen)[i] for i in indices]
    assert 0 < review.players[0].accuracy_se
    assert review.players[0].mistakes[0].index == BEFORE
    json = review.to_json()
    assert json["summary"]["players"][0]["mistakes"][0]["index"] == BEFORE
    assert json["moves"][0]["stats"]["stop_reason"] == "STOP_REASON_ITERATIONS"


def test_errors_carry_the_status_and_every_violation(service: Running, position_dict: dict) -> None:
    position_dict["puerto_rico"]["players"][0]["doubloons"] = -2
    with Client(service.address) as client:
        with pytest.raises(ClientError) as refused:
            client.legal_moves(position_dict)
        assert refused.value.code == grpc.StatusCode.INVALID_ARGUMENT
        field = "position.puerto_rico.players[0].doubloons"
        assert refused.value.violations == (FieldViolation(field, "-2 is below 0"),)
        assert str(refused.value) == f"INVALID_ARGUMENT: {field}: -2 is below 0"
        with pytest.raises(ClientError) as unknown:
            client.new_game("chess", 2)
        assert unknown.value.code == grpc.StatusCode.NOT_FOUND and unknown.value.violations[0].field == "game"
        with pytest.raises(ClientError) as bad_stream:
            list(client.analyze_stream(position_dict))
        assert bad_stream.value.violations[0].field == field
        with pytest.raises(ValueError, match="^position: "):
            client.legal_moves({"game": "puerto-rico", "nonsense": 1})
        with pytest.raises(TypeError, match="^position: expected a Position or its JSON dict"):
            client.legal_moves("pos.json")  # type: ignore[arg-type]


def test_an_unreachable_server_is_a_client_error() -> None:
    with Client("127.0.0.1:1", timeout=2) as client, pytest.raises(ClientError) as refused:
        client.list_games()
    assert refused.value.code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


def test_bearer_token(start_server: StartServer) -> None:
    running = start_server(auth_token=TOKEN)
    with Client(running.address) as client, pytest.raises(ClientError) as refused:
        client.list_games()
    assert refused.value.code == grpc.StatusCode.UNAUTHENTICATED
    with Client(running.address, token=TOKEN) as client:
        assert client.list_games() and client.analyze(client.new_game("puerto-rico", 2), iterations=20)


def test_tls_with_a_certificate_file(tmp_path: Path) -> None:
    tls = make_certificate(tmp_path)
    server, port = create_server("127.0.0.1:0", tls=tls, auth_token=TOKEN)
    server.start()
    try:
        with Client(f"localhost:{port}", tls=tmp_path / "cert.pem", token=TOKEN) as client:
            position = client.new_game("castles-of-burgundy", 2, seed=1)
            assert client.best_move(position, level=1).move
        with Client(f"localhost:{port}", token=TOKEN, timeout=3) as plain, pytest.raises(ClientError):
            plain.list_games()
    finally:
        server.stop(None).wait()
    with pytest.raises(ValueError, match=r"^tls: .*missing\.pem: No such file"):
        Client("localhost:1", tls=tmp_path / "missing.pem")


def test_async_client_every_method(tmp_path: Path) -> None:
    tls = make_certificate(tmp_path)
    server, port = create_server("127.0.0.1:0", tls=tls, auth_token=TOKEN, max_searches=2)
    server.start()
    start, moves = planted_blunder()

    async def session() -> None:
        async with AsyncClient(f"localhost:{port}", tls=str(tmp_path / "cert.pem"), token=TOKEN) as client:
            assert [g.id for g in await client.list_games()][0] == "puerto-rico"
            position = await client.new_game("puerto-rico", 3, seed=2, as_dict=True)
            moves_ = await client.legal_moves(position)
            after = (await client.apply(position, moves_[0].notation, seed=1)).position
            assert (await client.result(after)).over is False
            assert (await client.result(finished_position())).over
            analysis = await client.analyze(after, iterations=100, seed=1)
            assert analysis.stats.iterations == 100
            reports = [r async for r in client.analyze_stream(after, iterations=200, report_every_ms=10)]
            assert reports[-1].final and reports[-1].stats.iterations == 200
            assert (await client.best_move(after, level=1)).move
            turn = (await client.best_move(after, level=1, whole_turn=True)).turn
            assert turn and turn[0].stats.iterations == 10
            review = await client.review(record_json(start, moves[:4]), iterations=100, seed=1)
            assert len(review.moves) == 4 and review.players
            with pytest.raises(ClientError) as refused:
                await client.new_game("puerto-rico", 9)
            assert refused.value.violations == (FieldViolation("players", "9 is not one of 2, 3, 4, 5"),)
        async with AsyncClient(f"localhost:{port}", tls=str(tmp_path / "cert.pem")) as anonymous:
            with pytest.raises(ClientError) as refused:
                await anonymous.list_games()
            assert refused.value.code == grpc.StatusCode.UNAUTHENTICATED

    try:
        asyncio.run(session())
    finally:
        server.stop(None).wait()


def test_leaving_a_stream_early_cancels_its_search(start_server: StartServer, position_dict: dict) -> None:
    running = start_server()
    with Client(running.address) as client:
        for report in client.analyze_stream(position_dict, time_ms=20_000, report_every_ms=20):
            assert not report.final
            break
        running.wait_for("meeplemind_searches_total", 1, stop_reason="cancelled")
        start, moves = planted_blunder()
        reviewed: list[int] = []

        def stop_after_one(move: Any) -> None:
            reviewed.append(move.index)
            raise KeyboardInterrupt  # the caller gives up mid-review

        with pytest.raises(KeyboardInterrupt):
            client.review(record_json(start, moves), time_ms=300, on_move=stop_after_one)
    running.wait_for("meeplemind_searches_running", 0)
    assert len(reviewed) == 1
