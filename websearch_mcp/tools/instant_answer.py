"""The `instant_answer` tool: DuckDuckGo's Instant Answer API as seed 000's Markdown."""

from __future__ import annotations

from websearch_mcp import templates
from websearch_mcp.call_context import ToolContext
from websearch_mcp.errors import UpstreamConnectionError, UpstreamError, UpstreamTimeout
from websearch_mcp.tools.registry import ToolResult, ToolSpec
from websearch_mcp.tools.validation import QUERY_LIMITS, check_search_query

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from websearch_mcp.services import Services
    from websearch_mcp.services.instant_answer import InstantAnswer

MAX_RELATED = 10
MAX_INFOBOX = 15

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {
            "type": "string",
            "description": "検索キーワード",
            **QUERY_LIMITS,
        },
    },
    "required": ["query"],
    "additionalProperties": False,
}

_TOPIC_SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "text": {"type": "string"},
                   "url": {"type": "string"}, "group": {"type": "string"}},
}
OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string"},
        "found": {"type": "boolean"},
        "heading": {"type": "string"},
        "type": {"type": "string"},
        "answer": {"type": "string"},
        "abstract": {"type": "string"},
        "abstract_source": {"type": "string"},
        "abstract_url": {"type": "string"},
        "definition": {"type": "string"},
        "definition_source": {"type": "string"},
        "definition_url": {"type": "string"},
        "redirect": {"type": "string"},
        "infobox": {"type": "array", "items": {"type": "object"}},
        "related_topics": {"type": "array", "items": _TOPIC_SCHEMA},
        "results": {"type": "array", "items": _TOPIC_SCHEMA},
    },
    "required": ["query", "found"],
}


def _source_lines(source: str, url: str) -> str:
    lines = templates.INSTANT_SOURCE_LINE.format(source=source) if source else ""
    lines += templates.INSTANT_URL_LINE.format(url=url) if url else ""
    return lines + "\n" if lines else ""


def _related(answer: InstantAnswer) -> str:
    if not answer.related_topics:
        return ""
    parts = [templates.INSTANT_RELATED_HEADER]
    for topic in answer.related_topics[:MAX_RELATED]:
        if topic.name and topic.text:
            parts.append(templates.INSTANT_RELATED_ITEM.format(name=topic.name, text=topic.text))
        else:
            parts.append(templates.INSTANT_RELATED_ITEM_UNNAMED.format(
                text=f"**{topic.name}**" if topic.name else topic.text))
    hidden = len(answer.related_topics) - MAX_RELATED
    if hidden > 0:
        parts.append(templates.INSTANT_RELATED_MORE.format(more=hidden))
    return "".join(parts) + "\n"


def render_markdown(query: str, answer: InstantAnswer) -> str:
    """Seed 000's Markdown, with Answer, Definition and Infobox sections when present."""
    if answer.is_empty:
        return templates.INSTANT_EMPTY.format(query=query)
    parts = [templates.INSTANT_HEADER.format(query=query)]
    if answer.answer:
        parts.append(templates.INSTANT_ANSWER.format(answer=answer.answer))
    if answer.abstract:
        parts.append(templates.INSTANT_ABSTRACT.format(text=answer.abstract))
        parts.append(_source_lines(answer.abstract_source, answer.abstract_url))
    if answer.definition:
        parts.append(templates.INSTANT_DEFINITION.format(text=answer.definition))
        parts.append(_source_lines(answer.definition_source, answer.definition_url))
    if answer.infobox:
        parts.append(templates.INSTANT_INFOBOX_HEADER)
        parts.extend(templates.INSTANT_INFOBOX_ITEM.format(**row) for row in answer.infobox[:MAX_INFOBOX])
        parts.append("\n")
    if answer.redirect and not (answer.answer or answer.abstract or answer.definition):
        parts.append(templates.INSTANT_ANSWER.format(answer=answer.redirect))
    parts.append(_related(answer))
    parts.append(templates.INSTANT_FOOTER)
    return "".join(parts)


def run(services: Services, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
    """Ask the Instant Answer API and render its answer."""
    query = arguments["query"]
    check_search_query(query)
    try:
        answer = services.instant_answers.lookup(query, context.deadline)
    except UpstreamError as err:
        message = templates.INSTANT_UNAVAILABLE.format(details=err.message)
        if isinstance(err, (UpstreamConnectionError, UpstreamTimeout)):
            message += ". " + templates.NETWORK_HINT
        raise UpstreamError(message, url=err.url, status=err.status, backend="instant_answer") from err
    structured = {"query": query, "found": not answer.is_empty, **answer.to_dict()}
    return ToolResult(text=render_markdown(query, answer), structured=structured)


SPEC = ToolSpec(
    name="instant_answer",
    title="Instant Answer",
    description=("Get an instant answer from DuckDuckGo, including abstracts, definitions, "
                 "and related topics."),
    input_schema=INPUT_SCHEMA,
    output_schema=OUTPUT_SCHEMA,
    run=run,
)
