"""Operations: standard gRPC metric names on every kind of call, JSON logs with the access
log, and a metrics port in use named in the error."""

from __future__ import annotations

import json
import signal
import socket

import grpc
import pytest

from meeplemind.cli import main
from meeplemind.v1 import analysis_pb2, position_pb2, rules_pb2

from .conftest import StartServer
from .test_scale_out import Serve

ANALYSIS = "meeplemind.v1.Analysis"


def test_standard_metrics_count_streams_and_failures(start_server: StartServer,
                                                    position: position_pb2.Position) -> None:
    running = start_server()
    replies = list(running.analysis.AnalyzeStream(analysis_pb2.AnalyzeStreamRequest(
        position=position, budget=analysis_pb2.SearchBudget(time_ms=200), report_every_ms=20)))
    stream = {"grpc_type": "SERVER_STREAMING", "grpc_service": ANALYSIS, "grpc_method": "AnalyzeStream"}
    assert replies[-1].final
    assert running.metric("grpc_server_started_total", **stream) == 1
    assert running.metric("grpc_server_msg_received_total", **stream) == 1
    assert running.metric("grpc_server_msg_sent_total", **stream) == len(replies)
    running.wait_for("grpc_server_handled_total", 1, grpc_code="OK", **stream)
    assert running.metric("grpc_server_handling_seconds_count", **stream) == 1

    with pytest.raises(grpc.RpcError):
        running.rules.NewGame(rules_pb2.NewGameRequest(game="go"))
    new_game = {"grpc_type": "UNARY", "grpc_service": "meeplemind.v1.Rules", "grpc_method": "NewGame"}
    running.wait_for("grpc_server_handled_total", 1, grpc_code="NOT_FOUND", **new_game)
    assert running.metric("grpc_server_msg_sent_total", **new_game) == 0


def test_json_logs_include_the_access_log() -> None:
    serve = Serve("--port", "0", "--log-format", "json", "--access-log", "--grace", "1")
    try:
        first = json.loads(serve.until("listening on")[-1])
        assert first["level"] == "INFO" and first["logger"] == "meeplemind.server" and "time" in first
        port = int(first["message"].split("(port ")[1].split(")")[0])
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=10)
            rules = channel.unary_unary("/meeplemind.v1.Rules/ListGames",
                                        request_serializer=rules_pb2.ListGamesRequest.SerializeToString,
                                        response_deserializer=rules_pb2.ListGamesResponse.FromString)
            rules(rules_pb2.ListGamesRequest(), timeout=10)
        serve.process.send_signal(signal.SIGTERM)
        records = [json.loads(line) for line in serve.rest().splitlines()]
    finally:
        serve.process.kill()
        serve.process.wait()
    access = [r for r in records if r["logger"] == "meeplemind.access"]
    assert len(access) == 1, records
    assert access[0]["grpc_method"] == "/meeplemind.v1.Rules/ListGames" and access[0]["grpc_code"] == "OK"
    assert access[0]["duration_ms"] > 0 and access[0]["peer"] and access[0]["request_id"] == ""
    assert any(r["message"] == "stopped" for r in records)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_metrics_port_in_use_is_named(workers: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        serve = Serve("--port", "0", "--metrics-port", str(port), "--workers", workers)
        errors = serve.rest()
    assert serve.process.returncode == 2
    assert errors.splitlines()[-1] == (f"meeplemind serve: error: metrics port {port} on 127.0.0.1: "
                                       "cannot serve metrics there (Address already in use)")


def test_health_command(start_server: StartServer, capsys: pytest.CaptureFixture[str]) -> None:
    running = start_server()
    assert main(["health", running.address]) == 0 and capsys.readouterr().out == "SERVING\n"
    assert main(["health", running.address, "--service", "meeplemind.v1.Analysis"]) == 0
    running.server.health.enter_graceful_shutdown()
    assert main(["health", running.address]) == 2
    assert capsys.readouterr().err.endswith(f"error: {running.address}: NOT_SERVING\n")
    assert main(["health", "127.0.0.1:1", "--timeout", "0.2"]) == 2
    assert "127.0.0.1:1: DEADLINE_EXCEEDED" in capsys.readouterr().err
