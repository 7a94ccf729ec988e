"""Reading only what a question needs from a long page: its outline (the heading tree, with where
each section starts and how long it is) and its passages ranked against a query (each under its
heading path, with where it starts), so a model can read on around what it found.

Every step is linear in the page's size: a hostile page (a heading of 64 KB of ` #`, link syntax
repeated, hundreds of thousands of headings) costs what its length costs, never its square.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from websearch_mcp.passages import PASSAGE_WORDS, Passage, cjk_count, rank

HEADING_WEIGHT = 3  # a passage's own heading counts this many times over the text's words

# A heading line; its closing #s and spaces are stripped in Python (a regex that did it backtracked
# quadratically on a long run of them).
_HEADING = re.compile(r"^(#{1,6})[ \t]+([^\n]*)$", re.MULTILINE)
_BLOCK = re.compile(r"\S(?:.*?)(?=\n[ \t]*\n|\Z)", re.DOTALL)
_LINK = re.compile(r"\[([^\[\]\n]{0,300})\]\([^()\s]{0,2000}\)")
TITLE_CHARS = 200  # longest heading text kept in an outline or a heading path


@dataclass
class Section:
    """One heading of a page and the text under it (up to the next heading of its level or above)."""

    level: int
    title: str
    start_index: int
    chars: int

    def row(self) -> dict[str, object]:
        """As structured output."""
        return {"level": self.level, "title": self.title, "start_index": self.start_index, "chars": self.chars}


@dataclass
class Found:
    """A passage that answers the query: its text, heading path, and where it starts in the page."""

    text: str
    heading_path: list[str]
    start_index: int
    score: float

    def row(self) -> dict[str, object]:
        """As structured output."""
        return {"text": self.text, "heading_path": self.heading_path, "start_index": self.start_index,
                "score": round(self.score, 4)}


def headings(markdown: str) -> list[tuple[int, str, int]]:
    """(level, plain title, start) of each heading, in reading order."""
    return [(len(m.group(1)), _plain(m.group(2)), m.start()) for m in _HEADING.finditer(markdown)
            if m.group(2).strip(" \t#")]


def outline(markdown: str) -> list[Section]:
    """The page's headings in reading order, each with its section's start and size (one pass with a
    stack of the sections still open)."""
    found = headings(markdown)
    sections = [Section(level, title, start, 0) for level, title, start in found]
    open_sections: list[Section] = []
    for section in sections:
        while open_sections and open_sections[-1].level >= section.level:
            closed = open_sections.pop()
            closed.chars = section.start_index - closed.start_index
        open_sections.append(section)
    for section in open_sections:
        section.chars = len(markdown) - section.start_index
    return sections


def best_passages(markdown: str, query: str, max_chars: int, language: str = "") -> list[Found]:
    """The passages of a page most relevant to the query, best first, within `max_chars` in all (each
    passage's text and heading path counted)."""
    pieces = _passages(markdown, language)
    ranked = _titled_first(pieces, query, rank([passage for passage, _, _ in pieces], query))
    where = {id(passage): (start, path) for passage, start, path in pieces}
    chosen: list[Found] = []
    used = 0
    for passage in ranked:
        if passage.score <= 0:
            break
        start, path = where[id(passage)]
        cost = len(passage.text) + sum(len(title) + 3 for title in path) + 30
        if used + cost > max_chars:
            continue
        chosen.append(Found(passage.text, path, start, passage.score))
        used += cost
    return chosen


def _titled_first(pieces: list[tuple[Passage, int, list[str]]], query: str, ranked: list[Passage]) -> list[Passage]:
    """The ranking with the opening passage of each section titled as the query asks (word for word,
    inflections aside) moved to the front, in page order: a model asking for a section by its title
    gets that section first."""
    from websearch_mcp.passages import terms

    wanted = terms(query)
    if not wanted:
        return ranked
    openers: list[Passage] = []
    previous: list[str] | None = None
    for passage, _, path in pieces:
        if path and path is not previous and terms(path[-1]) == wanted:
            openers.append(passage)
        previous = path
    if not openers:
        return ranked
    for passage in openers:
        passage.score = max(passage.score, ranked[0].score if ranked else 0.0, 1e-6)
    chosen = {id(p) for p in openers}
    return openers + [p for p in ranked if id(p) not in chosen]


def passage_count(markdown: str) -> int:
    """How many passages the page has."""
    return len(_passages(markdown, ""))


def _passages(markdown: str, language: str) -> list[tuple[Passage, int, list[str]]]:
    """Consecutive blocks joined into passages of about PASSAGE_WORDS words, each with its start and
    the headings it sits under; a heading opens a new passage."""
    pieces: list[tuple[Passage, int, list[str]]] = []
    path: list[tuple[int, str]] = []
    current: list[str] = []
    start = 0
    words = 0
    current_path: list[str] = []

    def flush() -> None:
        if current:
            # its own heading weighs most; the headings above it count once
            heading = " ".join([*current_path[:-1], *current_path[-1:] * HEADING_WEIGHT])
            pieces.append((Passage(0, len(pieces), "\n\n".join(current), language, heading), start, current_path))

    for block in _BLOCK.finditer(markdown):
        text = block.group(0).rstrip()
        heading = _HEADING.fullmatch(text) if text.startswith("#") else None
        count = max(len(text.split()), cjk_count(text) // 2)
        if heading:
            flush()
            current, words = [], 0
            level = len(heading.group(1))
            path = [(lvl, title) for lvl, title in path if lvl < level] + [(level, _plain(heading.group(2)))]
            continue
        if current and words + count > PASSAGE_WORDS:
            flush()
            current, words = [], 0
        if not current:
            start = block.start()
            current_path = [title for _, title in path]
        current.append(text)
        words += count
    flush()
    return pieces


def _plain(title: str) -> str:
    """A heading's text without its closing #s, Markdown links and emphasis, at most TITLE_CHARS long."""
    title = title[:TITLE_CHARS * 4].rstrip(" \t#")
    title = _LINK.sub(r"\1", title)
    title = re.sub(r"[*_`]+", "", title).strip()
    return title if len(title) <= TITLE_CHARS else title[:TITLE_CHARS - 1].rstrip() + "…"
