"""The message pipeline every transport shares: one decoded JSON-RPC message (or batch) in, the
replies out. A transport frames bytes (lines on stdio, bodies over HTTP), chooses the thread a
message runs on, and writes the replies; everything between is here.
"""

from __future__ import annotations

from websearch_mcp import jsonrpc, log, revisions
from websearch_mcp.conversation import Conversation
from websearch_mcp.jsonrpc import InternalError, InvalidRequest, JsonRpcError, MalformedMessage
from websearch_mcp.mcp import is_modern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from websearch_mcp.jsonrpc import Request
    from websearch_mcp.mcp import McpServer

    Notify = Callable[[dict[str, Any]], None]



BATCH_PARALLEL = 16  # tool calls of one batch that run at once


class Reply:
    """What to send for one message: nothing (a notification, a cancelled request), one response,
    a batch response (`batch`: one JSON array), or separate error responses (a refused batch).
    `error` is the error of a single error reply, so HTTP can choose its status from its type."""

    __slots__ = ("batch", "error", "messages", "modern")

    def __init__(self, messages: list[dict[str, Any]] | None = None, batch: bool = False,
                 error: JsonRpcError | None = None, modern: bool = False) -> None:
        self.messages = messages or []
        self.batch = batch
        self.error = error
        self.modern = modern

    @classmethod
    def failure(cls, request_id: Any, error: JsonRpcError, modern: bool = False) -> Reply:
        """One error response."""
        return cls([jsonrpc.error_response(request_id, error)], error=error, modern=modern)


NOTHING = Reply()


class Pipeline:
    """Answers decoded messages for any transport, with the MCP server's method table."""

    def __init__(self, server: McpServer) -> None:
        self.server = server

    def consume(self, message: Any, conversation: Conversation) -> Reply:
        """The reply to one decoded message or batch."""
        if isinstance(message, list):
            return self._batch(message, conversation)
        return self._single(message, conversation, in_batch=False)

    def runs_long(self, message: Any, conversation: Conversation) -> bool:
        """Whether a transport should run this message off the thread that reads input (tool calls and
        batches may take seconds; pings and cancellations must not wait behind them)."""
        if isinstance(message, list):
            return bool(message) and revisions.allows_batches(conversation.session.protocol_version)
        name = message.get("method") if isinstance(message, dict) else None
        method = self.server.methods.get(name) if isinstance(name, str) else None
        return method is not None and method.long_running and "id" in message

    def _single(self, message: Any, conversation: Conversation, in_batch: bool) -> Reply:
        if jsonrpc.is_response(message):
            log.debug("ignoring a response: this server sends no requests")
            return NOTHING
        try:
            request = jsonrpc.to_request(message)
        except MalformedMessage as bad:
            return Reply.failure(bad.id, bad.error)
        if request.is_notification:
            self.server.handle_notification(request, conversation)
            return NOTHING
        method = self.server.method_of(request)
        if in_batch and method is not None and not method.batchable:
            return Reply.failure(request.id, InvalidRequest(
                f"Invalid Request: {request.method} must not be sent in a batch"))
        return self._answer(request, conversation)

    def _answer(self, request: Request, conversation: Conversation) -> Reply:
        modern = is_modern(request)
        context = conversation.begin(request)
        try:
            result = self.server.handle(request, conversation.session, context)
            reply = Reply([jsonrpc.result_response(request.id, result)], modern=modern)
        except JsonRpcError as err:
            reply = Reply.failure(request.id, err, modern)
        except Exception:
            log.exception(f"internal error while answering {request.method}")
            reply = Reply.failure(request.id, InternalError(), modern)
        finally:
            conversation.end(request, context)
        return NOTHING if context.cancelled.is_set() else reply

    def _batch(self, messages: list[Any], conversation: Conversation) -> Reply:
        if not messages:
            return Reply.failure(None, InvalidRequest("Invalid Request: empty batch"))
        revision = conversation.session.protocol_version
        if not revisions.allows_batches(revision):
            error = InvalidRequest("Invalid Request: batches are not allowed in protocol revision "
                                   f"{revision or '(not initialized)'}")
            ids = [m["id"] for m in messages
                   if isinstance(m, dict) and "method" in m and jsonrpc.valid_id(m.get("id"))]
            return Reply([jsonrpc.error_response(i, error) for i in ids or [None]], error=error)
        replies = self._run_batch(messages, conversation)
        return Reply([m for reply in replies for m in reply.messages], batch=True)

    def _run_batch(self, messages: list[Any], conversation: Conversation) -> list[Reply]:
        """A batch's items in their order; tool calls among them run at once, side by side (a batch of
        thirty one-second pages takes a second or two, not thirty)."""
        slow = [i for i, m in enumerate(messages) if isinstance(m, dict) and self.runs_long(m, conversation)]
        if len(slow) < 2:
            return [self._single(m, conversation, in_batch=True) for m in messages]
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=min(BATCH_PARALLEL, len(slow)), thread_name_prefix="batch") as pool:
            running = {i: pool.submit(self._single, messages[i], conversation, True) for i in slow}
            return [running[i].result() if i in running else self._single(m, conversation, in_batch=True)
                    for i, m in enumerate(messages)]
