"""Validation of messages against the official MCP schema of their revision."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

SCHEMAS = Path(__file__).resolve().parent / "schemas"

RESULT_TYPES = {
    "initialize": "InitializeResult", "ping": "EmptyResult", "tools/list": "ListToolsResult",
    "tools/call": "CallToolResult", "server/discover": "DiscoverResult",
}


@cache
def _schema(revision: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / revision / "schema.json").read_text())


def _validator(revision: str, definition: str) -> jsonschema.protocols.Validator:
    schema = _schema(revision)
    key = "definitions" if "definitions" in schema else "$defs"
    root = {**schema, "$ref": f"#/{key}/{definition}"}
    cls = jsonschema.validators.validator_for(schema)
    return cls(root)


def validate_response(message: dict[str, Any], revision: str, method: str) -> None:
    """Raise jsonschema.ValidationError unless the response is valid in that revision."""
    if "error" in message:
        if message.get("id") is None:  # JSON-RPC's null id for unreadable requests: check the error object
            _validator(revision, "JSONRPCError" if revision < "2025-11-25" else "Error").validate(
                message["error"] if revision >= "2025-11-25" else {**message, "id": 0})
            return
        _validator(revision, "JSONRPCError" if revision < "2025-11-25" else "JSONRPCErrorResponse").validate(message)
        return
    _validator(revision, "JSONRPCResponse").validate(message)
    definition = RESULT_TYPES.get(method)
    if definition:
        _validator(revision, definition).validate(message["result"])


def validate_notification(message: dict[str, Any], revision: str) -> None:
    """Raise unless a server notification is valid in that revision."""
    _validator(revision, "JSONRPCNotification").validate(message)
    if message["method"] == "notifications/progress":
        _validator(revision, "ProgressNotification").validate(message)
