"""The cap on concurrent searches: a few run, a bounded queue of calls waits, the rest are
refused; a freed slot goes to the waiting call running the fewest searches."""

from __future__ import annotations

import itertools
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import grpc

from .errors import ServiceError

_POLL_S = 0.02


class QueueTimeout(ServiceError):
    """RESOURCE_EXHAUSTED: no slot freed before the call's deadline (a review skips the rest)."""


class Caller:
    """A call running several searches (a review): its searches count as one call in the
    queue, and once it has been admitted it is never refused for a full queue."""

    admitted: bool = False


class SearchGate:
    """At most ``max_running`` searches run at once and ``max_queued`` calls wait for a slot;
    a call beyond both is refused with RESOURCE_EXHAUSTED.

    Slots are shared fairly: a freed slot goes to the waiting search whose call runs the
    fewest searches, the longest waiting first, so a single Analyze waits for one search to
    end, not for a review's queued ones, and concurrent reviews take turns.

    Every admitted search registers its stop event, so ``close()`` (shutdown) stops
    them all: they answer with what they found so far.
    """

    def __init__(self, max_running: int, max_queued: int) -> None:
        if max_running < 1:
            raise ValueError(f"max_searches: {max_running} is below 1")
        if max_queued < 0:
            raise ValueError(f"max_queue: {max_queued} is below 0")
        self.max_running, self.max_queued = max_running, max_queued
        self._running = 0
        self._running_by: Counter[object] = Counter()
        self._waiting: dict[int, object] = {}  # ticket (arrival order) -> its call
        self._tickets = itertools.count()
        self._stops: set[threading.Event] = set()
        self._closed = False
        self._cond = threading.Condition()

    @property
    def running(self) -> int:
        return self._running

    @property
    def queued(self) -> int:
        return len(self._waiting)

    @contextmanager
    def slot(self, stop: threading.Event, wait_s: float | None, caller: Caller | None = None) -> Iterator[None]:
        """Hold a search slot, waiting at most ``wait_s`` (None: no limit) in the queue;
        ``caller`` is the call the search is one of (None: a call of one search).

        Refused with RESOURCE_EXHAUSTED when the queue is full or no slot frees in
        time, CANCELLED when ``stop`` is set before the slot is had, UNAVAILABLE after close().
        """
        owner: object = caller if caller is not None else object()
        with self._cond:
            self._admit(owner, stop, wait_s)
            self._running += 1
            self._running_by[owner] += 1
            self._stops.add(stop)
            if caller is not None:
                caller.admitted = True
        try:
            yield
        finally:
            with self._cond:
                self._running -= 1
                self._running_by[owner] -= 1
                if not self._running_by[owner]:
                    del self._running_by[owner]
                self._stops.discard(stop)
                self._cond.notify_all()

    def _admit(self, owner: object, stop: threading.Event, wait_s: float | None) -> None:
        """Wait (holding the condition) until a slot is free and this search is the first
        in line; raise if it cannot be had.

        Closing and ``stop`` are checked on every wake-up, the last one included: a call
        still queued when the server closes is answered at once and never admitted."""
        if (self._running < self.max_running and not self._waiting) or self._closed:
            self._check_open(stop)
            return
        calls = set(self._waiting.values())
        known = owner in calls or owner in self._running_by or (isinstance(owner, Caller) and owner.admitted)
        if not known and len(calls) >= self.max_queued:
            raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                               f"over capacity: {self._running} searches running and "
                               f"{len(calls)} calls queued (the limits)")
        end = None if wait_s is None else time.monotonic() + wait_s
        ticket = next(self._tickets)
        self._waiting[ticket] = owner
        try:
            while True:
                self._check_open(stop)
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:  # even if a slot has just freed: too late
                    raise QueueTimeout(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                       f"over capacity: no search slot of {self.max_running} "
                                       "freed in time to search before the deadline")
                if self._running < self.max_running and self._first_in_line() == ticket:
                    return
                self._cond.wait(_POLL_S if left is None else min(left, _POLL_S))
        finally:
            del self._waiting[ticket]
            self._cond.notify_all()

    def _first_in_line(self) -> int:
        """The waiting search whose call runs the fewest searches, the longest waiting first."""
        return min(self._waiting, key=lambda ticket: (self._running_by[self._waiting[ticket]], ticket))

    def _check_open(self, stop: threading.Event) -> None:
        if self._closed:
            raise ServiceError(grpc.StatusCode.UNAVAILABLE, "the server is shutting down")
        if stop.is_set():
            raise ServiceError(grpc.StatusCode.CANCELLED, "cancelled before its search started")

    def close(self) -> None:
        """Refuse new searches and stop the running ones (shutdown)."""
        with self._cond:
            self._closed = True
            for stop in self._stops:
                stop.set()
            self._cond.notify_all()
