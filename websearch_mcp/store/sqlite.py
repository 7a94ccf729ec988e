"""The store in one SQLite file, shared by every process (and thread) that opens it.

Every read-modify-write (a request slot, a lease, a cache entry and the size it adds) is one
`BEGIN IMMEDIATE` transaction, so processes never book the same slot twice. The file keeps a
rollback journal, so the whole footprint stays near WEBSEARCH_STORE_MAX_BYTES. Any sqlite3 error
becomes a StoreFault (the caller then falls back to memory).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from websearch_mcp.store.base import Result, StoreFault, guarded

SCHEMA_VERSION = 1
BUSY_TIMEOUT = 1.0  # seconds a writer waits for another process's lock before this is a fault
_SCHEMA = """
CREATE TABLE IF NOT EXISTS cache (namespace TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL,
                                  expires REAL NOT NULL, size INTEGER NOT NULL, PRIMARY KEY (namespace, key));
CREATE INDEX IF NOT EXISTS cache_by_expiry ON cache (expires);
CREATE TABLE IF NOT EXISTS totals (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS leases (key TEXT PRIMARY KEY, until REAL NOT NULL);
CREATE TABLE IF NOT EXISTS slots (name TEXT PRIMARY KEY, next_free REAL NOT NULL);
CREATE TABLE IF NOT EXISTS cooldowns (name TEXT PRIMARY KEY, until REAL NOT NULL, strikes INTEGER NOT NULL,
                                      reason TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_FAULTS = (sqlite3.Error, OSError)


class SqliteStore:
    """The store in an SQLite file."""

    kind = "sqlite"

    def __init__(self, path: str, max_bytes: int) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self._lock = threading.Lock()  # one connection, used by one thread at a time
        self._db = self._guard(self._open)

    def _open(self) -> sqlite3.Connection:
        directory = os.path.dirname(self.path)
        if directory:
            os.makedirs(directory, mode=0o700, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA_VERSION):
                raise StoreFault(f"it was written by another version of websearch-mcp (schema {version}; "
                                 f"this one reads schema {SCHEMA_VERSION})")
            db.execute("PRAGMA synchronous=NORMAL")
            # A rollback journal, not a write-ahead log: with several processes reading and writing,
            # the log seldom found a moment to restart and grew to many times the bound (20 MiB for a
            # 1 MiB bound, measured); a rollback journal holds one small transaction at most.
            if db.execute("PRAGMA journal_mode").fetchone()[0] != "truncate":
                try:
                    db.execute("PRAGMA journal_mode=TRUNCATE")
                except sqlite3.OperationalError:
                    pass  # another process has it open in WAL mode; a later start converts it
            if version == 0:  # a new file: the tables, once
                db.executescript(_SCHEMA)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except BaseException:
            db.close()
            raise
        return db

    @staticmethod
    def _guard(work: Callable[[], Result]) -> Result:
        return guarded(work, _FAULTS)

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE: the lock is taken before anything is read)."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except _FAULTS as err:
                raise StoreFault.from_error(err) from err

    def _read(self, sql: str, *args: Any) -> Any:
        with self._lock:
            return self._guard(lambda: self._db.execute(sql, args).fetchone())

    # -- cache ------------------------------------------------------------------------------------

    def get(self, namespace: str, key: str) -> bytes | None:
        """A live cached value, or None."""
        row = self._read("SELECT value, expires FROM cache WHERE namespace = ? AND key = ?", namespace, key)
        if row is None or row[1] < time.time():
            return None
        return bytes(row[0])

    def put(self, namespace: str, key: str, value: bytes, ttl: float) -> None:
        """Cache a value; expired entries, then the soonest to expire, go when the file is over its bound."""
        if ttl <= 0 or len(value) > self.max_bytes:
            return
        now = time.time()
        with self._write() as db:
            old = db.execute("SELECT size FROM cache WHERE namespace = ? AND key = ?", (namespace, key)).fetchone()
            db.execute("INSERT OR REPLACE INTO cache VALUES (?, ?, ?, ?, ?)",
                       (namespace, key, value, now + ttl, len(value)))
            total = self._add_bytes(db, len(value) - (old[0] if old else 0))
            if total > self.max_bytes:
                self._evict(db, total, now)


    @staticmethod
    def _add_bytes(db: sqlite3.Connection, change: int) -> int:
        db.execute("INSERT INTO totals VALUES ('bytes', ?) ON CONFLICT (name) DO UPDATE SET value = value + ?",
                   (change, change))
        return int(db.execute("SELECT value FROM totals WHERE name = 'bytes'").fetchone()[0])

    def _evict(self, db: sqlite3.Connection, total: int, now: float) -> None:
        """Drop expired entries, then those that expire soonest, until the cache fits again."""
        freed = db.execute("SELECT COALESCE(SUM(size), 0) FROM cache WHERE expires < ?", (now,)).fetchone()[0]
        db.execute("DELETE FROM cache WHERE expires < ?", (now,))
        total = self._add_bytes(db, -freed)
        while total > self.max_bytes:
            rows = db.execute("SELECT rowid, size FROM cache ORDER BY expires LIMIT 32").fetchall()
            if not rows:
                break
            for rowid, size in rows:
                db.execute("DELETE FROM cache WHERE rowid = ?", (rowid,))
                total = self._add_bytes(db, -size)
                if total <= self.max_bytes:
                    break

    # -- leases, slots, cool-downs, values --------------------------------------------------------

    def claim(self, key: str, ttl: float) -> bool:
        """Take a lease unless a live one is held (by any process)."""
        now = time.time()
        with self._write() as db:
            row = db.execute("SELECT until FROM leases WHERE key = ?", (key,)).fetchone()
            if row is not None and row[0] > now:
                return False
            db.execute("INSERT OR REPLACE INTO leases VALUES (?, ?)", (key, now + ttl))
            return True

    def release(self, key: str) -> None:
        """Give a lease back."""
        with self._write() as db:
            db.execute("DELETE FROM leases WHERE key = ?", (key,))

    def renew(self, key: str, ttl: float) -> None:
        """Extend a held lease."""
        with self._write() as db:
            db.execute("INSERT OR REPLACE INTO leases VALUES (?, ?)", (key, time.time() + ttl))

    def reserve(self, name: str, interval: float) -> float:
        """Book the next slot for `name` across every process; the seconds to wait for it."""
        now = time.time()
        with self._write() as db:
            row = db.execute("SELECT next_free FROM slots WHERE name = ?", (name,)).fetchone()
            start = max(now, row[0] if row else 0.0)
            db.execute("INSERT OR REPLACE INTO slots VALUES (?, ?)", (name, start + interval))
        return start - now

    def cooldown(self, name: str) -> tuple[float, int, str]:
        """(until, strikes, reason)."""
        row = self._read("SELECT until, strikes, reason FROM cooldowns WHERE name = ?", name)
        return (float(row[0]), int(row[1]), str(row[2])) if row else (0.0, 0, "")

    def set_cooldown(self, name: str, until: float, strikes: int, reason: str) -> None:
        """Record a cool-down for every process."""
        with self._write() as db:
            db.execute("INSERT OR REPLACE INTO cooldowns VALUES (?, ?, ?, ?)", (name, until, strikes, reason))

    def get_value(self, key: str) -> str | None:
        """A small named value."""
        row = self._read("SELECT value FROM kv WHERE key = ?", key)
        return str(row[0]) if row else None

    def set_value(self, key: str, value: str) -> None:
        """Set a small named value."""
        with self._write() as db:
            db.execute("INSERT OR REPLACE INTO kv VALUES (?, ?)", (key, value))

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
