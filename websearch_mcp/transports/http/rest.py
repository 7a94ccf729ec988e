"""Seed 001's REST facade: GET / (health), GET /tools (ToolMetadata), POST /tools/call."""

from __future__ import annotations

from typing import Any

from websearch_mcp import wire
from websearch_mcp.call_context import ToolContext
from websearch_mcp.errors import InvalidArguments
from websearch_mcp.jsonrpc import InvalidParams, ServerError
from websearch_mcp.mcp import McpServer
from websearch_mcp.tools.registry import Tool
from websearch_mcp.transports.http.messages import HttpError, Request, Response

HEALTH = {"status": "ok", "message": "MCP Server is running"}


def tool_metadata(tool: Tool) -> dict[str, Any]:
    """Seed 001's ToolMetadata of a tool, derived from its input schema."""
    schema = tool.input_schema
    required = set(schema.get("required", []))
    parameters = []
    for name, prop in schema.get("properties", {}).items():
        kind = prop.get("type", "string")
        parameters.append({"name": name, "type": kind if isinstance(kind, str) else "/".join(kind),
                           "description": prop.get("description", ""), "required": name in required})
    return {"name": tool.name, "description": tool.description, "parameters": parameters}


def _failure(status: int, message: str) -> HttpError:
    return HttpError(status, {"success": False, "error": message})


def _argument_message(error: InvalidArguments) -> str:
    """Seed 001's 'NAME parameter is required' for a missing required argument; else the message."""
    if error.rule == "required":
        return f"{error.parameter} parameter is required"
    return error.message


class RestFacade:
    """The three routes of seed 001 over the same tool registry as MCP."""

    def __init__(self, server: McpServer, deadline_seconds: float | None = None) -> None:
        self.server = server
        self.deadline_seconds = deadline_seconds

    def health(self, request: Request) -> Response:
        """GET /."""
        return Response.json(200, HEALTH)

    def tools(self, request: Request) -> Response:
        """GET /tools."""
        return Response.json(200, {"tools": [tool_metadata(t) for t in self.server.registry]})

    def call(self, request: Request) -> Response:
        """POST /tools/call with {"name", "parameters"}."""
        try:
            body = wire.loads(request.body().decode("utf-8"))
        except (wire.DecodeError, UnicodeDecodeError):
            raise _failure(400, "The request body must be JSON") from None
        if not isinstance(body, dict):
            raise _failure(400, "The request body must be a JSON object")
        name = body.get("name")
        if not isinstance(name, str) or not name:
            raise _failure(400, "Tool name is required")
        if "arguments" in body and "parameters" not in body:
            raise _failure(400, 'The tool\'s arguments go in "parameters" here ({"name": ..., "parameters": '
                                '{...}}); "arguments" is what MCP\'s tools/call names them')
        parameters = body.get("parameters", {})
        if parameters is None:
            parameters = {}
        if not isinstance(parameters, dict):
            raise _failure(400, "parameters must be an object")
        try:
            result = self.server.run_tool(name, parameters, ToolContext(request_id=name,
                                                                        deadline_seconds=self.deadline_seconds))
        except InvalidParams as err:
            raise _failure(400, err.message) from None
        except ServerError as err:  # an aggregated backend server failed
            raise _failure(502, err.message) from None
        if isinstance(result.error, InvalidArguments):
            raise _failure(400, _argument_message(result.error))
        if result.is_error:
            raise _failure(502, result.text)
        return Response.json(200, {"success": True, "result": {"markdown": result.text, **(result.structured or {})}})
