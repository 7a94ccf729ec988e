"""A counting slot that serves its waiters first come, first served, and lets a waiter give up at
its deadline (threading.Semaphore does neither). A holder whose request has stalled can step aside:
its slot goes to the next in line while it goes on, up to a second bound for stalled holders, so a
hung request does not hold the rest of a host's pages hostage and a host still sees a bounded number
of requests at once."""

from __future__ import annotations

import threading
import time
from collections import deque


class FairSlots:
    """At most `capacity` active holders at once, plus at most `stalled_capacity` holders that stepped
    aside; waiters are served in the order they came."""

    def __init__(self, capacity: int, stalled_capacity: int = 0) -> None:
        self.capacity = max(1, capacity)
        self.stalled_capacity = max(0, stalled_capacity)
        self._held = 0
        self._stalled = 0
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

    def step_aside(self) -> bool:
        """A holder whose request stalled frees its slot for the next in line and goes on as a stalled
        holder; False (it keeps its slot) when the stalled ones are already at their bound."""
        with self._changed:
            if self._stalled >= self.stalled_capacity:
                return False
            self._held -= 1
            self._stalled += 1
            self._changed.notify_all()
            return True

    def release(self, stalled: bool = False) -> None:
        """Give a slot back (`stalled`: the holder had stepped aside)."""
        with self._changed:
            if stalled:
                self._stalled -= 1
            else:
                self._held -= 1
            self._changed.notify_all()

    @property
    def waiting(self) -> int:
        """How many are queued."""
        with self._changed:
            return len(self._queue)

    @property
    def in_use(self) -> tuple[int, int]:
        """(active, stalled) holders."""
        with self._changed:
            return self._held, self._stalled


class Holding:
    """One holder's slot, which the watcher may set aside once the request stalls; released once."""

    def __init__(self, slots: FairSlots) -> None:
        self._slots = slots
        self._lock = threading.Lock()
        self._stalled = False
        self._released = False

    def stall(self) -> None:
        """The request has been on the wire too long: let the next in line go, if the bound allows."""
        with self._lock:
            if not self._released and not self._stalled:
                self._stalled = self._slots.step_aside()

    def release(self) -> None:
        """Give the slot back, whichever kind it now is."""
        with self._lock:
            if self._released:
                return
            self._released = True
            self._slots.release(stalled=self._stalled)
