"""PDFium (pypdfium2) access: open a document, read its metadata, and read each page's lines with
their font size, boldness and position. Imported only when a PDF is read."""

from __future__ import annotations

import ctypes
import re
import threading
from statistics import median

import pypdfium2
import pypdfium2.raw as raw

from websearch_mcp.pdf.layout import Line, clean

LOCK = threading.Lock()  # PDFium is not thread-safe: one document at a time in this process
ERR_PASSWORD, ERR_SECURITY = 4, 6  # FPDF_ERR_PASSWORD, FPDF_ERR_SECURITY
SAMPLES = 6  # characters per line whose font is looked at
PAGE_ERRORS = (pypdfium2.PdfiumError,)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|cmbx|\bbx", re.IGNORECASE)


class OpenFailure(Exception):
    """PDFium could not open the document; `code` is its error code (4: password, 3: format)."""

    def __init__(self, code: int | None, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


def open_document(data: bytes) -> pypdfium2.PdfDocument:
    """The document, opened with an empty password; OpenFailure when PDFium refuses it."""
    try:
        return pypdfium2.PdfDocument(data)
    except pypdfium2.PdfiumError as err:
        raise OpenFailure(err.err_code, str(err)) from err


def needs_password(code: int | None) -> bool:
    """Whether an open failure means the document is encrypted."""
    return code in (ERR_PASSWORD, ERR_SECURITY)


def metadata(document: pypdfium2.PdfDocument) -> dict[str, str]:
    """Title, Author and the other Info fields that are set, cleaned."""
    return {key: clean(value) for key, value in document.get_metadata_dict(skip_empty=True).items()}


def page_lines(document: pypdfium2.PdfDocument, index: int) -> list[Line]:
    """The lines of one page in PDFium's reading order."""
    page = document[index]
    try:
        textpage = page.get_textpage()
        try:
            return _lines(textpage)
        finally:
            textpage.close()
    finally:
        page.close()


def _lines(textpage: pypdfium2.PdfTextPage) -> list[Line]:
    text = textpage.get_text_range()
    lines, start = [], 0
    for match in [*_LINE_BREAK.finditer(text), None]:
        end = match.start() if match else len(text)
        line = _line(textpage.raw, text, start, end)
        if line is not None:
            lines.append(line)
        start = match.end() if match else end
    return lines


def _line(handle: object, text: str, start: int, end: int) -> Line | None:
    """A Line for text[start:end], its type taken from a few of its characters."""
    positions = [i for i in range(start, end) if not text[i].isspace()]
    if not positions:
        return None
    step = max(1, len(positions) // SAMPLES)
    samples = [c for c in (_char_index(handle, text, p) for p in positions[::step][:SAMPLES]) if c is not None]
    first, last = _char_index(handle, text, positions[0]), _char_index(handle, text, positions[-1])
    if not samples or first is None or last is None:
        return Line(clean(text[start:end]), 0.0, False, 0.0, 0.0, 0.0, 0.0)
    left, y_start = _origin(handle, first)
    right, y_end = _box_right(handle, last), _origin(handle, last)[1]
    size = median(raw.FPDFText_GetFontSize(handle, c) for c in samples)
    bold = all(_is_bold(handle, c) for c in samples)
    return Line(clean(text[start:end]), size, bold, left, right, y_start, y_end)


def _char_index(handle: object, text: str, position: int) -> int | None:
    """The character index of text[position], checked against the character itself."""
    index = raw.FPDFText_GetCharIndexFromTextIndex(handle, position)
    if index < 0:
        return None
    code = raw.FPDFText_GetUnicode(handle, index)
    return index if code == ord(text[position]) or text[position] == "\ufffe" else None


def _origin(handle: object, index: int) -> tuple[float, float]:
    x, y = ctypes.c_double(), ctypes.c_double()
    raw.FPDFText_GetCharOrigin(handle, index, x, y)
    return x.value, y.value


def _box_right(handle: object, index: int) -> float:
    left, right, bottom, top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    raw.FPDFText_GetCharBox(handle, index, left, right, bottom, top)
    return right.value


def _is_bold(handle: object, index: int) -> bool:
    buffer = ctypes.create_string_buffer(96)
    flags = ctypes.c_int()
    raw.FPDFText_GetFontInfo(handle, index, buffer, len(buffer), flags)
    return bool(_BOLD_NAME.search(buffer.value.decode("latin-1"))) or raw.FPDFText_GetFontWeight(handle, index) >= 600
