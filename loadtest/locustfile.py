"""A locust user that speaks gRPC to meeplemind.

    locust -f loadtest/locustfile.py --headless -u 8 -r 8 -t 30s --host 127.0.0.1:50051

Weighted tasks: hint traffic (``Analyze`` at small and medium budgets), bot traffic
(``BestMove``) and rules traffic (``LegalMoves``, ``ApplyMove``).  Positions come from
the corpus (``MEEPLEMIND_CORPUS``, default ``loadtest/corpus.jsonl``; made by
``meeplemind corpus`` when missing).  Every call is reported to locust's request
events with the RPC name, latency, response size and any error.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path
from typing import Any

import grpc.experimental.gevent as grpc_gevent

grpc_gevent.init_gevent()

import grpc  # noqa: E402
from google.protobuf import json_format  # noqa: E402
from locust import User, between, events, task  # noqa: E402

from meeplemind.v1 import analysis_pb2, analysis_pb2_grpc, position_pb2  # noqa: E402
from meeplemind.v1 import rules_pb2, rules_pb2_grpc  # noqa: E402

HERE = Path(__file__).resolve().parent
CORPUS = Path(os.environ.get("MEEPLEMIND_CORPUS", HERE / "corpus.jsonl"))
SMALL, MEDIUM = 200, 1000  # Analyze iterations for hint traffic


def load_corpus(path: Path) -> list[position_pb2.Position]:
    if not path.exists():
        from meeplemind.search.corpus import write_corpus

        write_corpus(str(path), per_stage=2)
    positions = []
    for line in path.read_text().splitlines():
        entry = json.loads(line)
        positions.append(json_format.ParseDict(entry["position"], position_pb2.Position()))
    return positions


POSITIONS: list[position_pb2.Position] = []


@events.init.add_listener
def _load_positions(environment: Any, **_: Any) -> None:
    POSITIONS.extend(load_corpus(CORPUS))


class GrpcClient:
    """Calls a stub method and reports it to locust as one request."""

    def __init__(self, environment: Any, stub: Any, service: str) -> None:
        self.environment, self.stub, self.service = environment, stub, service

    def call(self, method: str, request: Any, label: str | None = None, timeout: float = 30.0) -> Any:
        start = time.perf_counter()
        response, exception, length = None, None, 0
        try:
            response = getattr(self.stub, method)(request, timeout=timeout)
            length = response.ByteSize()
        except grpc.RpcError as e:
            exception = e
        self.environment.events.request.fire(
            request_type="grpc", name=f"{self.service}/{label or method}",
            response_time=(time.perf_counter() - start) * 1e3, response_length=length,
            exception=exception, context={})
        return response


class MeeplemindUser(User):
    wait_time = between(0.0, 0.05)

    def on_start(self) -> None:
        self.channel = grpc.insecure_channel(self.host or "127.0.0.1:50051")
        self.rules = GrpcClient(self.environment, rules_pb2_grpc.RulesStub(self.channel), "Rules")
        self.analysis = GrpcClient(self.environment, analysis_pb2_grpc.AnalysisStub(self.channel),
                                   "Analysis")

    def on_stop(self) -> None:
        self.channel.close()

    def _position(self) -> position_pb2.Position:
        return random.choice(POSITIONS)

    @task(4)
    def hint_small(self) -> None:
        self.analysis.call("Analyze", analysis_pb2.AnalyzeRequest(
            position=self._position(), budget=analysis_pb2.SearchBudget(iterations=SMALL),
            max_moves=5), label=f"Analyze[{SMALL}]")

    @task(2)
    def hint_medium(self) -> None:
        self.analysis.call("Analyze", analysis_pb2.AnalyzeRequest(
            position=self._position(), budget=analysis_pb2.SearchBudget(iterations=MEDIUM),
            max_moves=5), label=f"Analyze[{MEDIUM}]")

    @task(2)
    def bot_move(self) -> None:
        self.analysis.call("BestMove", analysis_pb2.BestMoveRequest(
            position=self._position(), level=2))

    @task(4)
    def legal_moves(self) -> None:
        self.rules.call("LegalMoves", rules_pb2.LegalMovesRequest(position=self._position()))

    @task(2)
    def apply_move(self) -> None:
        position = self._position()
        moves = self.rules.call("LegalMoves", rules_pb2.LegalMovesRequest(position=position))
        if moves is not None and moves.moves:
            self.rules.call("ApplyMove", rules_pb2.ApplyMoveRequest(
                position=position, move=random.choice(moves.moves).notation,
                seed=random.getrandbits(32)))
