"""The server's limits and defaults (plain data: cheap to import for the command line)."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MAX_MESSAGE_BYTES = 1 << 20
AUTH_TOKEN_ENV = "MEEPLEMIND_AUTH_TOKEN"


@dataclass(frozen=True, slots=True)
class Limits:
    """What one request may ask for, and the defaults of what it leaves out."""

    max_iterations: int = 100_000_000
    max_time_ms: int = 600_000
    threads_per_search: int = 1  # the default and the most threads a request may ask for
    default_iterations: int = 1000
    deadline_margin_ms: float = 40.0  # kept free before a deadline to send the answer
    default_report_every_ms: int = 500
    min_report_every_ms: int = 10
    metrics_report_every_ms: int = 1000  # how often a search's iterations reach the metrics

    def __post_init__(self) -> None:
        for name in ("max_iterations", "max_time_ms", "threads_per_search", "default_iterations",
                     "default_report_every_ms", "min_report_every_ms", "metrics_report_every_ms"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name}: {getattr(self, name)} is below 1")
        if self.deadline_margin_ms < 0:
            raise ValueError(f"deadline_margin_ms: {self.deadline_margin_ms} is below 0")
