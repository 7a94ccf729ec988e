"""What to read of a page: the one path for every tool that reads. A part of a page from a
start_index, its outline, the passages of one page that answer a query (fetch_content), and the
passages of several pages ranked together for a question, each text once (search_context,
crawl_site). The pages themselves come from the reader (services/pages.py)."""

from __future__ import annotations

import re
from typing import Any

from websearch_mcp.content import Document
from websearch_mcp.passages import Passage, pack, rank, split_passages

_HEADING = re.compile(r"^(#{1,6}) ", re.MULTILINE)
HEADING_SHIFT = 3  # a tool's own headings are ## and ###: a page's # becomes ####


def page_part(document: Document, start: int, max_chars: int) -> dict[str, Any]:
    """The part of a document from `start`, at most `max_chars` long, ending between paragraphs when
    one is near (and never just after a heading); with where the next part starts."""
    markdown = document.markdown
    total = len(markdown)
    end = min(total, start + max_chars)
    if end < total:
        for boundary in ("\n\n", "\n"):
            cut = markdown.rfind(boundary, start + max_chars // 2, end)
            if cut > start:
                end = cut + len(boundary)
                break
        heading = markdown.rfind("\n#", start, end)
        if heading > start and not markdown[heading:end].strip("\n").count("\n"):
            end = heading + 1  # a heading belongs with the text under it, in the next part
    part = markdown[start:end] if start < total else ""
    return {
        "url": document.url, "title": document.title, "content": part, "start_index": start,
        "end_index": max(start, end), "total_chars": total, "next_start_index": end if end < total else None,
        "word_count": document.word_count, "fetch_time_ms": int(document.fetch_time_ms),
        "metadata": document.metadata,
    }


def content_summary(document: Document, max_chars: int) -> dict[str, Any]:
    """A search result's page content, as web_search with fetch_content shows it."""
    return {"markdown": document.markdown[:max_chars], "word_count": document.word_count,
            "fetch_time_ms": int(document.fetch_time_ms), "summary": document.summary(),
            "truncated": len(document.markdown) > max_chars, "title": document.title}


def outline_rows(document: Document, allowance: int) -> tuple[list[dict[str, object]], int]:
    """The page's sections (title, level, start_index, size) that fit `allowance` characters of
    answer, and how many more there are."""
    from websearch_mcp import sections

    rows = [s.row() for s in sections.outline(document.markdown)]
    kept: list[dict[str, object]] = []
    used = 0
    for row in rows:
        used += len(str(row["title"])) * 2 + 120  # its line in the text and its row in structuredContent
        if used > allowance:
            break
        kept.append(row)
    return kept, len(rows) - len(kept)


def page_passages(document: Document, query: str, allowance: int) -> tuple[list[dict[str, object]], int]:
    """The passages of one page that answer the query, best first, within `allowance` characters (each
    under its heading path, with its start_index), and how many passages the page has."""
    from websearch_mcp import sections

    language = str(document.metadata.get("language") or "")
    found = sections.best_passages(document.markdown, query, allowance, language)
    return [f.row() for f in found], sections.passage_count(document.markdown)


def demote_headings(markdown: str) -> str:
    """A page's headings moved below the tool's own (## Context, ### Sources)."""
    return _HEADING.sub(lambda m: "#" * min(6, len(m.group(1)) + HEADING_SHIFT) + " ", markdown)


def ranked_passages(pages: list[tuple[int, str]], question: str, max_tokens: int) -> list[Passage]:
    """The passages of several pages (source number, Markdown) that answer the question best, within
    `max_tokens`, back in reading order. A text that several pages share (a mirror, the same notice on
    every page of a site) counts once, under the first source that has it."""
    seen: set[str] = set()
    passages: list[Passage] = []
    for number, markdown in pages:
        for passage in split_passages(number, demote_headings(markdown)):
            key = " ".join(passage.text.lower().split())
            if key not in seen:
                seen.add(key)
                passages.append(passage)
    return pack([p for p in rank(passages, question) if p.score > 0], max_tokens)
