"""`websearch-mcp call` and `websearch-mcp tools`: the tools from a shell, without a client."""

from __future__ import annotations

import json
import sys
from typing import Any

from websearch_mcp.config import Config
from websearch_mcp.jsonrpc import JsonRpcError, Request
from websearch_mcp.mcp import McpServer, Session
from websearch_mcp.tools import build_registry
from websearch_mcp.tools.registry import ToolContext


def _coerce(raw: str, schema: dict[str, Any]) -> Any:
    """A shell word as the type the schema wants: strings stay strings, the rest is read as JSON."""
    if schema.get("type") == "string":
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        return raw  # left for validation to explain


def parse_arguments(words: list[str], input_schema: dict[str, Any]) -> dict[str, Any]:
    """Turn NAME=VALUE words into a tool's arguments."""
    properties = input_schema.get("properties", {})
    arguments: dict[str, Any] = {}
    for word in words:
        name, sep, value = word.partition("=")
        if not sep:
            raise ValueError(f"argument {word!r} is not NAME=VALUE")
        arguments[name] = _coerce(value, properties.get(name, {}))
    return arguments


def call_tool(config: Config, tool_name: str, words: list[str], as_json: bool = False) -> int:
    """Run one tool, print its text (or its result as JSON); 1 when the tool reports an error."""
    server = McpServer(build_registry(config))
    tool = server.registry.get(tool_name)
    if tool is None:
        names = ", ".join(t.name for t in server.registry)
        print(f"websearch-mcp: Tool not found: {tool_name} (available: {names})", file=sys.stderr)
        return 2
    try:
        arguments = parse_arguments(words, tool.input_schema)
    except ValueError as err:
        print(f"websearch-mcp: {err}", file=sys.stderr)
        return 2
    request = Request(method="tools/call", params={"name": tool_name, "arguments": arguments}, id=1)
    try:
        result = server.handle(request, Session(), ToolContext(request_id=1))
    except JsonRpcError as err:
        print(f"websearch-mcp: {err.message}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        print("\n".join(block.get("text", "") for block in result.get("content", [])))
    return 1 if result.get("isError") else 0


def list_tools(config: Config) -> int:
    """Print each tool with its parameters."""
    for tool in build_registry(config):
        print(f"{tool.name}: {tool.description}")
        required = set(tool.input_schema.get("required", []))
        for name, schema in tool.input_schema.get("properties", {}).items():
            flag = "required" if name in required else f"default {json.dumps(schema.get('default'))}"
            print(f"  {name} ({schema.get('type', 'any')}, {flag}): {schema.get('description', '')}")
    return 0
