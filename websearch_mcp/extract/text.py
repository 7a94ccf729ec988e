"""Text measures that ignore the indentation pages are full of: visible length and link density (and
the host a link names)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from lxml import etree

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement


# An element's text (its descendants' text, not its tail), as text_content() gives it, in a third less
# time: the serialiser's text mode rather than an XPath evaluation. It runs for every paragraph.
text_of: Callable[[HtmlElement], str] = partial(etree.tostring, method="text", encoding="unicode", with_tail=False)


def inside(root: HtmlElement, *tags: str) -> set[HtmlElement]:
    """Every element below an element of these tags under root (a code block's highlighted spans)."""
    return {element for block in root.iter(*tags) for element in block.iterdescendants()}


# What a sentence ends with (a closing quote or bracket after its stop included), in the scripts read most:
# Latin, Chinese and Japanese, the danda of Hindi and Bengali, Arabic's and Urdu's stops, Armenian's,
# Amharic's and Burmese's.
SENTENCE_STOPS = (".", "!", "?", "…", "。", "！", "？", "．", "\"", "”", "»", ")", "।", "॥", "؟", "۔", "։", "።", "။")
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def ends_a_sentence(text: str) -> bool:
    """Whether a text ends as a sentence does."""
    return text.rstrip().endswith(SENTENCE_STOPS)


def innermost(element: HtmlElement) -> HtmlElement:
    """The block inside an element's wrappers of one child each (a table's one row, a box's one box)."""
    while len(element) == 1 and isinstance(element[0].tag, str):
        element = element[0]
    return element


def in_its_wrappers(element: HtmlElement) -> HtmlElement:
    """An element with the wrappers above it that hold nothing else (up to <body>, not included)."""
    while (parent := element.getparent()) is not None and parent.tag not in ("body", "html") and len(parent) == 1:
        element = parent
    return element


def visible_length(text: str) -> int:
    """Characters of a text that are not spaces, tabs or line breaks."""
    return len(text) - text.count(" ") - text.count("\n") - text.count("\t") - text.count("\r")


def linked_length(element: HtmlElement, anchors: bool = True) -> int:
    """Visible characters of an element's text that sit inside links (or only those that leave the page)."""
    texts = [text_of(a) for a in element.iter("a") if anchors or not (a.get("href") or "").startswith("#")]
    return visible_length("".join(texts)) if texts else 0  # one count for all the links: the same sum


def link_density(element: HtmlElement, text: str | None = None, anchors: bool = True) -> float:
    """Share of an element's visible text that sits inside links (its text may be passed in); with
    anchors False, links to a place on the same page (`#section`) do not count."""
    linked = linked_length(element, anchors)
    if not linked:  # most paragraphs: no need to measure the text
        return 0.0
    size = visible_length(text_of(element) if text is None else text)
    return min(1.0, linked / size) if size else 0.0


def host_of(url: str) -> str:
    """The host a URL or link names, lower-case and without "www." ("" for a relative link)."""
    from urllib.parse import urlsplit

    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""
    return host[4:] if host.startswith("www.") else host
