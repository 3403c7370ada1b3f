"""Fixtures: real servers on 127.0.0.1 port 0, real channels, stubs and positions."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest

from meeplemind.engine import get_game
from meeplemind.positions.messages import to_position
from meeplemind.server.app import Server, TlsFiles, create_server
from meeplemind.server.convert import position_to_proto
from meeplemind.v1 import analysis_pb2_grpc, position_pb2, rules_pb2_grpc


@dataclass
class Running:
    """A started server, a channel to it and the stubs of both services."""

    server: Server
    port: int
    channel: grpc.Channel
    rules: rules_pb2_grpc.RulesStub
    analysis: analysis_pb2_grpc.AnalysisStub

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def metric(self, name: str, **labels: str) -> float:
        return self.server.metrics.sample(name, **labels)

    def wait_for(self, name: str, value: float, timeout_s: float = 5.0, **labels: str) -> None:
        """Wait until metric ``name`` reads ``value``."""
        end = time.monotonic() + timeout_s
        while self.metric(name, **labels) != value:
            assert time.monotonic() < end, f"{name} stayed at {self.metric(name, **labels)}, not {value}"
            time.sleep(0.01)


StartServer = Callable[..., Running]


@pytest.fixture
def start_server() -> Iterator[StartServer]:
    """Start servers with ``create_server`` options; all are stopped at teardown."""
    started: list[Running] = []

    def start(**options: Any) -> Running:
        server, port = create_server("127.0.0.1:0", **options)
        server.start()
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        running = Running(server, port, channel, rules_pb2_grpc.RulesStub(channel),
                          analysis_pb2_grpc.AnalysisStub(channel))
        started.append(running)
        return running

    yield start
    for running in started:
        running.channel.close()
        running.server.stop(None).wait()


@pytest.fixture(scope="module")
def service() -> Iterator[Running]:
    """One server with default options, shared by a test module."""
    server, port = create_server("127.0.0.1:0", max_searches=2, max_queue=2, threads_per_search=2)
    server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    yield Running(server, port, channel, rules_pb2_grpc.RulesStub(channel),
                  analysis_pb2_grpc.AnalysisStub(channel))
    channel.close()
    server.stop(None).wait()


def played(players: int, seed: int, moves: int) -> Any:
    """A Puerto Rico state after ``moves`` moves chosen by a seeded walk."""
    state = get_game("puerto-rico").new_game(players, seed)
    for i in range(moves):
        if state.is_terminal:
            break
        legal = state.legal_moves()
        state = state.play(legal[(seed * 7 + i * 13) % len(legal)], seed + i)
    return state


@pytest.fixture
def position() -> position_pb2.Position:
    """A 4-player position a few moves into the game."""
    return position_to_proto(played(4, 3, 12))


@pytest.fixture
def position_dict() -> dict[str, Any]:
    return to_position(played(4, 3, 12))


def make_certificate(directory: Path) -> TlsFiles:
    """A self-signed certificate for localhost and 127.0.0.1 (``cert.pem``, ``key.pem`` in
    ``directory``); the test is skipped without openssl."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a test certificate")
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return TlsFiles(cert.read_bytes(), key.read_bytes())
