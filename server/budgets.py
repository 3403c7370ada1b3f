"""Search budgets: per-request values checked against the server's limits, strength
levels, and the time budget cut to a call's deadline."""

from __future__ import annotations

from dataclasses import dataclass, replace

import grpc

from ..search.levels import LEVELS, level_budget
from ..v1 import analysis_pb2
from .errors import ServiceError
from .limits import Limits

MAX_REPORT_EVERY_MS = 60_000
#: The least time a search is given: a deadline leaving less is answered at once.
MIN_SEARCH_MS = 5.0


@dataclass(frozen=True, slots=True)
class Plan:
    """A checked budget: ``None`` is no limit of that kind."""

    iterations: int | None
    time_ms: float | None
    threads: int
    cpu_ms: float | None = None  # each search thread's CPU time

    def within_limits(self, limits: Limits) -> Plan:
        """This plan ending by the server's caps too, whatever its kind: every search
        stops after ``limits.max_time_ms`` and ``limits.max_iterations``."""
        return replace(self, iterations=min(self.iterations or limits.max_iterations, limits.max_iterations),
                       time_ms=min(self.time_ms or limits.max_time_ms, limits.max_time_ms))

    def counted_from(self, spent_ms: float, margin_ms: float) -> Plan:
        """This plan with its time budget counted from the request's receipt, ``spent_ms``
        ago, and ending ``margin_ms`` before, the room kept for the reply; a search still
        gets MIN_SEARCH_MS (or the whole budget, if less)."""
        if self.time_ms is None:
            return self
        return replace(self, time_ms=min(self.time_ms, max(self.time_ms - spent_ms - margin_ms, MIN_SEARCH_MS)))

    def within_deadline(self, remaining_s: float | None, margin_ms: float) -> tuple[Plan, bool]:
        """This plan with its time budget cut to end ``margin_ms`` before the deadline,
        and whether the deadline cut it; DEADLINE_EXCEEDED (at once) if that leaves less
        than MIN_SEARCH_MS."""
        if remaining_s is None:
            return self, False
        left_ms = remaining_s * 1e3 - margin_ms
        if left_ms < MIN_SEARCH_MS:
            raise ServiceError(grpc.StatusCode.DEADLINE_EXCEEDED,
                               f"the deadline leaves no time to search ({remaining_s * 1e3:.0f} ms left, "
                               f"{margin_ms:.0f} ms of them kept to send the answer)")
        if self.time_ms is not None and self.time_ms <= left_ms:
            return self, False
        return replace(self, time_ms=left_ms), True


def _bounded(field: str, value: int, low: int, high: int, what: str = "the server's limit") -> int:
    if value < low:
        raise ServiceError.invalid(field, f"{value} is below {low}")
    if value > high:
        raise ServiceError.invalid(field, f"{value} is above {what} of {high}")
    return value


def plan_budget(budget: analysis_pb2.SearchBudget, limits: Limits, field: str = "budget") -> Plan:
    """The plan of a SearchBudget (0 fields take the defaults); errors name the field."""
    iterations = _bounded(f"{field}.iterations", budget.iterations, 0, limits.max_iterations)
    time_ms = _bounded(f"{field}.time_ms", budget.time_ms, 0, limits.max_time_ms)
    threads = _bounded(f"{field}.threads", budget.threads, 0, limits.threads_per_search,
                       "the server's threads per search")
    cpu_ms = _bounded(f"{field}.cpu_ms", budget.cpu_ms, 0, limits.max_time_ms)
    if cpu_ms and not time_ms:  # CPU time runs slower than the clock under load: the clock still caps it
        time_ms = limits.max_time_ms
    if not iterations and not time_ms:
        iterations = limits.default_iterations
    return Plan(iterations or None, float(time_ms) or None, threads or limits.threads_per_search,
                float(cpu_ms) or None)


def plan_level(level: int, field: str = "level") -> Plan:
    """The plan of a strength level (see search.levels): its CPU time or iterations on one thread."""
    _bounded(field, level, LEVELS.start, LEVELS.stop - 1, "the strongest level")
    budget = level_budget(level)
    return Plan(budget.get("iterations"), None, budget["threads"], budget.get("cpu_ms"))


def default_plan(limits: Limits) -> Plan:
    return Plan(limits.default_iterations, None, limits.threads_per_search)


def max_moves(value: int, field: str = "max_moves") -> int | None:
    """How many moves to report; 0 (or unset) is all of them."""
    return _bounded(field, value, 0, 2**31 - 1) or None


def report_every_ms(value: int, limits: Limits, field: str = "report_every_ms") -> int:
    """Milliseconds between progress reports; 0 takes the default."""
    if value == 0:
        return limits.default_report_every_ms
    return _bounded(field, value, limits.min_report_every_ms, MAX_REPORT_EVERY_MS, "the limit")
