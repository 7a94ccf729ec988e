"""The tool registry and the built-in tools."""

from __future__ import annotations

from websearch_mcp.config import Config
from websearch_mcp.tools.registry import Registry


def build_registry(config: Config) -> Registry:
    """The registry of every tool this configuration offers, in a stable order."""
    from websearch_mcp.tools import fetch_content, instant_answer, search_context, web_search

    registry = Registry()
    registry.register(web_search.make_tool(config))
    registry.register(instant_answer.make_tool(config))
    registry.register(fetch_content.make_tool(config))
    registry.register(search_context.make_tool(config))
    if config.tavily_api_key.strip():
        from websearch_mcp.tools import tavily

        for tool in tavily.make_tools(config):
            registry.register(tool)
    return registry
