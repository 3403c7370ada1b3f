"""Search budgets at the service's edge: a request's SearchBudget read once into a
``Budget`` within the server's limits (its "0 = unset" fields here only), strength levels
and the default alike, and a budget cut to a call's deadline."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import grpc

from ..search import levels
from ..search.deadlines import MIN_SEARCH_MS
from ..search.params import Budget
from ..v1 import analysis_pb2
from .errors import ServiceError
from .limits import Limits

MAX_REPORT_EVERY_MS = 60_000


def within_limits(budget: Budget, limits: Limits) -> Budget:
    """``budget`` ending by the server's caps too, whatever its kind: every search stops
    after ``limits.max_time_ms`` and ``limits.max_iterations``."""
    return replace(budget, iterations=min(budget.iterations or limits.max_iterations, limits.max_iterations),
                   time_ms=min(budget.time_ms or limits.max_time_ms, limits.max_time_ms))


def within_deadline(budget: Budget, remaining_s: float | None, margin_ms: float) -> tuple[Budget, bool]:
    """``budget`` with its time cut to end ``margin_ms`` before the deadline (its time then
    counts from now), and whether the deadline cut it; DEADLINE_EXCEEDED (at once) if that
    leaves less than MIN_SEARCH_MS."""
    if remaining_s is None:
        return budget, False
    left_ms = remaining_s * 1e3 - margin_ms
    if left_ms < MIN_SEARCH_MS:
        raise ServiceError(grpc.StatusCode.DEADLINE_EXCEEDED,
                           f"the deadline leaves no time to search ({remaining_s * 1e3:.0f} ms left, "
                           f"{margin_ms:.0f} ms of them kept to send the answer)")
    if budget.time_ms is not None and budget.time_ms <= left_ms:
        return budget, False
    return replace(budget, time_ms=left_ms), True


def _bounded(field: str, value: int, low: int, high: int, what: str = "the server's limit") -> int:
    if value < low:
        raise ServiceError.invalid(field, f"{value} is below {low}")
    if value > high:
        raise ServiceError.invalid(field, f"{value} is above {what} of {high}")
    return value


def read_budget(budget: analysis_pb2.SearchBudget, limits: Limits, field: str = "budget") -> Budget:
    """The Budget of a SearchBudget, its 0 fields unset (the defaults), within the server's
    limits (``within_limits``, made once); errors name the field."""
    iterations = _bounded(f"{field}.iterations", budget.iterations, 0, limits.max_iterations)
    time_ms = _bounded(f"{field}.time_ms", budget.time_ms, 0, limits.max_time_ms)
    threads = _bounded(f"{field}.threads", budget.threads, 0, limits.threads_per_search,
                       "the server's threads per search")
    cpu_ms = _bounded(f"{field}.cpu_ms", budget.cpu_ms, 0, limits.max_time_ms)
    if cpu_ms and not time_ms:  # CPU time runs slower than the clock under load: the clock still caps it
        time_ms = limits.max_time_ms
    if not iterations and not time_ms:
        iterations = limits.default_iterations
    return Budget(iterations or limits.max_iterations, float(time_ms or limits.max_time_ms), float(cpu_ms) or None,
                  threads=threads or limits.threads_per_search)


def read_level(level: int, limits: Limits, field: str = "level") -> Callable[[str], Budget]:
    """A strength level (see search.levels) checked at once, its budget in a game given that
    game's id: its CPU time or iterations on one thread, within the server's limits."""
    _bounded(field, level, levels.LEVELS.start, levels.LEVELS.stop - 1, "the strongest level")
    return lambda game_id: within_limits(levels.level_budget(level, game_id), limits)


def default_budget(limits: Limits) -> Budget:
    """The budget of a call that gives none: the default iterations, within the server's limits."""
    return Budget(limits.default_iterations, float(limits.max_time_ms), threads=limits.threads_per_search)


def max_moves(value: int, field: str = "max_moves") -> int | None:
    """How many moves to report; 0 (or unset) is all of them."""
    return _bounded(field, value, 0, 2**31 - 1) or None


def report_every_ms(value: int, limits: Limits, field: str = "report_every_ms") -> int:
    """Milliseconds between progress reports; 0 takes the default."""
    if value == 0:
        return limits.default_report_every_ms
    return _bounded(field, value, limits.min_report_every_ms, MAX_REPORT_EVERY_MS, "the limit")
