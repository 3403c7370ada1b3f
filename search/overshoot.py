"""``meeplemind bench --overshoot``: how far past its ``time_ms`` a search answers.

A ``time_ms`` budget is the wall clock from the call to the answer. ``measure`` runs
``samples`` searches of each budget through a ``search`` callable (in-process ``analyze``,
or a server's ``Analyze`` over a channel: the client's clock from sending the request to
reading the reply) and reports percentiles of the wall clock and of the overshoot
``(wall - time_ms) / time_ms`` in percent, negative when the answer came early.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .bench import machine_report
from .progress import progress_bar

BUDGETS_MS = (50, 100, 200, 1000)
PERCENTILES = (50, 90, 95, 100)
DEFAULT_SAMPLES = 20


def _percentiles(values: Sequence[float]) -> dict[str, float]:
    found = np.percentile(np.asarray(values, dtype=float), PERCENTILES)
    return {("max" if p == 100 else f"p{p}"): round(float(v), 1) for p, v in zip(PERCENTILES, found)}


def measure(search: Callable[[int, int], Any], budgets: Sequence[int] = BUDGETS_MS,
            samples: int = DEFAULT_SAMPLES) -> dict[str, Any]:
    """Time ``samples`` calls ``search(time_ms, seed)`` (seeds 0, 1, …) of every budget."""
    if samples < 1:
        raise ValueError(f"samples: {samples} must be at least 1")
    if not budgets or min(budgets) < 1:
        raise ValueError(f"budgets: {list(budgets)} must be at least 1 ms each")
    load_before, rows = os.getloadavg()[0], []
    with progress_bar(len(budgets) * samples, "search", "overshoot") as bar:
        for budget in budgets:
            walls = []
            for seed in range(samples):
                start = time.monotonic()
                search(budget, seed)
                walls.append((time.monotonic() - start) * 1e3)
                bar.update()
            rows.append({"time_ms": budget, "samples": samples, "wall_ms": _percentiles(walls),
                         "overshoot_pct": _percentiles([(w - budget) / budget * 100 for w in walls])})
    return {"overshoot": rows, "machine": machine_report(load_before)}
