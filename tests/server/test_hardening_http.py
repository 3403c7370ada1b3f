"""The HTTP port's limits against a real server (docs/limits.md): declared and actual body
sizes, stalled and trickled bodies, idle connections, unread streams, gRPC over HTTP/1.1,
envelopes flagged compressed, misspelt JSON fields, int32 extremes, the page's files; and
never a traceback in the server's log."""

from __future__ import annotations

import json
import logging
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from meeplemind.engine import get_game
from meeplemind.positions import vector_codec
from meeplemind.positions.messages import message_to_dict, state_key, to_position
from meeplemind.engine.schema import schema_for
from meeplemind.server.http_guard import HttpLimits
from meeplemind.v1 import position_pb2

from ..http_server import Serving, serving_http

ANALYZE_STREAM = "/meeplemind.v1.Analysis/AnalyzeStream"
NEW_GAME = "/meeplemind.v1.Rules/NewGame"
#: Small limits, so that a test waits little for them.
SMALL = HttpLimits(max_body_bytes=1 << 16, body_timeout_s=0.5, max_body_readers=4, idle_timeout_s=0.5)


@pytest.fixture
def no_traceback(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fails the test if anything was logged with a traceback (or at ERROR)."""
    caplog.set_level(logging.WARNING)
    yield
    bad = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


@pytest.fixture
def serving(no_traceback: None) -> Iterator[Any]:
    with ExitStack() as stack:
        yield lambda **options: stack.enter_context(serving_http(**options))


def _connect(running: Serving) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", running.gateway.port), timeout=30)
    return sock


def _head(path: str, content_type: str, length: int, more: str = "") -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {length}\r\n{more}\r\n").encode()


def _answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and (de-chunked) body of the response on ``sock`` (read to its close)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value for name, value in (line.split(": ", 1) for line in lines[1:])}
    if headers.get("transfer-encoding") == "chunked":
        plain = b""
        while body:
            size, _, rest = body.partition(b"\r\n")
            n = int(size, 16)
            plain, body = plain + rest[:n], rest[n + 2:]
        body = plain
    return int(lines[0].split()[1]), headers, body


def _call(running: Serving, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    with _connect(running) as sock:
        sock.sendall(raw)
        return _answer(sock)


def _envelope(body: bytes, flags: int = 0) -> bytes:
    return bytes([flags]) + len(body).to_bytes(4, "big") + body


def test_a_declared_length_over_the_limit_is_refused_before_the_body(serving: Any) -> None:
    running = serving()
    status, headers, body = _call(running, _head(NEW_GAME, "application/json", 1 << 40) + b"{")
    assert status == 413 and headers["connection"] == "close"
    assert json.loads(body) == {"code": "resource_exhausted", "message":
                                f"request: {1 << 40} bytes is over the limit of {running.gateway.limits.max_body_bytes} bytes"}
    status, headers, _ = _call(running, _head(NEW_GAME, "application/grpc-web+proto", 1 << 40))
    assert status == 200 and headers["grpc-status"] == "8"


def test_a_body_growing_past_the_limit_is_refused(serving: Any) -> None:
    running = serving(http_limits=SMALL)
    chunked = (f"POST {NEW_GAME} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
               "Transfer-Encoding: chunked\r\n\r\n").encode()
    piece = b"x" * 8192
    with _connect(running) as sock:
        sock.sendall(chunked)
        try:
            for _ in range(16):
                sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
        except OSError:  # the server answered and closed first
            pass
        status, _, body = _answer(sock)
    assert status == 413 and json.loads(body)["code"] == "resource_exhausted"


def test_a_stalled_body_is_answered_after_the_body_timeout(serving: Any) -> None:
    running = serving(http_limits=SMALL)
    with _connect(running) as sock:
        sock.sendall(_head(NEW_GAME, "application/json", 100) + b'{"game": ')  # and nothing more
        status, _, body = _answer(sock)
    assert status == 408
    assert json.loads(body) == {"code": "deadline_exceeded",
                                "message": "request: the body did not arrive within 0.5 s of the headers"}


def test_bodies_on_their_way_are_bounded_and_the_port_serves_after_them(serving: Any) -> None:
    running = serving(http_limits=HttpLimits(max_body_bytes=1 << 16, body_timeout_s=30, max_body_readers=4))
    trickling = [_connect(running) for _ in range(4)]
    for sock in trickling:
        sock.sendall(_head(NEW_GAME, "application/json", 100) + b"{")
    refused = None
    end = time.monotonic() + 30
    while refused is None and time.monotonic() < end:  # until all four are being read
        status, _, body = _call(running, _head(NEW_GAME, "application/json", 2) + b"{}")
        if status == 503:
            refused = json.loads(body)
    assert refused is not None and refused["code"] == "unavailable"
    for sock in trickling:
        sock.close()
    end = time.monotonic() + 30
    while _call(running, _head(NEW_GAME, "application/json", 2) + b"{}")[0] == 503:
        assert time.monotonic() < end, "the readers of closed connections were never let go"
    good = b'{"game": "puerto-rico", "players": 3}'
    status, _, body = _call(running, _head(NEW_GAME, "application/json", len(good), "Connection: close\r\n") + good)
    assert status == 200 and json.loads(body)["position"]["game"] == "puerto-rico"


def test_an_idle_connection_is_closed(serving: Any) -> None:
    running = serving(http_limits=SMALL)
    with _connect(running) as sock:
        assert sock.recv(1) == b""  # closed by the server, before any request
        sock.close()
    with _connect(running) as sock:
        sock.sendall(b"POST /meeplemind.v1.Rules/NewGame HTTP/1.1\r\nHost: te")  # headers never finished
        assert sock.recv(1) == b""


def test_grpc_over_http1_is_a_clear_error(serving: Any) -> None:
    running = serving()
    status, headers, body = _call(running, _head("/meeplemind.v1.Rules/ListGames", "application/grpc", 5,
                                                 "TE: trailers\r\n") + _envelope(b""))
    assert status == 415 and headers["grpc-status"] == "12" and body == b""
    assert "gRPC needs HTTP/2" in urllib.request.unquote(headers["grpc-message"])


@pytest.mark.parametrize(("content_type", "encoding"), [("application/grpc-web+proto", "grpc-encoding"),
                                                        ("application/connect+proto", "connect-content-encoding")])
def test_a_message_flagged_compressed_without_compression_is_a_client_error(
        serving: Any, content_type: str, encoding: str) -> None:
    running = serving()
    status, headers, body = _call(running, _head("/meeplemind.v1.Rules/ListGames", content_type, 5) + _envelope(b"", 1))
    if content_type.startswith("application/grpc-web"):
        assert status == 200 and headers["grpc-status"] == "3"
    else:
        assert status == 200 and body[0] == 2 and json.loads(body[5:])["error"]["code"] == "invalid_argument"
    assert encoding in (urllib.request.unquote(headers.get("grpc-message", "")) + body.decode("latin-1"))


def test_misspelt_fields_are_named_without_python_words(serving: Any) -> None:
    running = serving()
    position = to_position(get_game("castles-of-burgundy").new_game(2, 1))
    position["castlesOfBurgundy"] = position.pop("castles_of_burgundy")
    position["castlesOfBurgundy"]["players"][0]["vpChips"] = 3
    for request, field, problem in [
            ({"position": position}, "request.position.castlesOfBurgundy.players[0].vpChips", "unknown field"),
            ({"maxMoves": "x"}, "request.maxMoves", "'x' is not an integer"),
            ({"position": {"game": 5}}, "request.position.game", "expected a string, got a number")]:
        data = json.dumps(request).encode()
        status, _, body = _call(running, _head("/meeplemind.v1.Analysis/Analyze", "application/json", len(data)) + data)
        error = json.loads(body)
        assert status == 400 and error["code"] == "invalid_argument", error
        assert error["message"].startswith(f"{field}: {problem}"), error
        for python in ("Message type", "Failed to parse", "literal", "bytes-like"):
            assert python not in error["message"]


def test_an_int32_extreme_over_http_is_invalid_argument(serving: Any) -> None:
    running = serving()
    game = get_game("castles-of-burgundy")
    vector = game.new_game(2, 1).encode().tolist()
    schema = schema_for(game.SCHEMAS, vector)
    vector[schema.index("pending.cell")] = -(1 << 31) - 1
    position = position_pb2.Position(game="castles-of-burgundy")
    getattr(position, state_key("castles-of-burgundy")).CopyFrom(vector_codec.write(schema, vector))
    data = json.dumps({"position": message_to_dict(position)}).encode()
    status, _, body = _call(running, _head("/meeplemind.v1.Rules/LegalMoves", "application/json", len(data)) + data)
    assert status == 400
    assert json.loads(body)["message"].startswith("position.castles_of_burgundy.pending.cell: -2147483648")


def test_the_page_serves_its_files_and_no_python(serving: Any) -> None:
    running = serving()
    url = f"http://127.0.0.1:{running.gateway.port}"
    for name in ("/", "/index.html", "/app.js", "/style.css", "/facts.json"):
        with urllib.request.urlopen(url + name, timeout=10) as reply:
            assert reply.status == 200
    for name in ("/facts.py", "/__init__.py", "/__pycache__/", "/__pycache__/facts.cpython-311.pyc"):
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(url + name, timeout=10)
        assert missing.value.code == 404, name


def test_an_unread_stream_holds_one_progress_report_and_ends_with_the_final(serving: Any) -> None:
    """A client reading nothing: the port drains the gRPC stream, replacing the report not
    sent yet (held memory: one report), and the final answer still arrives."""
    running = serving()
    # the port's connections inherit a small send buffer: the kernel holds little of the stream
    running.gateway._socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
    state = get_game("castles-of-burgundy").new_game(4, 3)
    data = _envelope(json.dumps({"position": to_position(state), "budget": {"time_ms": 4000},
                                 "report_every_ms": 10}).encode())
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting: a small window
        sock.settimeout(30)
        sock.connect(("127.0.0.1", running.gateway.port))
        sock.sendall(_head(ANALYZE_STREAM, "application/connect+json", len(data), "Connection: close\r\n") + data)
        end = time.monotonic() + 60
        while running.server.metrics.sample("meeplemind_searches_total", stop_reason="time") < 1:
            assert time.monotonic() < end, "the search did not end"
            time.sleep(0.05)
        status, _, body = _answer(sock)
    assert status == 200
    messages = []
    while body:
        size = int.from_bytes(body[1:5], "big")
        messages.append((body[0], json.loads(body[5:5 + size])))
        body = body[5 + size:]
    assert messages[-1][0] == 2 and "error" not in messages[-1][1]  # the end of the stream, no error
    final = messages[-2][1]
    assert final["final"] and final["stats"]["stop_reason"] == "STOP_REASON_TIME"
    reports = running.server.metrics.sample("grpc_server_msg_sent_total", grpc_type="SERVER_STREAMING",
                                            grpc_service="meeplemind.v1.Analysis", grpc_method="AnalyzeStream")
    dropped = running.server.metrics.sample("meeplemind_http_progress_dropped_total")
    assert dropped > 0 and len(messages) - 1 + dropped == reports


def test_the_limits_table_quotes_the_defaults() -> None:
    """docs/limits.md's numbers are the code's defaults."""
    from pathlib import Path

    from meeplemind.server.limits import DEFAULT_MAX_MESSAGE_BYTES, Limits

    table = (Path(__file__).resolve().parents[2] / "docs" / "limits.md").read_text()
    http, limits = HttpLimits(max_body_bytes=4 * DEFAULT_MAX_MESSAGE_BYTES), Limits()
    for quoted in (f"{http.body_timeout_s:g} s from the end of the headers", f"{http.max_body_readers} at once",
                   f"{http.idle_timeout_s:g} s without a call in flight", f"`--max-review-ms` ({limits.max_review_ms:,})",
                   f"at least {limits.review_margin_floor_ms:g} ms before it", f"{limits.deadline_margin_floor_ms:g} ms, plus",
                   f"at most {limits.deadline_margin_ceiling_ms:g} ms", f"`time_ms` and `cpu_ms` {limits.max_time_ms:,}",
                   f"`iterations` {limits.max_iterations:,}", f"{DEFAULT_MAX_MESSAGE_BYTES >> 20} MiB"):
        assert quoted in table, quoted


_LIST_GAMES = "/meeplemind.v1.Rules/ListGames"
#: Malformed calls of every kind: (path, content type, body, more headers).
MALFORMED = [
    (_LIST_GAMES, "text/plain", b"hi", ""),
    (_LIST_GAMES, "application/proto", b"\xff\xff\xff", ""),
    (_LIST_GAMES, "application/json", b"{", ""),
    (_LIST_GAMES, "application/json", b"\xff\xfe", ""),
    (_LIST_GAMES, "application/json", b"[1]", ""),
    (_LIST_GAMES, "application/grpc", _envelope(b""), ""),
    (_LIST_GAMES, "application/grpc-web+proto", b"\x00\x00\x00\x00\x09ab", ""),
    (_LIST_GAMES, "application/grpc-web+proto", _envelope(b"") * 2, ""),
    (_LIST_GAMES, "application/grpc-web+proto", _envelope(b"", 0x40), ""),
    (_LIST_GAMES, "application/grpc-web+proto", _envelope(b"ab", 1), "grpc-encoding: gzip\r\n"),
    (_LIST_GAMES, "application/grpc-web+proto", _envelope(b""), "grpc-encoding: br\r\n"),
    (_LIST_GAMES, "application/grpc-web+proto", _envelope(b""), "grpc-timeout: 5x\r\n"),
    (_LIST_GAMES, "application/json", b"{}", "connect-timeout-ms: abc\r\n"),
    (_LIST_GAMES, "application/json", b"{}", "connect-timeout-ms: 99999999999999999999\r\n"),
    (_LIST_GAMES, "application/json", b"{}", "connect-protocol-version: 2\r\n"),
    (_LIST_GAMES, "application/json", b"xx", "content-encoding: gzip\r\n"),
    (_LIST_GAMES, "application/connect+json", b"\x00\x00\x00\x00\x09{}", ""),
    ("/meeplemind.v1.Rules/Nope", "application/json", b"{}", ""),
    ("/meeplemind.v9.Nope/Nope", "application/json", b"{}", ""),
    (ANALYZE_STREAM, "application/connect+json", _envelope(b'{"position": {"game": "chess"}}'), ""),
]


@pytest.mark.parametrize(("path", "content_type", "body", "more"), MALFORMED)
def test_malformed_calls_get_a_client_error_and_log_no_traceback(serving: Any, path: str, content_type: str,
                                                                 body: bytes, more: str) -> None:
    running = serving()
    status, headers, answer = _call(running, _head(path, content_type, len(body), more + "Connection: close\r\n") + body)
    if status == 200 and content_type.startswith("application/grpc"):  # the status in the headers or the trailers
        trailers = answer[5:].decode("latin-1") if answer[:1] == b"\x80" else ""
        grpc_status = headers.get("grpc-status") or trailers.split("grpc-status: ", 1)[-1].split("\r\n")[0]
        assert grpc_status not in ("0", "2", "13"), (headers, answer)  # not OK, UNKNOWN or INTERNAL
    elif status == 200 and content_type.startswith("application/connect+"):  # the end of the stream says
        assert answer[0] == 2 and json.loads(answer[5:])["error"]["code"] not in ("unknown", "internal"), answer
    else:
        assert 400 <= status < 500, (status, headers, answer)
