"""The per-process store: an LRU cache bounded by bytes, request slots, cool-downs, values."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict


class MemoryStore:
    """Everything in this process's memory; also what the other stores fall back to on a fault."""

    kind = "memory"

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[str, str], tuple[float, bytes]] = OrderedDict()
        self._size = 0
        self._leases: dict[str, float] = {}
        self._slots: dict[str, float] = {}
        self._cooldowns: dict[str, tuple[float, int, str]] = {}
        self._values: dict[str, str] = {}
        self._lock = threading.Lock()

    def get(self, namespace: str, key: str) -> bytes | None:
        """A live cached value, or None (expired entries are dropped on the way)."""
        with self._lock:
            entry = self._entries.get((namespace, key))
            if entry is None:
                return None
            if entry[0] < time.time():
                self._drop((namespace, key))
                return None
            self._entries.move_to_end((namespace, key))
            return entry[1]

    def put(self, namespace: str, key: str, value: bytes, ttl: float) -> None:
        """Cache a value; the least recently used go first once `max_bytes` is reached."""
        if ttl <= 0 or len(value) > self.max_bytes:
            return
        with self._lock:
            self._drop((namespace, key))
            self._entries[(namespace, key)] = (time.time() + ttl, value)
            self._size += len(value)
            while self._size > self.max_bytes and self._entries:
                self._drop(next(iter(self._entries)))

    def _drop(self, entry_key: tuple[str, str]) -> None:
        old = self._entries.pop(entry_key, None)
        if old is not None:
            self._size -= len(old[1])

    def claim(self, key: str, ttl: float) -> bool:
        """Take a lease unless a live one is held."""
        now = time.time()
        with self._lock:
            if self._leases.get(key, 0.0) > now:
                return False
            self._leases[key] = now + ttl
            return True

    def release(self, key: str) -> None:
        """Give a lease back."""
        with self._lock:
            self._leases.pop(key, None)

    def renew(self, key: str, ttl: float) -> None:
        """Extend a held lease."""
        with self._lock:
            self._leases[key] = time.time() + ttl

    def reserve(self, name: str, interval: float) -> float:
        """Book the next slot; the seconds to wait for it."""
        now = time.time()
        with self._lock:
            start = max(now, self._slots.get(name, 0.0))
            self._slots[name] = start + interval
        return start - now

    def cooldown(self, name: str) -> tuple[float, int, str]:
        """(until, strikes, reason)."""
        with self._lock:
            return self._cooldowns.get(name, (0.0, 0, ""))

    def set_cooldown(self, name: str, until: float, strikes: int, reason: str) -> None:
        """Record a cool-down."""
        with self._lock:
            self._cooldowns[name] = (until, strikes, reason)

    def get_value(self, key: str) -> str | None:
        """A small named value."""
        with self._lock:
            return self._values.get(key)

    def set_value(self, key: str, value: str) -> None:
        """Set a small named value."""
        with self._lock:
            self._values[key] = value

    def __len__(self) -> int:
        return len(self._entries)

    def close(self) -> None:
        """Nothing to close."""
