"""The MCP protocol revisions this server speaks, and which fields each revision has."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


MODERN = "2026-07-28"
LEGACY = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")  # newest first
LATEST_LEGACY = LEGACY[0]
ALL = (MODERN, *LEGACY)
STATELESS = (MODERN,)  # what a request may name in its _meta (server/discover's supportedVersions)

BATCH_REVISIONS = frozenset({"2025-03-26"})

META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo"
META_SERVER_INFO = "io.modelcontextprotocol/serverInfo"
MODERN_META_KEYS = (META_VERSION, META_CAPABILITIES)

_TOOL_FIELDS = {
    "2024-11-05": ("name", "description", "inputSchema"),
    "2025-03-26": ("name", "description", "inputSchema", "annotations"),
    "2025-06-18": ("name", "title", "description", "inputSchema", "outputSchema", "annotations"),
    "2025-11-25": ("name", "title", "description", "inputSchema", "outputSchema", "annotations"),
    MODERN: ("name", "title", "description", "inputSchema", "outputSchema", "annotations"),
}
_IMPLEMENTATION_FIELDS = {
    "2024-11-05": ("name", "version"),
    "2025-03-26": ("name", "version"),
    "2025-06-18": ("name", "version", "title"),
    "2025-11-25": ("name", "version", "title", "description", "websiteUrl"),
    MODERN: ("name", "version", "title", "description", "websiteUrl"),
}


def negotiate(requested: object) -> str:
    """The legacy revision to answer an `initialize` with: the one asked for, else the newest."""
    return requested if isinstance(requested, str) and requested in LEGACY else LATEST_LEGACY


def has_structured_content(revision: str) -> bool:
    """Whether `CallToolResult.structuredContent` exists in this revision."""
    return revision not in ("2024-11-05", "2025-03-26")


def allows_batches(revision: str | None) -> bool:
    """Whether JSON-RPC batches may be received in this revision."""
    return revision in BATCH_REVISIONS


def shape_tool(tool: dict[str, Any], revision: str) -> dict[str, Any]:
    """Keep only the Tool fields this revision defines."""
    return {key: tool[key] for key in _TOOL_FIELDS[revision] if key in tool}


def shape_implementation(info: dict[str, Any], revision: str) -> dict[str, Any]:
    """Keep only the Implementation fields this revision defines."""
    return {key: info[key] for key in _IMPLEMENTATION_FIELDS[revision] if key in info}
