"""The margin kept free before a call's deadline, adapted to how late answers have been.

A search cut by a deadline is planned to end ``margin`` before it; what the server then
still has to do (stop the search threads, shape the result, build the reply) takes time
that grows with the machine's load. Each such call reports how long after its planned
end its answer was ready; the margin is the floor plus twice the largest recent such
delay (a peak that decays by half over about DECAY_CALLS calls), at most the ceiling and
half the time a call has left (a short deadline still gets a search).
"""

from __future__ import annotations

import threading

#: Calls over which a past peak delay decays to half.
DECAY_CALLS = 64
_DECAY = 0.5 ** (1 / DECAY_CALLS)
#: How many times the recent peak delay the margin keeps beyond its floor.
PEAK_FACTOR = 2.0


class DeadlineMargin:
    """Milliseconds to keep free before a deadline: ``ms()``, fed by ``observe(delay_ms)``."""

    def __init__(self, floor_ms: float, ceiling_ms: float) -> None:
        if not 0 <= floor_ms <= ceiling_ms:
            raise ValueError(f"deadline margin: floor {floor_ms} and ceiling {ceiling_ms} "
                             "must satisfy 0 <= floor <= ceiling")
        self.floor_ms, self.ceiling_ms = floor_ms, ceiling_ms
        self._peak_ms = 0.0
        self._lock = threading.Lock()

    def ms(self, remaining_s: float | None = None) -> float:
        """The margin now, for a call with ``remaining_s`` seconds left (None: no deadline)."""
        margin = min(self.floor_ms + PEAK_FACTOR * self._peak_ms, self.ceiling_ms)
        return margin if remaining_s is None else min(margin, remaining_s * 1e3 / 2)

    def observe(self, delay_ms: float) -> None:
        """A deadline-cut call's answer was ready ``delay_ms`` after its search's planned end."""
        with self._lock:
            self._peak_ms = max(max(delay_ms, 0.0), self._peak_ms * _DECAY)
