"""The built-in tools: one module each (schema, handler, template choice), listed once here."""

from __future__ import annotations

from websearch_mcp.tools.registry import Registry

TYPE_CHECKING = False
if TYPE_CHECKING:
    from websearch_mcp.config import Config
    from websearch_mcp.services import Services
    from websearch_mcp.tools.registry import ToolSpec


def built_in_specs(config: Config) -> list[ToolSpec]:
    """Every built-in tool this configuration offers, in a stable order."""
    from websearch_mcp.config import tool_selection
    from websearch_mcp.tools import crawl_site, fetch_content, instant_answer, map_site, search_context, web_search

    specs = [web_search.SPEC, instant_answer.SPEC, fetch_content.SPEC, search_context.SPEC, map_site.SPEC,
             crawl_site.SPEC]
    if config.tavily_api_key.strip():
        from websearch_mcp.tools import tavily

        specs.extend(tavily.SPECS)
    chosen = tool_selection(config)
    if chosen is None:
        return specs
    by_name = {spec.name: spec for spec in specs}
    return [by_name[name] for name in chosen if name in by_name]  # the configuration checked the names


def build_registry(services: Services) -> Registry:
    """A registry of the built-in tools, bound to these services."""
    registry = Registry()
    for spec in built_in_specs(services.config):
        registry.register(spec.bind(services))
    return registry
