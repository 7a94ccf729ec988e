"""The stdio transport: newline-delimited JSON-RPC on a pair of byte streams.

`serve(reader, writer, server, config)` reads lines until EOF, hands each message to the pipeline
(long-running ones on a worker pool, so pings and cancellations are answered meanwhile), writes
every reply as one line, and returns once the last reply is written.
"""

from __future__ import annotations

import _thread

from websearch_mcp import jsonrpc, log
from websearch_mcp.conversation import Conversation
from websearch_mcp.jsonrpc import InvalidRequest, JsonRpcError
from websearch_mcp.pipeline import Pipeline

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, BinaryIO

    from websearch_mcp.config import Config
    from websearch_mcp.mcp import McpServer
    from websearch_mcp.pipeline import Reply
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


class Connection:
    """One client on one pair of streams: its conversation, its worker pool, its writer."""

    def __init__(self, server: McpServer, writer: BinaryIO, config: Config) -> None:
        self.server = server
        self.config = config
        self.pipeline = Pipeline(server)
        self.conversation = Conversation(notify=self.write, deadline_seconds=config.call_timeout)
        self.closed = False
        self._writer = writer
        self._write_lock = _thread.allocate_lock()  # `threading` is imported only once work needs it
        self._pool: WorkerPool | None = None
        if server.list_changed:
            server.registry.listeners.append(self._tools_changed)

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

    def _send(self, reply: Reply) -> None:
        if reply.batch:
            if reply.messages:
                self.write(reply.messages)
        else:
            for message in reply.messages:
                self.write(message)

    def _tools_changed(self) -> None:
        """A backend server's tools came or went: tell a client that negotiated a revision."""
        if self.conversation.session.protocol_version is not None:
            self.write(jsonrpc.notification("notifications/tools/list_changed"))

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
        if self.pipeline.runs_long(message, self.conversation):
            self._workers().submit(lambda: self._send(self.pipeline.consume(message, self.conversation)))
        else:
            self._send(self.pipeline.consume(message, self.conversation))

    def finish(self) -> None:
        """Wait until every request already read has been answered."""
        if self._pool is not None:
            self._pool.drain()

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
