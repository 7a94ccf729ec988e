"""The MCP layer: lifecycle and methods of both protocol eras over a tool registry.

Legacy revisions (2024-11-05 .. 2025-11-25) negotiate once per connection with `initialize`;
the stateless revision 2026-07-28 names its version in every request's `_meta`. Both are served
by the same object, chosen per request, from one table of methods. Knows nothing of stdio, HTTP
or search engines.
"""

from __future__ import annotations

import time

from websearch_mcp import __version__, log, revisions
from websearch_mcp.conversation import Session
from websearch_mcp.errors import BackendServerError, ToolError
from websearch_mcp.jsonrpc import InvalidParams, JsonRpcError, MethodNotFound, ServerError
from websearch_mcp.tools.registry import ToolResult
from websearch_mcp.tools.validation import validate_arguments

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; clients spawn this server often
    from collections.abc import Callable
    from typing import Any

    from websearch_mcp.call_context import ToolContext
    from websearch_mcp.conversation import Conversation
    from websearch_mcp.jsonrpc import Request
    from websearch_mcp.tools.registry import Registry, Tool

    MethodHandler = Callable[[dict[str, Any], "Session", str, ToolContext], dict[str, Any]]

SERVER_INFO = {
    "name": "websearch-mcp",
    "title": "Web Search",
    "version": __version__,
    "description": "Web search, instant answers and clean page content for language models.",
}
INSTRUCTIONS = (
    "Use web_search to find pages on the web (titles, URLs and snippets), instant_answer for a quick "
    "fact or definition, fetch_content to read pages as Markdown, and search_context for compact, "
    "cited context on a question. Tool errors say what went wrong and what to try next."
)
UNSUPPORTED_VERSION = -32022
HEADER_MISMATCH = -32020
DISCOVER_TTL_MS = 3_600_000
LIST_TTL_MS = 300_000
LEGACY_ERA = "legacy"
MODERN_ERA = "modern"


class MissingMeta(InvalidParams):
    """A stateless request lacks a required `_meta` key (HTTP answers it with 400)."""


class Method:
    """One entry of the method table: its handler, the eras that have it, how it may be sent."""

    __slots__ = ("batchable", "eras", "handler", "long_running")

    def __init__(self, handler: MethodHandler, eras: tuple[str, ...] = (LEGACY_ERA, MODERN_ERA),
                 batchable: bool = True, long_running: bool = False) -> None:
        self.handler = handler
        self.eras = eras
        self.batchable = batchable  # `initialize` must not appear inside a batch
        self.long_running = long_running  # transports run it off the thread that reads input


def _within_budget(result: ToolResult, budget: int) -> ToolResult:
    """The last guard of the answer budget, for every tool (an aggregated server's too): the longest
    strings are cut until the answer fits; images that do not fit are left out, with a note."""
    if not budget:
        return result
    from websearch_mcp import budget as budgets

    if result.raw is not None:
        raw = dict(result.raw)
        if budgets.size_of("", raw) > budget and isinstance(raw.get("content"), list):
            raw["content"] = [item if not (isinstance(item, dict) and item.get("type") in ("image", "audio"))
                              else {"type": "text", "text": f"[{item['type']} left out: over the answer budget]"}
                              for item in raw["content"]]
        _, raw = budgets.fit("", raw, budget)
        result.raw = raw
        return result
    result.text, result.structured = budgets.fit(result.text, result.structured, budget)
    return result


def _meta_of(params: Any) -> dict[str, Any] | None:
    meta = params.get("_meta") if isinstance(params, dict) else None
    return meta if isinstance(meta, dict) else None


def is_modern(request: Request) -> bool:
    """Whether a request is of the stateless era (it names its version in `_meta`)."""
    if request.method == "server/discover":
        return True
    meta = _meta_of(request.params)
    return meta is not None and any(key in meta for key in revisions.MODERN_META_KEYS)


def _encode_cursor(offset: int) -> str:
    import base64

    return base64.urlsafe_b64encode(f"tools:{offset}".encode()).decode().rstrip("=")


def _decode_cursor(cursor: Any) -> int:
    if cursor is None or cursor == "":
        return 0
    if not isinstance(cursor, str):
        raise InvalidParams("Invalid params: cursor must be a string")
    import base64  # only paging needs it: kept off the start-up path
    import binascii

    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        prefix, _, number = text.partition(":")
        offset = int(number)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise InvalidParams(f"Invalid cursor: {cursor}") from None
    if prefix != "tools" or offset < 0 or not number.isdigit():
        raise InvalidParams(f"Invalid cursor: {cursor}")
    return offset


def _check_modern_meta(meta: dict[str, Any] | None) -> None:
    if meta is None:
        raise MissingMeta(f"Invalid params: params._meta is required "
                          f"(with {revisions.META_VERSION} and {revisions.META_CAPABILITIES})")
    for key in revisions.MODERN_META_KEYS:
        if key not in meta:
            raise MissingMeta(f"Invalid params: missing required _meta key {key}")
    version = meta[revisions.META_VERSION]
    if not isinstance(version, str):
        raise MissingMeta(f"Invalid params: _meta {revisions.META_VERSION} must be a string")
    if not isinstance(meta[revisions.META_CAPABILITIES], dict):
        raise MissingMeta(f"Invalid params: _meta {revisions.META_CAPABILITIES} must be an object")
    if version != revisions.MODERN:
        raise unsupported_version(version)


def unsupported_version(requested: str) -> JsonRpcError:
    """-32022, naming what a stateless request may carry: the versions server/discover lists."""
    return JsonRpcError("Unsupported protocol version", code=UNSUPPORTED_VERSION,
                        data={"supported": list(revisions.STATELESS), "requested": requested})


def check_modern_meta(meta: dict[str, Any] | None) -> None:
    """Refuse a stateless request whose `_meta` lacks a required key (-32602) or names a version this
    server does not serve statelessly (-32022)."""
    _check_modern_meta(meta)


class McpServer:
    """Answers MCP requests of either era; one instance serves every connection."""

    def __init__(self, registry: Registry, page_size: int = 50,
                 instructions: str = INSTRUCTIONS, list_changed: bool = False, lightweight: bool = False,
                 result_budget: int = 0) -> None:
        self.registry = registry
        self.result_budget = result_budget  # the most characters an answer may take (0: no bound)
        self.page_size = page_size
        self.instructions = instructions
        self.list_changed = list_changed  # tools come and go (backend servers): clients are told
        self.lightweight = lightweight  # seed 003's name-and-description listing (outside the MCP schema)
        self.methods: dict[str, Method] = {
            "initialize": Method(self._initialize, eras=(LEGACY_ERA,), batchable=False),
            "ping": Method(self._ping, eras=(LEGACY_ERA,)),
            "server/discover": Method(self._discover, eras=(MODERN_ERA,)),
            "tools/list": Method(self._tools_list),
            "tools/call": Method(self._tools_call, long_running=True),
        }
        self.notifications: dict[str, Callable[[dict[str, Any], Conversation], None]] = {
            "notifications/initialized": self._initialized,
            "notifications/cancelled": self._cancelled,
        }

    # -- entry points -------------------------------------------------------------------------

    def handle(self, request: Request, session: Session, context: ToolContext) -> dict[str, Any]:
        """The result of one request; raises JsonRpcError for protocol errors."""
        modern = is_modern(request)
        if modern:
            _check_modern_meta(_meta_of(request.params))
        method = self.methods.get(request.method)
        if method is None or (MODERN_ERA if modern else LEGACY_ERA) not in method.eras:
            raise MethodNotFound(f"Method not found: {request.method}")
        revision = revisions.MODERN if modern else session.revision
        result = method.handler(request.params_dict, session, revision, context)
        if modern:
            result["resultType"] = "complete"
            meta = result.setdefault("_meta", {})
            meta[revisions.META_SERVER_INFO] = revisions.shape_implementation(SERVER_INFO, revisions.MODERN)
        return result

    def handle_notification(self, request: Request, conversation: Conversation) -> None:
        """Take note of a notification; never answered."""
        handler = self.notifications.get(request.method)
        if handler is not None:
            handler(request.params_dict, conversation)

    def method_of(self, request: Request) -> Method | None:
        """The table entry a request names, if any."""
        return self.methods.get(request.method)

    def run_tool(self, name: str, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
        """Run a tool by name: the one path for MCP, the REST facade and the CLI. A ToolError becomes
        an error result (with the error attached); an unknown tool raises InvalidParams, a failed
        backend server ServerError."""
        tool = self.registry.get(name)
        if tool is None:
            stopped = self.registry.stopped_owner(name)
            if stopped is not None:  # a configured backend server that is not running (yet, any more, or at all)
                raise ServerError(stopped)
            raise InvalidParams(f"Tool not found: {name}")
        started = time.monotonic()
        try:
            # a backend server's tool is checked by that server, with its own rules
            checked = arguments if tool.definition is not None else validate_arguments(arguments, tool.input_schema)
            result = tool.handler(checked, context)
        except ToolError as err:
            result = ToolResult(text=err.message, structured=err.structured, is_error=True, error=err)
        except BackendServerError as err:
            raise ServerError(err.message, data=err.data) from err
        log.debug(f"tool {tool.name} finished in {(time.monotonic() - started) * 1000:.0f} ms"
                  f"{' with an error' if result.is_error else ''}")
        return _within_budget(result, self.result_budget)

    # -- methods --------------------------------------------------------------------------------

    def _initialize(self, params: dict[str, Any], session: Session, revision: str,
                    context: ToolContext) -> dict[str, Any]:
        revision = revisions.negotiate(params.get("protocolVersion"))
        session.protocol_version = revision
        session.initialized = False
        if isinstance(params.get("clientInfo"), dict):
            session.client_info = params["clientInfo"]
        if isinstance(params.get("capabilities"), dict):
            session.client_capabilities = params["capabilities"]
        log.info(f"initialize: client {session.client_info.get('name', '?')} "
                 f"asked {params.get('protocolVersion')!r}, answering {revision}")
        return {
            "protocolVersion": revision,
            "capabilities": {"tools": {"listChanged": self.list_changed}},
            "serverInfo": revisions.shape_implementation(SERVER_INFO, revision),
            "instructions": self.instructions,
        }

    @staticmethod
    def _ping(params: dict[str, Any], session: Session, revision: str, context: ToolContext) -> dict[str, Any]:
        return {}

    def _discover(self, params: dict[str, Any], session: Session, revision: str,
                  context: ToolContext) -> dict[str, Any]:
        return {
            "supportedVersions": list(revisions.STATELESS),
            "capabilities": {"tools": {"listChanged": False}},
            "instructions": self.instructions,
            "ttlMs": DISCOVER_TTL_MS,
            "cacheScope": "public",
        }

    def _tools_list(self, params: dict[str, Any], session: Session, revision: str,
                    context: ToolContext) -> dict[str, Any]:
        tools = list(self.registry)
        offset = _decode_cursor(params.get("cursor"))
        if offset > len(tools):
            raise InvalidParams(f"Invalid cursor: {params.get('cursor')}")
        page = tools[offset:offset + self.page_size]
        if self.lightweight:
            listed = [{"name": t.name, "description": t.description} for t in page]
        else:
            listed = [revisions.shape_tool(t.describe(), revision) for t in page]
        result: dict[str, Any] = {"tools": listed}
        if offset + self.page_size < len(tools):
            result["nextCursor"] = _encode_cursor(offset + self.page_size)
        if revision == revisions.MODERN:
            result["ttlMs"] = LIST_TTL_MS
            result["cacheScope"] = "public"
        return result

    def _tools_call(self, params: dict[str, Any], session: Session, revision: str,
                    context: ToolContext) -> dict[str, Any]:
        name = params.get("name")
        if not isinstance(name, str):
            raise InvalidParams("Invalid params: tools/call needs a string 'name'")
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise InvalidParams("Invalid params: 'arguments' must be an object")
        meta = _meta_of(params)
        token = meta.get("progressToken") if meta is not None else None
        if isinstance(token, str) or (isinstance(token, int) and not isinstance(token, bool)):
            context.progress_token = token
        result = self.run_tool(name, arguments, context)
        return self._render(self.registry.get(name), result, revision)

    # -- notifications --------------------------------------------------------------------------

    @staticmethod
    def _initialized(params: dict[str, Any], conversation: Conversation) -> None:
        if conversation.session.protocol_version:
            conversation.session.initialized = True

    @staticmethod
    def _cancelled(params: dict[str, Any], conversation: Conversation) -> None:
        conversation.cancel(params.get("requestId"))

    @staticmethod
    def _render(tool: Tool | None, result: ToolResult, revision: str) -> dict[str, Any]:
        if result.raw is not None:
            return result.raw
        rendered: dict[str, Any] = {"content": [{"type": "text", "text": result.text}, *result.images]}
        if (result.structured is not None and tool is not None and tool.output_schema is not None
                and revisions.has_structured_content(revision)):
            rendered["structuredContent"] = result.structured
        if result.is_error:
            rendered["isError"] = True
        return rendered
