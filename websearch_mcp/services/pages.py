"""Reading pages as Markdown documents: fetched in parallel, converted by content type, cut into
parts for paging."""

from __future__ import annotations

import time
from typing import Any

from websearch_mcp.call_context import ToolContext
from websearch_mcp.content import Document, to_document
from websearch_mcp.errors import ToolError
from websearch_mcp.fetch.pages import FetchedPage, LatePage, PageFetcher

TYPE_CHECKING = False
if TYPE_CHECKING:
    from websearch_mcp.services.rendering import Renderer


class PageOutcome:
    """One URL's document, or why it could not be read."""

    __slots__ = ("document", "error", "late", "url")

    def __init__(self, url: str, document: Document | None = None, error: str = "", late: bool = False) -> None:
        self.url = url
        self.document = document
        self.error = error
        self.late = late  # not read in time: it is still being read, into the page cache

    def failure(self) -> dict[str, Any]:
        """This outcome as an entry of a tool's `failed` list."""
        entry: dict[str, Any] = {"url": self.url, "error": self.error}
        if self.late:
            entry["late"] = True
        return entry


class PageReader:
    """Fetches and converts pages (rendering those built by scripts when allowed), reporting progress
    to the tool call."""

    def __init__(self, fetcher: PageFetcher, renderer: Renderer | None = None) -> None:
        self.fetcher = fetcher
        self.renderer = renderer

    def read(self, urls: list[str], context: ToolContext, render: str | None = None) -> list[PageOutcome]:
        """Each URL's outcome, in the order given; pages are fetched in parallel."""
        total = len(urls)
        if not total:
            return []
        context.report_progress(0, total, f"fetching {total} page{'s' if total != 1 else ''}")
        max_wait = None if context.wait_until is None else max(0.0, context.wait_until - time.monotonic())
        pdf_pages = self.fetcher.config.pdf_max_pages

        mode = render or self.fetcher.config.render

        def convert(page: FetchedPage) -> Document | ToolError:
            try:
                document = to_document(page, pdf_pages, _time_left(context))
                if self.renderer is not None:
                    document = self.renderer.settle(page, document, mode, context.deadline, pdf_pages)
                return document
            except ToolError as err:  # a document that cannot be converted (a damaged PDF, a shell, ...)
                return err

        read = self.fetcher.fetch_many_then(
            urls, convert, deadline=context.deadline, max_wait=max_wait, cancelled=context.cancelled.is_set,
            on_done=lambda done: context.report_progress(done, total, f"{done} of {total} pages fetched"))
        outcomes = []
        for url, made in zip(urls, read, strict=True):
            if isinstance(made, ToolError):
                outcomes.append(PageOutcome(url, error=made.message, late=isinstance(made, LatePage)))
            else:
                outcomes.append(PageOutcome(url, document=made))
        return outcomes


def _time_left(context: ToolContext) -> float:
    """Seconds a PDF may take to read: its own limit, or what is left of the call's deadline."""
    from websearch_mcp.content import PDF_TIME_LIMIT

    if context.deadline is None:
        return PDF_TIME_LIMIT
    return max(1.0, min(PDF_TIME_LIMIT, context.deadline - time.monotonic() - 1.0))


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
