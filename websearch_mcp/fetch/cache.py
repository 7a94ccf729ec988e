"""A small in-memory cache of recent results, bounded by bytes, whose entries expire."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Generic, TypeVar

Value = TypeVar("Value")


class TtlCache(Generic[Value]):
    """Least-recently-used entries go first once `max_bytes` is reached; each lives `ttl` seconds."""

    def __init__(self, max_bytes: int, ttl: float, clock: object = time.monotonic) -> None:
        self.max_bytes = max_bytes
        self.ttl = ttl
        self._clock = clock
        self._entries: OrderedDict[str, tuple[float, int, Value]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def _now(self) -> float:
        return float(self._clock())  # type: ignore[operator]

    def get(self, key: str) -> Value | None:
        """The live entry for a key, or None."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            expires, size, value = entry
            if expires < self._now():
                del self._entries[key]
                self._size -= size
                return None
            self._entries.move_to_end(key)
            return value

    def put(self, key: str, value: Value, size: int) -> None:
        """Store a value of about `size` bytes (ignored when larger than the whole cache)."""
        if size > self.max_bytes or self.ttl <= 0:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._size -= old[1]
            self._entries[key] = (self._now() + self.ttl, size, value)
            self._size += size
            while self._size > self.max_bytes and self._entries:
                _, (_, dropped, _) = self._entries.popitem(last=False)
                self._size -= dropped

    def __len__(self) -> int:
        return len(self._entries)
