"""Lines of a PDF page (text, font size, boldness, position) to Markdown: headings, paragraphs,
hyphenation and page markers. Pure Python; knows nothing of the PDF library."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from statistics import median

PAGE_MARKER = "<!-- page {number} of {count} -->"
LIGATURES = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
                           "\ufb05": "st", "\ufb06": "st"})
SOFT_BREAK = "\ufffe"  # PDFium's mark for a hyphen at a line end whose two lines it has joined
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ufeff\ufffd]")
_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200b]+")
_FOLIO = re.compile(r"^(page\s+)?(\d{1,4}|[ivxlc]{1,6})(\s*(/|of)\s*\d{1,4})?$", re.IGNORECASE)
_BULLET = re.compile(r"^([•◦▪▫●○■□‣⁃–—*-]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s")
_BREAK_HYPHEN = re.compile(r"(\w+)(?:\ufffe|\u00ad|-)$")
_INNER_BREAK = re.compile(r"(\w+)\ufffe(\w+)")
_COMPOUND = re.compile(r"\b\w+-\w+\b")
_WORD = re.compile(r"\w+")
_TOC_ENTRY = re.compile(r"[\s.]\d{1,4}$")  # a bold line ending in a page number is a table of contents entry
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
HEADING_RATIO = 1.08  # a line this much larger than the body text is a heading (12 pt over 11 pt)
PLAIN_HEADING_RATIO = 1.25  # below this, a larger line is a heading only when it is bold
MAX_HEADING_CHARS = 200


class Line:
    """One line of text as the page shows it, with its type and where it sits (points, y upwards)."""

    __slots__ = ("bold", "left", "right", "size", "text", "y_end", "y_start")

    def __init__(self, text: str, size: float, bold: bool, left: float, right: float,
                 y_start: float, y_end: float) -> None:
        self.text = text
        self.size = size
        self.bold = bold
        self.left = left
        self.right = right
        self.y_start = y_start  # baseline of the first character
        self.y_end = y_end  # baseline of the last one (lower when the line was joined at a hyphen)

    def __repr__(self) -> str:
        return f"Line({self.text!r}, {self.size:g}{', bold' if self.bold else ''})"


def clean(text: str) -> str:
    """Ligatures as letters, no control characters, single spaces."""
    return _SPACES.sub(" ", _CONTROL.sub("", text.translate(LIGATURES))).strip()


class Styles:
    """The document's body size, its heading sizes (largest first) and what the words look like."""

    def __init__(self, pages: list[list[Line]]) -> None:
        lines = [line for page in pages for line in page]
        weights: Counter[float] = Counter()
        for line in lines:
            weights[_rounded(line.size)] += len(line.text)
        self.body = weights.most_common(1)[0][0] if weights else 0.0
        total = sum(weights.values()) or 1
        self.heading_sizes = sorted((size for size, chars in weights.items()
                                     if size >= self.body * HEADING_RATIO and chars <= total * 0.3), reverse=True)[:4]
        text = "\n".join(line.text for line in lines)
        self.words = {w.lower() for w in _WORD.findall(_INNER_BREAK.sub(" ", text))}
        self.compounds = {c.lower() for c in _COMPOUND.findall(text)}

    def level(self, line: Line) -> int:
        """The heading level of a line (1 = largest), or 0 for body text."""
        if len(line.text) > MAX_HEADING_CHARS or not any(c.isalpha() for c in line.text):
            return 0
        size = _rounded(line.size)
        if size in self.heading_sizes and (line.bold or size >= self.body * PLAIN_HEADING_RATIO):
            return self.heading_sizes.index(size) + 1
        if line.bold and abs(size - self.body) < 0.6 and len(line.text) <= 100 and not _TOC_ENTRY.search(line.text):
            return len(self.heading_sizes) + 1
        return 0

    def rejoin(self, head: str, tail: str) -> str:
        """`head` ended in a hyphen at a line break: join it to `tail` as one word or keep the hyphen."""
        match = _BREAK_HYPHEN.search(head)
        if not match or not tail:
            return head + ("" if _joins_tight(head, tail) else " ") + tail
        first, rest = match.group(1), tail.split(" ", 1)[0]
        second = _WORD.match(rest)
        stem = head[:match.start(1)]
        if second is None:
            return f"{head} {tail}"
        return stem + self.word(first, second.group(0)) + tail[len(second.group(0)):]

    def word(self, first: str, second: str) -> str:
        """`first-second` split at a line end, as one word (hyphenation) or a compound (real hyphen)."""
        joined, compound = (first + second).lower(), f"{first}-{second}".lower()
        if second[0].isupper() or second[0].isdigit() or first[-1].isdigit():
            return f"{first}-{second}"
        if compound in self.compounds and joined not in self.words:
            return f"{first}-{second}"
        return first + second


def _rounded(size: float) -> float:
    return round(size * 2) / 2


def _joins_tight(head: str, tail: str) -> bool:
    return bool(head and tail and _CJK.match(head[-1]) and _CJK.match(tail[0]))


def drop_folios(page: list[Line]) -> list[Line]:
    """The page without a page number as its first or last line."""
    if page and _FOLIO.match(page[-1].text):
        page = page[:-1]
    if page and _FOLIO.match(page[0].text):
        page = page[1:]
    return page


def _line_pitch(page: list[Line], body: float) -> float:
    steps = [a.y_end - b.y_start for a, b in itertools.pairwise(page)
             if abs(a.size - body) < 0.6 and abs(b.size - body) < 0.6 and 0.8 * body < a.y_end - b.y_start < 2.5 * body]
    return median(steps) if steps else 1.2 * body


def _right_edge(line: Line, page: list[Line]) -> float:
    """Where the column of a line ends: the furthest right of the same-size lines beside it."""
    return max((other.right for other in page if other.left < line.right and other.right > line.left
                and abs(other.size - line.size) < 0.6), default=line.right)


def _ends_early(prev: Line, cur: Line, edge: float) -> bool:
    """Whether the previous line stops short of its column although the next word would have fitted."""
    room = edge - prev.right
    first_word = cur.text.split(" ", 1)[0]
    return room > (len(first_word) + 2) * 0.5 * prev.size


def breaks_paragraph(prev: Line, cur: Line, edge: float, pitch: float) -> bool:
    """Whether body line `cur` starts a new paragraph after `prev`."""
    size = prev.size
    step = prev.y_end - cur.y_start
    if abs(step) < 0.5 * size and cur.left > prev.left:
        return False  # on the same visual line: a superscript, a subscript or a piece set apart
    if _BULLET.match(cur.text):
        return True
    if step < -size or abs(cur.left - prev.left) > 10 * size:  # a new column or region: flows on when full
        return _ends_early(prev, cur, edge)
    if step > 1.45 * pitch:
        return True
    if 0.8 * size < cur.left - prev.left < 6 * size and not _BULLET.match(prev.text):
        return True  # first-line indent
    return _ends_early(prev, cur, edge)


def blocks(page: list[Line], styles: Styles) -> list[tuple[int, list[Line]]]:
    """The page's lines grouped into (heading level or 0, lines) blocks."""
    grouped: list[tuple[int, list[Line]]] = []
    pitch = _line_pitch(page, styles.body)
    edges = {id(line): _right_edge(line, page) for line in page}
    for line in page:
        level = styles.level(line)
        if grouped and _continues(grouped[-1], level, line, edges, pitch):
            grouped[-1][1].append(line)
        else:
            grouped.append((level, [line]))
    return grouped


def _continues(block: tuple[int, list[Line]], level: int, line: Line, edges: dict[int, float], pitch: float) -> bool:
    block_level, lines = block
    prev = lines[-1]
    if block_level != level:
        return False
    if level:
        return len(lines) < 3 and 0 < prev.y_end - line.y_start < 1.6 * prev.size and abs(prev.size - line.size) < 0.6
    return not breaks_paragraph(prev, line, edges[id(prev)], pitch)


def block_text(lines: list[Line], styles: Styles) -> str:
    """The lines of a block joined into one paragraph, hyphenation undone."""
    text = ""
    for line in lines:
        piece = _INNER_BREAK.sub(lambda m: styles.word(m.group(1), m.group(2)), line.text)
        text = piece if not text else styles.rejoin(text, piece)
    return text.replace(SOFT_BREAK, "-")


def render_block(level: int, text: str) -> str:
    """A block as Markdown: a heading, a list item or a paragraph."""
    if level:
        return "#" * min(level, 6) + " " + text
    bullet = _BULLET.match(text)
    if bullet and bullet.group(1) in "•◦▪▫●○■□‣⁃–—*-":
        return "- " + text[bullet.end():]
    return "\\" + text if text[:1] in "#>+=" else text


def page_markdown(page: list[Line], styles: Styles) -> tuple[str, list[tuple[int, str]]]:
    """One page as Markdown, and its headings as (level, text)."""
    parts, headings = [], []
    for level, lines in blocks(drop_folios(page), styles):
        text = block_text(lines, styles)
        if level:
            headings.append((level, text))
        parts.append(render_block(level, text))
    return "\n\n".join(parts), headings


def first_heading(headings: list[list[tuple[int, str]]]) -> str:
    """The top-level heading of the first page that has headings, else ''."""
    for page in headings:
        if page:
            return min(page, key=lambda item: item[0])[1]
    return ""


def assemble(pages: list[str], page_count: int) -> tuple[str, list[int]]:
    """Pages joined with a marker line before each page after the first; (Markdown, page start offsets)."""
    markdown, starts = "", []
    for number, text in enumerate(pages, 1):
        if number > 1:
            markdown += "\n\n"
        starts.append(len(markdown))
        if number > 1:
            markdown += PAGE_MARKER.format(number=number, count=page_count) + ("\n\n" if text else "")
        markdown += text
    return markdown, starts
