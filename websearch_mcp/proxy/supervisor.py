"""Keeps one backend server running: start, handshake (or discovery), list its tools into the
registry, restart with backoff when it dies, and forward calls, progress and cancellation."""

from __future__ import annotations

import threading
import time
from typing import Any

from websearch_mcp import __version__, log, revisions
from websearch_mcp.call_context import ToolContext
from websearch_mcp.errors import BackendServerError
from websearch_mcp.proxy.connection import (
    BackendCancelled,
    BackendConnection,
    BackendGone,
    BackendRpcError,
    BackendTimeout,
)
from websearch_mcp.proxy.servers_file import BackendSpec
from websearch_mcp.tools.registry import Registry, Tool, ToolResult

CLIENT_INFO = {"name": "websearch-mcp-aggregator", "version": __version__}
HANDSHAKE_TIMEOUT = 10.0
DISCOVER_TIMEOUT = 3.0
BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
STABLE_AFTER = 30.0


class BackendSupervisor:
    """One backend: its process (restarted when it dies), its era, its tools."""

    def __init__(self, spec: BackendSpec, registry: Registry, call_timeout: float) -> None:
        self.spec = spec
        self.registry = registry
        self.call_timeout = call_timeout
        self.connection: BackendConnection | None = None
        self.modern = False
        self.stopping = threading.Event()
        self.ready = threading.Event()
        self._progress: dict[str, ToolContext] = {}
        self._relist = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"backend-{spec.name}", daemon=True)

    @property
    def prefix(self) -> str:
        """The name prefix of this backend's tools."""
        return f"{self.spec.name}."

    def start(self) -> None:
        """Start supervising in the background."""
        self._thread.start()

    # -- lifecycle -------------------------------------------------------------------------------------

    def _run(self) -> None:
        failures = 0
        while not self.stopping.is_set():
            started = time.monotonic()
            try:
                self._start_backend()
                self._serve_until_exit()
                if time.monotonic() - started > STABLE_AFTER:
                    failures = 0  # it ran well for a while: restart quickly again
            except (FileNotFoundError, PermissionError) as err:
                # the command cannot be executed: restarting cannot help
                log.error(f"backend {self.spec.name}: cannot run {self.spec.command!r} ({err.strerror}); "
                          "it stays stopped")
                return
            except (BackendGone, BackendTimeout, BackendRpcError, OSError) as err:
                log.warning(f"backend {self.spec.name}: {err or type(err).__name__}")
            self.registry.replace_group(self.prefix, [])
            self.ready.clear()
            if self.connection is not None:
                self.connection.close(grace=0.5)
            if self.stopping.is_set():
                return
            delay = BACKOFF[min(failures, len(BACKOFF) - 1)]
            failures += 1
            log.warning(f"backend {self.spec.name} is not running; restarting in {delay:g} s")
            self.stopping.wait(delay)

    def _start_backend(self) -> None:
        self.connection = BackendConnection(self.spec.name, [self.spec.command, *self.spec.args],
                                            dict(self.spec.env), self._on_notification)
        self._handshake(self.connection)
        self._list_tools()
        self.ready.set()
        log.info(f"backend {self.spec.name} ready ({'2026-07-28' if self.modern else 'handshake'} era)")

    def _serve_until_exit(self) -> None:
        assert self.connection is not None
        while not self.stopping.is_set() and self.connection.alive:
            if self._relist.wait(0.1):
                self._relist.clear()
                self._list_tools()

    def _handshake(self, connection: BackendConnection) -> None:
        meta = {revisions.META_VERSION: revisions.MODERN, revisions.META_CAPABILITIES: {},
                revisions.META_CLIENT_INFO: CLIENT_INFO}
        try:
            found = connection.request("server/discover", {"_meta": meta}, DISCOVER_TIMEOUT)
            self.modern = revisions.MODERN in (found.get("supportedVersions") or [])
        except (BackendRpcError, BackendTimeout):
            self.modern = False
        if not self.modern:
            connection.request("initialize", {"protocolVersion": revisions.LATEST_LEGACY, "capabilities": {},
                                              "clientInfo": CLIENT_INFO}, HANDSHAKE_TIMEOUT)
            connection.notify("notifications/initialized")

    def _params(self, params: dict[str, Any]) -> dict[str, Any]:
        if not self.modern:
            return params
        meta = dict(params.get("_meta") or {})
        meta.update({revisions.META_VERSION: revisions.MODERN, revisions.META_CAPABILITIES: {},
                     revisions.META_CLIENT_INFO: CLIENT_INFO})
        return {**params, "_meta": meta}

    def _list_tools(self) -> None:
        assert self.connection is not None
        tools: list[Tool] = []
        cursor = None
        for _ in range(100):  # pages
            params: dict[str, Any] = {"cursor": cursor} if cursor else {}
            page = self.connection.request("tools/list", self._params(params), HANDSHAKE_TIMEOUT)
            for item in page.get("tools") or []:
                if isinstance(item, dict) and isinstance(item.get("name"), str):
                    tools.append(self._proxy_tool(item))
            cursor = page.get("nextCursor")
            if not cursor:
                break
        self.registry.replace_group(self.prefix, tools)

    def _proxy_tool(self, item: dict[str, Any]) -> Tool:
        backend_name = item["name"]
        schema: dict[str, Any] = item["inputSchema"] if isinstance(item.get("inputSchema"), dict) else {
            "type": "object"}
        definition = {k: v for k, v in item.items() if k != "execution"}
        return Tool(name=self.prefix + backend_name, description=str(item.get("description") or ""),
                    input_schema=schema, definition=definition,
                    handler=lambda arguments, context: self.call(backend_name, arguments, context))

    def _on_notification(self, method: str, params: dict[str, Any]) -> None:
        if method == "notifications/tools/list_changed":
            self._relist.set()
        elif method == "notifications/progress":
            context = self._progress.get(str(params.get("progressToken")))
            if context is not None and context.send_notification is not None and not context.cancelled.is_set():
                context.send_notification("notifications/progress", {**params, "progressToken": context.progress_token})

    # -- calls ---------------------------------------------------------------------------------------

    def call(self, tool: str, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
        """Forward a tools/call; the backend's result comes back unchanged."""
        connection = self.connection
        if connection is None or not connection.alive or not self.ready.is_set():
            raise BackendServerError(f"MCP server '{self.spec.name}' is not running")
        params: dict[str, Any] = {"name": tool, "arguments": arguments}
        token = None
        if context.progress_token is not None:
            token = f"{self.spec.name}-{id(context)}-{time.monotonic_ns()}"
            params["_meta"] = {"progressToken": token}
            self._progress[token] = context
        try:
            result = connection.request("tools/call", self._params(params), self.call_timeout,
                                        cancelled=context.cancelled.is_set)
        except BackendRpcError as err:
            raise BackendServerError(f"Backend MCP server error: {err.message}",
                                     data={"code": err.code, "data": err.data}) from err
        except BackendTimeout as err:
            raise BackendServerError(f"MCP server '{self.spec.name}' did not answer within "
                                     f"{self.call_timeout:g} s") from err
        except BackendGone as err:
            raise BackendServerError(f"MCP server '{self.spec.name}' is not running") from err
        except BackendCancelled:
            return ToolResult(text="cancelled", is_error=True)  # never sent: the request was cancelled
        finally:
            if token is not None:
                self._progress.pop(token, None)
        text = "\n".join(str(block.get("text", "")) for block in result.get("content") or []
                          if isinstance(block, dict) and block.get("type") == "text")
        structured = result.get("structuredContent")
        return ToolResult(text=text, structured=structured if isinstance(structured, dict) else None,
                          is_error=bool(result.get("isError")), raw=result)

    def stop(self) -> None:
        """Stop supervising and close the child."""
        self.stopping.set()
        connection = self.connection
        if connection is not None:
            connection.close()
