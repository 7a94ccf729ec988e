"""Interoperability: the official MCP Python SDK client drives the installed server over stdio."""

from __future__ import annotations

import anyio
import pytest

from tests.conftest import env_for, installed_command

mcp = pytest.importorskip("mcp")


async def _session(mode: str, environment: dict[str, str]) -> tuple[str, list[str], object, object]:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    parameters = StdioServerParameters(command=installed_command(), env=environment)
    async with Client(parameters, mode=mode) as client:
        tools = await client.list_tools()
        result = await client.call_tool("web_search", {"query": "rust programming language", "max_results": 2})
        answer = await client.call_tool("instant_answer", {"query": "DuckDuckGo"})
        return client.protocol_version, [t.name for t in tools.tools], result, answer


@pytest.mark.parametrize("mode, version", [("legacy", "2025-11-25"), ("auto", "2026-07-28")])
def test_sdk_client_lists_and_calls_tools(ddg, mode, version):
    protocol, names, result, answer = anyio.run(_session, mode, env_for(ddg))
    assert protocol == version
    assert names == ["web_search", "instant_answer", "fetch_content", "search_context", "map_site", "crawl_site"]
    assert result.is_error is False  # type: ignore[attr-defined]
    text = result.content[0].text  # type: ignore[attr-defined]
    assert text.startswith('## Web Search Results for "rust programming language"')
    assert result.structured_content["metadata"]["results_count"] == 2  # type: ignore[attr-defined]
    assert "### Abstract" in answer.content[0].text  # type: ignore[attr-defined]
