"""Tools as data: name, schemas, annotations and handler in one object, kept in one registry.

Plain classes rather than dataclasses: this module is on the start-up path.
"""

from __future__ import annotations

import _thread

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

    from websearch_mcp.call_context import ToolContext
    from websearch_mcp.errors import ToolError
    from websearch_mcp.services import Services

    JSONObject = dict[str, Any]
    Handler = Callable[[JSONObject, "ToolContext"], "ToolResult"]
    Runner = Callable[[Services, JSONObject, "ToolContext"], "ToolResult"]

READ_ONLY_OPEN_WORLD: JSONObject = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True,
                                    "openWorldHint": True}
"""The annotations of every built-in tool: they read the web and change nothing."""


class ToolResult:
    """What a handler returns: Markdown text and, optionally, the same data as an object."""

    __slots__ = ("error", "images", "is_error", "raw", "structured", "text")

    def __init__(self, text: str, structured: JSONObject | None = None, is_error: bool = False,
                 raw: JSONObject | None = None, error: ToolError | None = None,
                 images: list[JSONObject] | None = None) -> None:
        self.text = text
        self.images = images or []  # MCP image content sent after the text (web_search's thumbnails)
        self.structured = structured
        self.is_error = is_error
        self.raw = raw  # a complete CallToolResult to pass through unchanged
        self.error = error  # the typed error behind an error result, for the REST facade and the CLI


class ToolSpec:
    """A built-in tool as its module declares it: how it is described, and the function that runs
    it with the server's services."""

    __slots__ = ("annotations", "description", "input_schema", "name", "output_schema", "run", "title")

    def __init__(self, name: str, title: str, description: str, input_schema: JSONObject, run: Runner,
                 output_schema: JSONObject | None = None, annotations: JSONObject | None = None) -> None:
        self.name = name
        self.title = title
        self.description = description
        self.input_schema = input_schema
        self.output_schema = output_schema
        self.annotations = READ_ONLY_OPEN_WORLD if annotations is None else annotations
        self.run = run

    def bind(self, services: Services) -> Tool:
        """The tool, its handler bound to these services."""
        run = self.run
        return Tool(name=self.name, title=self.title, description=self.description,
                    input_schema=self.input_schema, output_schema=self.output_schema,
                    annotations=self.annotations, handler=lambda arguments, context: run(services, arguments, context))


class Tool:
    """One tool: how it is described to clients and the function that runs it."""

    def __init__(self, name: str, description: str, input_schema: JSONObject, handler: Handler,
                 title: str | None = None, output_schema: JSONObject | None = None,
                 annotations: JSONObject | None = None, definition: JSONObject | None = None) -> None:
        self.definition = definition  # a backend server's Tool object, passed on unchanged but for the name
        self.name = name
        self.description = description
        self.input_schema = input_schema
        self.handler = handler
        self.title = title
        self.output_schema = output_schema
        self.annotations = annotations

    def describe(self) -> JSONObject:
        """The Tool object of the newest revision; `revisions.shape_tool` trims it per revision."""
        if self.definition is not None:
            return {**self.definition, "name": self.name}
        described: JSONObject = {"name": self.name}
        if self.title:
            described["title"] = self.title
        described["description"] = self.description
        described["inputSchema"] = self.input_schema
        if self.output_schema is not None:
            described["outputSchema"] = self.output_schema
        if self.annotations is not None:
            annotations = dict(self.annotations)
            if self.title:
                annotations.setdefault("title", self.title)
            described["annotations"] = annotations
        return described


class Registry:
    """Tools by name, in registration order; refuses a second tool of the same name.

    Groups of tools (a backend server's) can be replaced or removed while the server runs; the
    listeners hear of every such change."""

    def __init__(self) -> None:
        self._tools: dict[str, Tool] = {}
        # prefix -> (backend server, is it running, is it disabled in the servers file)
        self._groups: dict[str, tuple[str, Callable[[], bool], bool]] = {}
        self._lock = _thread.allocate_lock()
        self.listeners: list[Callable[[], None]] = []

    def register(self, tool: Tool) -> None:
        """Add a tool; its name must be new."""
        with self._lock:
            if tool.name in self._tools:
                raise ValueError(f"duplicate tool name: {tool.name}")
            self._tools[tool.name] = tool

    def declare_group(self, prefix: str, owner: str, running: Callable[[], bool], disabled: bool = False) -> None:
        """Reserve a name prefix for a backend server's tools, before they are known (a disabled
        server's too, so that its tools are said to be disabled rather than unknown)."""
        with self._lock:
            self._groups[prefix] = (owner, running, disabled)

    def stopped_owner(self, name: str) -> str | None:
        """Why the backend server whose prefix this tool name has cannot answer ("MCP server 'x' is
        not running", or "... is disabled in the servers file"), or None when it can."""
        for prefix, (owner, running, disabled) in self._groups.items():
            if name.startswith(prefix) and not running():
                state = "is disabled in the servers file" if disabled else "is not running"
                return f"MCP server '{owner}' {state}"
        return None

    def replace_group(self, prefix: str, tools: list[Tool]) -> None:
        """Put these tools in place of every tool whose name starts with `prefix`; the listeners hear
        of it only when the list of names or definitions changed."""
        with self._lock:
            kept = {name: tool for name, tool in self._tools.items() if not name.startswith(prefix)}
            kept.update((tool.name, tool) for tool in tools)
            changed = [(t.name, t.describe()) for t in kept.values()] != [
                (t.name, t.describe()) for t in self._tools.values()]
            self._tools = kept
        if changed:
            for listener in list(self.listeners):
                listener()

    def get(self, name: str) -> Tool | None:
        """The tool of that name, or None."""
        return self._tools.get(name)

    def __iter__(self) -> Iterator[Tool]:
        with self._lock:
            return iter(list(self._tools.values()))

    def __len__(self) -> int:
        return len(self._tools)
