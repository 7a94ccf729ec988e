"""The `fetch_content` tool: read pages as Markdown, in parts when they are long."""

from __future__ import annotations

from websearch_mcp import templates
from websearch_mcp.call_context import ToolContext
from websearch_mcp.errors import InvalidArguments
from websearch_mcp.tools.registry import ToolResult, ToolSpec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from websearch_mcp.services import Services

MAX_URLS = 20
MAX_WAIT: dict[str, Any] = {"type": "number", "minimum": 0.5, "description": "Most seconds to wait for pages"}

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "urls": {
            "type": "array",
            "description": "Pages to read (http or https)",
            "items": {"type": "string"},
            "minItems": 1,
            "maxItems": MAX_URLS,
        },
        "max_chars": {
            "type": "integer",
            "description": "Most characters per page",
            "default": 20000,
            "minimum": 200,
            "maximum": 200000,
        },
        "start_index": {
            "type": "integer",
            "description": "Character to start from in each page",
            "default": 0,
            "minimum": 0,
        },
        "query": {"type": "string", "description": "Return only the passages answering this, ranked"},
        "outline": {"type": "boolean", "default": False,
                    "description": "Return the headings with their start_index instead of text"},
        "render": {"type": "string", "enum": ["auto", "always", "never"],
                   "description": "Run page scripts in a browser (auto: only when needed)"},
        "max_wait_seconds": MAX_WAIT,
    },
    "required": ["urls"],
    "additionalProperties": False,
}

_PAGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "url": {"type": "string"}, "final_url": {"type": "string"}, "title": {"type": "string"},
        "content": {"type": "string"}, "start_index": {"type": "integer"}, "end_index": {"type": "integer"},
        "total_chars": {"type": "integer"}, "next_start_index": {"type": ["integer", "null"]},
        "word_count": {"type": "integer"}, "fetch_time_ms": {"type": "integer"},
        "metadata": {"type": "object"}, "warning": {"type": "string"},
        "outline": {"type": "array", "items": {"type": "object"}},
        "passages": {"type": "array", "items": {"type": "object"}},
    },
    "required": ["url", "title", "content", "start_index", "end_index", "total_chars", "next_start_index"],
}
OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "pages": {"type": "array", "items": _PAGE_SCHEMA},
        "failed": {"type": "array", "items": {"type": "object", "properties": {
            "url": {"type": "string"}, "error": {"type": "string"}}, "required": ["url", "error"]}},
    },
    "required": ["pages", "failed"],
}
HTTP_WARNING = "fetched over http, not https"


def merge_urls(urls: list[str]) -> list[str]:
    """The URLs in order, each once (surrounding whitespace ignored)."""
    return list(dict.fromkeys(u.strip() for u in urls))


def _render_page(entry: dict[str, Any]) -> str:
    text = templates.PAGE_HEADER.format(title=entry["title"], url=entry["url"])
    if entry.get("warning"):
        text += templates.PAGE_HTTP_WARNING
    if "outline" in entry:
        return text + _render_outline(entry["outline"], entry["total_chars"], entry.get("outline_left_out", 0))
    if "passages" in entry:
        return text + _render_passages(entry["passages"], entry.get("total_passages", 0))
    total, start = entry["total_chars"], entry["start_index"]
    if total and start >= total:
        return text + templates.PAGE_PAST_END.format(start=start, total=total)
    content = entry["content"].strip("\n")
    text += templates.PAGE_BODY.format(content=content) if content else templates.PAGE_EMPTY
    if entry["next_start_index"] is not None:
        text += templates.PAGE_CONTINUES.format(start=start, end=entry["end_index"], total=total)
    return text


def _render_outline(sections: list[dict[str, Any]], total: int, left_out: int = 0) -> str:
    if not sections and not left_out:
        return templates.PAGE_NO_HEADINGS.format(total=total)
    top = min((s["level"] for s in sections), default=1)
    text = templates.PAGE_OUTLINE.format(count=len(sections) + left_out, total=total)
    text += "".join(templates.PAGE_OUTLINE_ITEM.format(indent="  " * (s["level"] - top), title=s["title"],
                                                        start=s["start_index"], chars=s["chars"]) for s in sections)
    if left_out:
        text += templates.PAGE_OUTLINE_CUT.format(count=left_out)
    return text.rstrip("\n") + "\n"


def _render_passages(found: list[dict[str, Any]], total_passages: int) -> str:
    if not found:
        return templates.PAGE_NO_PASSAGE
    template = templates.PAGE_PASSAGE_ONE if len(found) == 1 else templates.PAGE_PASSAGES
    text = template.format(count=len(found), total_passages=total_passages)
    for passage in found:
        path = " › ".join(passage["heading_path"]) or "(top of the page)"
        text += templates.PAGE_PASSAGE.format(path=path, start=passage["start_index"], text=passage["text"])
    return text


def _focus(entry: dict[str, Any], document: Any, arguments: dict[str, Any], allowance: int) -> None:
    """Replace a page's part by its outline or by the passages that answer the query, when asked; both
    within the page's share of the answer (the reading service decides what of the page that is)."""
    from websearch_mcp.services import reading

    if arguments.get("outline"):
        entry["outline"], entry["outline_left_out"] = reading.outline_rows(document, allowance)
    elif arguments.get("query", "").strip():
        entry["passages"], entry["total_passages"] = reading.page_passages(document, arguments["query"], allowance)
    else:
        return
    entry["content"] = ""
    entry["start_index"] = entry["end_index"] = 0
    entry["next_start_index"] = None


def render_markdown(pages: list[dict[str, Any]], failed: list[dict[str, Any]]) -> str:
    """Each page (title, URL, Markdown, how to continue), then the failures with their reasons."""
    parts = [templates.PAGE_SEPARATOR.join(_render_page(page) for page in pages)]
    if not pages:
        parts = [templates.NOTHING_FETCHED]
    if failed:
        if pages:
            parts.append(templates.PAGE_SEPARATOR)
        parts.append(templates.FAILED_HEADER)
        parts.extend(templates.FAILED_ITEM.format(url=f["url"], reason=f["error"]) for f in failed)
    return "".join(parts).rstrip("\n")


def run(services: Services, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
    """Read the pages and render them, within the answer's budget."""
    from websearch_mcp.fetch.addresses import InvalidUrlError, check_url

    context.limit_wait(arguments.get("max_wait_seconds"))
    failed: list[dict[str, Any]] = []
    valid: list[str] = []
    for url in merge_urls(arguments["urls"]):
        try:
            check_url(url)
            valid.append(url)
        except InvalidUrlError as err:
            failed.append({"url": url, "error": err.message})
    if str(arguments.get("query") or "").strip():
        from websearch_mcp.services.warm_up import warm_up_ranking

        warm_up_ranking()  # while the pages load, not after
    read = []
    for outcome in services.pages.read(valid, context, arguments.get("render")):
        if outcome.document is None:
            failed.append(outcome.failure())
        else:
            read.append(outcome)
    order = {url: index for index, url in enumerate(merge_urls(arguments["urls"]))}
    failed.sort(key=lambda f: order.get(f["url"], len(order)))  # in the order given, whatever failed why
    result = _within_budget(read, failed, arguments, services.config.max_result_chars)
    if not valid:  # nothing could even be asked for: the caller's mistake, not an upstream failure
        result.error = InvalidArguments("Invalid argument 'urls': no URL can be fetched (" + "; ".join(
            f"{f['url']}: {f['error']}" for f in failed) + ")", parameter="urls", rule="format")
    return result


def _within_budget(read: list[Any], failed: list[dict[str, Any]], arguments: dict[str, Any],
                   budget: int) -> ToolResult:
    """The pages' parts, each page getting a fair share of the answer's budget (what short pages leave
    goes to the long ones); shares shrink until the serialized answer fits."""
    from websearch_mcp.budget import share, size_of

    start, max_chars = arguments["start_index"], arguments["max_chars"]
    fixed = 1500 + sum(2 * (len(f["url"]) + len(f["error"])) + 80 for f in failed) + 1200 * len(read)
    wanted = [min(max_chars, max(0, len(o.document.markdown) - start)) for o in read]
    allowances = share(wanted, max(len(read) * 200, (budget - fixed) // 2))
    grown = False
    while True:
        pages = [_page_entry(outcome, arguments, max(200, allowance)) for outcome, allowance in zip(read, allowances,
                                                                                                 strict=True)]
        cut = sum(1 for entry, allowance, want in zip(pages, allowances, wanted, strict=True)
                  if allowance < want and entry["next_start_index"] is not None)
        text = render_markdown(pages, failed)
        if cut:
            text += templates.BUDGET_SHARED.format(budget=budget, cut=cut)
        structured = {"pages": pages, "failed": failed}
        size = size_of(text, structured)
        if cut and not grown and size < budget * 0.9:  # the overhead was guessed high: give the pages the rest
            grown = True
            total = int(sum(allowances) + (budget * 0.97 - size) / 2)
            allowances = share(wanted, total)
            continue
        if size <= budget or max(allowances, default=0) <= 200:
            return ToolResult(text=text, structured=structured, is_error=not pages)
        scale = budget / size * 0.95
        allowances = [int(a * scale) for a in allowances]


def _page_entry(outcome: Any, arguments: dict[str, Any], allowance: int) -> dict[str, Any]:
    """One page's part (or outline, or passages) within its allowance."""
    from websearch_mcp.services.reading import page_part

    entry = page_part(outcome.document, arguments["start_index"], min(arguments["max_chars"], allowance))
    entry["url"], entry["final_url"] = outcome.url, outcome.document.url
    _focus(entry, outcome.document, arguments, min(arguments["max_chars"], allowance))
    if outcome.url.lower().startswith("http://"):
        entry["warning"] = HTTP_WARNING
    return entry


SPEC = ToolSpec(
    name="fetch_content",
    title="Fetch Page Content",
    description=("Read web pages as clean Markdown of their main content (navigation, ads and "
                 "boilerplate removed). Long pages come in parts: the output says which start_index "
                 "reads on; query or outline read only what is needed. Invalid or unreachable URLs "
                 "are listed with the reason; the others are read."),
    input_schema=INPUT_SCHEMA,
    output_schema=OUTPUT_SCHEMA,
    run=run,
)
