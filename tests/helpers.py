"""Helpers for the tests: test tools, a byte-stream exchange, and waiting for an HTTP server."""

from __future__ import annotations

import io
import json
import threading
import time
from typing import Any

import requests

from websearch_mcp.call_context import ToolContext
from websearch_mcp.config import Config
from websearch_mcp.errors import ToolError
from websearch_mcp.mcp import McpServer
from websearch_mcp.services import Services
from websearch_mcp.tools import build_registry
from websearch_mcp.tools.registry import Registry, Tool, ToolResult
from websearch_mcp.transports.stdio import serve

MODERN_META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
               "io.modelcontextprotocol/clientCapabilities": {}}
OBJECT = {"type": "object", "properties": {"text": {"type": "string"}}, "additionalProperties": False}


def _echo(arguments: dict[str, Any], context: ToolContext) -> ToolResult:
    return ToolResult(text=arguments.get("text", ""), structured={"echo": arguments.get("text", "")})


def _boom(arguments: dict[str, Any], context: ToolContext) -> ToolResult:
    raise RuntimeError("deliberate failure inside a tool")


def _refuse(arguments: dict[str, Any], context: ToolContext) -> ToolResult:
    raise ToolError("the upstream is down; try again later")


class Gate:
    """A tool that waits until released (or cancelled), to hold a request in flight."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def __call__(self, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
        self.entered.set()
        context.report_progress(1, 2, "halfway")
        while not self.release.wait(0.01):
            if context.cancelled.is_set():
                break
        return ToolResult(text="released")


_SERVICES: dict[Config, Services] = {}


def registry_for(config: Config) -> Registry:
    """The built-in tools bound to this configuration's services: one set per configuration, as one
    server process has (each test's fake upstream has its own port, so tests never share one)."""
    if config not in _SERVICES:
        _SERVICES[config] = Services(config)
    return build_registry(_SERVICES[config])


def test_registry(gate: Gate | None = None, with_builtin: Config | None = None) -> Registry:
    """Tools for protocol tests (plus the built-in ones when a config is given)."""
    registry = registry_for(with_builtin) if with_builtin else Registry()
    registry.register(Tool(name="echo", description="Echo text back.", input_schema=OBJECT, handler=_echo,
                           title="Echo", output_schema={"type": "object"},
                           annotations={"readOnlyHint": True}))
    registry.register(Tool(name="boom", description="Always raises.", input_schema=OBJECT, handler=_boom))
    registry.register(Tool(name="refuse", description="Always fails as a tool.", input_schema=OBJECT,
                           handler=_refuse))
    registry.register(Tool(name="gate", description="Waits.", input_schema=OBJECT, handler=gate or Gate()))
    return registry


test_registry.__test__ = False  # type: ignore[attr-defined]


def exchange(lines: list[Any], registry: Registry | None = None, config: Config | None = None,
             page_size: int = 50) -> list[Any]:
    """Feed lines (dicts are JSON-encoded) to serve() and return every line it wrote, decoded."""
    raw = b"".join(line if isinstance(line, bytes) else (json.dumps(line) + "\n").encode()
                   for line in lines)
    out = io.BytesIO()
    config = config or Config()
    server = McpServer(registry or test_registry(), page_size=page_size)
    assert serve(io.BytesIO(raw), out, server, config) == 0
    return [json.loads(line) for line in out.getvalue().decode().splitlines()]


def request(method: str, params: Any = None, id: Any = 1) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def initialize(version: str = "2025-11-25", id: Any = 0) -> dict[str, Any]:
    return request("initialize", {"protocolVersion": version, "capabilities": {},
                                  "clientInfo": {"name": "test", "version": "1"}}, id=id)


def call(name: str, arguments: Any = None, id: Any = 1, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    params: dict[str, Any] = {"name": name}
    if arguments is not None:
        params["arguments"] = arguments
    if meta is not None:
        params["_meta"] = meta
    return request("tools/call", params, id=id)


def timed_call(command: str, env: dict[str, str], name: str,
               arguments: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    """One tools/call by a fresh server process, after initialize, as a client spawns and drives it: the
    seconds from the request written to its answer read, and the answer."""
    import subprocess

    payload = b"".join((json.dumps(m) + "\n").encode() for m in (
        initialize(), {"jsonrpc": "2.0", "method": "notifications/initialized"}, call(name, arguments)))
    process = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=env)
    assert process.stdin is not None and process.stdout is not None
    started = time.monotonic()
    process.stdin.write(payload)
    process.stdin.flush()
    answer: dict[str, Any] = {}
    for line in process.stdout:
        message = json.loads(line)
        if message.get("id") == 1:
            answer = message
            break
    elapsed = time.monotonic() - started
    process.kill()
    process.wait()
    return elapsed, answer


def wait_for_http(port: int) -> None:
    """Wait until an HTTP server answers on a loopback port (20 s at most)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            requests.get(f"http://127.0.0.1:{port}/", timeout=1)
            return
        except requests.ConnectionError:
            time.sleep(0.1)
    raise RuntimeError("the HTTP server did not start")


def descendants(root: int) -> set[int]:
    """The process ids below `root`, children of children included (Linux, from /proc)."""
    from pathlib import Path

    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, pending = set(), [root]
    while pending:
        for child in children.get(pending.pop(), []):
            found.add(child)
            pending.append(child)
    return found
