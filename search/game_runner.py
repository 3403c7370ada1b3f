"""Where a batch of games runs: in this process, in ``workers`` processes, or as Ray tasks.

A job is a picklable tuple of arguments of a module-level function that plays one game and
depends on nothing else (its seeds are in the tuple), so every way of running it gives the
same results; ``run_jobs`` yields them in job order.  On Ray (``ray`` ADDRESS: ``local``
starts a Ray on this machine, anything else is a cluster's address as ``ray.init`` takes it)
each job is a task retried ``RAY_RETRIES`` times when its worker dies, and results stream
back as they finish (``progress`` counts them).  Ray is an optional extra
(``pip install 'meeplemind[cluster]'``), imported only here and only for a Ray run.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

_R = TypeVar("_R")
#: Times Ray re-runs a game whose worker died (a lost machine, a killed process).
RAY_RETRIES = 3
LOCAL = "local"


def run_jobs(play: Callable[[Any], _R], jobs: Sequence[Any], workers: int = 1, ray: str | None = None,
             progress: Callable[[int, int], object] | None = None) -> Iterator[_R]:
    """``play(job)`` of every job, in job order: on Ray at address ``ray``, else in
    ``workers`` processes (1: this process); ``progress(done, total)`` after each game."""
    if workers < 1:
        raise ValueError(f"workers: {workers} must be at least 1")
    if ray is not None:
        results = _on_ray(play, jobs, ray, workers, progress)
    elif workers > 1:
        results = _counted(_pool_map(play, jobs, workers), len(jobs), progress)
    else:
        results = _counted(map(play, jobs), len(jobs), progress)
    yield from results


def _pool_map(play: Callable[[Any], _R], jobs: Sequence[Any], workers: int) -> Iterator[_R]:
    with ProcessPoolExecutor(workers) as pool:
        yield from pool.map(play, jobs)


def _counted(results: Iterator[_R], total: int, progress: Callable[[int, int], object] | None) -> Iterator[_R]:
    for done, result in enumerate(results, 1):
        if progress:
            progress(done, total)
        yield result


def start_ray(address: str, workers: int = 1) -> Any:
    """The ``ray`` module, connected to ``address`` (``local``: a Ray started here with
    ``workers`` CPUs, or this machine's count when 1, and no dashboard)."""
    try:
        import ray
    except ModuleNotFoundError:
        raise ValueError("ray: Ray is not installed: pip install 'meeplemind[cluster]'") from None
    if not ray.is_initialized():
        if address == LOCAL:
            ray.init(num_cpus=workers if workers > 1 else os.cpu_count(), include_dashboard=False,
                     log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    return ray


def _on_ray(play: Callable[[Any], _R], jobs: Sequence[Any], address: str, workers: int,
            progress: Callable[[int, int], object] | None) -> Iterator[_R]:
    ray = start_ray(address, workers)
    task = ray.remote(max_retries=RAY_RETRIES, num_cpus=1)(play)
    pending = {task.remote(job): index for index, job in enumerate(jobs)}
    finished: dict[int, _R] = {}
    emitted = 0
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            finished[pending.pop(ref)] = ray.get(ref)
            if progress:
                progress(len(jobs) - len(pending), len(jobs))
        while emitted in finished:
            yield finished.pop(emitted)
            emitted += 1
