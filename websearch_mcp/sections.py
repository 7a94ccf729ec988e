"""Reading only what a question needs from a long page: its outline (the heading tree, with where
each section starts and how long it is) and its passages ranked against a query (each under its
heading path, with where it starts), so a model can read on around what it found."""

from __future__ import annotations

import re
from dataclasses import dataclass

from websearch_mcp.passages import CJK, PASSAGE_WORDS, Passage, rank

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_BLOCK = re.compile(r"\S(?:.*?)(?=\n[ \t]*\n|\Z)", re.DOTALL)


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


def outline(markdown: str) -> list[Section]:
    """The page's headings in reading order, each with its section's start and size."""
    found = [(len(m.group(1)), _plain(m.group(2)), m.start()) for m in _HEADING.finditer(markdown)]
    sections = []
    for index, (level, title, start) in enumerate(found):
        end = len(markdown)
        for later_level, _, later_start in found[index + 1:]:
            if later_level <= level:
                end = later_start
                break
        sections.append(Section(level, title, start, end - start))
    return sections


def best_passages(markdown: str, query: str, max_chars: int) -> list[Found]:
    """The passages of a page most relevant to the query, best first, within `max_chars` in all."""
    pieces = _passages(markdown)
    ranked = rank([passage for passage, _, _ in pieces], query)
    where = {id(passage): (start, path) for passage, start, path in pieces}
    chosen: list[Found] = []
    used = 0
    for passage in ranked:
        if passage.score <= 0:
            break
        if used + len(passage.text) > max_chars:
            continue
        start, path = where[id(passage)]
        chosen.append(Found(passage.text, path, start, passage.score))
        used += len(passage.text)
    return chosen


def passage_count(markdown: str) -> int:
    """How many passages the page has."""
    return len(_passages(markdown))


def _passages(markdown: str) -> list[tuple[Passage, int, list[str]]]:
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
            pieces.append((Passage(0, len(pieces), "\n\n".join(current)), start, current_path))

    for block in _BLOCK.finditer(markdown):
        text = block.group(0).rstrip()
        heading = _HEADING.fullmatch(text)
        count = max(len(text.split()), len(CJK.findall(text)) // 2)
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
    """A heading's text without Markdown links and emphasis."""
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)
    return re.sub(r"[*_`]+", "", title).strip()
