"""A shared store that never fails a call: on a fault it warns once on stderr, naming the store and
the problem, and answers from this process's memory; it tries the shared store again a few seconds
later (a Redis server that comes back is used again)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from websearch_mcp import log
from websearch_mcp.config import Config
from websearch_mcp.store.base import Store, StoreFault
from websearch_mcp.store.memory import MemoryStore

RETRY_AFTER = 5.0  # seconds between attempts to use a store that failed
Result = TypeVar("Result")


class ResilientStore:
    """The configured store (SQLite file or Redis), with per-process memory behind it."""

    def __init__(self, kind: str, target: str, config: Config) -> None:
        self.target_kind = kind
        self.target = target
        self.max_bytes = config.store_max_bytes
        self.fallback = MemoryStore(config.store_max_bytes)
        self._shared: Store | None = None
        self._failing_until = 0.0
        self._failing = False
        self._lock = threading.Lock()

    @property
    def kind(self) -> str:
        """Where answers come from now: the shared store's kind, or "memory" during a fault."""
        return "memory" if self._failing else self.target_kind

    @property
    def description(self) -> str:
        """The store as a person would name it in a message."""
        return f"{self.target_kind} store {self.target}" if self.target_kind == "sqlite" else \
            f"redis store {_without_password(self.target)}"

    def _open(self) -> Store:
        if self.target_kind == "sqlite":
            from websearch_mcp.store.sqlite import SqliteStore

            return SqliteStore(self.target, self.max_bytes)
        from websearch_mcp.store.redis_server import RedisStore

        return RedisStore(self.target, self.max_bytes)

    def _use(self, operation: Callable[[Store], Result], writes: bool = False) -> Result:
        """Run an operation on the shared store, or on memory while it is failing. Only a write that
        succeeds ends a fault (a locked SQLite file still lets readers through)."""
        if self._failing and time.monotonic() < self._failing_until:
            return operation(self.fallback)
        try:
            with self._lock:
                if self._shared is None:
                    self._shared = self._open()
                shared = self._shared
            result = operation(shared)
        except StoreFault as fault:
            self._fault(fault)
            return operation(self.fallback)
        if self._failing and writes:
            self._failing = False
            log.info(f"the {self.description} works again")
        return result

    def _fault(self, fault: StoreFault) -> None:
        with self._lock:
            first = not self._failing  # a fault that goes on (a retry that fails) is not news
            self._failing = True
            self._failing_until = time.monotonic() + RETRY_AFTER
        if first:
            log.warning(f"the {self.description} cannot be used ({fault}); caches, rate limits and "
                        "cool-downs stay in this process's memory until it works again")

    def get(self, namespace: str, key: str) -> bytes | None:
        """A live cached value, or None."""
        return self._use(lambda s: s.get(namespace, key))

    def put(self, namespace: str, key: str, value: bytes, ttl: float) -> None:
        """Cache a value."""
        self._use(lambda s: s.put(namespace, key, value, ttl), writes=True)

    def claim(self, key: str, ttl: float) -> bool:
        """Take a lease unless a live one is held."""
        return self._use(lambda s: s.claim(key, ttl), writes=True)

    def renew(self, key: str, ttl: float) -> None:
        """Extend a held lease."""
        self._use(lambda s: s.renew(key, ttl), writes=True)

    def release(self, key: str) -> None:
        """Give a lease back (to whichever store holds it)."""
        self._use(lambda s: s.release(key), writes=True)
        self.fallback.release(key)

    def reserve(self, name: str, interval: float) -> float:
        """Book the next request slot."""
        return self._use(lambda s: s.reserve(name, interval), writes=True)

    def cooldown(self, name: str) -> tuple[float, int, str]:
        """(until, strikes, reason)."""
        return self._use(lambda s: s.cooldown(name))

    def set_cooldown(self, name: str, until: float, strikes: int, reason: str) -> None:
        """Record a cool-down."""
        self._use(lambda s: s.set_cooldown(name, until, strikes, reason), writes=True)

    def get_value(self, key: str) -> str | None:
        """A small named value."""
        return self._use(lambda s: s.get_value(key))

    def set_value(self, key: str, value: str) -> None:
        """Set a small named value."""
        self._use(lambda s: s.set_value(key, value), writes=True)

    def close(self) -> None:
        """Close the shared store's connections."""
        if self._shared is not None:
            self._shared.close()


def _without_password(url: str) -> str:
    """A Redis URL with its password hidden, for messages."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    return f"{scheme}{sep}***@{host}" if at and credentials else url

