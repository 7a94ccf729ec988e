"""Politeness per host, shared through the store so that it holds across processes and machines: at
most `bound` requests to a host at once, and the crawl delay (or a default gap) between their starts."""

from __future__ import annotations

import threading
import time

from websearch_mcp.store.base import Store

DEFAULT_GAP = 0.05  # seconds between two requests to a host whose robots.txt names no Crawl-delay
MAX_DELAY = 30.0  # a larger Crawl-delay is read as this (the call could not wait for it anyway)
POLL = 0.01  # the first wait for a slot; it doubles up to MAX_POLL
MAX_POLL = 0.1


_LAST_START: dict[str, float] = {}  # host -> when this process last let a request to it go
_LAST_LOCK = threading.Lock()


def _spaced_here(host: str, gap: float, until: float) -> bool:
    """Keep this process's own requests to a host `gap` apart as they leave, too: the store spaces the
    booked turns, but a thread that wakes late for its turn (another thread holding the interpreter)
    would otherwise go out too close to the next one. False when `until` comes first."""
    while True:
        with _LAST_LOCK:
            now = time.monotonic()
            short = _LAST_START.get(host, float("-inf")) + gap - now
            if short <= 0:
                _LAST_START[host] = now
                return True
        if now + short > until:
            return False
        threading.Event().wait(short)


class HostGate:
    """Slots per host, as leases in the store."""

    def __init__(self, store: Store, bound: int, hold: float) -> None:
        self.store = store
        self.bound = max(1, bound)
        self.hold = hold  # a slot's lease outlives a request by this much at most (a process may die)

    def enter(self, host: str, delay: float | None, until: float) -> str | None:
        """Take a slot of the host and wait for its turn; the slot's key, or None when `until`
        (time.monotonic()) comes first."""
        slot = self._take_slot(host, until)
        if slot is None:
            return None
        gap = DEFAULT_GAP if delay is None else min(MAX_DELAY, delay)
        wait = self.store.reserve(f"crawl-gap:{host}", gap)
        if time.monotonic() + wait > until:
            self.store.release(slot)
            return None
        if wait > 0:
            threading.Event().wait(wait)
        if not _spaced_here(host, gap, until):
            self.store.release(slot)
            return None
        return slot

    def leave(self, slot: str) -> None:
        """Give the slot back."""
        self.store.release(slot)

    def _take_slot(self, host: str, until: float) -> str | None:
        pause = POLL
        while True:
            for number in range(self.bound):
                key = f"crawl-slot:{host}:{number}"
                if self.store.claim(key, self.hold):
                    return key
            if time.monotonic() + pause > until:
                return None
            threading.Event().wait(pause)
            pause = min(MAX_POLL, pause * 2)  # a store shared by processes is not to be hammered
