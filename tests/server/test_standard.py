"""The standard gRPC parts: health, reflection, auth, TLS, metrics, logging, serve() and its
garbage-collector settings."""

from __future__ import annotations

import gc
import logging
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

from meeplemind.server.app import create_server
from meeplemind.server.serving import GC_YOUNG_THRESHOLD, settle_garbage_collector
from meeplemind.client import Client
from meeplemind.v1 import analysis_pb2, analysis_pb2_grpc, position_pb2, rules_pb2, rules_pb2_grpc

from .conftest import Running, StartServer, make_certificate

SERVICES = ["grpc.health.v1.Health", "meeplemind.v1.Analysis", "meeplemind.v1.Rules"]
TOKEN = "s3cret-token"
SERVING = health_pb2.HealthCheckResponse.SERVING


def test_health_says_serving(service: Running) -> None:
    stub = health_pb2_grpc.HealthStub(service.channel)
    for name in ("", "meeplemind.v1.Rules", "meeplemind.v1.Analysis"):
        assert stub.Check(health_pb2.HealthCheckRequest(service=name)).status == SERVING


def test_reflection_lists_both_services_and_health(service: Running) -> None:
    services = ProtoReflectionDescriptorDatabase(service.channel).get_services()
    assert set(SERVICES) <= set(services)
    database = ProtoReflectionDescriptorDatabase(service.channel)
    assert database.FindFileContainingSymbol("meeplemind.v1.Position").name == "meeplemind/v1/position.proto"


def test_bearer_token(start_server: StartServer) -> None:
    running = start_server(auth_token=TOKEN)
    request = rules_pb2.ListGamesRequest()
    for metadata in [(), (("authorization", "Bearer wrong"),), (("authorization", TOKEN),)]:
        with pytest.raises(grpc.RpcError) as refused:
            running.rules.ListGames(request, metadata=metadata)
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    with pytest.raises(grpc.RpcError) as refused:
        list(running.analysis.AnalyzeStream(analysis_pb2.AnalyzeStreamRequest()))
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert running.rules.ListGames(request, metadata=(("authorization", f"Bearer {TOKEN}"),)).games
    health = health_pb2_grpc.HealthStub(running.channel)
    assert health.Check(health_pb2.HealthCheckRequest()).status == SERVING
    assert running.metric("grpc_server_handled_total", grpc_type="UNARY", grpc_service="meeplemind.v1.Rules",
                          grpc_method="ListGames", grpc_code="UNAUTHENTICATED") == 3


def test_tls(tmp_path: Path, position_dict: dict) -> None:
    tls = make_certificate(tmp_path)
    server, port = create_server("127.0.0.1:0", tls=tls)
    server.start()
    try:
        credentials = grpc.ssl_channel_credentials(tls.certificate_chain)
        with grpc.secure_channel(f"localhost:{port}", credentials) as channel:
            assert rules_pb2_grpc.RulesStub(channel).ListGames(rules_pb2.ListGamesRequest(), timeout=5).games
        with Client(f"localhost:{port}", tls=tmp_path / "cert.pem") as client:
            assert client.legal_moves(position_dict)
        with grpc.insecure_channel(f"127.0.0.1:{port}") as plain, pytest.raises(grpc.RpcError):
            rules_pb2_grpc.RulesStub(plain).ListGames(rules_pb2.ListGamesRequest(), timeout=5)
    finally:
        server.stop(None).wait()


def test_metrics_over_http(start_server: StartServer, position: position_pb2.Position) -> None:
    running = start_server()
    http = running.server.metrics.serve(0, "127.0.0.1")
    try:
        running.rules.ListGames(rules_pb2.ListGamesRequest())
        running.analysis.Analyze(analysis_pb2.AnalyzeRequest(
            position=position, budget=analysis_pb2.SearchBudget(iterations=250)))
        with urllib.request.urlopen(f"http://127.0.0.1:{http.server_port}/metrics", timeout=5) as page:
            text = page.read().decode()
    finally:
        http.shutdown()
    rules = 'grpc_method="ListGames",grpc_service="meeplemind.v1.Rules",grpc_type="UNARY"'
    analysis = 'grpc_method="Analyze",grpc_service="meeplemind.v1.Analysis",grpc_type="UNARY"'
    assert f"grpc_server_started_total{{{rules}}} 1.0" in text
    assert f'grpc_server_handled_total{{grpc_code="OK",{rules}}} 1.0' in text
    assert f"grpc_server_handling_seconds_count{{{analysis}}} 1.0" in text
    assert f"grpc_server_msg_sent_total{{{analysis}}} 1.0" in text
    assert "meeplemind_search_iterations_total 250.0" in text
    assert 'meeplemind_searches_total{stop_reason="iterations"} 1.0' in text
    assert "meeplemind_searches_running 0.0" in text and "meeplemind_searches_queued 0.0" in text


def test_one_log_line_per_request(service: Running, caplog: pytest.LogCaptureFixture,
                                  position: position_pb2.Position) -> None:
    with caplog.at_level(logging.INFO, logger="meeplemind.access"):
        service.analysis.Analyze(analysis_pb2.AnalyzeRequest(
            request_id="log-me", position=position, budget=analysis_pb2.SearchBudget(iterations=50)))
        with pytest.raises(grpc.RpcError):
            service.rules.NewGame(rules_pb2.NewGameRequest(game="go"))
        deadline = time.monotonic() + 5
        while len(caplog.records) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2
    assert re.match(r"/meeplemind.v1.Analysis/Analyze OK [\d.]+ms peer=\S+ request_id=log-me$", lines[0])
    assert lines[1].startswith("/meeplemind.v1.Rules/NewGame NOT_FOUND ")


@pytest.mark.parametrize("access_log", [False, True])
def test_serve_stops_gracefully_on_sigterm(position: position_pb2.Position, access_log: bool) -> None:
    """…and logs a line per call only with --access-log."""
    env = {**os.environ, "MEEPLEMIND_AUTH_TOKEN": ""}
    process = subprocess.Popen([sys.executable, "-m", "meeplemind", "serve", "--host", "127.0.0.1",
                                "--port", "0", "--grace", "5", *(["--access-log"] if access_log else [])],
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        listening = re.search(r"listening on 127\.0\.0\.1:0 \(port (\d+)\)", line)
        assert listening, line
        port = int(listening.group(1))
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            pending = analysis_pb2_grpc.AnalysisStub(channel).Analyze.future(analysis_pb2.AnalyzeRequest(
                position=position, budget=analysis_pb2.SearchBudget(time_ms=30_000)))
            time.sleep(0.3)
            process.send_signal(signal.SIGTERM)
            response = pending.result(timeout=5)
        assert response.stats.stop_reason == analysis_pb2.STOP_REASON_CANCELLED
        assert process.wait(timeout=10) == 0
        log = process.stderr.read()
        assert "stopped" in log
        assert ("meeplemind.access: /meeplemind.v1.Analysis/Analyze OK " in log) == access_log
    finally:
        process.kill()
        process.wait()


def test_serve_arguments_are_cheap_to_import() -> None:
    """The command line can build its parser without loading gRPC."""
    check = ("import argparse, sys\nfrom meeplemind.server import add_serve_arguments\n"
             "add_serve_arguments(argparse.ArgumentParser())\nassert 'grpc' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", check], check=True)


def test_settle_garbage_collector_freezes_what_start_up_made() -> None:
    threshold = gc.get_threshold()
    try:
        settle_garbage_collector()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (GC_YOUNG_THRESHOLD, *threshold[1:])
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
