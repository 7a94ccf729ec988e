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
        "category": {
            "type": "string",
            "description": "Kind of results; categories other than general need a SearXNG instance",
            "default": "general",
            "enum": ["general", "images", "videos", "news", "map", "music", "it", "science", "files"],
        },
        "language": {
            "type": "string",
            "description": "ISO 639-1 language, optionally with a country (en, de, en-GB); mapped to a "
                           "DuckDuckGo region when no region is given",
            "pattern": "^[a-z]{2}(-[A-Z]{2})?$",
        },
        "backend": {
            "type": "string",
            "description": "Use this backend only (otherwise the configured order, with fallback)",
            "enum": ["duckduckgo", "searxng"],
        },
        "fetch_content": {
            "type": "boolean",
            "description": "Also fetch each result's page and include its main content as Markdown",
            "default": False,
        },
        "max_content_chars": {
            "type": "integer",
            "description": "With fetch_content: most characters of Markdown per page",
            "default": 4000,
            "minimum": 200,
            "maximum": 100000,
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
        "engines": {"type": "array", "items": {"type": "string"}},
        "score": {"type": "number"},
        "content": {
            "type": "object",
            "properties": {
                "markdown": {"type": "string"}, "word_count": {"type": "integer"},
                "fetch_time_ms": {"type": "integer"}, "summary": {"type": "string"},
                "truncated": {"type": "boolean"}, "title": {"type": "string"},
            },
            "required": ["markdown", "word_count", "fetch_time_ms", "summary"],
        },
        "content_error": {"type": "string"},
    },
    "required": ["title", "url", "description", "engine", "position"],
}

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "error_type": {"type": "string"},
        "error_details": {"type": "string"},
        "attempted_instances": {"type": "array", "items": {"type": "string"}},
        "retry_after": {"type": ["integer", "null"]},
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
                "category": {"type": "string"},
                "language": {"type": "string"},
                "cached": {"type": "boolean"},
                "instance_used": {"type": "string"},
                "total_results": {"type": "integer"},
                "unresponsive_engines": {"type": "array"},
                "answers": {"type": "array", "items": {"type": "string"}},
                "infoboxes": {"type": "array"},
                "suggestions": {"type": "array", "items": {"type": "string"}},
                "backends_tried": {"type": "array", "items": {"type": "object"}},
                "content_fetch_stats": {
                    "type": "object",
                    "properties": {"attempted": {"type": "integer"}, "successful": {"type": "integer"},
                                   "failed": {"type": "integer"}, "total_time_ms": {"type": "integer"}},
                },
            },
            "required": ["query", "backend", "results_count", "search_time_ms"],
        },
    },
    # a failed search carries seed 002's error shape instead (with isError: true)
    "anyOf": [{"required": ["results", "metadata"]}, {"required": ["error_type", "error_details"]}],
}


def _render_content(result: dict[str, Any]) -> str:
    if "content_error" in result:
        return templates.RESULT_CONTENT_FAILED.format(reason=result["content_error"])
    content = result.get("content")
    if not content:
        return ""
    text = templates.RESULT_CONTENT.format(words=content["word_count"], ms=content["fetch_time_ms"],
                                           markdown=content["markdown"])
    if content.get("truncated"):
        text += templates.RESULT_CONTENT_TRUNCATED.format(chars=len(content["markdown"]))
    return text


def _render_extras(metadata: dict[str, Any]) -> str:
    parts = []
    if metadata.get("answers"):
        parts.append(templates.SEARCH_ANSWERS + "".join(templates.SEARCH_ANSWER.format(answer=a)
                                                        for a in metadata["answers"]) + "\n")
    for box in metadata.get("infoboxes") or []:
        title = box.get("infobox") or box.get("id") or "Infobox"
        parts.append(templates.SEARCH_INFOBOX.format(title=title, content=" ".join(str(box.get("content") or
                                                                                      "").split())).rstrip() + "\n\n")
    if metadata.get("suggestions"):
        parts.append(templates.SEARCH_SUGGESTIONS.format(suggestions=", ".join(metadata["suggestions"])))
    return "".join(parts)


def render_markdown(query: str, results: list[dict[str, Any]], source: str = SOURCE_NAME,
                    metadata: dict[str, Any] | None = None) -> str:
    """Seed 000's Markdown for a list of results (or its no-results form), page content included
    when it was fetched, and SearXNG's answers, infoboxes and suggestions when it sent any."""
    extras = _render_extras(metadata or {})
    if not results:
        if not extras:
            return templates.WEB_SEARCH_EMPTY.format(query=query, source=source)
        return (templates.WEB_SEARCH_HEADER.format(query=query) + extras
                + templates.WEB_SEARCH_EMPTY_FOOTER.format(source=source))
    parts = [templates.WEB_SEARCH_HEADER.format(query=query)]
    for result in results:
        template = templates.WEB_SEARCH_RESULT if result["description"] else templates.WEB_SEARCH_RESULT_NO_SNIPPET
        parts.append(template.format(position=result["position"], title=result["title"] or result["url"],
                                     url=result["url"], snippet=result["description"]))
        parts.append(_render_content(result))
        parts.append(templates.WEB_SEARCH_SEPARATOR)
    parts.append(extras)
    parts.append(templates.WEB_SEARCH_FOOTER.format(source=source, count=len(results)))
    return "".join(parts)


MAX_QUERY_CHARS = 499  # DuckDuckGo refuses longer queries


def _check_query(query: str) -> None:
    if not query.strip():
        raise InvalidArguments("Invalid argument 'query': must not be empty (minLength)")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidArguments(f"Invalid argument 'query': must be at most {MAX_QUERY_CHARS} characters, "
                               f"got {len(query)} (maxLength; DuckDuckGo refuses longer queries)")


def search(config: Config, arguments: dict[str, Any], context: ToolContext,
           ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Search (the configured backends in order, or the pinned one) and return (results, metadata)
    in seed 002's shape; the metadata's `source` names the backend that answered."""
    from websearch_mcp.backends.base import SearchQuery
    from websearch_mcp.backends.service import SearchService

    _check_query(arguments["query"])
    query = SearchQuery(query=arguments["query"], max_results=arguments["max_results"],
                        region=arguments.get("region", "wt-wt"), language=arguments.get("language", ""),
                        safe_search=arguments.get("safe_search", 1), time_range=arguments.get("time_range", ""),
                        page=arguments.get("page", 1), category=arguments.get("category", "general"))
    started = time.monotonic()
    answer = SearchService(config).search(query, arguments.get("backend"), context.cancelled.is_set)
    first = (query.page - 1) * query.max_results + 1
    results = []
    for offset, hit in enumerate(answer.outcome.hits[:query.max_results]):
        item: dict[str, Any] = {"title": hit.title, "url": hit.url, "description": hit.snippet,
                                "engine": hit.engine or answer.backend, "position": first + offset}
        if hit.engines and hit.engines != [item["engine"]]:
            item["engines"] = hit.engines
        if hit.score is not None:
            item["score"] = hit.score
        if hit.published_date:
            item["published_date"] = hit.published_date
        results.append(item)
    extras = answer.outcome.extras
    metadata: dict[str, Any] = {
        "query": query.query, "backend": answer.backend, "source": answer.label,
        "category": query.category, "region": extras.get("region", query.region),
        "safe_search": query.safe_search, "time_range": query.time_range, "page": query.page,
        "results_count": len(results), "search_time_ms": int((time.monotonic() - started) * 1000),
        "engines_used": sorted({e for r in results for e in r.get("engines", [r["engine"]])}),
        "fetch_content": False, "cached": answer.cached, "backends_tried": answer.tried,
    }
    if query.language:
        metadata["language"] = query.language
    for key in ("endpoint", "pages_fetched", "instance_used", "total_results", "unresponsive_engines",
                "answers", "infoboxes", "suggestions"):
        if extras.get(key):
            metadata[key] = extras[key]
    if answer.outcome.notes:
        metadata["notes"] = answer.outcome.notes
    return results, metadata


def attach_content(config: Config, results: list[dict[str, Any]], metadata: dict[str, Any],
                   max_chars: int, context: ToolContext) -> None:
    """Fetch every result's page and put its Markdown (or why it failed) into the result."""
    from websearch_mcp.tools.fetch_content import read_pages

    started = time.monotonic()
    documents, errors = read_pages(config, [r["url"] for r in results], context)
    for result, document, error in zip(results, documents, errors, strict=True):
        if document is None:
            result["content_error"] = error
            continue
        markdown = document.markdown
        result["content"] = {
            "markdown": markdown[:max_chars], "word_count": document.word_count,
            "fetch_time_ms": int(document.fetch_time_ms), "summary": document.summary(),
            "truncated": len(markdown) > max_chars, "title": document.title,
        }
    successful = sum(1 for d in documents if d is not None)
    metadata["fetch_content"] = True
    metadata["content_fetch_stats"] = {"attempted": len(results), "successful": successful,
                                       "failed": len(results) - successful,
                                       "total_time_ms": int((time.monotonic() - started) * 1000)}


def run(config: Config, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
    """Search DuckDuckGo (and fetch the pages when asked) and render the results."""
    results, metadata = search(config, arguments, context)
    if arguments.get("fetch_content") and results:
        attach_content(config, results, metadata, arguments["max_content_chars"], context)
    text = render_markdown(arguments["query"], results, metadata["source"], metadata)
    return ToolResult(text=text, structured={"results": results, "metadata": metadata})


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
