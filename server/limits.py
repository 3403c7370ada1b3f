"""The server's limits and defaults (plain data: cheap to import for the command line)."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MAX_MESSAGE_BYTES = 1 << 20
AUTH_TOKEN_ENV = "MEEPLEMIND_AUTH_TOKEN"

#: The most UTF-8 bytes of a free-text request field (request ids, game ids, moves, the
#: names inside positions): longer is INVALID_ARGUMENT naming the field.
MAX_TEXT_BYTES = 128
#: Free-text fields allowed more than MAX_TEXT_BYTES, by full field name (a NewGame
#: option's value may list 17 building names).
LONGER_TEXT_BYTES = {"meeplemind.v1.NewGameRequest.OptionsEntry.value": 1024}


@dataclass(frozen=True, slots=True)
class Limits:
    """What one request may ask for, and the defaults of what it leaves out.

    Every search, whatever its budget, ends by ``max_time_ms`` and ``max_iterations``."""

    max_iterations: int = 10_000_000
    max_time_ms: int = 30_000
    # a review's searches together: each reserves its time budget from this and gives back
    # what it did not use; the moves left when it runs out are skipped (STOP_REASON_TIME)
    max_review_ms: int = 120_000
    threads_per_search: int = 1  # the default and the most threads a request may ask for
    default_iterations: int = 1000
    # kept free before a deadline to send the answer: at least the floor, more when
    # answers have been late (see search.deadlines.DeadlineMargin), at most the ceiling and
    # half the time the call has left
    deadline_margin_floor_ms: float = 40.0
    deadline_margin_ceiling_ms: float = 300.0
    # a review's searches end at least this before its deadline: its summary follows
    # the last of its parallel searches (at most the ceiling)
    review_margin_floor_ms: float = 250.0
    default_report_every_ms: int = 500
    min_report_every_ms: int = 10
    metrics_report_every_ms: int = 1000  # how often a search's iterations reach the metrics

    def __post_init__(self) -> None:
        for name in ("max_iterations", "max_time_ms", "max_review_ms", "threads_per_search", "default_iterations",
                     "default_report_every_ms", "min_report_every_ms", "metrics_report_every_ms"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name}: {getattr(self, name)} is below 1")
        if self.default_iterations > self.max_iterations:
            raise ValueError(f"default_iterations: {self.default_iterations} is above "
                             f"max_iterations ({self.max_iterations})")
        if self.deadline_margin_floor_ms < 0:
            raise ValueError(f"deadline_margin_floor_ms: {self.deadline_margin_floor_ms} is below 0")
        if self.review_margin_floor_ms < 0:
            raise ValueError(f"review_margin_floor_ms: {self.review_margin_floor_ms} is below 0")
        if self.deadline_margin_ceiling_ms < self.deadline_margin_floor_ms:
            raise ValueError(f"deadline_margin_ceiling_ms: {self.deadline_margin_ceiling_ms} is below "
                             f"deadline_margin_floor_ms ({self.deadline_margin_floor_ms})")
