"""The margin kept free before a timed search's end, adapted to how late answers have been.

A search that must answer by a time (the end of its ``time_ms``, a call's deadline) is
planned to end ``margin`` before it; what follows its loop (the threads' handoff, merging
the trees, naming the moves; in the server, building the reply) takes time that grows
with the machine's load. Each such search reports how long after its planned end its
answer was ready; the margin is the floor plus twice the largest recent such delay (a
peak that decays by half over about DECAY_CALLS calls), at most the ceiling and half the
time a call has left (a short budget still gets a search). ``loop_ms`` is the one place a
time budget becomes its search loop's time (``analyze`` and the server's searches). A
margin learns from the searches of its owner (the server's Analysis service, a bot, a
command's session), which passes it to them: there is no process-wide one.
"""

from __future__ import annotations

import threading

#: Calls over which a past peak delay decays to half.
DECAY_CALLS = 64
_DECAY = 0.5 ** (1 / DECAY_CALLS)
#: How many times the recent peak delay the margin keeps beyond its floor.
PEAK_FACTOR = 2.0
#: The floor of a time budget's margin: on an idle machine an answer is ready well within
#: a millisecond of the search loop's end.
TIME_BUDGET_FLOOR_MS = 1.0
#: The most a time budget's margin grows to.
TIME_BUDGET_CEILING_MS = 250.0
#: The least time a search loop is given (a budget of less: the whole budget).
MIN_SEARCH_MS = 5.0


class DeadlineMargin:
    """Milliseconds to keep free before a deadline: ``ms()``, fed by ``observe(delay_ms)``."""

    def __init__(self, floor_ms: float, ceiling_ms: float) -> None:
        if not 0 <= floor_ms <= ceiling_ms:
            raise ValueError(f"deadline margin: floor {floor_ms} and ceiling {ceiling_ms} "
                             "must satisfy 0 <= floor <= ceiling")
        self.floor_ms, self.ceiling_ms = floor_ms, ceiling_ms
        self._peak_ms = 0.0
        self._lock = threading.Lock()

    @classmethod
    def for_time_budgets(cls) -> DeadlineMargin:
        """A margin for ``time_ms`` budgets searched in this process (``analyze``'s
        ``time_margin``), owned by whoever runs the searches: a bot, a command."""
        return cls(floor_ms=TIME_BUDGET_FLOOR_MS, ceiling_ms=TIME_BUDGET_CEILING_MS)

    def ms(self, remaining_s: float | None = None, floor_ms: float | None = None) -> float:
        """The margin now, for a call with ``remaining_s`` seconds left (None: no deadline);
        ``floor_ms`` replaces the floor (a time budget's end has no network to cross)."""
        floor = self.floor_ms if floor_ms is None else floor_ms
        margin = min(floor + PEAK_FACTOR * self._peak_ms, self.ceiling_ms)
        return margin if remaining_s is None else min(margin, remaining_s * 1e3 / 2)

    def observe(self, delay_ms: float) -> None:
        """A timed search's answer was ready ``delay_ms`` after its planned end."""
        with self._lock:
            self._peak_ms = max(max(delay_ms, 0.0), self._peak_ms * _DECAY)

    def loop_ms(self, time_ms: float, spent_ms: float, floor_ms: float | None = None) -> float:
        """The search loop's time of a ``time_ms`` budget (the clock to the answer) that
        started ``spent_ms`` ago: it ends this margin (``floor_ms`` replacing the floor, as in
        ``ms``) before the budget's end, and still gets MIN_SEARCH_MS, or the whole budget if less."""
        room_ms = self.ms(time_ms / 1e3, floor_ms)
        return min(time_ms, max(time_ms - spent_ms - room_ms, MIN_SEARCH_MS))
