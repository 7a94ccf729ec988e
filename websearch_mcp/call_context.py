"""The context of one tool call: its deadline, its cancellation and its progress reports.

Below both the tools and the services that use it, on the start-up path (no threading import until a
cancellation is waited on).
"""

from __future__ import annotations

import _thread
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    JSONObject = dict[str, Any]


class CancelFlag:
    """Set once a request is cancelled; like threading.Event, without importing threading until waited on."""

    def __init__(self) -> None:
        self._set = False
        self._event: Any = None
        self._lock = _thread.allocate_lock()

    def set(self) -> None:
        """Mark the request cancelled and wake anyone waiting."""
        self._set = True
        event = self._event
        if event is not None:
            event.set()

    def is_set(self) -> bool:
        """Whether the request was cancelled."""
        return self._set

    def wait(self, timeout: float | None = None) -> bool:
        """Sleep until cancelled or the timeout passes; True when cancelled."""
        with self._lock:
            if self._event is None:
                import threading

                self._event = threading.Event()
        if self._set:
            self._event.set()
        return bool(self._event.wait(timeout))


class ToolContext:
    """What a running tool may know of and do to its request."""

    def __init__(self, request_id: Any = None,
                 send_notification: Callable[[str, JSONObject], None] | None = None,
                 deadline_seconds: float | None = None) -> None:
        self.request_id = request_id
        self.progress_token: Any = None
        self.cancelled = CancelFlag()
        self.send_notification = send_notification
        self.deadline = time.monotonic() + deadline_seconds if deadline_seconds else None
        self.wait_until: float | None = None  # the most the caller will wait for pages (max_wait_seconds)
        self._last_progress = float("-inf")

    def limit_wait(self, seconds: float | None) -> None:
        """The caller will wait at most this long for pages (never past the deadline)."""
        if seconds is None:
            return
        until = time.monotonic() + seconds
        self.wait_until = until if self.deadline is None else min(until, self.deadline)

    def report_progress(self, progress: float, total: float | None = None,
                        message: str | None = None) -> None:
        """Send a progress notification when the client asked for them; progress only grows."""
        if self.progress_token is None or self.send_notification is None:
            return
        if progress <= self._last_progress or self.cancelled.is_set():
            return
        self._last_progress = progress
        params: JSONObject = {"progressToken": self.progress_token, "progress": progress}
        if total is not None:
            params["total"] = total
        if message:
            params["message"] = message
        self.send_notification("notifications/progress", params)
