"""Tools as data: name, schemas, annotations and handler in one object, kept in one registry."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

JSONObject = dict[str, Any]


@dataclass
class ToolResult:
    """What a handler returns: Markdown text and, optionally, the same data as an object."""

    text: str
    structured: JSONObject | None = None
    is_error: bool = False
    raw: JSONObject | None = None  # a complete CallToolResult to pass through unchanged


@dataclass
class ToolContext:
    """What a running tool may know of and do to its request."""

    request_id: Any = None
    progress_token: Any = None
    cancelled: threading.Event = field(default_factory=threading.Event)
    send_notification: Callable[[str, JSONObject], None] | None = None
    _last_progress: float = -1.0

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


Handler = Callable[[JSONObject, ToolContext], ToolResult]


@dataclass
class Tool:
    """One tool: how it is described to clients and the function that runs it."""

    name: str
    description: str
    input_schema: JSONObject
    handler: Handler
    title: str | None = None
    output_schema: JSONObject | None = None
    annotations: JSONObject | None = None

    def describe(self) -> JSONObject:
        """The Tool object of the newest revision; `revisions.shape_tool` trims it per revision."""
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
    """Tools by name, in registration order; refuses a second tool of the same name."""

    def __init__(self) -> None:
        self._tools: dict[str, Tool] = {}

    def register(self, tool: Tool) -> None:
        """Add a tool; its name must be new."""
        if tool.name in self._tools:
            raise ValueError(f"duplicate tool name: {tool.name}")
        self._tools[tool.name] = tool

    def get(self, name: str) -> Tool | None:
        """The tool of that name, or None."""
        return self._tools.get(name)

    def __iter__(self) -> Iterator[Tool]:
        return iter(list(self._tools.values()))

    def __len__(self) -> int:
        return len(self._tools)
