"""Run a load test against a local server and summarise it (``make loadtest``).

    python -m loadtest.run --users 8 --spawn-rate 8 --duration 30s --workers 1 [--processes 2]
    python -m loadtest.run --workers 1,2 --tags analyze-medium --games puerto-rico --players 4 --stages mid --think-ms 0

For each worker count: writes a corpus (``meeplemind corpus``), starts ``meeplemind serve``
on free loopback ports with its metrics endpoint, waits for health SERVING, measures the
service's overhead (sequential ``Analyze`` calls of one iteration), runs locust headless
(``--processes N``: locust's own master and N worker processes), scrapes the metrics
before and after, stops the server (always), and prints requests/s,
p50/p95/p99 per RPC, failures and the server's ISMCTS iterations/s and CPU. Locust's CSV
files, the logs and ``summary.json`` stay in ``loadtest/results/<time>-w<workers>/``.
Exit status 1 when any request failed or a task raised.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meeplemind.search.progress import progress_bar

HERE = Path(__file__).resolve().parent
LOCUSTFILE = HERE / "locustfile.py"
RESULTS = HERE / "results"
HOST = "127.0.0.1"
#: Seconds the server may take to answer SERVING on every worker.
STARTUP_TIMEOUT_S = 60.0
#: Seconds users get to finish their call when the run time is up.
STOP_TIMEOUT_S = 10
#: Seconds locust may take beyond the run time (start-up, stopping, writing CSVs).
LOCUST_SLACK_S = 60.0
SERVER_GRACE_S = 2.0
#: The name of the all-RPCs row of locust's CSV.
CSV_TOTAL = "Aggregated"
#: The load's progress: seconds of the run time, no rate.
BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f} s [{elapsed}<{remaining}]"
HANDLED = re.compile(r'grpc_server_handled_total\{grpc_code="(?P<code>\w+)",grpc_method="[^"]+",'
                     r'grpc_service="(?P<service>[^"]+)",grpc_type="[^"]+"\}')


@dataclass(frozen=True)
class Options:
    """One load test (``workers`` lists the worker counts to run it with, in turn)."""

    users: int = 8
    spawn_rate: float = 8.0
    duration: str = "30s"
    workers: tuple[int, ...] = (1,)
    processes: int = 1
    tags: tuple[str, ...] = ()
    locust_args: tuple[str, ...] = ()
    server_args: tuple[str, ...] = ()
    probe_calls: int = 200
    results: Path = RESULTS

    @property
    def duration_s(self) -> float:
        return parse_duration(self.duration)


@dataclass
class Server:
    """A ``meeplemind serve`` process and where it listens."""

    process: subprocess.Popen[bytes]
    port: int
    metrics_ports: list[int]

    @property
    def address(self) -> str:
        return f"{HOST}:{self.port}"


def parse_duration(text: str) -> float:
    """Seconds of a locust run time such as ``30s``, ``2m``, ``1h30m`` or ``45``."""
    if text.isdigit():
        return float(text)
    parts = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?", text)
    if not text or parts is None:
        raise ValueError(f"--duration {text!r}: expected e.g. 30s, 2m or 1h30m")
    hours, minutes, seconds = (int(p or 0) for p in parts.groups())
    return float(hours * 3600 + minutes * 60 + seconds)


def free_ports(count: int) -> list[int]:
    """``count`` consecutive loopback ports that are free now."""
    while True:
        with socket.socket() as probe:
            probe.bind((HOST, 0))
            base = probe.getsockname()[1]
        if base + count <= 65535 and all(_free(port) for port in range(base, base + count)):
            return list(range(base, base + count))


def _free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind((HOST, port))
        except OSError:
            return False
    return True


def write_corpus(path: Path) -> None:
    """The run's corpus, written before the server starts and the clock runs."""
    subprocess.run([sys.executable, "-m", "meeplemind", "corpus", "--out", str(path)], check=True,
                   stdout=subprocess.DEVNULL)


@contextmanager
def running_server(workers: int, server_args: Sequence[str], log: Path) -> Iterator[Server]:
    """``meeplemind serve`` with ``workers`` workers on free loopback ports, serving on
    every worker; stopped (SIGTERM, then SIGKILL) when the block ends, however it ends."""
    port, *metrics_ports = free_ports(1 + workers)
    command = [sys.executable, "-m", "meeplemind", "serve", "--host", HOST, "--port", str(port),
               "--metrics-port", str(metrics_ports[0]), "--workers", str(workers), "--http-port", "off",
               "--grace", str(SERVER_GRACE_S), "--log-level", "WARNING", *server_args]
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
    server = Server(process, port, metrics_ports)
    try:
        _wait_until_serving(server, log)
        yield server
    finally:
        _stop(process)


def _wait_until_serving(server: Server, log: Path) -> None:
    """Wait for health SERVING on the port and an answer from every metrics endpoint."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    end = time.monotonic() + STARTUP_TIMEOUT_S
    with grpc.insecure_channel(server.address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        while True:
            if server.process.poll() is not None:
                raise RuntimeError(f"the server exited with {server.process.returncode}:\n{log.read_text()}")
            if time.monotonic() > end:
                raise TimeoutError(f"the server did not serve within {STARTUP_TIMEOUT_S:.0f}s")
            try:
                status = health.Check(health_pb2.HealthCheckRequest(), timeout=1.0).status
                if status == health_pb2.HealthCheckResponse.SERVING:
                    scrape(server.metrics_ports)
                    return
            except (grpc.RpcError, OSError):
                pass
            time.sleep(0.1)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(SERVER_GRACE_S + 15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def scrape(metrics_ports: Sequence[int]) -> list[dict[str, float]]:
    """Every worker's samples, ``name{label="value",...}`` to value."""
    from prometheus_client.parser import text_string_to_metric_families

    workers = []
    for port in metrics_ports:
        with urllib.request.urlopen(f"http://{HOST}:{port}/metrics", timeout=5) as page:
            text = page.read().decode()
        samples = {}
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
                samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
        workers.append(samples)
    return workers


def server_report(before: list[dict[str, float]], after: list[dict[str, float]],
                  seconds: float) -> dict[str, Any]:
    """ISMCTS iterations, CPU and calls between two scrapes, summed over the workers."""
    deltas = [{name: value - old.get(name, 0.0) for name, value in new.items()}
              for old, new in zip(before, after)]
    calls = [_calls(delta) for delta in deltas]
    iterations = sum(delta.get("meeplemind_search_iterations_total", 0.0) for delta in deltas)
    cpu_seconds = sum(delta.get("process_cpu_seconds_total", 0.0) for delta in deltas)
    return {"iterations": round(iterations), "iterations_per_s": round(iterations / seconds, 1),
            "cpu_cores": round(cpu_seconds / seconds, 2),
            "calls_by_code": dict(sorted(sum(calls, Counter()).items())),
            "calls_by_worker": [sum(c.values()) for c in calls]}


def _calls(delta: dict[str, float]) -> Counter[str]:
    """Calls by status code in one worker's sample deltas, health checks left out."""
    codes: Counter[str] = Counter()
    for name, value in delta.items():
        found = HANDLED.fullmatch(name)
        if found and not found.group("service").startswith("grpc.health"):
            codes[found.group("code")] += round(value)
    return codes


def probe_overhead(address: str, corpus: Path, calls: int) -> dict[str, Any]:
    """Latency of ``calls`` sequential ``Analyze`` calls of one iteration on mid-game
    4-player Puerto Rico positions (base game) (one connection, nothing else running): the
    service's overhead; and, for scale, of as many ``ListGames`` calls (gRPC and the
    interceptors alone, the floor under any call)."""
    import grpc

    from meeplemind.positions.messages import parse_position
    from meeplemind.v1 import analysis_pb2, analysis_pb2_grpc, rules_pb2, rules_pb2_grpc

    entries = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines()]
    positions = [parse_position(e["position"]) for e in entries
                 if e["game"] == "puerto-rico" and not e.get("options") and e["players"] == 4
                 and e["stage"] == "mid"]
    requests = [analysis_pb2.AnalyzeRequest(position=p, budget=analysis_pb2.SearchBudget(iterations=1))
                for p in positions]
    with grpc.insecure_channel(address) as channel:
        analyze = analysis_pb2_grpc.AnalysisStub(channel).Analyze
        list_games = rules_pb2_grpc.RulesStub(channel).ListGames
        floor = _sequential(lambda i: list_games(rules_pb2.ListGamesRequest(), timeout=10), calls)
        latencies = _sequential(lambda i: analyze(requests[i % len(requests)], timeout=10), calls)
    return {"calls": calls, **_percentiles(latencies), "floor_p50_ms": _percentiles(floor)["p50_ms"]}


def _sequential(call: Callable[[int], Any], calls: int) -> list[float]:
    """Milliseconds of ``calls`` calls made one after another (after a tenth more to warm up)."""
    latencies = []
    for i in range(calls + calls // 10):
        start = time.perf_counter()
        call(i)
        latencies.append((time.perf_counter() - start) * 1e3)
    return latencies[calls // 10:]


def _percentiles(latencies: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    return {"p50_ms": round(cuts[49], 2), "p95_ms": round(cuts[94], 2), "p99_ms": round(cuts[98], 2)}


def run_locust(options: Options, server: Server, corpus: Path, out: Path) -> int:
    """Run locust headless against ``server`` (a progress bar on a terminal); its exit
    status (1: some request failed)."""
    command = [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless",
               "-u", str(options.users), "-r", str(options.spawn_rate), "-t", options.duration,
               "--host", server.address, "--csv", str(out / "locust"),
               "--stop-timeout", str(STOP_TIMEOUT_S), "--loglevel", "WARNING", "--corpus", str(corpus),
               *(["--processes", str(options.processes)] if options.processes > 1 else []),
               *(["--tags", *options.tags] if options.tags else []), *options.locust_args]
    limit = options.duration_s + STOP_TIMEOUT_S + LOCUST_SLACK_S
    with (out / "locust.log").open("wb") as log, progress_bar(
            options.duration_s, "s", f"locust, {options.users} users", bar_format=BAR_FORMAT) as bar:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        start = time.monotonic()
        try:
            while process.poll() is None:
                elapsed = time.monotonic() - start
                if elapsed > limit:
                    raise subprocess.TimeoutExpired(command, limit)
                bar.update(min(elapsed, options.duration_s) - bar.n)
                time.sleep(0.25)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    return process.returncode


def locust_report(out: Path) -> dict[str, Any]:
    """Per-RPC and total requests, failures, requests/s, mean and percentiles: the rows of
    locust's own ``locust_stats.csv`` (final: see the locustfile's ``_final_csv_rows``),
    so the summary and the CSV agree; and the exceptions tasks raised."""
    with (out / "locust_stats.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    with (out / "locust_exceptions.csv").open(newline="") as f:
        exceptions = [f"{row['Count']}x {row['Message']}" for row in csv.DictReader(f)]
    rpcs = [{"name": row["Name"], **_stats(row)} for row in rows if row["Name"] != CSV_TOTAL]
    total = [_stats(row) for row in rows if row["Name"] == CSV_TOTAL]
    return {"rpcs": sorted(rpcs, key=lambda r: r["name"]), "total": total[0] if total else _stats({}),
            "exceptions": exceptions}


def _stats(row: dict[str, str]) -> dict[str, Any]:
    """Requests, failures, requests/s, mean and percentiles (ms) of a locust CSV row."""
    requests = int(row.get("Request Count", 0))

    def ms(column: str) -> int | None:
        value = row.get(column, "N/A")
        return None if not requests or value == "N/A" else round(float(value))

    return {"requests": requests, "failures": int(row.get("Failure Count", 0)),
            "rps": round(float(row.get("Requests/s", 0)), 2),
            "avg_ms": round(float(row["Average Response Time"]), 1) if requests else None,
            **{f"p{p}_ms": ms(f"{p}%") for p in (50, 95, 99)}}


def run_once(options: Options, workers: int) -> dict[str, Any]:
    """One load test with ``workers`` workers; its summary (also in summary.json)."""
    out = options.results / f"{time.strftime('%Y%m%dT%H%M%S')}-w{workers}"
    out.mkdir(parents=True, exist_ok=True)
    corpus = out / "corpus.jsonl"
    write_corpus(corpus)
    with running_server(workers, options.server_args, out / "server.log") as server:
        overhead = None
        if options.probe_calls:
            overhead = probe_overhead(server.address, corpus, options.probe_calls)
        before = scrape(server.metrics_ports)
        status = run_locust(options, server, corpus, out)
        after = scrape(server.metrics_ports)
    summary = {"users": options.users, "spawn_rate": options.spawn_rate, "processes": options.processes,
               "duration_s": options.duration_s, "workers": workers, "tags": list(options.tags),
               "results": str(out), "locust_exit_code": status, **locust_report(out),
               "server": server_report(before, after, options.duration_s), "overhead": overhead}
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary


def format_summary(summary: dict[str, Any]) -> str:
    """The summary of one run as a table."""
    tags = ",".join(summary["tags"]) or "all tasks"
    lines = [f"{summary['users']} users in {summary['processes']} locust process(es), "
             f"{summary['duration_s']:.0f}s, {summary['workers']} worker(s), {tags}",
             f"{'RPC':<28}{'requests':>9}{'failures':>9}{'req/s':>9}{'p50':>8}{'p95':>8}{'p99':>8}  ms"]
    for row in [*summary["rpcs"], {"name": "total", **summary["total"]}]:
        lines.append(f"{row['name']:<28}{row['requests']:>9}{row['failures']:>9}{row['rps']:>9.1f}"
                     f"{_cell(row['p50_ms'])}{_cell(row['p95_ms'])}{_cell(row['p99_ms'])}")
    server = summary["server"]
    lines.append(f"server: {server['iterations_per_s']:,.0f} ISMCTS iterations/s, "
                 f"{server['cpu_cores']} CPU cores busy, calls by code {server['calls_by_code']}, "
                 f"by worker {server['calls_by_worker']}")
    if summary["overhead"]:
        o = summary["overhead"]
        lines.append(f"overhead (Analyze of 1 iteration, {o['calls']} sequential calls): "
                     f"p50 {o['p50_ms']} ms, p95 {o['p95_ms']} ms, p99 {o['p99_ms']} ms "
                     f"(ListGames, the gRPC floor: p50 {o['floor_p50_ms']} ms)")
    lines.extend(f"exception in a task: {e}" for e in summary["exceptions"])
    lines.append(f"CSV files and logs: {summary['results']}")
    return "\n".join(lines)


def _cell(value: float | None) -> str:
    return f"{'-' if value is None else f'{value:g}':>8}"


def throughput_ratios(summaries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each run's requests/s relative to the first run's."""
    base = summaries[0]["total"]["rps"] or float("nan")
    return [{"workers": s["workers"], "rps": s["total"]["rps"], "ratio": round(s["total"]["rps"] / base, 2)}
            for s in summaries]


def failed(summary: dict[str, Any]) -> bool:
    return bool(summary["total"].get("failures") or summary["exceptions"] or summary["locust_exit_code"])


def parse_args(argv: Sequence[str] | None) -> tuple[Options, bool]:
    """The options of a run, and whether to print JSON."""
    parser = argparse.ArgumentParser(
        prog="python -m loadtest.run", description=__doc__.split("\n\n")[0],
        epilog="Other arguments go to locust and the locustfile, e.g. --players 4 --stages mid "
               "--think-ms 0 --small-iterations 1 (see `locust -f loadtest/locustfile.py --help`).")
    add = parser.add_argument
    add("--users", type=int, default=Options.users)
    add("--spawn-rate", type=float, help="users started per second (default: all at once)")
    add("--duration", default=Options.duration, help="locust run time, e.g. 30s, 2m")
    add("--workers", default="1", help="server workers; several counts (1,2) run one test each")
    add("--processes", type=int, default=1,
        help="locust processes: N > 1 runs locust's master and N worker processes (--processes)")
    add("--tags", nargs="*", default=[], help="locust task tags: hint, bot, rules, analyze-small, "
        "analyze-medium, best-move, legal-moves, apply-move")
    add("--probe-calls", type=int, default=Options.probe_calls,
        help="sequential 1-iteration Analyze calls measuring the overhead (0: none)")
    add("--results", type=Path, default=RESULTS)
    add("--server-arg", action="append", default=[], metavar="ARG",
        help="an extra `meeplemind serve` argument, e.g. --server-arg=--max-searches=1")
    add("--json", action="store_true", help="print the summaries as JSON")
    args, locust_args = parser.parse_known_args(argv)
    try:
        parse_duration(args.duration)
        workers = tuple(int(w) for w in args.workers.split(","))
    except ValueError as e:
        parser.error(str(e))
    if args.processes < 1:
        parser.error(f"--processes {args.processes}: must be at least 1")
    options = Options(users=args.users, spawn_rate=args.spawn_rate or args.users, duration=args.duration,
                      workers=workers, processes=args.processes, tags=tuple(args.tags), locust_args=tuple(locust_args),
                      server_args=tuple(args.server_arg), probe_calls=args.probe_calls, results=args.results)
    return options, args.json


def main(argv: Sequence[str] | None = None) -> int:
    """Run the load test once per worker count; exit status 1 if any request failed."""
    options, as_json = parse_args(argv)
    summaries = [run_once(options, workers) for workers in options.workers]
    if as_json:
        print(json.dumps({"runs": summaries, "throughput": throughput_ratios(summaries)}, indent=1))
    else:
        print("\n\n".join(format_summary(s) for s in summaries))
        if len(summaries) > 1:
            print("\nthroughput: " + ", ".join(
                f"{r['workers']} worker(s) {r['rps']:.1f} req/s ({r['ratio']:.2f}x)"
                for r in throughput_ratios(summaries)))
    return 1 if any(failed(s) for s in summaries) else 0


if __name__ == "__main__":
    sys.exit(main())
