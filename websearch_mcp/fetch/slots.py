"""A counting slot that serves its waiters first come, first served, and lets a waiter give up at
its deadline (threading.Semaphore does neither)."""

from __future__ import annotations

import threading
import time
from collections import deque


class FairSlots:
    """At most `capacity` holders at once; waiters are served in the order they came."""

    def __init__(self, capacity: int) -> None:
        self.capacity = max(1, capacity)
        self._held = 0
        self._queue: deque[object] = deque()
        self._changed = threading.Condition()

    def acquire(self, deadline: float | None = None) -> bool:
        """Wait for a slot (in turn); False when the deadline (a time.monotonic() value) passes first."""
        ticket = object()
        with self._changed:
            self._queue.append(ticket)
            try:
                while self._queue[0] is not ticket or self._held >= self.capacity:
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        return False
                    self._changed.wait(left)
                self._queue.popleft()
                self._held += 1
                return True
            finally:
                if ticket in self._queue:  # gave up: the next in line may go
                    self._queue.remove(ticket)
                    self._changed.notify_all()

    def release(self) -> None:
        """Give a slot back."""
        with self._changed:
            self._held -= 1
            self._changed.notify_all()

    @property
    def waiting(self) -> int:
        """How many are queued."""
        with self._changed:
            return len(self._queue)
