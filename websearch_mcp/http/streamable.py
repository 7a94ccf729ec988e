"""MCP Streamable HTTP at /mcp, both eras, with no state kept between requests.

Handshake-era requests name their revision in the MCP-Protocol-Version header (2025-03-26 when it
is absent, as the spec says); stateless requests carry it in `_meta` and in headers that must
agree with the body. A request is answered with one JSON object, or with an SSE stream when the
client accepts one and asked for progress.
"""

from __future__ import annotations

import base64
import queue
import threading
from collections.abc import Iterator
from typing import Any

from websearch_mcp import jsonrpc, log, revisions, wire
from websearch_mcp.http.messages import HttpError, Request, Response
from websearch_mcp.jsonrpc import InternalError, InvalidRequest, JsonRpcError, MalformedMessage
from websearch_mcp.mcp import HEADER_MISMATCH, UNSUPPORTED_VERSION, McpServer, MissingMeta, Session, is_modern
from websearch_mcp.tools.registry import ToolContext

DEFAULT_LEGACY = "2025-03-26"
SSE_HEADERS = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def _error_body(request_id: Any, error: JsonRpcError) -> dict[str, Any]:
    return jsonrpc.error_response(request_id, error)


def _header_mismatch(message: str, request_id: Any) -> HttpError:
    return HttpError(400, _error_body(request_id, JsonRpcError(message, code=HEADER_MISMATCH)))


def _decoded_name(value: str) -> str:
    if value.startswith("=?base64?") and value.endswith("?="):
        try:
            return base64.b64decode(value[9:-2]).decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            return value
    return value


class StreamableEndpoint:
    """Answers POSTs to /mcp; GET and DELETE get 405 (no server-initiated stream, no sessions)."""

    def __init__(self, server: McpServer) -> None:
        self.server = server

    def handle(self, request: Request) -> Response:
        """One HTTP request."""
        if request.method != "POST":
            raise HttpError(405, {"error": "use POST (this server keeps no sessions or streams)"},
                            {"Allow": "POST"})
        self._check_media(request)
        try:
            message = jsonrpc.decode(request.body())
        except JsonRpcError as err:
            raise HttpError(400, _error_body(None, err)) from None
        if isinstance(message, list):
            return self._batch(request, message)
        return self._single(request, message)

    @staticmethod
    def _check_media(request: Request) -> None:
        content_type = request.header("Content-Type").split(";")[0].strip().lower()
        if content_type != "application/json":
            raise HttpError(415, {"error": "Content-Type must be application/json"})
        accept = request.header("Accept").lower()
        if accept and not any(kind in accept for kind in ("application/json", "text/event-stream", "*/*")):
            raise HttpError(406, {"error": "Accept must list application/json and text/event-stream"})

    # -- one message --------------------------------------------------------------------------------

    def _single(self, request: Request, message: Any) -> Response:
        if jsonrpc.is_response(message):
            return Response(202)
        try:
            parsed = jsonrpc.to_request(message)
        except MalformedMessage as bad:
            raise HttpError(400, _error_body(bad.id, bad.error)) from None
        modern = is_modern(parsed)
        if modern:
            self._check_modern_headers(request, parsed)
        session = Session() if modern else Session(self._legacy_revision(request, parsed))
        if parsed.is_notification:
            self.server.handle_notification(parsed, session)
            return Response(202)
        if self._wants_stream(request, parsed):
            return Response(200, self._stream(parsed, session), dict(SSE_HEADERS))
        status, body = self._answer(parsed, session, modern, None)
        return Response.json(status, body)

    def _legacy_revision(self, request: Request, parsed: jsonrpc.Request) -> str:
        header = request.header("MCP-Protocol-Version")
        if parsed.method == "initialize" or not header:
            return DEFAULT_LEGACY
        if header not in revisions.LEGACY:
            raise HttpError(400, _error_body(parsed.id, InvalidRequest(
                f"Unsupported MCP-Protocol-Version: {header}", data={"supported": list(revisions.ALL)})))
        return header

    @staticmethod
    def _check_modern_headers(request: Request, parsed: jsonrpc.Request) -> None:
        meta = parsed.params_dict.get("_meta")
        version = meta.get(revisions.META_VERSION) if isinstance(meta, dict) else None
        header = request.header("MCP-Protocol-Version")
        if not header:
            raise _header_mismatch("Header mismatch: MCP-Protocol-Version is required", parsed.id)
        if version is not None and header != version:
            raise _header_mismatch(f"Header mismatch: MCP-Protocol-Version {header} does not match "
                                   f"_meta {version}", parsed.id)
        if request.header("Mcp-Method") != parsed.method:
            raise _header_mismatch(f"Header mismatch: Mcp-Method must be {parsed.method}", parsed.id)
        if parsed.method in ("tools/call", "prompts/get", "resources/read"):
            name = parsed.params_dict.get("name", parsed.params_dict.get("uri"))
            if _decoded_name(request.header("Mcp-Name")) != name:
                raise _header_mismatch(f"Header mismatch: Mcp-Name must be {name}", parsed.id)

    def _answer(self, parsed: jsonrpc.Request, session: Session, modern: bool,
                context: ToolContext | None) -> tuple[int, dict[str, Any]]:
        context = context or ToolContext(request_id=parsed.id)
        try:
            return 200, jsonrpc.result_response(parsed.id, self.server.handle(parsed, session, context))
        except JsonRpcError as err:
            return self._status_for(err, modern), _error_body(parsed.id, err)
        except Exception:
            log.exception(f"internal error while answering {parsed.method} over HTTP")
            return 500, _error_body(parsed.id, InternalError())

    @staticmethod
    def _status_for(error: JsonRpcError, modern: bool) -> int:
        if error.code in (UNSUPPORTED_VERSION, HEADER_MISMATCH) or isinstance(error, MissingMeta):
            return 400
        if modern and error.code == jsonrpc.MethodNotFound.CODE:
            return 404
        return 200

    # -- progress over SSE ----------------------------------------------------------------------------

    @staticmethod
    def _wants_stream(request: Request, parsed: jsonrpc.Request) -> bool:
        meta = parsed.params_dict.get("_meta")
        return ("text/event-stream" in request.header("Accept").lower() and isinstance(meta, dict)
                and "progressToken" in meta)

    def _stream(self, parsed: jsonrpc.Request, session: Session) -> Iterator[bytes]:
        """Progress notifications as they happen, then the response; the stream then ends."""
        events: queue.Queue[dict[str, Any] | None] = queue.Queue()
        context = ToolContext(request_id=parsed.id,
                              send_notification=lambda method, params: events.put(jsonrpc.notification(method, params)))
        modern = is_modern(parsed)

        def work() -> None:
            events.put(self._answer(parsed, session, modern, context)[1])
            events.put(None)

        threading.Thread(target=work, name="mcp-http-stream", daemon=True).start()
        while (event := events.get()) is not None:
            yield b"event: message\ndata: " + wire.dumps(event).encode("utf-8") + b"\n\n"

    # -- batches (2025-03-26 only) ---------------------------------------------------------------------

    def _batch(self, request: Request, messages: list[Any]) -> Response:
        revision = request.header("MCP-Protocol-Version") or DEFAULT_LEGACY
        if not messages or not revisions.allows_batches(revision):
            raise HttpError(400, _error_body(None, InvalidRequest(
                f"Invalid Request: batches are not allowed in protocol revision {revision}"
                if messages else "Invalid Request: empty batch")))
        session = Session(revision)
        replies = []
        for message in messages:
            if jsonrpc.is_response(message):
                continue
            try:
                parsed = jsonrpc.to_request(message)
            except MalformedMessage as bad:
                replies.append(_error_body(bad.id, bad.error))
                continue
            if parsed.is_notification:
                self.server.handle_notification(parsed, session)
            elif parsed.method == "initialize":
                refusal = InvalidRequest("Invalid Request: initialize must not be batched")
                replies.append(_error_body(parsed.id, refusal))
            else:
                replies.append(self._answer(parsed, session, False, None)[1])
        return Response.json(200, replies) if replies else Response(202)
