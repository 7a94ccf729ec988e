"""Politeness towards upstreams: a per-backend minimum interval between requests (callers queue
instead of provoking blocks), and a pause when a backend says Retry-After."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class RateLimiter:
    """Hands out request slots per backend name; one instance per process."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._next_free: dict[str, float] = {}
        self._paused_until: dict[str, float] = {}
        self._lock = threading.Lock()

    def wait_turn(self, name: str, min_interval: float, cancelled: Callable[[], bool] | None = None) -> float:
        """Block until this caller may send to the backend; returns the seconds waited."""
        with self._lock:
            now = self._clock()
            start = max(now, self._next_free.get(name, 0.0), self._paused_until.get(name, 0.0))
            self._next_free[name] = start + min_interval
        delay = start - now
        deadline = start
        while self._clock() < deadline:
            if cancelled is not None and cancelled():
                break
            threading.Event().wait(min(0.05, max(0.0, deadline - self._clock())))
        return delay

    def pause(self, name: str, seconds: float) -> None:
        """Send nothing to the backend for this long (it asked with Retry-After)."""
        with self._lock:
            until = self._clock() + seconds
            self._paused_until[name] = max(self._paused_until.get(name, 0.0), until)

    def reset(self) -> None:
        """Forget every slot and pause (a new process starts this way)."""
        with self._lock:
            self._next_free.clear()
            self._paused_until.clear()

    def paused_for(self, name: str) -> float:
        """Seconds left in a pause, 0 when none."""
        with self._lock:
            return max(0.0, self._paused_until.get(name, 0.0) - self._clock())


LIMITER = RateLimiter()
