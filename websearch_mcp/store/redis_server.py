"""The store on a Redis server, shared by every process on every machine that uses it (redis-py,
the `redis` extra).

Read-modify-write operations (a request slot, a cache entry and its share of the size bound) are
Lua scripts, so they are atomic; request slots are timed by the Redis server's clock, so machines
whose clocks differ still space their requests. Timeouts are short: a slow or absent server is a
StoreFault within a second, and the caller falls back to memory.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

import redis

from websearch_mcp.store.base import Result, guarded

PREFIX = "websearch-mcp:v1:"
SOCKET_TIMEOUT = 1.0
_FAULTS = (redis.RedisError, OSError)

# KEYS: entry, index, sizes, total. ARGV: member, value, ttl in ms, bound in bytes, entry key prefix.
_PUT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local size = string.len(ARGV[2])
local old = tonumber(redis.call('HGET', KEYS[3], ARGV[1]) or '0')
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], size)
local total = redis.call('INCRBY', KEYS[4], size - old)
while total > tonumber(ARGV[4]) do
  local popped = redis.call('ZPOPMIN', KEYS[2])
  if #popped == 0 then break end
  local freed = tonumber(redis.call('HGET', KEYS[3], popped[1]) or '0')
  redis.call('HDEL', KEYS[3], popped[1])
  redis.call('DEL', ARGV[5] .. popped[1])
  total = redis.call('DECRBY', KEYS[4], freed)
end
return total
"""
# KEYS: slot. ARGV: interval in ms. Returns the milliseconds to wait.
_RESERVE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local start = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
redis.call('SET', KEYS[1], start + tonumber(ARGV[1]), 'PX', tonumber(ARGV[1]) + 3600000)
return start - now
"""


def _member(namespace: str, key: str) -> str:
    return namespace + ":" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:40]


class RedisStore:
    """The store on a Redis server."""

    kind = "redis"

    def __init__(self, url: str, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.client = redis.Redis.from_url(url, socket_timeout=SOCKET_TIMEOUT, socket_connect_timeout=SOCKET_TIMEOUT,
                                           retry_on_timeout=False)
        self._put = self.client.register_script(_PUT)
        self._reserve = self.client.register_script(_RESERVE)
        self._guard(self.client.ping)

    @staticmethod
    def _guard(work: Callable[[], Result]) -> Result:
        return guarded(work, _FAULTS)

    def get(self, namespace: str, key: str) -> bytes | None:
        """A live cached value, or None."""
        value: Any = self._guard(lambda: self.client.get(PREFIX + "entry:" + _member(namespace, key)))
        return bytes(value) if value is not None else None

    def put(self, namespace: str, key: str, value: bytes, ttl: float) -> None:
        """Cache a value; expired entries, then the soonest to expire, go when over the bound."""
        if ttl <= 0 or len(value) > self.max_bytes:
            return
        member = _member(namespace, key)
        keys = [PREFIX + "entry:" + member, PREFIX + "index", PREFIX + "sizes", PREFIX + "total"]
        self._guard(lambda: self._put(keys=keys, args=[member, value, int(ttl * 1000), self.max_bytes,
                                                       PREFIX + "entry:"]))

    def claim(self, key: str, ttl: float) -> bool:
        """Take a lease unless a live one is held (by any process on any machine)."""
        taken = self._guard(lambda: self.client.set(PREFIX + "lease:" + key, b"1", nx=True,
                                                     px=max(1, int(ttl * 1000))))
        return bool(taken)

    def release(self, key: str) -> None:
        """Give a lease back."""
        self._guard(lambda: self.client.delete(PREFIX + "lease:" + key))

    def renew(self, key: str, ttl: float) -> None:
        """Extend a held lease."""
        self._guard(lambda: self.client.set(PREFIX + "lease:" + key, b"1", px=max(1, int(ttl * 1000))))

    def reserve(self, name: str, interval: float) -> float:
        """Book the next slot for `name`, timed by the Redis server's clock; the seconds to wait."""
        waited = self._guard(lambda: self._reserve(keys=[PREFIX + "slot:" + name], args=[int(interval * 1000)]))
        return float(waited) / 1000

    def cooldown(self, name: str) -> tuple[float, int, str]:
        """(until, strikes, reason)."""
        fields: Any = self._guard(lambda: self.client.hgetall(PREFIX + "cooldown:" + name))
        if not fields:
            return 0.0, 0, ""
        return (float(fields.get(b"until", 0)), int(fields.get(b"strikes", 0)),
                fields.get(b"reason", b"").decode("utf-8", "replace"))

    def set_cooldown(self, name: str, until: float, strikes: int, reason: str) -> None:
        """Record a cool-down for every process; it is forgotten a day after it ends."""
        key = PREFIX + "cooldown:" + name

        def write() -> None:
            pipe = self.client.pipeline()
            pipe.hset(key, mapping={"until": until, "strikes": strikes, "reason": reason})
            pipe.expire(key, max(1, int(until - time.time()) + 86400))
            pipe.execute()

        self._guard(write)

    def get_value(self, key: str) -> str | None:
        """A small named value."""
        value: Any = self._guard(lambda: self.client.get(PREFIX + "value:" + key))
        return value.decode("utf-8", "replace") if value is not None else None

    def set_value(self, key: str, value: str) -> None:
        """Set a small named value."""
        self._guard(lambda: self.client.set(PREFIX + "value:" + key, value))

    def close(self) -> None:
        """Close the connection pool."""
        try:
            self.client.close()
        except (redis.RedisError, OSError):
            pass
