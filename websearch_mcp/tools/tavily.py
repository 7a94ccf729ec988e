"""The Tavily tools of seed 004: tavily_search, tavily_extract and tavily_context, offered when
TAVILY_API_KEY is set. Output and error formats are the seed's, exactly."""

from __future__ import annotations

import time

from websearch_mcp import log, templates
from websearch_mcp.call_context import ToolContext
from websearch_mcp.tools.registry import ToolResult, ToolSpec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from websearch_mcp.services import Services
    from websearch_mcp.services.tavily import TavilyApiError

MAX_QUERY = 1000
MAX_URLS = 20
DEFAULT_CONTEXT_TOKENS = 4000

SEARCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "検索クエリ"},
        "search_depth": {"type": "string", "enum": ["basic", "advanced"], "default": "basic"},
        "max_results": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5},
    },
    "required": ["query"],
}
EXTRACT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"urls": {"type": "array", "items": {"type": "string"}, "description": "抽出対象URL群"}},
    "required": ["urls"],
}
CONTEXT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "検索クエリ"},
        "max_tokens": {"type": ["integer", "null"], "minimum": 1, "description": "最大トークン数"},
    },
    "required": ["query"],
}


def _error(detail: str, error_type: str) -> TavilyApiError:
    from websearch_mcp.services.tavily import TavilyApiError

    return TavilyApiError(detail, error_type)


def _check_query(query: str) -> None:
    if not query.strip():
        raise _error(templates.TAVILY_EMPTY_QUERY, "VALIDATION_ERROR")
    if len(query) > MAX_QUERY:
        raise _error(templates.TAVILY_LONG_QUERY.format(limit=MAX_QUERY, length=len(query)), "VALIDATION_ERROR")


def _timed(name: str, details: dict[str, Any], work: Callable[[], ToolResult]) -> ToolResult:
    """Seed 004's log lines: start, then success or failed with the elapsed milliseconds."""
    from websearch_mcp import wire

    log.info(f"tool {name} start {wire.dumps(details)}")
    started = time.perf_counter()
    status = "failed"
    try:
        result = work()
        status = "success"
        return result
    finally:
        log.info(f"tool {name} {status} {(time.perf_counter() - started) * 1000:.1f}ms")


def render_search(query: str, results: list[dict[str, Any]]) -> str:
    """Seed 004's tavily_search output."""
    if not results:
        return templates.TAVILY_SEARCH_EMPTY.format(query=query)
    blocks = [templates.TAVILY_SEARCH_RESULT.format(position=n, title=r.get("title") or "", url=r.get("url") or "",
                                                    score=float(r.get("score") or 0.0), content=r.get("content") or "")
              for n, r in enumerate(results, 1)]
    return templates.TAVILY_SEARCH_HEADER.format(query=query) + "\n\n".join(blocks)


def render_extract(results: list[dict[str, Any]], failed: list[dict[str, str]]) -> str:
    """Seed 004's tavily_extract output, in its three forms."""
    text = templates.TAVILY_EXTRACT_HEADER
    if results:
        text += templates.TAVILY_EXTRACT_SEPARATOR.join(
            templates.TAVILY_EXTRACT_RESULT.format(url=r.get("url", ""), raw_content=r.get("raw_content") or "")
            for r in results)
        if failed:
            text += templates.TAVILY_EXTRACT_SEPARATOR
    else:
        text += templates.TAVILY_EXTRACT_ALL_FAILED + "\n\n"
    if failed:
        text += templates.TAVILY_FAILED_HEADER + "\n".join(
            templates.TAVILY_FAILED_ITEM.format(url=f["url"], error=f["error"]) for f in failed)
    return text


def run_search(services: Services, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
    """tavily_search."""
    query = arguments["query"]

    def work() -> ToolResult:
        _check_query(query)
        body = services.tavily.search(query, arguments["search_depth"], arguments["max_results"])
        results = [r for r in body.get("results") or [] if isinstance(r, dict)]
        return ToolResult(text=render_search(query, results))

    return _timed("tavily_search", {"query": query}, work)


def split_urls(urls: list[str]) -> tuple[list[str], list[dict[str, str]], list[str]]:
    """(valid URLs, invalid ones with reasons, warnings), duplicates merged, per seed 004's rules."""
    from urllib.parse import urlsplit

    valid, failed, warnings = [], [], []
    for url in dict.fromkeys(u.strip() for u in urls):
        try:
            parts = urlsplit(url)
        except ValueError:
            failed.append({"url": url, "error": templates.TAVILY_NO_HOST})
            continue
        if parts.scheme not in ("http", "https"):
            failed.append({"url": url, "error": templates.TAVILY_BAD_SCHEME})
        elif not parts.hostname:
            failed.append({"url": url, "error": templates.TAVILY_NO_HOST})
        else:
            valid.append(url)
            if parts.scheme == "http":
                warnings.append(templates.TAVILY_HTTP_WARNING.format(url=url))
    return valid, failed, warnings


def run_extract(services: Services, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
    """tavily_extract."""
    urls = arguments["urls"]

    def work() -> ToolResult:
        if not urls:
            raise _error(templates.TAVILY_NO_URLS, "VALIDATION_ERROR")
        valid, failed, warnings = split_urls(urls)
        if len(valid) + len(failed) > MAX_URLS:
            raise _error(templates.TAVILY_TOO_MANY_URLS.format(limit=MAX_URLS, count=len(valid) + len(failed)),
                         "VALIDATION_ERROR")
        for warning in warnings:
            log.warning(warning)
        results: list[dict[str, Any]] = []
        if valid:
            body = services.tavily.extract(valid)
            results = [r for r in body.get("results") or [] if isinstance(r, dict)]
            failed += [{"url": str(f.get("url", "")), "error": str(f.get("error", ""))}
                       for f in body.get("failed_results") or [] if isinstance(f, dict)]
        return ToolResult(text=render_extract(results, failed))

    return _timed("tavily_extract", {"urls": urls}, work)


def pack_context(results: list[dict[str, Any]], max_tokens: int) -> str:
    """As Tavily's client packs search context: {url, content} items, in order, while the running
    token count of each item's JSON stays within max_tokens; the list as JSON."""
    from websearch_mcp import wire
    from websearch_mcp.passages import estimate_tokens

    chosen: list[dict[str, str]] = []
    used = 0
    for result in results:
        item = {"url": str(result.get("url", "")), "content": str(result.get("content", ""))}
        cost = estimate_tokens(wire.dumps(item, ensure_ascii=True))
        if used + cost > max_tokens:
            break
        chosen.append(item)
        used += cost
    return wire.dumps(chosen, ensure_ascii=True)


def run_context(services: Services, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
    """tavily_context."""
    query = arguments["query"]

    def work() -> ToolResult:
        _check_query(query)
        body = services.tavily.search(query, "basic", 5)
        results = [r for r in body.get("results") or [] if isinstance(r, dict)]
        packed = pack_context(results, arguments.get("max_tokens") or DEFAULT_CONTEXT_TOKENS)
        return ToolResult(text=templates.TAVILY_CONTEXT.format(query=query, context=packed))

    return _timed("tavily_context", {"query": query}, work)


_ANNOTATIONS = {"readOnlyHint": True, "destructiveHint": False, "openWorldHint": True}
SPECS = (
    ToolSpec(name="tavily_search", title="Tavily Search", description="Web検索を実行する",
             input_schema=SEARCH_SCHEMA, annotations=_ANNOTATIONS, run=run_search),
    ToolSpec(name="tavily_extract", title="Tavily Extract", description="URL群からコンテンツを抽出する",
             input_schema=EXTRACT_SCHEMA, annotations=_ANNOTATIONS, run=run_extract),
    ToolSpec(name="tavily_context", title="Tavily Context", description="RAG用検索コンテキストを取得する",
             input_schema=CONTEXT_SCHEMA, annotations=_ANNOTATIONS, run=run_context),
)
