"""Helpers the engines' pure parsers share: lenient parsing, class tests, text cleaning."""

from __future__ import annotations

from typing import Any

import lxml.html
from lxml import etree

_PARSER = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True)


def parse(body: bytes) -> Any:
    """A page's tree (never raises: garbage gives an empty document)."""
    try:
        return lxml.html.document_fromstring(body or b"<html></html>", parser=_PARSER)
    except (etree.ParserError, ValueError):
        return lxml.html.document_fromstring(b"<html></html>", parser=_PARSER)


def has_class(name: str) -> str:
    """An XPath predicate: the element's class list holds `name`."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


def clean_text(text: str) -> str:
    """Runs of whitespace collapsed (entities are already decoded by the parser)."""
    return " ".join(text.split())


def text_of(element: Any) -> str:
    """An element's text, whitespace collapsed; '' for None."""
    return clean_text(element.text_content()) if element is not None else ""


def first(elements: list[Any]) -> Any:
    """The first element of a list, or None."""
    return elements[0] if elements else None


def first_match(element: Any, *xpaths: str) -> Any:
    """The first element found by the first XPath that finds any, or None (elements without children
    are falsy, so `a or b` cannot be used on them)."""
    for xpath in xpaths:
        found = element.xpath(xpath)
        if found:
            return found[0]
    return None


def strip_tags(fragment: str) -> str:
    """The text of an HTML fragment (a snippet with highlight spans)."""
    if "<" not in fragment and "&" not in fragment:
        return clean_text(fragment)
    return text_of(lxml.html.fragment_fromstring(fragment, create_parent="div"))
