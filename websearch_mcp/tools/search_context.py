"""The `search_context` tool: retrieval context for a question, with numbered sources, no API key."""

from __future__ import annotations

from websearch_mcp import templates
from websearch_mcp.config import Config
from websearch_mcp.tools.registry import BoundHandler, Tool, ToolContext, ToolResult

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from websearch_mcp.context import Passage

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "The question or topic to gather context for"},
        "max_tokens": {
            "type": "integer",
            "description": "Token budget of the context (estimated at about four characters a token)",
            "default": 4000,
            "minimum": 200,
            "maximum": 50000,
        },
        "max_results": {
            "type": "integer",
            "description": "How many search results to read",
            "default": 5,
            "minimum": 1,
            "maximum": 10,
        },
    },
    "required": ["query"],
    "additionalProperties": False,
}

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string"},
        "passages": {"type": "array", "items": {"type": "object", "properties": {
            "source": {"type": "integer"}, "text": {"type": "string"}, "score": {"type": "number"}},
            "required": ["source", "text", "score"]}},
        "sources": {"type": "array", "items": {"type": "object", "properties": {
            "number": {"type": "integer"}, "title": {"type": "string"}, "url": {"type": "string"}},
            "required": ["number", "title", "url"]}},
        "estimated_tokens": {"type": "integer"},
        "failed": {"type": "array", "items": {"type": "object"}},
    },
    "required": ["query", "passages", "sources", "estimated_tokens"],
}


def render_markdown(query: str, chosen: list[Passage], sources: list[dict[str, Any]], failed: int,
                    total: int) -> str:
    """Passages labelled [n] in reading order, then the numbered sources they came from."""
    if not chosen:
        return templates.CONTEXT_EMPTY.format(query=query).rstrip("\n")
    parts = [templates.CONTEXT_HEADER.format(query=query)]
    parts.extend(templates.CONTEXT_PASSAGE.format(number=sources[p.source]["number"], text=p.text) for p in chosen)
    parts.append(templates.CONTEXT_SOURCES)
    used = sorted({p.source for p in chosen})
    parts.extend(templates.CONTEXT_SOURCE.format(**sources[i]) for i in used)
    if failed:
        parts.append(templates.CONTEXT_FAILED_NOTE.format(count=failed, total=total))
    return "".join(parts).rstrip("\n")


def run(config: Config, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
    """Search, read the top pages in parallel, rank their passages and pack the best."""
    from websearch_mcp.context import estimate_tokens, pack, rank, split_passages
    from websearch_mcp.tools.fetch_content import read_pages
    from websearch_mcp.tools.web_search import search

    query = arguments["query"]
    results, _ = search(config, {"query": query, "max_results": arguments["max_results"]}, context)
    documents, errors = read_pages(config, [r["url"] for r in results], context)
    passages: list[Passage] = []
    sources: list[dict[str, Any]] = []
    failed = []
    for index, (result, document, error) in enumerate(zip(results, documents, errors, strict=True)):
        title = (document.title if document is not None else "") or result["title"]
        sources.append({"number": index + 1, "title": title, "url": result["url"]})
        text = document.markdown if document is not None and document.markdown.strip() else result["description"]
        if document is None:
            failed.append({"url": result["url"], "error": error})
        passages.extend(split_passages(index, text))
    chosen = pack(rank(passages, query), arguments["max_tokens"])
    structured = {
        "query": query,
        "passages": [{"source": sources[p.source]["number"], "text": p.text, "score": round(p.score, 4)}
                     for p in chosen],
        "sources": [s for s in sources if any(p.source == s["number"] - 1 for p in chosen)],
        "estimated_tokens": sum(estimate_tokens(p.text) for p in chosen),
        "failed": failed,
    }
    text = render_markdown(query, chosen, sources, len(failed), len(results))
    return ToolResult(text=text, structured=structured)


def make_tool(config: Config) -> Tool:
    """The search_context tool bound to a configuration."""
    return Tool(
        name="search_context",
        title="Search Context",
        description=("Gather compact context for a question: searches the web, reads the top pages, and "
                     "returns the passages most relevant to the question within a token budget, each "
                     "labelled with its numbered source."),
        input_schema=INPUT_SCHEMA,
        output_schema=OUTPUT_SCHEMA,
        annotations={"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True,
                     "openWorldHint": True},
        handler=BoundHandler(run, config),
    )
