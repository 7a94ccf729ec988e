"""PDF documents as Markdown for a model: text in reading order, headings, rejoined paragraphs, page
markers, metadata, and clear errors for PDFs that cannot be read.

The PDF library (pypdfium2, the `pdf` extra) is imported only when `read_pdf` is called.
"""

from __future__ import annotations

import time

from websearch_mcp.errors import ToolError
from websearch_mcp.pdf.layout import PAGE_MARKER, Line, Styles, assemble, first_heading, page_markdown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["PAGE_MARKER", "PdfDamaged", "PdfEncrypted", "PdfError", "PdfImageOnly", "PdfNotInstalled", "PdfText",
           "read_pdf"]

NOT_INSTALLED = ("PDF support is not installed on this server (its pdf extra; whoever runs the server can add it "
                 "with: {command})")
ENCRYPTED = ("the PDF is encrypted and cannot be opened without its password, so its text cannot be read; "
             "look for another copy of the document, such as an HTML version")
IMAGE_ONLY = ("the PDF has no text layer ({pages}, images only: a scan or a drawing), and this server does no "
              "OCR; look for an HTML or text version of the document")
NOT_PDF = "the response is not a PDF: it does not begin with %PDF-"
TRUNCATED = ("the PDF is truncated (it has no end-of-file marker) and could not be opened; the download was "
             "probably cut short: try again, or look for another copy")
DAMAGED = "the PDF is damaged and could not be opened ({detail}); look for another copy of the document"
BUSY = "another PDF was being read for the whole time limit ({limit:g} s); try again"
NOT_READ_PAGES = "_This PDF has {count} pages; pages {first}–{count} were not read ({reason})._"
NOT_READ_PAGE = "_This PDF has {count} pages; page {count} was not read ({reason})._"
PAGE_LIMIT = "at most {limit} pages of a PDF are read"
TIME_LIMIT = "reading stopped at the {limit:g}-second time limit"
UNREADABLE = "_Page{s} {pages} could not be read (damaged)._"
_JUNK_TITLE = ("untitled", "microsoft word", "powerpoint presentation", "slide 1")
_FILE_SUFFIXES = (".doc", ".docx", ".pdf", ".tex", ".dvi", ".ppt", ".pptx", ".xls", ".xlsx", ".rtf", ".txt", ".odt",
                  ".indd", ".qxd")


class PdfError(ToolError):
    """A PDF could not be read; the message says why and what to do instead."""


class PdfNotInstalled(PdfError):
    """The optional PDF library is missing; the message names the extra that installs it."""


class PdfEncrypted(PdfError):
    """The PDF needs a password that is not the empty one."""


class PdfImageOnly(PdfError):
    """The PDF's pages carry no text, only images; no OCR is attempted."""


class PdfDamaged(PdfError):
    """The body is not a PDF, or a truncated or corrupt one that cannot be opened."""


class PdfText:
    """A PDF read as Markdown, with where each page begins in it."""

    __slots__ = ("author", "markdown", "page_count", "page_starts", "pages_read", "title")

    def __init__(self, title: str, author: str, page_count: int, pages_read: int, markdown: str,
                 page_starts: list[int]) -> None:
        self.title = title
        self.author = author
        self.page_count = page_count
        self.pages_read = pages_read
        self.markdown = markdown
        self.page_starts = page_starts  # page_starts[i]: offset of page i + 1 (at its marker line)

    def page_at(self, offset: int) -> int:
        """The page number (from 1) that the character at `offset` of the Markdown belongs to."""
        return max(1, sum(1 for start in self.page_starts if start <= offset))

    def metadata(self) -> dict[str, Any]:
        """Author and page counts for a document's metadata (empty values left out)."""
        found: dict[str, Any] = {"author": self.author, "pages": self.page_count, "pages_read": self.pages_read}
        return {key: value for key, value in found.items() if value}


def read_pdf(data: bytes, *, max_pages: int = 200, time_limit: float = 20.0) -> PdfText:
    """Read a PDF's text as Markdown: at most `max_pages` pages, stopping between pages after `time_limit` s."""
    started = time.monotonic()
    backend = _backend()
    _check_header(data)
    if not backend.LOCK.acquire(timeout=time_limit):
        raise PdfError(BUSY.format(limit=time_limit))
    try:
        document = _open(backend, data)
        try:
            return _read(backend, document, started, max_pages, time_limit)
        finally:
            document.close()
    finally:
        backend.LOCK.release()


def _backend() -> Any:
    try:
        from websearch_mcp.pdf import pdfium
    except ImportError as err:
        from websearch_mcp.install_hint import install_command

        raise PdfNotInstalled(NOT_INSTALLED.format(command=install_command("pdf"))) from err
    return pdfium


def _check_header(data: bytes) -> None:
    if b"%PDF-" not in data[:1024]:
        raise PdfDamaged(NOT_PDF)


def _open(backend: Any, data: bytes) -> Any:
    try:
        return backend.open_document(data)
    except backend.OpenFailure as err:
        if backend.needs_password(err.code):
            raise PdfEncrypted(ENCRYPTED) from err
        if b"%%EOF" not in data[-2048:]:
            raise PdfDamaged(TRUNCATED) from err
        raise PdfDamaged(DAMAGED.format(detail=err.detail)) from err


def _read(backend: Any, document: Any, started: float, max_pages: int, time_limit: float) -> PdfText:
    count = len(document)
    pages: list[list[Line]] = []
    unreadable: list[int] = []
    reason = PAGE_LIMIT.format(limit=max_pages) if count > max_pages else ""
    for index in range(min(count, max_pages)):
        if pages and time.monotonic() - started > time_limit:
            reason = TIME_LIMIT.format(limit=time_limit)
            break
        try:
            pages.append(backend.page_lines(document, index))
        except backend.PAGE_ERRORS:
            pages.append([])
            unreadable.append(index + 1)
    if not any(pages) and len(pages) == count:
        raise PdfImageOnly(IMAGE_ONLY.format(pages="1 page" if count == 1 else f"{count} pages"))
    return _render(pages, count, backend.metadata(document), _notes(count, len(pages), reason, unreadable))


def _notes(count: int, read: int, reason: str, unreadable: list[int]) -> list[str]:
    notes = []
    if unreadable:
        notes.append(UNREADABLE.format(s="s" if len(unreadable) > 1 else "", pages=", ".join(map(str, unreadable))))
    if read < count:
        template = NOT_READ_PAGE if read + 1 == count else NOT_READ_PAGES
        notes.append(template.format(count=count, first=read + 1, reason=reason))
    return notes


def _render(pages: list[list[Line]], count: int, meta: dict[str, str], notes: list[str]) -> PdfText:
    styles = Styles(pages)
    rendered = [page_markdown(page, styles) for page in pages]
    markdown, starts = assemble([text for text, _ in rendered], count)
    if notes:
        markdown += "\n\n" + "\n\n".join(notes)
    title = _title(meta.get("Title", "")) or first_heading([headings for _, headings in rendered])
    return PdfText(title, meta.get("Author", ""), count, len(pages), markdown, starts)


def _title(title: str) -> str:
    """The metadata title, unless it is empty, a file name or a word processor's placeholder."""
    lowered = title.lower()
    if lowered.startswith(_JUNK_TITLE) or lowered.endswith(_FILE_SUFFIXES) or len(title) < 2:
        return ""
    return title
