"""The `search_context` tool: retrieval context for a question, with numbered sources, no API key."""

from __future__ import annotations

from websearch_mcp import templates
from websearch_mcp.call_context import ToolContext
from websearch_mcp.tools.fetch_content import MAX_WAIT
from websearch_mcp.tools.registry import ToolResult, ToolSpec
from websearch_mcp.tools.validation import QUERY_LIMITS, check_search_query

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from websearch_mcp.services import Services
    from websearch_mcp.services.context import ContextAnswer

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "The question or topic", **QUERY_LIMITS},
        "max_tokens": {
            "type": "integer",
            "description": "Token budget (about four characters a token)",
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
        "max_wait_seconds": MAX_WAIT,
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
            "number": {"type": "integer"}, "title": {"type": "string"}, "url": {"type": "string"},
            "snippet_only": {"type": "boolean"}},
            "required": ["number", "title", "url"]}},
        "estimated_tokens": {"type": "integer"},
        "failed": {"type": "array", "items": {"type": "object"}},
    },
    "required": ["query", "passages", "sources", "estimated_tokens"],
}


_BLOCK_MARKS = ("- ", "* ", "+ ", ">", "|", "```", "~~~", "#")  # no regex: this module is on the start-up path


def _opens_a_block(text: str) -> bool:
    if text.startswith(_BLOCK_MARKS):
        return True
    digits = len(text) - len(text.lstrip("0123456789"))
    return 0 < digits < 10 and text[digits:digits + 2] in (". ", ") ")


def _cited(number: int, text: str) -> str:
    """A passage with its citation: in front of a paragraph, on a line of its own before a list, a
    quote, a table, code or a heading (in front of them it would break the Markdown block)."""
    template = templates.CONTEXT_PASSAGE_BLOCK if _opens_a_block(text) else templates.CONTEXT_PASSAGE
    return template.format(number=number, text=text)


def render_markdown(query: str, answer: ContextAnswer) -> str:
    """Passages labelled [n] in reading order, then the numbered sources they came from (a source
    whose page could not be read says that only its search snippet is used)."""
    if not answer.passages:
        return templates.CONTEXT_EMPTY.format(query=query).rstrip("\n")
    parts = [templates.CONTEXT_HEADER.format(query=query)]
    parts.extend(_cited(p.source, p.text) for p in answer.passages)
    parts.append(templates.CONTEXT_SOURCES)
    for source in answer.cited():
        template = templates.CONTEXT_SOURCE_SNIPPET if source.snippet_only else templates.CONTEXT_SOURCE
        parts.append(template.format(number=source.number, title=source.title, url=source.url))
    failed = len(answer.failed)
    if failed:
        template = templates.CONTEXT_FAILED_ONE if failed == 1 else templates.CONTEXT_FAILED_MANY
        parts.append(template.format(count=failed, total=answer.results))
    return "".join(parts).rstrip("\n")


def run(services: Services, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
    """Search, read the top pages in parallel, rank their passages and pack the best."""
    query = arguments["query"]
    check_search_query(query)
    context.limit_wait(arguments.get("max_wait_seconds"))
    # the passages are in the text and again in structuredContent: about eight characters a token in all
    budget = services.config.max_result_chars
    tokens = min(arguments["max_tokens"], max(200, (budget - 4000) // 9))
    answer = services.context.build(query, tokens, arguments["max_results"], context)
    from websearch_mcp.passages import estimate_tokens  # imported while the pages loaded (warm_up)

    structured = {
        "query": query,
        "passages": answer.passage_rows(),
        "sources": [{"number": s.number, "title": s.title, "url": s.url, "snippet_only": s.snippet_only}
                    for s in answer.cited()],
        "estimated_tokens": sum(estimate_tokens(p.text) for p in answer.passages),
        "failed": answer.failed,
    }
    text = render_markdown(query, answer)
    if tokens < arguments["max_tokens"] and answer.passages:
        text += templates.CONTEXT_BUDGET.format(tokens=tokens, budget=budget)
    return ToolResult(text=text, structured=structured)


SPEC = ToolSpec(
    name="search_context",
    title="Search Context",
    description=("Gather compact context for a question: searches the web, reads the top pages, and "
                 "returns the passages most relevant to the question within a token budget, each "
                 "labelled with its numbered source."),
    input_schema=INPUT_SCHEMA,
    output_schema=OUTPUT_SCHEMA,
    run=run,
)
