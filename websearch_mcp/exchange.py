"""One outbound exchange at a time per thread: the deadline its sockets cannot outlive, and the one
origin it may reach on a private address.

A socket read timeout restarts with every byte, so a server that trickles its status line or headers
a byte at a time would hold a request for as long as it likes. Here one watcher thread shuts down the
sockets of every exchange whose deadline has passed; the blocked read returns at once and the client
reports a timeout. The deadline runs from the first byte sent to the last byte read.
"""

from __future__ import annotations

import heapq
import itertools
import socket
import threading
import time
from collections.abc import Callable

_local = threading.local()


class Exchange:
    """One request and its reply on the current thread (used as a context manager)."""

    def __init__(self, deadline: float, trusted_origin: tuple[str, int] | None = None) -> None:
        self.deadline = deadline
        self.trusted_origin = trusted_origin  # (host, port) of a configured endpoint, or None
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._finished = False
        self._lock = threading.Lock()

    def trusts(self, host: str, port: int) -> bool:
        """Whether this exchange may connect to `host:port` whatever its address (a configured endpoint
        asked directly, never a redirect target elsewhere)."""
        return self.trusted_origin is not None and self.trusted_origin == (host.lower(), port)

    def attach(self, sock: socket.socket | None) -> None:
        """Put a socket this exchange reads from under its deadline."""
        if sock is None:
            return
        with self._lock:
            if self._finished:
                return
            self._sockets.append(sock)
            late = self.expired
        if late:
            _shut(sock)

    def expire(self) -> None:
        """The deadline passed: unblock every read of this exchange (the watcher calls this)."""
        with self._lock:
            if self._finished:
                return
            self.expired = True
            sockets = list(self._sockets)
        for sock in sockets:
            _shut(sock)

    def __enter__(self) -> Exchange:
        self._previous = getattr(_local, "exchange", None)
        _local.exchange = self
        _WATCHER.call_at(self.deadline, self.expire)
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._finished = True
            self._sockets.clear()
        _local.exchange = self._previous


def current() -> Exchange | None:
    """The exchange running on this thread, if any."""
    return getattr(_local, "exchange", None)


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed


def call_at(when: float, action: Callable[[], None]) -> None:
    """Run `action` (quick, never raising) on the watcher thread at `when`, a time.monotonic() value."""
    _WATCHER.call_at(when, action)


class _Watcher:
    """One daemon thread that runs timed actions: expiring exchanges at their deadlines, marking
    requests that stall (started on first use)."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, Callable[[], None]]] = []
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    def call_at(self, when: float, action: Callable[[], None]) -> None:
        with self._wake:
            heapq.heappush(self._heap, (when, next(self._order), action))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="exchange-deadlines", daemon=True)
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._heap:
                    self._wake.wait()
                when, _, action = self._heap[0]
                now = time.monotonic()
                if when > now:
                    self._wake.wait(when - now)
                    continue
                heapq.heappop(self._heap)
            action()


_WATCHER = _Watcher()
