"""Reading pages as Markdown documents: fetched in parallel, converted by content type (rendered when
they are built by scripts). What to read of each page is services/reading.py's part."""

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
