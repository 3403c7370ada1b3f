"""``meeplemind serve --workers N``: N server processes listening on one port.

Each worker is a whole server (its own GIL, gRPC threads, search slots and metrics)
whose socket is opened with SO_REUSEPORT, so the kernel spreads incoming connections
over the workers. It balances connections, not calls: a client's calls all go to the
worker that accepted its connection (see docs/operations.md).

The supervisor (the parent process) starts worker 0 first, which settles the port when
it is 0, then the others on the same port; worker ``i`` serves its metrics on
``metrics_port + i`` (any free port when ``metrics_port`` is 0). A worker that stops by
itself is started again; one that cannot start stops them all and its error is raised.
SIGTERM and SIGINT are forwarded to every worker, which stop gracefully; a worker still
running ``grace`` + ``KILL_AFTER_S`` seconds later is killed. A worker whose supervisor
dies stops by itself.
"""

from __future__ import annotations

import errno
import logging
import multiprocessing
import signal
import sys
import threading
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from .http_gateway import HttpOptions
from .logs import configure_logging
from .serving import Listening, serve, stop_on_signals

log = logging.getLogger("meeplemind.server")

#: Seconds a worker may take to start serving.
STARTUP_TIMEOUT_S = 60.0
#: Seconds beyond the grace period after which a stopping worker is killed.
KILL_AFTER_S = 5.0
#: How often the supervisor looks at its workers and for signals.
POLL_S = 0.25


@dataclass(frozen=True)
class WorkerSpec:
    """What a worker serves: ``serve()``'s arguments for worker ``index``."""

    index: int
    host: str
    port: int
    metrics_port: int | None
    metrics_address: str
    grace: float
    log_level: str
    access_log: bool
    options: dict[str, Any]  # create_server's
    log_format: str = "text"
    http: HttpOptions | None = None

    def with_http_port(self, port: int | None) -> WorkerSpec:
        """This spec with the HTTP port worker 0 settled (when it was 0)."""
        return self if self.http is None or port is None else replace(self, http=replace(self.http, port=port))

    @property
    def worker_metrics_port(self) -> int | None:
        """This worker's metrics port: ``metrics_port + index`` (0 and None as they are)."""
        if self.metrics_port is None or self.metrics_port == 0:
            return self.metrics_port
        return self.metrics_port + self.index


def supervise(spec: WorkerSpec, workers: int) -> int:
    """Run ``workers`` workers of ``spec`` until SIGTERM or SIGINT; returns the exit status
    (0 once they have all stopped). A worker's startup error is raised (OSError or
    ValueError, as ``serve()`` raises them; ChildProcessError if it died silently)."""
    stopping = threading.Event()
    with stop_on_signals(stopping):
        running: dict[int, BaseProcess] = {}
        try:
            process, (port, http_port) = _start(spec)
            running[0] = process
            spec = replace(spec, port=port).with_http_port(http_port)
            for index in range(1, workers):
                running[index] = _start(replace(spec, index=index))[0]
            log.info("listening on %s:%d with %d workers (pids %s)", spec.host, port, workers,
                     " ".join(str(p.pid) for p in running.values()))
            while not stopping.is_set():
                _restart_exited(spec, running, stopping)
        finally:
            _stop_all(running, spec.grace)
    return 0


def _start(spec: WorkerSpec) -> tuple[BaseProcess, tuple[int, int | None]]:
    """Start worker ``spec.index`` and wait until it serves; the process, its port and its
    HTTP port."""
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_worker_main, args=(spec, send),
                              name=f"meeplemind-worker-{spec.index}")
    process.start()
    send.close()
    try:
        message = receive.recv() if wait([receive], STARTUP_TIMEOUT_S) else None
    except EOFError:
        message = None
    if isinstance(message, BaseException):
        process.join()
        raise message
    if message is None:
        process.kill()
        process.join()
        raise ChildProcessError(errno.ECHILD, f"did not start (exit code {process.exitcode})",
                                f"worker {spec.index}")
    port, metrics_port, http_port = message
    log.info("worker %d (pid %d) serving on port %d%s%s", spec.index, process.pid, port,
             f", metrics on {spec.metrics_address}:{metrics_port}" if metrics_port else "",
             f", HTTP on port {http_port}" if http_port else "")
    return process, (port, http_port)


def _restart_exited(spec: WorkerSpec, running: dict[int, BaseProcess],
                    stopping: threading.Event) -> None:
    """Wait up to POLL_S for workers to exit and start the ones that did again, unless
    they are stopping."""
    sentinels = {process.sentinel: index for index, process in running.items()}
    exited = wait(list(sentinels), POLL_S)
    for index in (index for sentinel, index in sentinels.items() if sentinel in exited):
        if stopping.is_set():
            return
        process = running.pop(index)
        process.join()
        log.warning("worker %d (pid %d) exited with code %s; starting it again", index,
                    process.pid, process.exitcode)
        running[index] = _start(replace(spec, index=index))[0]


def _stop_all(running: dict[int, BaseProcess], grace: float) -> None:
    """SIGTERM every worker, wait for them, kill the ones still running after the grace."""
    for process in running.values():
        if process.is_alive():
            process.terminate()
    for index, process in running.items():
        process.join(grace + KILL_AFTER_S)
        if process.is_alive():
            log.warning("worker %d (pid %d) did not stop in time; killing it", index, process.pid)
            process.kill()
            process.join()


def _worker_main(spec: WorkerSpec, ready: Connection) -> None:
    """A worker process: ``serve()`` with SO_REUSEPORT; sends its ports (or its startup
    error) to the supervisor; stops gracefully on SIGTERM (however many arrive, e.g. from
    both the supervisor and a service manager) or when the supervisor goes away."""
    stopping = threading.Event()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the supervisor sends SIGTERM
    signal.signal(signal.SIGTERM, lambda signum, frame: stopping.set())
    configure_logging(spec.log_level, spec.access_log, spec.index, spec.log_format)

    threading.Thread(target=_stop_with_parent, args=(stopping,), daemon=True).start()

    def announce(listening: Listening) -> None:
        ready.send((listening.port, listening.metrics_port, listening.http_port))
        ready.close()

    try:
        status = serve(f"{spec.host}:{spec.port}", metrics_port=spec.worker_metrics_port,
                       metrics_address=spec.metrics_address, grace=spec.grace, ready=announce,
                       stopping=stopping, reuse_port=True, http=spec.http, **spec.options)
    except (OSError, ValueError) as e:
        if ready.closed:
            raise
        ready.send(e)
        status = 2
    sys.exit(status)


def _stop_with_parent(stopping: threading.Event) -> None:
    parent = multiprocessing.parent_process()
    if parent is not None:
        wait([parent.sentinel])
        stopping.set()
