"""A locust user that speaks gRPC to meeplemind.

    locust -f loadtest/locustfile.py --headless -u 8 -r 8 -t 30s --host 127.0.0.1:50051

Weighted tasks, one RPC each: hint traffic (``Analyze`` at a small and a medium budget),
bot traffic (``BestMove``) and rules traffic (``LegalMoves``, ``ApplyMove`` of a legal
move). Positions come from a self-play corpus at every stage and player count (``--corpus``,
written by ``meeplemind corpus``; made here when missing), narrowed by ``--games``,
``--players`` and ``--stages``. Each task has tags (``hint``/``bot``/``rules`` and its own name) for locust's
``--tags``. Every call is reported to locust's request events with the RPC name, latency,
response size and error.

``--host`` is HOST:PORT, any gRPC target (``dns:///name:port``, ``ipv4:a:p,b:q``) or
IPv4 HOST:PORTs separated by commas; calls are balanced round robin over the addresses.
Each user has its own connection (as separate clients would), so SO_REUSEPORT workers
and L4 balancers spread the users. ``$MEEPLEMIND_AUTH_TOKEN`` is sent as a bearer token.
"""

from __future__ import annotations

import json
import os
import random
import time
from argparse import ArgumentParser, Namespace
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gevent
import grpc
import grpc.experimental.gevent as grpc_gevent
from google.protobuf.message import Message
from locust import User, events, stats, tag, task
from locust.env import Environment
from locust.runners import MasterRunner, WorkerRunner

from meeplemind.positions import read
from meeplemind.positions.messages import parse_position
from meeplemind.server.limits import AUTH_TOKEN_ENV
from meeplemind.v1 import analysis_pb2, analysis_pb2_grpc, position_pb2, rules_pb2, rules_pb2_grpc

grpc_gevent.init_gevent()  # before any channel: calls must yield to gevent, not block it

DEFAULT_CORPUS = Path(__file__).resolve().parent / "results" / "corpus.jsonl"


@dataclass(frozen=True, slots=True)
class Sample:
    """A corpus position and its legal moves (for ApplyMove)."""

    position: position_pb2.Position
    moves: tuple[str, ...]


SAMPLES: list[Sample] = []


@events.init_command_line_parser.add_listener
def _add_arguments(parser: ArgumentParser) -> None:
    group = parser.add_argument_group("meeplemind")
    group.add_argument("--corpus", default=str(DEFAULT_CORPUS),
                       help="JSON lines of `meeplemind corpus` (made by self-play when missing)")
    group.add_argument("--games", default="", help="game ids to use, e.g. puerto-rico (default: all)")
    group.add_argument("--players", default="", help="player counts to use, e.g. 4 or 2,3 (default: all)")
    group.add_argument("--stages", default="", help="stages to use: early, mid, late (default: all)")
    group.add_argument("--small-iterations", type=int, default=200, help="Analyze budget of small hints")
    group.add_argument("--medium-iterations", type=int, default=1000, help="Analyze budget of medium hints")
    group.add_argument("--bot-level", type=int, default=2, help="BestMove strength level")
    group.add_argument("--think-ms", type=float, default=50.0,
                       help="each user waits up to this long between calls (0: back to back)")
    group.add_argument("--call-timeout", type=float, default=30.0, help="deadline of each call, seconds")


@events.quit.add_listener
def _final_csv_rows(**_: Any) -> None:
    """Let locust's CSV writer write the final stats once more before it closes its files:
    it writes every CSV_STATS_INTERVAL_SEC and not at exit, so without this the CSV misses
    the calls of the last second; nor may it write once the files are closed. (Locust's
    ``--json-file`` is not used: saving it resets the per-RPC stats, and the CSV written
    after it then counts no calls.)"""
    environment = ENVIRONMENT[0] if ENVIRONMENT else None
    if environment and environment.parsed_options and environment.parsed_options.csv_prefix and not isinstance(
            environment.runner, WorkerRunner):
        interval = stats.CSV_STATS_INTERVAL_SEC
        stats.CSV_STATS_INTERVAL_SEC = 24 * 3600  # its next write, within `interval`, is its last
        gevent.sleep(interval * 1.5)


ENVIRONMENT: list[Environment] = []


@events.init.add_listener
def _load_samples(environment: Environment, **_: Any) -> None:
    ENVIRONMENT[:] = [environment]
    options = environment.parsed_options
    if options is None or isinstance(environment.runner, MasterRunner):
        return  # a master runs no users
    SAMPLES[:] = load_samples(Path(options.corpus), _words(options.games), _words(options.players),
                              _words(options.stages))


def _words(text: str) -> set[str]:
    return {word.strip() for word in text.split(",") if word.strip()}


def load_samples(path: Path, games: set[str], players: set[str], stages: set[str]) -> list[Sample]:
    """The corpus positions of the given games, player counts and stages (empty sets: all);
    the corpus is written first when the file is missing."""
    if not path.exists():
        from meeplemind.search.corpus import write_corpus

        path.parent.mkdir(parents=True, exist_ok=True)
        write_corpus(str(path))
    samples = []
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if ((games and entry["game"] not in games) or (players and str(entry["players"]) not in players)
                or (stages and entry["stage"] not in stages)):
            continue
        position = parse_position(entry["position"])
        state = read(position).state()
        samples.append(Sample(position,
                              tuple(str(move) for move in state.legal_moves())))
    if not samples:
        raise ValueError(f"{path}: no position of games {games or 'any'} with players "
                         f"{players or 'any'} and stages {stages or 'any'}")
    return samples


def channel_target(host: str) -> str:
    """``--host`` as a gRPC target: IPv4 HOST:PORTs separated by commas become an ``ipv4:``
    list; anything else (HOST:PORT, ``dns:///name:port``, ``ipv4:...``) is used as it is."""
    if "," in host and not host.startswith(("ipv4:", "ipv6:", "dns:", "unix:")):
        return f"ipv4:{host}"
    return host


def open_channel(host: str) -> grpc.Channel:
    """A channel of its own (not shared with other users), round robin over the addresses."""
    service_config = json.dumps({"loadBalancingConfig": [{"round_robin": {}}]})
    return grpc.insecure_channel(channel_target(host), options=[
        ("grpc.use_local_subchannel_pool", 1), ("grpc.service_config", service_config)])


class GrpcClient:
    """Calls stub methods and reports each call to locust as one request."""

    def __init__(self, environment: Environment, stub: Any, service: str, timeout: float) -> None:
        self._events, self._stub, self._service, self._timeout = environment.events, stub, service, timeout
        token = os.environ.get(AUTH_TOKEN_ENV)
        self._metadata = (("authorization", f"Bearer {token}"),) if token else ()

    def call(self, method: str, request: Message, label: str | None = None) -> None:
        """Call ``method``; an RPC error is reported as a failure of ``label`` (default: the
        method's name)."""
        start = time.perf_counter()
        size, error = 0, None
        try:
            response = getattr(self._stub, method)(request, timeout=self._timeout, metadata=self._metadata)
            size = response.ByteSize()
        except grpc.RpcError as e:
            error = e
        self._events.request.fire(
            request_type="grpc", name=f"{self._service}/{label or method}",
            response_time=(time.perf_counter() - start) * 1e3, response_length=size,
            exception=error, context={})


class MeeplemindUser(User):
    """A client mixing hint, bot and rules traffic over positions of the corpus."""

    def on_start(self) -> None:
        self.options: Namespace = self.environment.parsed_options
        self.channel = open_channel(self.host or "127.0.0.1:50051")
        timeout = self.options.call_timeout
        self.rules = GrpcClient(self.environment, rules_pb2_grpc.RulesStub(self.channel), "Rules", timeout)
        self.analysis = GrpcClient(self.environment, analysis_pb2_grpc.AnalysisStub(self.channel),
                                   "Analysis", timeout)

    def on_stop(self) -> None:
        self.channel.close()

    def wait_time(self) -> float:
        return random.uniform(0.0, self.options.think_ms / 1e3)

    def _analyze(self, iterations: int) -> None:
        self.analysis.call("Analyze", analysis_pb2.AnalyzeRequest(
            position=random.choice(SAMPLES).position, max_moves=5,
            budget=analysis_pb2.SearchBudget(iterations=iterations)), label=f"Analyze[{iterations}]")

    @tag("hint", "analyze-small")
    @task(4)
    def hint_small(self) -> None:
        self._analyze(self.options.small_iterations)

    @tag("hint", "analyze-medium")
    @task(2)
    def hint_medium(self) -> None:
        self._analyze(self.options.medium_iterations)

    @tag("bot", "best-move")
    @task(2)
    def bot_move(self) -> None:
        self.analysis.call("BestMove", analysis_pb2.BestMoveRequest(
            position=random.choice(SAMPLES).position, level=self.options.bot_level))

    @tag("rules", "legal-moves")
    @task(4)
    def legal_moves(self) -> None:
        self.rules.call("LegalMoves", rules_pb2.LegalMovesRequest(position=random.choice(SAMPLES).position))

    @tag("rules", "apply-move")
    @task(2)
    def apply_move(self) -> None:
        sample = random.choice(SAMPLES)
        self.rules.call("ApplyMove", rules_pb2.ApplyMoveRequest(
            position=sample.position, move=random.choice(sample.moves), seed=random.getrandbits(63)))
