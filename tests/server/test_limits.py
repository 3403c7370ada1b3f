"""Enforced limits: bounded free text, errors that fit any client's metadata limit, and the
server's caps on every search whatever its budget."""

from __future__ import annotations

import grpc
import pytest

from meeplemind.client.errors import field_violations
from meeplemind.server.errors import MAX_ERROR_TEXT_BYTES, ServiceError, quoted, shorten
from meeplemind.server.limits import LONGER_TEXT_BYTES, MAX_TEXT_BYTES, Limits
from meeplemind.v1 import analysis_pb2, rules_pb2
from meeplemind.v1.position_pb2 import Position

from .conftest import Running, StartServer

pytest.importorskip("meeplemind.native._mm", reason="the native engines are not built")

MEGABYTE = "é" * 500_000  # 1,000,000 bytes of UTF-8: under the 1 MiB message limit
GRPC_DEFAULT_METADATA_BYTES = 8192


def _refused(call: object, *args: object, **kwargs: object) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as refused:
        result = call(*args, **kwargs)  # type: ignore[operator]
        if not hasattr(result, "ByteSize"):  # a stream: read it
            list(result)
    return refused.value


def _requests(position: Position) -> list[tuple[str, str, object]]:
    """Requests with 1 MB of text in each field an error could echo: (the field path the
    error must name, the method, the request)."""
    game = Position()
    game.CopyFrom(position)
    game.game = MEGABYTE
    return [
        ("game", "NewGame", rules_pb2.NewGameRequest(game=MEGABYTE, players=3)),
        ("options", "NewGame", rules_pb2.NewGameRequest(game="puerto-rico", players=3, options={MEGABYTE: "x"})),
        ("options.draft", "NewGame", rules_pb2.NewGameRequest(game="puerto-rico", players=3,
                                                              options={"draft": MEGABYTE})),
        ("position.game", "LegalMoves", rules_pb2.LegalMovesRequest(position=game)),
        ("move", "ApplyMove", rules_pb2.ApplyMoveRequest(position=position, move=MEGABYTE)),
        ("request_id", "Analyze", analysis_pb2.AnalyzeRequest(request_id=MEGABYTE, position=position)),
        ("request_id", "AnalyzeStream", analysis_pb2.AnalyzeStreamRequest(request_id=MEGABYTE, position=position)),
        ("request_id", "BestMove", analysis_pb2.BestMoveRequest(request_id=MEGABYTE, position=position)),
    ]


def test_long_text_is_refused_naming_the_field(service: Running, position: Position) -> None:
    """1 MB in any echoed field: INVALID_ARGUMENT with a BadRequest naming it (not the
    client's RESOURCE_EXHAUSTED 'metadata size exceeds limit' of an error echoing it all)."""
    assert not position.puerto_rico.players[0].buildings
    for field, method, request in _requests(position):
        stub = service.analysis if method in ("Analyze", "AnalyzeStream", "BestMove") else service.rules
        error = _refused(getattr(stub, method), request, timeout=30)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, (field, error.details()[:200])
        (path, description), = field_violations(error)
        assert path == field and "1000000 bytes is over the limit" in description, (path, description)
        assert len(error.details().encode()) <= MAX_ERROR_TEXT_BYTES


def test_a_long_name_in_a_position_is_quoted_shortened(service: Running, position: Position) -> None:
    """A game state's strings are names its game checks: a 1 MB one is an unknown name,
    quoted with its middle elided."""
    building = Position()
    building.CopyFrom(position)
    building.puerto_rico.players[0].buildings.add(building=MEGABYTE)
    error = _refused(service.rules.LegalMoves, rules_pb2.LegalMovesRequest(position=building))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    (path, description), = field_violations(error)
    assert path == "position.puerto_rico.players[0].buildings[0].building"
    assert "…" in description and len(description.encode()) <= MAX_ERROR_TEXT_BYTES
    assert len(error.details().encode()) <= MAX_ERROR_TEXT_BYTES


def test_text_at_its_limit_is_read(service: Running) -> None:
    """The limits are where the errors say: the longest allowed values get the usual answer."""
    error = _refused(service.rules.NewGame, rules_pb2.NewGameRequest(game="g" * MAX_TEXT_BYTES, players=3))
    assert error.code() == grpc.StatusCode.NOT_FOUND
    longest = LONGER_TEXT_BYTES["meeplemind.v1.NewGameRequest.OptionsEntry.value"]
    error = _refused(service.rules.NewGame, rules_pb2.NewGameRequest(
        game="puerto-rico", players=3, options={"expansion": "new-buildings", "buildings": "b" * longest}))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field_violations(error)[0][0] == "options.buildings"


def test_echoed_values_are_shortened(service: Running) -> None:
    error = _refused(service.rules.NewGame, rules_pb2.NewGameRequest(game="z" * MAX_TEXT_BYTES, players=3))
    assert f"unknown game {quoted('z' * MAX_TEXT_BYTES)}" in error.details()
    assert "…" in error.details() and "(128 characters)" in error.details()
    assert "z" * 40 not in error.details()


def test_every_error_fits_default_metadata_limits() -> None:
    """Whatever an error quotes, its trailers stay under gRPC's default 8 KiB."""
    huge = "\U0001F600" * 1_000_000  # 4 bytes of UTF-8 each, 12 once percent-encoded
    error = ServiceError(grpc.StatusCode.INVALID_ARGUMENT, huge, [(huge, huge)] * 100)
    status = error.status()
    size = sum(len(k) + len(v) for k, v in status.trailing_metadata) + len(status.details.encode()) * 3
    assert size < GRPC_DEFAULT_METADATA_BYTES / 2
    assert len(error.violations) == 4 and "…" in error.message


def test_shorten_elides_the_middle_at_characters() -> None:
    assert shorten("abc", 3) == "abc"
    assert shorten("éééé", 7) == "é…é"  # 2 bytes of each é and 3 of the ellipsis
    assert shorten("éééé", 6) == "…é"  # (1 byte of the 3 kept, the head, is no whole é)
    long = f"'{'x' * 1000}' is not a building"
    assert len(shorten(long, 100).encode()) <= 100 and shorten(long, 100).endswith("' is not a building")


def test_max_time_caps_an_iteration_budget(start_server: StartServer, position: Position) -> None:
    """--max-time-ms ends every search: here one asking for the most iterations allowed."""
    running = start_server(limits=Limits(max_time_ms=200))
    for method, request in [
        ("Analyze", analysis_pb2.AnalyzeRequest(position=position, budget=analysis_pb2.SearchBudget(
            iterations=Limits().max_iterations))),
        ("BestMove", analysis_pb2.BestMoveRequest(position=position, level=10)),
    ]:
        response = getattr(running.analysis, method)(request, timeout=60)
        assert response.stats.stop_reason == analysis_pb2.STOP_REASON_TIME, method
        assert response.stats.iterations < Limits().max_iterations
    stream = list(running.analysis.AnalyzeStream(analysis_pb2.AnalyzeStreamRequest(
        position=position, budget=analysis_pb2.SearchBudget(iterations=Limits().max_iterations)), timeout=60))
    assert stream[-1].final and stream[-1].stats.stop_reason == analysis_pb2.STOP_REASON_TIME


def test_max_iterations_caps_a_time_budget(start_server: StartServer, position: Position) -> None:
    running = start_server(limits=Limits(max_iterations=300, default_iterations=300))
    response = running.analysis.Analyze(analysis_pb2.AnalyzeRequest(
        position=position, budget=analysis_pb2.SearchBudget(time_ms=Limits().max_time_ms)), timeout=60)
    assert (response.stats.stop_reason, response.stats.iterations) == (analysis_pb2.STOP_REASON_ITERATIONS, 300)


def test_default_limits_free_a_slot_within_a_minute() -> None:
    assert Limits().max_time_ms <= 60_000
