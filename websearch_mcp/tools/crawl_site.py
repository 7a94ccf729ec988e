"""The `crawl_site` tool: read a site from a start page, best first for a query."""

from __future__ import annotations

from websearch_mcp.call_context import ToolContext
from websearch_mcp.tools.map_site import PATHS
from websearch_mcp.tools.registry import ToolResult, ToolSpec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from websearch_mcp.crawl.site import CrawlOutcome
    from websearch_mcp.services import Services

MAX_TOKENS = 50000  # as search_context allows (not in the schema, to keep it short)

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "url": {"type": "string"},
        "query": {"type": "string"},
        "max_pages": {"type": "integer", "default": 15, "minimum": 1, "maximum": 100},
        "max_depth": {"type": "integer", "default": 3, "minimum": 0},
        "include_paths": PATHS,
        "exclude_paths": PATHS,
        "max_tokens": {"type": "integer", "default": 4000, "minimum": 200},
        "max_wait_seconds": {"type": "number", "minimum": 0.5},
    },
    "required": ["url"],
    "additionalProperties": False,
}

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "url": {"type": "string"},
        "query": {"type": "string"},
        "passages": {"type": "array", "items": {"type": "object"}},
        "pages": {"type": "array", "items": {"type": "object"}},
        "sources": {"type": "array", "items": {"type": "object"}},
        "pages_read": {"type": "integer"},
        "pages_left": {"type": "integer"},
        "crawl_continues": {"type": "boolean"},
        "failed": {"type": "array", "items": {"type": "object"}},
    },
    "required": ["url", "pages_read", "pages_left", "crawl_continues"],
}


def _status(outcome: CrawlOutcome, left: int) -> str:
    read = len(outcome.pages)
    line = f"_{read} page{'s' if read != 1 else ''} read"
    if outcome.going_on:
        line += f"; the crawl goes on (up to {outcome.plan.max_pages}): call again with the same arguments for more"
    elif left:
        line += f"; {left} more found, not read"
    skipped = outcome.state.get("skipped", {})
    if skipped.get("robots"):
        line += f"; {skipped['robots']} links excluded by robots.txt"
    failed = len(outcome.state.get("failed", []))
    if failed:
        line += f"; {failed} could not be read"
    return line + "._"


def _with_query(outcome: CrawlOutcome, max_tokens: int, structured: dict[str, Any]) -> str:
    from websearch_mcp.services.context import ContextAnswer, Source
    from websearch_mcp.services.reading import ranked_passages
    from websearch_mcp.tools.search_context import render_markdown

    query = outcome.plan.query
    numbered = [(n, markdown) for n, (_, _, markdown) in enumerate(outcome.pages, 1)]
    chosen = ranked_passages(numbered, query, max_tokens)  # the reading path search_context uses
    sources = [Source(n, title or url, url) for n, (url, title, _) in enumerate(outcome.pages, 1)]
    answer = ContextAnswer(chosen, sources, [], len(sources))
    structured["passages"] = answer.passage_rows()
    structured["sources"] = [{"number": s.number, "title": s.title, "url": s.url} for s in answer.cited()]
    return render_markdown(query, answer)


def _in_order(outcome: CrawlOutcome, max_tokens: int, structured: dict[str, Any]) -> tuple[str, int]:
    from websearch_mcp.crawl.answer import pages_in_order

    shown, cut = pages_in_order(outcome.pages, max_tokens)
    structured["pages"] = [{"url": u, "title": t, "markdown": m} for u, t, m in shown]
    parts = [f"## {title or url}\n{url}\n\n{markdown}" for url, title, markdown in shown]
    if cut:
        parts.append("Read, not shown (over max_tokens):\n" + "\n".join(
            f"- {url}" for url, _, _ in outcome.pages[len(outcome.pages) - cut:]))
    return "\n\n".join(parts), cut


def run(services: Services, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
    """Crawl (or join the crawl under way) and answer with what has been read."""
    from websearch_mcp.crawl.site import crawl

    outcome = crawl(services.crawls, arguments, context)
    state = outcome.state
    left = len(state.get("frontier", [])) + len(state.get("inflight", {}))
    structured: dict[str, Any] = {"url": outcome.plan.start, "pages_read": len(outcome.pages), "pages_left": left,
                                  "crawl_continues": outcome.going_on, "failed": state.get("failed", [])}
    budget = min(MAX_TOKENS, arguments["max_tokens"])
    if outcome.plan.query:
        structured["query"] = outcome.plan.query
        text = _with_query(outcome, budget, structured)
    else:
        text, _ = _in_order(outcome, budget, structured)
    return ToolResult(text=f"{text}\n\n{_status(outcome, left)}", structured=structured)


SPEC = ToolSpec(
    name="crawl_site",
    title="",  # lean: the name says it
    description="Read a site from url (with query: best-first, as passages). Call again to continue.",
    input_schema=INPUT_SCHEMA,
    output_schema=OUTPUT_SCHEMA,
    run=run,
)
