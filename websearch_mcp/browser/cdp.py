"""The Chrome DevTools Protocol over a pipe: JSON messages ended by a NUL byte, commands written to
the browser's fd 3 and answers and events read from its fd 4 (`--remote-debugging-pipe`). No
WebSocket and no Python package is needed."""

from __future__ import annotations

import itertools
import json
import os
import queue
import threading
import time
from typing import Any

from websearch_mcp import log

MAX_MESSAGE_BYTES = 64 * 1024 * 1024  # one message from the browser; a longer one is dropped unread


class CdpError(Exception):
    """A command failed, timed out, or the browser went away."""


class CdpPipe:
    """One connection to a browser; thread-safe; events are queued per session, for the sessions
    someone listens to (`listen`, until `forget`): the others' events are dropped as they come."""

    def __init__(self, to_browser: int, from_browser: int) -> None:
        self._out = to_browser
        self._in = from_browser
        self._ids = itertools.count(1)
        self._waiting: dict[int, queue.SimpleQueue[dict[str, Any]]] = {}
        self._events: dict[str, queue.SimpleQueue[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self.closed = threading.Event()
        threading.Thread(target=self._read, name="cdp-reader", daemon=True).start()

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None,
             timeout: float = 10.0) -> dict[str, Any]:
        """Send a command and wait for its result."""
        if self.closed.is_set():
            raise CdpError("the browser has exited")
        number = next(self._ids)
        message: dict[str, Any] = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        answer: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
        with self._lock:
            self._waiting[number] = answer
        try:
            data = json.dumps(message).encode() + b"\0"
            with self._write_lock:
                os.write(self._out, data)
            reply = answer.get(timeout=timeout)
        except queue.Empty:
            raise CdpError(f"{method} got no answer within {timeout:g} s") from None
        except OSError as err:
            raise CdpError(f"the browser has exited ({err})") from None
        finally:
            with self._lock:
                self._waiting.pop(number, None)
        if "error" in reply:
            raise CdpError(f"{method}: {reply['error'].get('message', reply['error'])}")
        return dict(reply.get("result", {}))

    def listen(self, session: str) -> queue.SimpleQueue[dict[str, Any]]:
        """The events of one session (or of the browser, for session ''), queued from now on."""
        with self._lock:
            return self._events.setdefault(session, queue.SimpleQueue())

    def forget(self, session: str) -> None:
        """Stop queueing a session's events and drop those queued."""
        with self._lock:
            self._events.pop(session, None)

    @property
    def queued_sessions(self) -> int:
        """How many sessions have an event queue now."""
        with self._lock:
            return len(self._events)

    def wait_event(self, session: str, names: set[str], until: float) -> dict[str, Any] | None:
        """The next event of a session whose method is in `names`, or None at `until`."""
        events = self.listen(session)
        while True:
            left = until - time.monotonic()
            if left <= 0:
                return None
            try:
                event = events.get(timeout=min(left, 0.25))
            except queue.Empty:
                if self.closed.is_set():
                    return None
                continue
            if event.get("method") in names:
                return event

    def _read(self) -> None:
        buffer = bytearray()
        skipping = False  # inside a message over MAX_MESSAGE_BYTES, dropped up to its NUL
        try:
            while True:
                chunk = os.read(self._in, 1 << 16)
                if not chunk:
                    break
                searched = len(buffer)  # only new bytes are searched for the end: linear in the size
                buffer += chunk
                start = 0
                while (end := buffer.find(b"\0", max(start, searched))) >= 0:
                    if not skipping:
                        self._dispatch(json.loads(bytes(buffer[start:end])))
                    skipping, start, searched = False, end + 1, end + 1
                del buffer[:start]
                if len(buffer) > MAX_MESSAGE_BYTES:
                    if not skipping:
                        log.warning(f"browser: dropped a message over {MAX_MESSAGE_BYTES} bytes")
                    skipping = True
                    buffer.clear()
        except (OSError, ValueError) as err:
            log.warning(f"browser connection ended: {err}")
        finally:
            self.closed.set()
            with self._lock:
                for waiter in self._waiting.values():
                    waiter.put({"error": {"message": "the browser has exited"}})

    def _dispatch(self, message: dict[str, Any]) -> None:
        if "id" in message:
            with self._lock:
                waiter = self._waiting.get(message["id"])
            if waiter is not None:
                waiter.put(message)
            return
        with self._lock:
            events = self._events.get(message.get("sessionId", ""))
        if events is not None:
            events.put(message)
