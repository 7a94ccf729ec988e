"""A comparator for the benchmarks: the same two tools declared with the official MCP Python SDK.

Benchmark-only (the SDK is a test dependency, never a runtime one). The handlers never run in the
benchmark; only start-up, the handshake and pings are measured.
"""

from mcp.server.mcpserver import MCPServer

server = MCPServer("sdk-peer")


@server.tool()
def web_search(query: str, max_results: int = 10) -> str:
    """Search the web."""
    return query


@server.tool()
def instant_answer(query: str) -> str:
    """Get an instant answer."""
    return query


if __name__ == "__main__":
    server.run("stdio")
