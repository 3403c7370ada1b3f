"""Bad input: each gets the right status code and a BadRequest naming the field, and the
server goes on serving."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import grpc
import pytest

from meeplemind.client.errors import field_violations
from meeplemind.v1 import analysis_pb2, rules_pb2
from meeplemind.v1.position_pb2 import Position

from .conftest import Running, StartServer

GARBAGE = b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"  # a varint tag that never ends
INVALID, NOT_FOUND = grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND


def failure(call: Callable[[], Any]) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value


def assert_refused(service: Running, call: Callable[[], Any], code: grpc.StatusCode, field: str) -> str:
    """``call`` fails with ``code`` and a violation of ``field``; the server still serves."""
    error = failure(call)
    assert error.code() == code, error.details()
    violations = dict(field_violations(error))
    assert field in violations, violations
    assert service.rules.ListGames(rules_pb2.ListGamesRequest()).games
    return violations[field]


def edited(position: Position, edit: Callable[[Position], None]) -> Position:
    copy = Position()
    copy.CopyFrom(position)
    edit(copy)
    return copy


@pytest.mark.parametrize("method", ["/meeplemind.v1.Rules/LegalMoves", "/meeplemind.v1.Rules/NewGame",
                                    "/meeplemind.v1.Analysis/Analyze", "/meeplemind.v1.Analysis/BestMove"])
def test_garbage_bytes(service: Running, method: str) -> None:
    raw = service.channel.unary_unary(method)
    description = assert_refused(service, lambda: raw(GARBAGE, timeout=5), INVALID, "request")
    assert "not a valid message" in description


def test_garbage_bytes_on_a_stream(service: Running) -> None:
    raw = service.channel.unary_stream("/meeplemind.v1.Analysis/AnalyzeStream")
    assert_refused(service, lambda: list(raw(GARBAGE, timeout=5)), INVALID, "request")


def test_unknown_game(service: Running, position: Position) -> None:
    assert_refused(service, lambda: service.rules.NewGame(rules_pb2.NewGameRequest(game="chess", players=2)),
                   NOT_FOUND, "game")
    other = edited(position, lambda p: setattr(p, "game", "agricola"))
    assert_refused(service, lambda: service.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=other)),
                   NOT_FOUND, "position.game")
    assert_refused(service, lambda: service.analysis.Analyze(analysis_pb2.AnalyzeRequest(position=other)),
                   NOT_FOUND, "position.game")
    spelt_as_its_key = edited(position, lambda p: setattr(p, "game", "puerto_rico"))  # its state's field
    assert_refused(service, lambda: service.analysis.Analyze(analysis_pb2.AnalyzeRequest(position=spelt_as_its_key)),
                   NOT_FOUND, "position.game")


def test_game_id_and_state_must_agree(service: Running, position: Position) -> None:
    other = edited(position, lambda p: setattr(p, "game", "castles-of-burgundy"))
    assert_refused(service, lambda: service.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=other)),
                   INVALID, "position.castles_of_burgundy")


@pytest.mark.parametrize("edit,field", [
    (lambda p: setattr(p.puerto_rico.players[2], "doubloons", -1),
     "position.puerto_rico.players[2].doubloons"),
    (lambda p: setattr(p.puerto_rico, "colonist_supply", p.puerto_rico.colonist_supply + 1),
     "position.puerto_rico.colonist_supply"),
    (lambda p: setattr(p.puerto_rico, "phase", "lunch"), "position.puerto_rico.phase"),
    (lambda p: p.puerto_rico.ships[1].__setattr__("good", "gold"), "position.puerto_rico.ships[1].good"),
    (lambda p: setattr(p.puerto_rico.progress, "captain_loaded", True), "position.puerto_rico.progress.captain_loaded"),
    (lambda p: p.ClearField("puerto_rico"), "position.puerto_rico"),
    (lambda p: setattr(p, "viewer", 4), "position.viewer"),
    (lambda p: setattr(p, "game", ""), "position.game"),
])
def test_inconsistent_position(service: Running, position: Position,
                               edit: Callable[[Position], None], field: str) -> None:
    bad = edited(position, edit)
    assert_refused(service, lambda: service.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=bad)),
                   INVALID, field)
    assert_refused(service, lambda: service.analysis.BestMove(analysis_pb2.BestMoveRequest(position=bad)),
                   INVALID, field)


@pytest.mark.parametrize("move", ["build:castle", "role:nap", "", "build:harbor"])
def test_bad_move(service: Running, position: Position, move: str) -> None:
    request = rules_pb2.ApplyMoveRequest(position=position, move=move)
    assert_refused(service, lambda: service.rules.ApplyMove(request), INVALID, "move")


@pytest.mark.parametrize("players,options,field", [
    (7, {}, "players"), (0, {}, "players"),
    (4, {"turbo": "true"}, "options.turbo"),
    (4, {"university_factory_swap": "maybe"}, "options.university_factory_swap"),
    (4, {"expansion": "seafarers"}, "options.expansion"),
    (4, {"draft": "random"}, "options.expansion"),
    (4, {"expansion": "new-buildings", "buildings": "church,harbor_master"}, "options.buildings"),
])
def test_bad_new_game(service: Running, players: int, options: dict[str, str], field: str) -> None:
    request = rules_pb2.NewGameRequest(game="puerto-rico", players=players, options=options)
    assert_refused(service, lambda: service.rules.NewGame(request), INVALID, field)


@pytest.mark.parametrize("budget,field", [
    ({"iterations": -1}, "budget.iterations"), ({"iterations": 200_000_000}, "budget.iterations"),
    ({"time_ms": -5}, "budget.time_ms"), ({"time_ms": 600_001}, "budget.time_ms"),
    ({"threads": 3}, "budget.threads"), ({"threads": -1}, "budget.threads"),
])
def test_out_of_range_budget(service: Running, position: Position, budget: dict[str, int],
                             field: str) -> None:
    search = analysis_pb2.SearchBudget(**budget)
    analyze = analysis_pb2.AnalyzeRequest(position=position, budget=search)
    best = analysis_pb2.BestMoveRequest(position=position, budget=search)
    stream = analysis_pb2.AnalyzeStreamRequest(position=position, budget=search)
    for call in (lambda: service.analysis.Analyze(analyze), lambda: service.analysis.BestMove(best),
                 lambda: list(service.analysis.AnalyzeStream(stream))):
        assert_refused(service, call, INVALID, field)


def test_out_of_range_request_fields(service: Running, position: Position) -> None:
    analyze = analysis_pb2.AnalyzeRequest(position=position, max_moves=-1)
    assert_refused(service, lambda: service.analysis.Analyze(analyze), INVALID, "max_moves")
    stream = analysis_pb2.AnalyzeStreamRequest(position=position, report_every_ms=1)
    assert_refused(service, lambda: list(service.analysis.AnalyzeStream(stream)), INVALID, "report_every_ms")
    for level in (0, 11):
        best = analysis_pb2.BestMoveRequest(position=position, level=level)
        assert_refused(service, partial(service.analysis.BestMove, best), INVALID, "level")


def test_oversized_message(start_server: StartServer, position: Position) -> None:
    running = start_server(max_message_bytes=4096)
    over_limit = rules_pb2.ApplyMoveRequest(position=position, move="x" * 5000)
    description = assert_refused(running, lambda: running.rules.ApplyMove(over_limit),
                                 grpc.StatusCode.RESOURCE_EXHAUSTED, "request")
    assert "over the limit of 4096 bytes" in description
    over_transport = rules_pb2.ApplyMoveRequest(position=position, move="x" * 20_000)
    error = failure(lambda: running.rules.ApplyMove(over_transport))
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert running.rules.LegalMoves(rules_pb2.LegalMovesRequest(position=position)).moves
