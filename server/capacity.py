"""The cap on concurrent searches: a few run, a bounded queue waits, the rest are refused."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import grpc

from .errors import ServiceError

_POLL_S = 0.02


class SearchGate:
    """At most ``max_running`` searches run at once and ``max_queued`` wait for a slot;
    a search beyond both is refused with RESOURCE_EXHAUSTED.

    Every admitted search registers its stop event, so ``close()`` (shutdown) stops
    them all: they answer with what they found so far.
    """

    def __init__(self, max_running: int, max_queued: int) -> None:
        if max_running < 1:
            raise ValueError(f"max_searches: {max_running} is below 1")
        if max_queued < 0:
            raise ValueError(f"max_queue: {max_queued} is below 0")
        self.max_running, self.max_queued = max_running, max_queued
        self._running = self._queued = 0
        self._stops: set[threading.Event] = set()
        self._closed = False
        self._cond = threading.Condition()

    @property
    def running(self) -> int:
        return self._running

    @property
    def queued(self) -> int:
        return self._queued

    @contextmanager
    def slot(self, stop: threading.Event, wait_s: float | None) -> Iterator[None]:
        """Hold a search slot, waiting at most ``wait_s`` (None: no limit) in the queue.

        Refused with RESOURCE_EXHAUSTED when the queue is full or no slot frees in
        time, CANCELLED when ``stop`` is set before the slot is had, UNAVAILABLE after close().
        """
        with self._cond:
            self._admit(stop, wait_s)
            self._running += 1
            self._stops.add(stop)
        try:
            yield
        finally:
            with self._cond:
                self._running -= 1
                self._stops.discard(stop)
                self._cond.notify()

    def _admit(self, stop: threading.Event, wait_s: float | None) -> None:
        """Wait (holding the condition) until a slot is free; raise if it cannot be had.

        Closing and ``stop`` are checked on every wake-up, the last one included: a call
        still queued when the server closes is answered at once and never admitted."""
        if self._running < self.max_running or self._closed:
            self._check_open(stop)
            return
        if self._queued >= self.max_queued:
            raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                               f"over capacity: {self._running} searches running and "
                               f"{self._queued} queued (the limits)")
        end = None if wait_s is None else time.monotonic() + wait_s
        self._queued += 1
        try:
            while True:
                self._check_open(stop)
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:  # even if a slot has just freed: too late
                    raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                       f"over capacity: no search slot of {self.max_running} "
                                       "freed in time to search before the deadline")
                if self._running < self.max_running:
                    return
                self._cond.wait(_POLL_S if left is None else min(left, _POLL_S))
        finally:
            self._queued -= 1

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
