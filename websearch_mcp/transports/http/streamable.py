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

from websearch_mcp import jsonrpc, revisions, wire
from websearch_mcp.conversation import Conversation
from websearch_mcp.jsonrpc import (
    InternalError,
    InvalidRequest,
    JsonRpcError,
    MalformedMessage,
    MethodNotFound,
    ParseError,
)
from websearch_mcp.mcp import (
    HEADER_MISMATCH,
    UNSUPPORTED_VERSION,
    McpServer,
    MissingMeta,
    Session,
    check_modern_meta,
    is_modern,
)
from websearch_mcp.pipeline import Pipeline, Reply
from websearch_mcp.transports.http.messages import HttpError, Request, Response

DEFAULT_LEGACY = "2025-03-26"
SSE_HEADERS = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
_BAD_REQUEST_ERRORS = (ParseError, InvalidRequest, MissingMeta)


def _meta_dict(parsed: jsonrpc.Request) -> dict[str, Any] | None:
    meta = parsed.params_dict.get("_meta")
    return meta if isinstance(meta, dict) else None


def _header_mismatch(message: str, request_id: Any) -> HttpError:
    return HttpError(400, jsonrpc.error_response(request_id, JsonRpcError(message, code=HEADER_MISMATCH)))


def _decoded_name(value: str) -> str:
    if value.startswith("=?base64?") and value.endswith("?="):
        try:
            return base64.b64decode(value[9:-2]).decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            return value
    return value


def status_for(reply: Reply) -> int:
    """The HTTP status of a single reply, read from its error's type."""
    error = reply.error
    if error is None:
        return 200
    if isinstance(error, InternalError):
        return 500  # a fault of this server, never of the request
    if isinstance(error, _BAD_REQUEST_ERRORS) or error.code in (UNSUPPORTED_VERSION, HEADER_MISMATCH):
        return 400
    if reply.modern and isinstance(error, MethodNotFound):
        return 404
    return 200


class StreamableEndpoint:
    """Answers POSTs to /mcp; GET and DELETE get 405 (no server-initiated stream, no sessions)."""

    def __init__(self, server: McpServer, deadline_seconds: float | None = None) -> None:
        self.server = server
        self.pipeline = Pipeline(server)
        self.deadline_seconds = deadline_seconds

    def handle(self, request: Request) -> Response:
        """One HTTP request: framing and header checks here, the message itself in the pipeline."""
        if request.method != "POST":
            raise HttpError(405, {"error": "use POST (this server keeps no sessions or streams)"},
                            {"Allow": "POST"})
        self._check_media(request)
        try:
            message = jsonrpc.decode(request.body())
        except JsonRpcError as err:
            raise HttpError(400, jsonrpc.error_response(None, err)) from None
        if isinstance(message, list):
            revision = request.header("MCP-Protocol-Version") or DEFAULT_LEGACY
            reply = self.pipeline.consume(message, self._conversation(Session(revision)))
            if not reply.batch:  # refused: one error (HTTP carries one message, not several)
                raise HttpError(400, jsonrpc.error_response(None, reply.error or InvalidRequest()))
            return Response.json(200, reply.messages) if reply.messages else Response(202)
        return self._single(request, message)

    @staticmethod
    def _check_media(request: Request) -> None:
        content_type = request.header("Content-Type").split(";")[0].strip().lower()
        if content_type != "application/json":
            raise HttpError(415, {"error": "Content-Type must be application/json"})
        # The specification: the client lists both (its answer may come either way). No Accept header at
        # all means any type, as HTTP has it.
        accept = request.header("Accept").lower()
        if accept and not (_accepts(accept, "application/json") and _accepts(accept, "text/event-stream")):
            raise HttpError(406, {"error": "Accept must list both application/json and text/event-stream "
                                           f"(the MCP Streamable HTTP transport); got {accept[:100]!r}"})

    def _conversation(self, session: Session, notify: Any = None) -> Conversation:
        return Conversation(session, notify=notify, deadline_seconds=self.deadline_seconds)

    # -- one message --------------------------------------------------------------------------------

    def _single(self, request: Request, message: Any) -> Response:
        session = Session()
        if isinstance(message, dict) and not jsonrpc.is_response(message):
            try:
                parsed = jsonrpc.to_request(message)
            except MalformedMessage:
                parsed = None  # the pipeline answers it
            if parsed is not None and is_modern(parsed):
                self._check_modern_headers(request, parsed)
            elif parsed is not None:
                session = Session(self._legacy_revision(request, parsed))
            if parsed is not None and self._wants_stream(request, parsed):
                return Response(200, self._stream(message, session), dict(SSE_HEADERS))
        reply = self.pipeline.consume(message, self._conversation(session))
        if not reply.messages:
            return Response(202)
        return Response.json(status_for(reply), reply.messages[0])

    def _legacy_revision(self, request: Request, parsed: jsonrpc.Request) -> str:
        header = request.header("MCP-Protocol-Version")
        if parsed.method == "initialize" or not header:
            return DEFAULT_LEGACY
        if header in revisions.STATELESS:  # a stateless request that forgot its _meta
            try:
                check_modern_meta(_meta_dict(parsed))
            except JsonRpcError as err:
                raise HttpError(400, jsonrpc.error_response(parsed.id, err)) from None
        if header not in revisions.LEGACY:
            raise HttpError(400, jsonrpc.error_response(parsed.id, InvalidRequest(
                f"Unsupported MCP-Protocol-Version: {header}", data={"supported": list(revisions.LEGACY)})))
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

    # -- progress over SSE ----------------------------------------------------------------------------

    @staticmethod
    def _wants_stream(request: Request, parsed: jsonrpc.Request) -> bool:
        meta = parsed.params_dict.get("_meta")
        return (not parsed.is_notification and "text/event-stream" in request.header("Accept").lower()
                and isinstance(meta, dict) and "progressToken" in meta)

    def _stream(self, message: Any, session: Session) -> Iterator[bytes]:
        """Progress notifications as they happen, then the response; the stream then ends."""
        events: queue.Queue[dict[str, Any] | None] = queue.Queue()
        conversation = self._conversation(session, notify=events.put)

        def work() -> None:
            reply = self.pipeline.consume(message, conversation)
            for response in reply.messages:
                events.put(response)
            events.put(None)

        threading.Thread(target=work, name="mcp-http-stream", daemon=True).start()
        while (event := events.get()) is not None:
            yield b"event: message\ndata: " + wire.dumps(event).encode("utf-8") + b"\n\n"


def _accepts(accept: str, media: str) -> bool:
    """Whether an Accept header admits a media type (by name, its type's wildcard, or */*), q=0 aside."""
    kind = media.split("/")[0] + "/*"
    for part in accept.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip() in (media, kind, "*/*") and "q=0" not in params.replace(" ", "").split(";")[-1:]:
            return True
    return False
