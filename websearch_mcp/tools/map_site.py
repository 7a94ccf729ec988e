"""The `map_site` tool: a site's pages, from its sitemaps or its links."""

from __future__ import annotations

from websearch_mcp.call_context import ToolContext
from websearch_mcp.tools.registry import ToolResult, ToolSpec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from websearch_mcp.crawl.mapper import SiteMap
    from websearch_mcp.services import Services

PATHS: dict[str, Any] = {"type": "array", "items": {"type": "string"}}  # regexes on the URL path

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "url": {"type": "string"},
        "query": {"type": "string"},
        "limit": {"type": "integer", "default": 100, "minimum": 1, "maximum": 5000},
        "include_paths": PATHS,
        "exclude_paths": PATHS,
        "include_subdomains": {"type": "boolean"},
    },
    "required": ["url"],
    "additionalProperties": False,
}

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "urls": {"type": "array", "items": {"type": "object", "properties": {
            "url": {"type": "string"}, "title": {"type": "string"}, "lastmod": {"type": "string"},
            "source": {"type": "string"}}, "required": ["url", "source"]}},
        "metadata": {"type": "object"},
    },
    "required": ["urls", "metadata"],
}


def render_markdown(site: SiteMap) -> str:
    """The pages as a list, after a line that says where they came from."""
    source = "its sitemap" if site.source == "sitemap" else "the links of its pages"
    line = f"{len(site.pages)} pages of {site.start} from {source}"
    notes = []
    if site.excluded:
        notes.append(f"{site.excluded} excluded by robots.txt")
    if site.found > len(site.pages):
        notes.append(f"cut at limit={site.limit} of {site.found} found")
    if notes:
        line += f" ({'; '.join(notes)})"
    rows = [f"- [{p.title}]({p.url})" if p.title else f"- {p.url}" for p in site.pages]
    return "\n".join([line + ":", "", *rows])


def run(services: Services, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
    """Map the site."""
    from websearch_mcp.crawl.mapper import map_site

    site = map_site(services.crawls, arguments, context)
    metadata = {"start_url": site.start, "source": site.source, "found": site.found, "returned": len(site.pages),
                "robots_excluded": site.excluded, "limited": site.found > len(site.pages),
                "sitemap_files": site.sitemap_files}
    return ToolResult(text=render_markdown(site), structured={"urls": [p.row() for p in site.pages],
                                                             "metadata": metadata})


SPEC = ToolSpec(
    name="map_site",
    title="",  # lean: the name says it
    description="List a site's pages; *_paths: path regexes.",
    input_schema=INPUT_SCHEMA,
    output_schema=OUTPUT_SCHEMA,
    run=run,
)
