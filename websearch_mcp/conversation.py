"""One client as the server sees it: what a legacy-era connection negotiated (Session) and, for the
pipeline, its requests in flight and how to reach it (Conversation). Below both the protocol layer
(mcp) and the pipeline, which both use it."""

from __future__ import annotations

import _thread

from websearch_mcp import jsonrpc, log, revisions
from websearch_mcp.call_context import ToolContext

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from websearch_mcp.jsonrpc import Request

    Notify = Callable[[dict[str, Any]], None]

_REMEMBERED_CANCELS = 256


class Session:
    """What a legacy-era connection negotiated; the stateless era keeps nothing here."""

    def __init__(self, protocol_version: str | None = None) -> None:
        self.protocol_version = protocol_version
        self.client_info: dict[str, Any] = {}
        self.client_capabilities: dict[str, Any] = {}
        self.initialized = False

    @property
    def revision(self) -> str:
        """The revision replies are shaped for (the newest legacy one before `initialize`)."""
        return self.protocol_version or revisions.LATEST_LEGACY



def _id_key(request_id: Any) -> tuple[str, Any]:
    return (type(request_id).__name__, request_id)


class Conversation:
    """One client as the pipeline sees it: what it negotiated, its requests in flight (so they can be
    cancelled), and how to reach it with a notification (None: it cannot be reached)."""

    def __init__(self, session: Session | None = None, notify: Notify | None = None,
                 deadline_seconds: float | None = None) -> None:
        self.session = session or Session()
        self.notify = notify
        self.deadline_seconds = deadline_seconds  # the overall time a tool call may take
        self._inflight: dict[tuple[str, Any], ToolContext] = {}
        self._cancelled_early: dict[tuple[str, Any], None] = {}
        self._lock = _thread.allocate_lock()

    def begin(self, request: Request) -> ToolContext:
        """The context of a request that starts now; it is cancelled at once if the client already
        cancelled it (the cancellation overtook it on its way to a worker)."""
        context = ToolContext(request_id=request.id, deadline_seconds=self.deadline_seconds)
        if self.notify is not None:
            context.send_notification = lambda method, params: self._notify_unless_cancelled(context, method, params)
        key = _id_key(request.id)
        with self._lock:
            self._inflight[key] = context
            if self._cancelled_early.pop(key, 0) is None:
                context.cancelled.set()
        return context

    def end(self, request: Request, context: ToolContext) -> None:
        """The request is answered (or dropped)."""
        with self._lock:
            if self._inflight.get(_id_key(request.id)) is context:
                del self._inflight[_id_key(request.id)]

    def cancel(self, request_id: Any) -> None:
        """Cancel a request in flight; its reply will not be sent."""
        if not jsonrpc.valid_id(request_id):
            return
        key = _id_key(request_id)
        with self._lock:
            context = self._inflight.get(key)
            if context is None:
                self._cancelled_early[key] = None
                while len(self._cancelled_early) > _REMEMBERED_CANCELS:
                    del self._cancelled_early[next(iter(self._cancelled_early))]
                return
        context.cancelled.set()
        log.info(f"request {request_id!r} cancelled")

    def _notify_unless_cancelled(self, context: ToolContext, method: str, params: dict[str, Any]) -> None:
        if self.notify is not None and not context.cancelled.is_set():
            self.notify(jsonrpc.notification(method, params))
