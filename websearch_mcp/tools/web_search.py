"""The `web_search` tool: DuckDuckGo results as seed 000's Markdown plus seed 002's JSON shape."""

from __future__ import annotations

import time

from websearch_mcp import templates
from websearch_mcp.config import Config
from websearch_mcp.errors import InvalidArguments
from websearch_mcp.tools.registry import BoundHandler, Tool, ToolContext, ToolResult

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SOURCE_NAME = "DuckDuckGo"

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {
            "type": "string",
            "description": "検索キーワード",
        },
        "max_results": {
            "type": "integer",
            "description": "返却する検索結果の最大数（デフォルト: 10）",
            "default": 10,
            "minimum": 1,
            "maximum": 30,
        },
        "region": {
            "type": "string",
            "description": "DuckDuckGo region code (kl), e.g. us-en, uk-en, jp-jp, de-de; wt-wt is worldwide",
            "default": "wt-wt",
            "pattern": "^[a-z]{2}-[a-z]{2,3}$",
        },
        "safe_search": {
            "type": "integer",
            "description": "Safe search: 0 off, 1 moderate, 2 strict",
            "default": 1,
            "enum": [0, 1, 2],
        },
        "time_range": {
            "type": "string",
            "description": "Only results from the last day, week, month or year; empty for any time",
            "default": "",
            "enum": ["", "day", "week", "month", "year"],
        },
        "page": {
            "type": "integer",
            "description": "Result page, 1-based; page 2 holds results max_results+1 .. 2*max_results",
            "default": 1,
            "minimum": 1,
            "maximum": 10,
        },
    },
    "required": ["query"],
    "additionalProperties": False,
}

_RESULT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "url": {"type": "string"},
        "description": {"type": "string"},
        "engine": {"type": "string"},
        "position": {"type": "integer"},
        "published_date": {"type": "string"},
    },
    "required": ["title", "url", "description", "engine", "position"],
}

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "results": {"type": "array", "items": _RESULT_SCHEMA},
        "metadata": {
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "backend": {"type": "string"},
                "endpoint": {"type": "string"},
                "region": {"type": "string"},
                "safe_search": {"type": "integer"},
                "time_range": {"type": "string"},
                "page": {"type": "integer"},
                "results_count": {"type": "integer"},
                "pages_fetched": {"type": "integer"},
                "search_time_ms": {"type": "integer"},
                "engines_used": {"type": "array", "items": {"type": "string"}},
                "fetch_content": {"type": "boolean"},
                "notes": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["query", "backend", "results_count", "search_time_ms"],
        },
    },
    "required": ["results", "metadata"],
}


def render_markdown(query: str, results: list[dict[str, Any]], source: str = SOURCE_NAME) -> str:
    """Seed 000's Markdown for a list of results (or its no-results form)."""
    if not results:
        return templates.WEB_SEARCH_EMPTY.format(query=query, source=source)
    parts = [templates.WEB_SEARCH_HEADER.format(query=query)]
    for result in results:
        template = templates.WEB_SEARCH_RESULT if result["description"] else templates.WEB_SEARCH_RESULT_NO_SNIPPET
        parts.append(template.format(position=result["position"], title=result["title"] or result["url"],
                                     url=result["url"], snippet=result["description"]))
    parts.append(templates.WEB_SEARCH_FOOTER.format(source=source, count=len(results)))
    return "".join(parts)


MAX_QUERY_CHARS = 499  # DuckDuckGo refuses longer queries


def _check_query(query: str) -> None:
    if not query.strip():
        raise InvalidArguments("Invalid argument 'query': must not be empty (minLength)")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidArguments(f"Invalid argument 'query': must be at most {MAX_QUERY_CHARS} characters, "
                               f"got {len(query)} (maxLength; DuckDuckGo refuses longer queries)")


def run(config: Config, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
    """Search DuckDuckGo and render the results."""
    from websearch_mcp.backends.duckduckgo import DuckDuckGo, SearchRequest

    _check_query(arguments["query"])
    request = SearchRequest(query=arguments["query"], max_results=arguments["max_results"],
                            region=arguments["region"], safe_search=arguments["safe_search"],
                            time_range=arguments["time_range"], page=arguments["page"])
    started = time.monotonic()
    outcome = DuckDuckGo(config).search(request, context.cancelled.is_set)
    first = (request.page - 1) * request.max_results + 1
    results = []
    for offset, raw in enumerate(outcome.results):
        item: dict[str, Any] = {"title": raw.title, "url": raw.url, "description": raw.snippet,
                                "engine": "duckduckgo", "position": first + offset}
        if raw.date:
            item["published_date"] = raw.date
        results.append(item)
    metadata: dict[str, Any] = {
        "query": request.query, "backend": "duckduckgo", "endpoint": outcome.endpoint,
        "region": request.region, "safe_search": request.safe_search,
        "time_range": request.time_range, "page": request.page, "results_count": len(results),
        "pages_fetched": outcome.pages_fetched,
        "search_time_ms": int((time.monotonic() - started) * 1000),
        "engines_used": ["duckduckgo"], "fetch_content": False,
    }
    if outcome.notes:
        metadata["notes"] = outcome.notes
    return ToolResult(text=render_markdown(request.query, results),
                      structured={"results": results, "metadata": metadata})


def make_tool(config: Config) -> Tool:
    """The web_search tool bound to a configuration."""
    return Tool(
        name="web_search",
        title="Web Search",
        description="Search the web using DuckDuckGo and return a list of results with titles, URLs, and snippets.",
        input_schema=INPUT_SCHEMA,
        output_schema=OUTPUT_SCHEMA,
        annotations={"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True,
                     "openWorldHint": True},
        handler=BoundHandler(run, config),
    )
