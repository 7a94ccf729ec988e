"""The `web_search` tool: results as seed 000's Markdown plus seed 002's JSON shape."""

from __future__ import annotations

import time

from websearch_mcp import templates
from websearch_mcp.call_context import ToolContext
from websearch_mcp.engines.table import BY_NAME
from websearch_mcp.errors import InvalidArguments
from websearch_mcp.tools.fetch_content import MAX_WAIT
from websearch_mcp.tools.media import RESULT_PROPERTIES, SITE_LIST, kind_line, media_fields, site_lists, thumbnails
from websearch_mcp.tools.registry import ToolResult, ToolSpec
from websearch_mcp.tools.validation import MAX_QUERY_CHARS, QUERY_LIMITS, check_search_query

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from websearch_mcp.engines.base import SearchQuery
    from websearch_mcp.services import Services
    from websearch_mcp.services.search import SearchAnswer

SOURCE_NAME = "DuckDuckGo"

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {
            "type": "string",
            "description": "検索キーワード",
            **QUERY_LIMITS,
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
            "description": "DuckDuckGo region (kl): us-en, de-de, …; wt-wt is worldwide",
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
            "description": "Only results from the last day, week, month or year",
            "default": "",
            "enum": ["", "day", "week", "month", "year"],
        },
        "page": {
            "type": "integer",
            "description": "Result page, 1-based",
            "default": 1,
            "minimum": 1,
            "maximum": 10,
        },
        "category": {
            "type": "string",
            "description": "Kind of results; map, music, it, science, files need SearXNG",
            "default": "general",
            "enum": ["general", "images", "videos", "news", "map", "music", "it", "science", "files"],
        },
        "language": {
            "type": "string",
            "description": "Language (en, de, en-GB); sets the region when none is given",
            "pattern": "^[a-z]{2}(-[A-Z]{2})?$",
        },
        "backend": {
            "type": "string",
            "description": "Use only this engine (default: the configured order, with fallback)",
            "enum": list(BY_NAME),
        },
        "include_domains": {**SITE_LIST, "description": "Only these sites"},
        "exclude_domains": {**SITE_LIST, "description": "Not these sites"},
        "include_thumbnails": {"type": "boolean", "description": "images: add up to 4 thumbnails"},
        "fetch_content": {
            "type": "boolean",
            "description": "Also read each result's page as Markdown",
            "default": False,
        },
        "max_content_chars": {
            "type": "integer",
            "description": "With fetch_content: most characters per page",
            "default": 4000,
            "minimum": 200,
            "maximum": 100000,
        },
        "max_wait_seconds": MAX_WAIT,
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
        **RESULT_PROPERTIES,
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
                "cache_store": {"type": "string"},
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
        title = result["title"] or result["url"]
        line = kind_line(result, (metadata or {}).get("category", "general"))
        parts.append(template.format(position=result["position"], title=f"{title}\n{line}" if line else title,
                                     url=result["url"], snippet=result["description"]))
        parts.append(_render_content(result))
        parts.append(templates.WEB_SEARCH_SEPARATOR)
    parts.append(extras)
    parts.append(templates.WEB_SEARCH_FOOTER.format(source=source, count=len(results)))
    return "".join(parts)


def search_query(arguments: dict[str, Any]) -> SearchQuery:
    """The engine-neutral query of validated arguments."""
    from websearch_mcp.engines.base import SearchQuery

    check_search_query(arguments["query"])
    include, exclude = site_lists(arguments)
    query = SearchQuery(query=arguments["query"], max_results=arguments["max_results"], region=arguments["region"],
                        language=arguments.get("language", ""), safe_search=arguments["safe_search"],
                        time_range=arguments["time_range"], page=arguments["page"], category=arguments["category"],
                        include_domains=include, exclude_domains=exclude)
    if len(query.text) > MAX_QUERY_CHARS:  # the site operators travel in the query
        raise InvalidArguments(f"Invalid argument 'query': with the site filters written as site: operators it is "
                               f"{len(query.text)} characters, over {MAX_QUERY_CHARS} (maxLength; DuckDuckGo "
                               "refuses longer queries): name fewer domains or shorten the query",
                               parameter="query", rule="maxLength")
    return query


def seed_002_shape(answer: SearchAnswer, query: SearchQuery, started: float) -> tuple[list[dict[str, Any]],
                                                                                      dict[str, Any]]:
    """(results, metadata) of an answer, in seed 002's shape."""
    results = []
    for offset, hit in enumerate(answer.hits[:query.max_results]):
        item: dict[str, Any] = {"title": hit.title, "url": hit.url, "description": hit.snippet,
                                "engine": hit.engine or answer.backend, "position": query.offset + offset + 1}
        if hit.engines and hit.engines != [item["engine"]]:
            item["engines"] = hit.engines
        if hit.score is not None:
            item["score"] = hit.score
        if hit.published_date:
            item["published_date"] = hit.published_date
        item.update(media_fields(hit))
        results.append(item)
    extras = answer.extras
    metadata: dict[str, Any] = {
        "query": query.query, "backend": answer.backend, "source": answer.source,
        "category": query.category, "region": extras.get("region", query.region),
        "safe_search": query.safe_search, "time_range": query.time_range, "page": query.page,
        "results_count": len(results), "search_time_ms": int((time.monotonic() - started) * 1000),
        "engines_used": sorted({e for r in results for e in r.get("engines", [r["engine"]])}),
        "fetch_content": False, "cached": answer.cached, "backends_tried": answer.tried,
    }
    if answer.cached:
        metadata["cache_store"] = answer.store
    if query.language:
        metadata["language"] = query.language
    for key in ("endpoint", "pages_fetched", "instance_used", "total_results", "unresponsive_engines",
                "answers", "infoboxes", "suggestions"):
        if extras.get(key):
            metadata[key] = extras[key]
    if answer.notes:
        metadata["notes"] = answer.notes
    return results, metadata


def attach_content(services: Services, results: list[dict[str, Any]], metadata: dict[str, Any],
                   max_chars: int, context: ToolContext) -> None:
    """Read every result's page and put its Markdown (or why it failed) into the result."""
    from websearch_mcp.budget import share
    from websearch_mcp.services.reading import content_summary

    started = time.monotonic()
    outcomes = services.pages.read([r["url"] for r in results], context)
    # the pages share the answer's budget fairly (their Markdown is in the text and in the results)
    wanted = [min(max_chars, len(o.document.markdown)) if o.document is not None else 0 for o in outcomes]
    budget = services.config.max_result_chars
    allowances = share(wanted, max(200 * len(results), (budget - 4000 - 1000 * len(results)) // 2))
    for result, outcome, allowance in zip(results, outcomes, allowances, strict=True):
        if outcome.document is None:
            result["content_error"] = outcome.error
            if outcome.late:
                result["content_late"] = True
        else:
            result["content"] = content_summary(outcome.document, max(200, allowance))
    successful = sum(1 for o in outcomes if o.document is not None)
    metadata["fetch_content"] = True
    metadata["content_fetch_stats"] = {"attempted": len(results), "successful": successful,
                                       "failed": len(results) - successful,
                                       "total_time_ms": int((time.monotonic() - started) * 1000)}


def run(services: Services, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
    """Search (and read the pages when asked) and render the results."""
    from websearch_mcp.engines.sites import filter_hits

    query = search_query(arguments)
    started = time.monotonic()
    answer = services.search.search(query, arguments.get("backend"), context.deadline, context.cancelled.is_set)
    answer.hits = filter_hits(answer.hits, query.include_domains, query.exclude_domains)  # whatever the engine did
    results, metadata = seed_002_shape(answer, query, started)
    for name, domains in (("include_domains", query.include_domains), ("exclude_domains", query.exclude_domains)):
        if domains:
            metadata[name] = list(domains)
    if arguments["fetch_content"] and results:
        context.limit_wait(arguments.get("max_wait_seconds"))
        attach_content(services, results, metadata, arguments["max_content_chars"], context)
    text = render_markdown(query.query, results, metadata["source"], metadata)
    images = thumbnails(services, results, context) if arguments.get("include_thumbnails") and \
        query.category == "images" else []
    return ToolResult(text=text, structured={"results": results, "metadata": metadata}, images=images)


SPEC = ToolSpec(
    name="web_search",
    title="Web Search",
    description=("Search the web using DuckDuckGo and return a list of results with titles, URLs, and snippets. "
                 "When DuckDuckGo is blocked or failing, other keyless engines answer instead."),
    input_schema=INPUT_SCHEMA,
    output_schema=OUTPUT_SCHEMA,
    run=run,
)
