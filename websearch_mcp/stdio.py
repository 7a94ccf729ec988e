"""The stdio transport: newline-delimited JSON-RPC on a pair of byte streams.

`serve(reader, writer, server, config)` reads lines until EOF, answers every request it read
(slow ones on a worker pool, so pings and cancellations are answered meanwhile), and returns
once the last response is written.
"""

from __future__ import annotations

import _thread

from websearch_mcp import jsonrpc, log
from websearch_mcp.jsonrpc import InternalError, InvalidRequest, JsonRpcError, MalformedMessage
from websearch_mcp.mcp import Session
from websearch_mcp.tools.registry import ToolContext

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, BinaryIO

    from websearch_mcp.config import Config
    from websearch_mcp.jsonrpc import Request
    from websearch_mcp.mcp import McpServer
    from websearch_mcp.workers import WorkerPool

_DISCARD_CHUNK = 1 << 16


class OversizedLine:
    """Stands for a line that exceeded the size limit; keeps its first bytes to find its id."""

    def __init__(self, prefix: bytes) -> None:
        self.prefix = prefix


def read_lines(reader: BinaryIO, limit: int) -> Iterator[bytes | OversizedLine]:
    """Yield each non-blank line; a line over `limit` bytes is skipped whole and reported."""
    while True:
        line = reader.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            prefix = line[:1024]
            while True:  # drop the rest of the line without holding it in memory
                rest = reader.readline(_DISCARD_CHUNK)
                if not rest or rest.endswith(b"\n"):
                    break
            yield OversizedLine(prefix)
            continue
        if line.strip():
            yield line


def _id_key(request_id: Any) -> tuple[str, Any]:
    return (type(request_id).__name__, request_id)


class Connection:
    """One client on one pair of streams: its session, its in-flight requests, its writer."""

    def __init__(self, server: McpServer, writer: BinaryIO, config: Config) -> None:
        self.server = server
        self.config = config
        self.session = Session()
        self.closed = False
        self._writer = writer
        self._write_lock = _thread.allocate_lock()  # `threading` is imported only once work needs it
        self._inflight: dict[tuple[str, Any], ToolContext] = {}
        self._inflight_lock = _thread.allocate_lock()
        self._pool: WorkerPool | None = None
        if server.list_changed:
            server.registry.listeners.append(self._tools_changed)

    # -- output ---------------------------------------------------------------------------------

    def write(self, message: Any) -> None:
        """Write one message as one line and flush it; lines never interleave."""
        data = jsonrpc.encode(message)
        with self._write_lock:
            if self.closed:
                return
            try:
                self._writer.write(data)
                self._writer.flush()
            except (OSError, ValueError):
                self.closed = True  # the client is gone; nothing more can be answered
                log.warning("stdout is closed; stopping")

    def _tools_changed(self) -> None:
        """A backend server's tools came or went: tell a client that negotiated a revision."""
        if self.session.protocol_version is not None:
            self.write(jsonrpc.notification("notifications/tools/list_changed"))

    # -- input ----------------------------------------------------------------------------------

    def handle_line(self, line: bytes | OversizedLine) -> None:
        """Answer one line: a message, a batch, or something that is neither."""
        if isinstance(line, OversizedLine):
            error = InvalidRequest(f"Invalid Request: message exceeds {self.config.max_line_bytes} bytes")
            self.write(jsonrpc.error_response(jsonrpc.sniff_id(line.prefix), error))
            return
        try:
            message = jsonrpc.decode(line)
        except JsonRpcError as err:
            self.write(jsonrpc.error_response(None, err))
            return
        if isinstance(message, list):
            self._handle_batch(message)
        else:
            response = self._handle_message(message, in_batch=False)
            if response is not None:
                self.write(response)

    def finish(self) -> None:
        """Wait until every request already read has been answered."""
        if self._pool is not None:
            self._pool.drain()

    def _handle_message(self, message: Any, in_batch: bool) -> dict[str, Any] | None:
        """The response to write now, or None (notification, or handed to a worker)."""
        if jsonrpc.is_response(message):
            log.debug("ignoring a response: this server sends no requests")
            return None
        try:
            request = jsonrpc.to_request(message)
        except MalformedMessage as bad:
            return jsonrpc.error_response(bad.id, bad.error)
        if request.is_notification:
            self._notify(request)
            return None
        if in_batch and not self.server.may_be_batched(message):
            return jsonrpc.error_response(request.id, InvalidRequest(
                f"Invalid Request: {request.method} must not be sent in a batch"))
        context = self._context_for(request)
        if in_batch or not self.server.is_slow(request):
            return self._answer(request, context)
        self._workers().submit(lambda: self._run_in_worker(request, context))
        return None

    def _handle_batch(self, messages: list[Any]) -> None:
        if not messages:
            self.write(jsonrpc.error_response(None, InvalidRequest("Invalid Request: empty batch")))
            return
        if not self.server.batches_allowed(self.session):
            self._refuse_batch(messages)
            return
        self._workers().submit(lambda: self._run_batch(messages))

    def _refuse_batch(self, messages: list[Any]) -> None:
        revision = self.session.protocol_version or "(not initialized)"
        error = InvalidRequest(f"Invalid Request: batches are not allowed in protocol revision {revision}")
        ids = [m["id"] for m in messages
               if isinstance(m, dict) and "method" in m and jsonrpc.valid_id(m.get("id"))]
        for request_id in ids or [None]:
            self.write(jsonrpc.error_response(request_id, error))

    def _run_batch(self, messages: list[Any]) -> None:
        responses = [r for r in (self._handle_message(m, in_batch=True) for m in messages) if r is not None]
        if responses:
            self.write(responses)

    def _notify(self, request: Request) -> None:
        cancelled_id = self.server.cancelled_request_id(request)
        if cancelled_id is not None:
            with self._inflight_lock:
                context = self._inflight.get(_id_key(cancelled_id))
            if context is not None:
                context.cancelled.set()
                log.info(f"request {cancelled_id!r} cancelled")
            return
        self.server.handle_notification(request, self.session)

    # -- requests -------------------------------------------------------------------------------

    def _context_for(self, request: Request) -> ToolContext:
        context = ToolContext(request_id=request.id)
        context.send_notification = lambda method, params: self._notify_client(context, method, params)
        with self._inflight_lock:
            self._inflight[_id_key(request.id)] = context
        return context

    def _notify_client(self, context: ToolContext, method: str, params: dict[str, Any]) -> None:
        if not context.cancelled.is_set():
            self.write(jsonrpc.notification(method, params))

    def _answer(self, request: Request, context: ToolContext) -> dict[str, Any] | None:
        try:
            result = self.server.handle(request, self.session, context)
            response = jsonrpc.result_response(request.id, result)
        except JsonRpcError as err:
            response = jsonrpc.error_response(request.id, err)
        except Exception:
            log.exception(f"internal error while answering {request.method}")
            response = jsonrpc.error_response(request.id, InternalError())
        finally:
            with self._inflight_lock:
                if self._inflight.get(_id_key(request.id)) is context:
                    del self._inflight[_id_key(request.id)]
        return None if context.cancelled.is_set() else response

    def _run_in_worker(self, request: Request, context: ToolContext) -> None:
        response = self._answer(request, context)
        if response is not None:
            self.write(response)

    def _workers(self) -> WorkerPool:
        if self._pool is None:
            from websearch_mcp.workers import WorkerPool

            self._pool = WorkerPool(self.config.workers, name="tools")
        return self._pool


def serve(reader: BinaryIO, writer: BinaryIO, server: McpServer, config: Config) -> int:
    """Serve one client until its input ends; return the exit status (0)."""
    connection = Connection(server, writer, config)
    for line in read_lines(reader, config.max_line_bytes):
        connection.handle_line(line)
        if connection.closed:
            break
    connection.finish()
    return 0
