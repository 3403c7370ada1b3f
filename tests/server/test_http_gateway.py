"""Connect and gRPC-Web on the HTTP port, against a real server: every RPC over both
protocols on HTTP/1.1 and HTTP/2, errors with details, auth, deadlines, a cancelled
stream, CORS, TLS and the curl example."""

from __future__ import annotations

import argparse
import json
import ssl
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from connectrpc.client import ConnectClientSync
from connectrpc.code import Code
from connectrpc.compat import google_protobuf_binary_codec, google_protobuf_json_codec
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2
from pyqwest import HTTPVersion, SyncClient, SyncHTTPTransport

from meeplemind.server.command import http_options
from meeplemind.server.options import add_serve_arguments
from meeplemind.server.http_gateway import HTTP_SERVICES, methods
from meeplemind.v1 import analysis_pb2, position_pb2, rules_pb2

from ..http_server import Serving, serving_http
from .conftest import make_certificate
from .test_standard import TOKEN

METHODS = methods(HTTP_SERVICES)
PROTOCOLS = {"connect-json": (ProtocolType.CONNECT, True), "connect-proto": (ProtocolType.CONNECT, False),
             "grpc-web": (ProtocolType.GRPC_WEB, False)}
HTTP_VERSIONS = {"http1": HTTPVersion.HTTP1, "http2": HTTPVersion.HTTP2}


class Gatewayed:
    """A started server with its HTTP port."""

    def __init__(self, serving: Serving) -> None:
        self.server, self.gateway = serving.server, serving.gateway
        self.url = f"http://127.0.0.1:{self.gateway.port}"

    def client(self, protocol: str = "connect-json", http: str = "http1", *, url: str | None = None,
               ca: bytes | None = None) -> ConnectClientSync:
        kind, json_codec = PROTOCOLS[protocol]
        transport = SyncHTTPTransport(http_version=HTTP_VERSIONS[http], tls_ca_cert=ca, enable_otel=False)
        return ConnectClientSync(url or self.url, protocol=kind, http_client=SyncClient(transport),
                                 codec=(google_protobuf_json_codec() if json_codec
                                        else google_protobuf_binary_codec()))

    def metric(self, name: str, **labels: str) -> float:
        return self.server.metrics.sample(name, **labels)

    def wait_for(self, name: str, value: float, timeout_s: float = 10.0, **labels: str) -> None:
        end = time.monotonic() + timeout_s
        while self.metric(name, **labels) != value:
            assert time.monotonic() < end, f"{name} stayed at {self.metric(name, **labels)}, not {value}"
            time.sleep(0.01)


StartGateway = Callable[..., Gatewayed]


@pytest.fixture
def start_gateway() -> Iterator[StartGateway]:
    """Start servers with an HTTP port (create_server options, plus ``cors``); stopped at teardown."""
    with ExitStack() as stack:
        yield lambda cors=(), **options: Gatewayed(stack.enter_context(serving_http(cors, **options)))


@pytest.fixture(scope="module")
def gatewayed() -> Iterator[Gatewayed]:
    with serving_http(max_searches=2, max_queue=2) as running:
        yield Gatewayed(running)


def _call(client: ConnectClientSync, name: str, request: Any, **kwargs: Any) -> Any:
    return client.execute_unary(request=request, method=METHODS[name], **kwargs)


def _stream(client: ConnectClientSync, name: str, request: Any, **kwargs: Any) -> Iterator[Any]:
    return client.execute_server_stream(request=request, method=METHODS[name], **kwargs)


def test_every_rpc_of_meeplemind_v1_is_served() -> None:
    assert {p for p in METHODS if p.startswith("/meeplemind.v1.")} == {
        "/meeplemind.v1.Rules/ListGames", "/meeplemind.v1.Rules/NewGame", "/meeplemind.v1.Rules/LegalMoves",
        "/meeplemind.v1.Rules/ApplyMove", "/meeplemind.v1.Rules/Observe", "/meeplemind.v1.Analysis/Analyze",
        "/meeplemind.v1.Analysis/AnalyzeStream", "/meeplemind.v1.Analysis/BestMove",
        "/meeplemind.v1.Analysis/ReviewGame"}


@pytest.mark.parametrize("http", HTTP_VERSIONS)
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_every_rpc(gatewayed: Gatewayed, protocol: str, http: str) -> None:
    client = gatewayed.client(protocol, http)
    games = _call(client, "/meeplemind.v1.Rules/ListGames", rules_pb2.ListGamesRequest())
    assert {g.id for g in games.games} >= {"puerto-rico", "castles-of-burgundy"}
    position = _call(client, "/meeplemind.v1.Rules/NewGame",
                     rules_pb2.NewGameRequest(game="puerto-rico", players=3, seed=7)).position
    assert position.game == "puerto-rico" and len(position.puerto_rico.players) == 3
    legal = _call(client, "/meeplemind.v1.Rules/LegalMoves", rules_pb2.LegalMovesRequest(position=position))
    assert "role:settler" in [m.notation for m in legal.moves]
    after = _call(client, "/meeplemind.v1.Rules/ApplyMove",
                  rules_pb2.ApplyMoveRequest(position=position, move="role:settler", seed=1)).position
    assert after.puerto_rico.phase == "settler"
    budget = analysis_pb2.SearchBudget(iterations=200)
    analysis = _call(client, "/meeplemind.v1.Analysis/Analyze",
                     analysis_pb2.AnalyzeRequest(request_id="a", position=position, budget=budget, seed=1))
    assert analysis.request_id == "a" and analysis.stats.iterations == 200
    assert sum(m.visits for m in analysis.moves) == 200
    best = _call(client, "/meeplemind.v1.Analysis/BestMove",
                 analysis_pb2.BestMoveRequest(position=position, level=3, seed=1))
    assert best.move in [m.notation for m in legal.moves] and best.stats.iterations > 0
    assert best.stats.stop_reason == analysis_pb2.STOP_REASON_CPU_TIME  # level 3: 1 ms of CPU
    updates = list(_stream(client, "/meeplemind.v1.Analysis/AnalyzeStream", analysis_pb2.AnalyzeStreamRequest(
        position=position, budget=analysis_pb2.SearchBudget(iterations=3000), report_every_ms=10, seed=1)))
    assert [u.final for u in updates][-1] and not any(u.final for u in updates[:-1])
    assert updates[-1].stats.iterations == 3000
    record = analysis_pb2.GameRecord(start=position, moves=[analysis_pb2.PlayedMove(move="role:settler", seed=1)])
    reviewed = list(_stream(client, "/meeplemind.v1.Analysis/ReviewGame", analysis_pb2.ReviewGameRequest(
        request_id="r", game=record, budget=analysis_pb2.SearchBudget(iterations=100), seed=1)))
    *moves, summary = [r.WhichOneof("item") for r in reviewed]
    assert summary == "summary" and moves and set(moves) == {"move"}  # the move, then refined again
    assert {r.move.index for r in reviewed[:-1]} == {0}
    assert reviewed[0].move.played.move == "role:settler" and reviewed[-1].summary.moves_reviewed == 1
    check = _call(client, "/grpc.health.v1.Health/Check", health_pb2.HealthCheckRequest())
    assert check.status == health_pb2.HealthCheckResponse.SERVING


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_errors_carry_the_code_and_the_bad_request(gatewayed: Gatewayed, protocol: str) -> None:
    client = gatewayed.client(protocol)
    with pytest.raises(ConnectError) as refused:
        _call(client, "/meeplemind.v1.Rules/NewGame", rules_pb2.NewGameRequest(game="puerto-rico", players=9))
    assert refused.value.code is Code.INVALID_ARGUMENT
    assert refused.value.message == "players: 9 is not one of 2, 3, 4, 5"
    [detail] = refused.value.details
    assert detail.type_name == "google.rpc.BadRequest"
    violation = error_details_pb2.BadRequest.FromString(detail.message_bytes).field_violations[0]
    assert (violation.field, violation.description) == ("players", "9 is not one of 2, 3, 4, 5")
    with pytest.raises(ConnectError) as missing:
        _call(client, "/meeplemind.v1.Rules/NewGame", rules_pb2.NewGameRequest(game="go", players=2))
    assert missing.value.code is Code.NOT_FOUND
    with pytest.raises(ConnectError) as stream_refused:
        list(_stream(client, "/meeplemind.v1.Analysis/AnalyzeStream", analysis_pb2.AnalyzeStreamRequest(
            position=position_pb2.Position(game="puerto-rico"), report_every_ms=1)))
    assert stream_refused.value.code is Code.INVALID_ARGUMENT
    assert stream_refused.value.message == "position.puerto_rico: missing (the puerto-rico state)"


def test_the_curl_example_of_the_readme(gatewayed: Gatewayed) -> None:
    """``curl -H 'Content-Type: application/json' -d '{...}' .../meeplemind.v1.Rules/NewGame``:
    plain JSON out, with the proto field names of position files."""
    request = urllib.request.Request(f"{gatewayed.url}/meeplemind.v1.Rules/NewGame",
                                     data=b'{"game":"puerto-rico","players":3,"seed":7}',
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        body = json.load(reply)
    assert body["position"]["game"] == "puerto-rico"
    assert len(body["position"]["puerto_rico"]["players"]) == 3
    bad = urllib.request.Request(f"{gatewayed.url}/meeplemind.v1.Rules/NewGame", data=b'{"players": "x"}',
                                 headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(bad, timeout=10)
    assert refused.value.code == 400
    error = json.load(refused.value)
    assert error["code"] == "invalid_argument" and error["message"] == "request.players: 'x' is not an integer"
    assert error["details"][0]["type"] == "google.rpc.BadRequest"
    typo = urllib.request.Request(f"{gatewayed.url}/meeplemind.v1.Rules/NewGame", data=b'{"playrs": 3}',
                                  headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as unknown_field:
        urllib.request.urlopen(typo, timeout=10)
    assert "playrs" in json.load(unknown_field.value)["message"]
    nowhere = urllib.request.Request(f"{gatewayed.url}/meeplemind.v1.Rules/Nope", data=b"{}",
                                     headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as no_method:
        urllib.request.urlopen(nowhere, timeout=10)
    assert no_method.value.code == 404


def test_the_page_is_served_at_the_root(gatewayed: Gatewayed) -> None:
    with urllib.request.urlopen(f"{gatewayed.url}/", timeout=10) as page:
        assert page.headers["content-type"].startswith("text/html") and b"<title>" in page.read()
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{gatewayed.url}/no-such-file.js", timeout=10)
    assert missing.value.code == 404


@pytest.mark.parametrize("protocol", ["connect-json", "grpc-web"])
def test_bearer_token(start_gateway: StartGateway, protocol: str) -> None:
    running = start_gateway(auth_token=TOKEN)
    client = running.client(protocol)
    for headers in [{}, {"authorization": "Bearer wrong"}, {"authorization": "Bearer sécret"}]:
        with pytest.raises(ConnectError) as refused:
            _call(client, "/meeplemind.v1.Rules/ListGames", rules_pb2.ListGamesRequest(), headers=headers)
        assert refused.value.code is Code.UNAUTHENTICATED
    assert _call(client, "/meeplemind.v1.Rules/ListGames", rules_pb2.ListGamesRequest(),
                 headers={"authorization": f"Bearer {TOKEN}"}).games
    list_games = {"grpc_type": "UNARY", "grpc_service": "meeplemind.v1.Rules", "grpc_method": "ListGames"}
    assert running.metric("grpc_server_handled_total", grpc_code="UNAUTHENTICATED", **list_games) == 3
    assert running.metric("grpc_server_handled_total", grpc_code="OK", **list_games) == 1


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_deadline_cuts_the_search(gatewayed: Gatewayed, protocol: str) -> None:
    client = gatewayed.client(protocol)
    position = _call(client, "/meeplemind.v1.Rules/NewGame",
                     rules_pb2.NewGameRequest(game="puerto-rico", players=4, seed=3)).position
    # The deadline goes in the protocol's header only: the client's own timer would race the
    # answer on a loaded machine, and what is tested is the server keeping the deadline.
    deadline = {"connect-timeout-ms": "700"} if protocol.startswith("connect") else {"grpc-timeout": "700m"}
    cut_before = gatewayed.metric("meeplemind_searches_total", stop_reason="deadline")
    try:
        reply = _call(client, "/meeplemind.v1.Analysis/Analyze", analysis_pb2.AnalyzeRequest(
            position=position, budget=analysis_pb2.SearchBudget(time_ms=30_000)), headers=deadline)
        assert reply.stats.stop_reason == analysis_pb2.STOP_REASON_DEADLINE
        assert reply.stats.iterations > 0 and reply.moves
    except ConnectError as late:  # a stall of the loaded machine on the answer's way back
        assert late.code is Code.DEADLINE_EXCEEDED
    gatewayed.wait_for("meeplemind_searches_total", cut_before + 1, stop_reason="deadline")


@pytest.mark.parametrize("http", HTTP_VERSIONS)
@pytest.mark.parametrize("protocol", ["connect-json", "grpc-web"])
def test_a_cancelled_stream_stops_its_search(start_gateway: StartGateway, protocol: str, http: str) -> None:
    running = start_gateway()
    client = running.client(protocol, http)
    position = _call(client, "/meeplemind.v1.Rules/NewGame",
                     rules_pb2.NewGameRequest(game="castles-of-burgundy", players=2, seed=3)).position
    stream = _stream(client, "/meeplemind.v1.Analysis/AnalyzeStream", analysis_pb2.AnalyzeStreamRequest(
        position=position, budget=analysis_pb2.SearchBudget(time_ms=30_000), report_every_ms=20))
    first = next(stream)
    assert not first.final
    stream.close()  # the browser goes away
    client.close()
    running.wait_for("meeplemind_searches_total", 1.0, stop_reason="cancelled")
    running.wait_for("meeplemind_searches_running", 0.0)


def test_cors_is_closed_by_default_and_opens_to_the_origins_given(start_gateway: StartGateway) -> None:
    closed, opened = start_gateway(), start_gateway(cors=("https://tables.example",))

    def preflight(url: str, origin: str) -> dict[str, str]:
        request = urllib.request.Request(f"{url}/meeplemind.v1.Rules/ListGames", method="OPTIONS", headers={
            "Origin": origin, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type,connect-protocol-version"})
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                return dict(reply.headers)
        except urllib.error.HTTPError as e:
            return dict(e.headers)

    allow_origin = "access-control-allow-origin"
    assert allow_origin not in {k.lower() for k in preflight(closed.url, "https://tables.example")}
    allowed = {k.lower(): v for k, v in preflight(opened.url, "https://tables.example").items()}
    assert allowed["access-control-allow-origin"] == "https://tables.example"
    assert "connect-protocol-version" in allowed["access-control-allow-headers"]
    assert allow_origin not in {k.lower() for k in preflight(opened.url, "https://other.example")}


def test_tls(tmp_path: Path, start_gateway: StartGateway) -> None:
    tls = make_certificate(tmp_path)
    running = start_gateway(tls=tls)
    context = ssl.create_default_context(cadata=tls.certificate_chain.decode())
    assert _post_json(f"https://localhost:{running.gateway.port}/meeplemind.v1.Rules/ListGames", {},
                      context=context)["games"]
    with pytest.raises((urllib.error.URLError, ConnectionError)):
        _post_json(f"http://127.0.0.1:{running.gateway.port}/meeplemind.v1.Rules/ListGames", {})


def _post_json(url: str, body: dict, **kwargs: Any) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10, **kwargs) as reply:
        return json.load(reply)


def test_serve_starts_both_ports() -> None:
    """``meeplemind serve --port 0``: the HTTP port is any free port too, and answers."""
    process = subprocess.Popen(
        [*_meeplemind(), "serve", "--host", "127.0.0.1", "--port", "0", "--grace", "2"],
        stderr=subprocess.PIPE, text=True)
    try:
        url = None
        lines = []
        reader = threading.Thread(target=lambda: lines.extend(iter(process.stderr.readline, "")), daemon=True)
        reader.start()
        end = time.monotonic() + 60
        while url is None and time.monotonic() < end:
            url = next((line.rsplit(" on ", 1)[1].strip() for line in list(lines)
                        if "the web page on http://" in line), None)
            time.sleep(0.05)
        assert url, lines
        assert _post_json(f"{url}meeplemind.v1.Rules/ListGames", {})["games"]
    finally:
        process.terminate()
        assert process.wait(30) == 0


def _meeplemind() -> list[str]:
    import sys

    return [sys.executable, "-m", "meeplemind"]


def test_the_message_limit_holds_over_http(start_gateway: StartGateway) -> None:
    running = start_gateway(max_message_bytes=100)
    client = running.client("connect-json")
    position = _call(client, "/meeplemind.v1.Rules/NewGame",
                     rules_pb2.NewGameRequest(game="puerto-rico", players=3, seed=7)).position
    with pytest.raises(ConnectError) as refused:  # over the limit: the guard names the request
        _call(client, "/meeplemind.v1.Rules/LegalMoves", rules_pb2.LegalMovesRequest(position=position))
    assert refused.value.code is Code.RESOURCE_EXHAUSTED
    assert refused.value.message.startswith("request: ") and "over the limit of 100 bytes" in refused.value.message
    huge = rules_pb2.NewGameRequest(game="x" * 2000, players=3)  # past the transport's 4 times
    with pytest.raises(ConnectError) as cut:
        _call(client, "/meeplemind.v1.Rules/NewGame", huge)
    assert cut.value.code is Code.RESOURCE_EXHAUSTED


@pytest.mark.parametrize(("given", "port"), [([], 8080), (["--port", "0"], 0), (["--http-port", "9000"], 9000)])
def test_http_port_option(given: list[str], port: int) -> None:
    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    options = http_options(parser.parse_args([*given, "--cors-origin", "https://a.example"]))
    assert (options.host, options.port, options.cors_origins) == ("127.0.0.1", port, ("https://a.example",))
    assert http_options(parser.parse_args(["--http-port", "off"])) is None
    for bad in ("eighty", "70000"):
        with pytest.raises(SystemExit):
            parser.parse_args(["--http-port", bad])
