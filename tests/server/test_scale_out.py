"""Scaling out: worker processes sharing a port, and client-side round robin over replicas."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import threading
import time
import urllib.request

import grpc
import pytest

from meeplemind.server import command
from meeplemind.v1 import analysis_pb2, analysis_pb2_grpc, position_pb2, rules_pb2, rules_pb2_grpc

from .conftest import StartServer
from .processes import Serve

SERVING = re.compile(r"worker (\d+) \(pid (\d+)\) serving on port (\d+), metrics on 127\.0\.0\.1:(\d+)")


def _list_games_served(metrics_port: int) -> float:
    with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5) as page:
        text = page.read().decode()
    found = re.search(r'grpc_server_handled_total{grpc_code="OK",grpc_method="ListGames",'
                      r'grpc_service="meeplemind.v1.Rules",grpc_type="UNARY"} (\S+)', text)
    return float(found.group(1)) if found else 0.0


def _call_on_new_connections(port: int, metrics_ports: list[int], most: int = 64) -> list[float]:
    """ListGames on fresh connections until every worker has served one (the kernel picks
    a worker per connection); the calls each worker served."""
    options = [("grpc.use_local_subchannel_pool", 1)]
    for _ in range(most):
        with grpc.insecure_channel(f"127.0.0.1:{port}", options=options) as channel:
            rules_pb2_grpc.RulesStub(channel).ListGames(rules_pb2.ListGamesRequest(), timeout=10)
        served = [_list_games_served(p) for p in metrics_ports]
        if all(served):
            return served
    return served


def test_workers_share_one_port_restart_and_stop_gracefully() -> None:
    serve = Serve("--port", "0", "--workers", "2", "--metrics-port", "0", "--grace", "5")
    try:
        lines = serve.until(r"listening on 127\.0\.0\.1:\d+ with 2 workers")
        workers = [found.groups() for found in map(SERVING.search, lines) if found]
        assert [w[0] for w in workers] == ["0", "1"] and workers[0][2] == workers[1][2]
        port, metrics_ports = int(workers[0][2]), [int(w[3]) for w in workers]
        assert all(_call_on_new_connections(port, metrics_ports))

        os.kill(int(workers[1][1]), signal.SIGKILL)
        restarted = SERVING.search(serve.until(r"worker 1 \(pid \d+\) serving")[-1]).groups()
        assert restarted[1] != workers[1][1] and restarted[2] == str(port)
        assert all(_call_on_new_connections(port, [metrics_ports[0], int(restarted[3])]))

        serve.process.send_signal(signal.SIGTERM)
        assert serve.rest().count(": stopped") == 2 and serve.process.returncode == 0
    finally:
        serve.process.kill()
        serve.process.wait()


class _Load:
    """``clients`` threads calling LegalMoves and a small Analyze, each call on a new
    connection (so the kernel spreads them over the workers), until stopped; every
    call's start time and outcome is kept."""

    def __init__(self, port: int, position: position_pb2.Position, clients: int = 3) -> None:
        self.port, self.position = port, position
        self.calls: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._client, daemon=True) for _ in range(clients)]
        for thread in self._threads:
            thread.start()

    def _client(self) -> None:
        options = [("grpc.use_local_subchannel_pool", 1)]
        analyze = analysis_pb2.AnalyzeRequest(position=self.position, budget=analysis_pb2.SearchBudget(iterations=200))
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                with grpc.insecure_channel(f"127.0.0.1:{self.port}", options=options) as channel:
                    rules_pb2_grpc.RulesStub(channel).LegalMoves(
                        rules_pb2.LegalMovesRequest(position=self.position), timeout=30)
                    analysis_pb2_grpc.AnalysisStub(channel).Analyze(analyze, timeout=30)
                outcome = "OK"
            except grpc.RpcError as e:
                outcome = e.code().name
            self.calls.append((started, outcome))

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(60)


def test_a_worker_killed_under_load_is_restarted_and_no_call_fails_after(
        position: position_pb2.Position) -> None:
    """The fault test: kill -9 one of two workers while three clients call; the supervisor
    starts it again, and every call begun after that succeeds."""
    serve = Serve("--port", "0", "--workers", "2", "--metrics-port", "0", "--max-queue", "8")
    load = None
    try:
        lines = serve.until(r"listening on 127\.0\.0\.1:\d+ with 2 workers")
        workers = [found.groups() for found in map(SERVING.search, lines) if found]
        load = _Load(int(workers[0][2]), position)
        time.sleep(2)
        os.kill(int(workers[1][1]), signal.SIGKILL)
        serve.until(r"worker 1 \(pid \d+\) serving")
        restarted = time.monotonic()
        time.sleep(4)
        load.stop()
        after = [outcome for started, outcome in load.calls if started > restarted]
        assert len(after) >= 5 and set(after) == {"OK"}, after
        assert len(load.calls) > len(after)  # calls before the kill too
    finally:
        if load is not None:
            load.stop()
        serve.process.kill()
        serve.process.wait()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_port_in_use_is_a_one_line_error(workers: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        serve = Serve("--port", str(port), "--workers", workers)
        errors = serve.rest()
    assert serve.process.returncode == 2
    assert errors.splitlines()[-1] == (f"meeplemind serve: error: 127.0.0.1:{port}: "
                                       "cannot listen there (address in use or not local)")


def test_default_search_slots_split_the_cores_over_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    assert command.default_max_searches(1, 1) == 4
    assert command.default_max_searches(1, 2) == 2
    assert command.default_max_searches(2, 2) == 1
    assert command.default_max_searches(1, 8) == 1


@pytest.mark.parametrize("option", [
    ("grpc.service_config", json.dumps({"loadBalancingConfig": [{"round_robin": {}}]})),
    ("grpc.lb_policy_name", "round_robin"),
])
def test_client_side_round_robin_reaches_every_replica(start_server: StartServer,
                                                       option: tuple[str, str]) -> None:
    replicas = [start_server(), start_server()]
    target = "ipv4:" + ",".join(replica.address for replica in replicas)
    with grpc.insecure_channel(target, options=[option]) as channel:
        grpc.channel_ready_future(channel).result(timeout=10)
        rules = rules_pb2_grpc.RulesStub(channel)
        for _ in range(20):
            rules.ListGames(rules_pb2.ListGamesRequest(), timeout=10)
    served = [replica.metric("grpc_server_handled_total", grpc_type="UNARY", grpc_service="meeplemind.v1.Rules",
                             grpc_method="ListGames", grpc_code="OK")
              for replica in replicas]
    assert sum(served) == 20 and all(served), served
