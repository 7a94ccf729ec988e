"""Pages that are themselves an error ("page not found") or a parked domain: their content is the
message, not the footer or the list of other stories around it."""

from __future__ import annotations

import re

from websearch_mcp.extract.text import link_density, text_of, visible_length

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

# A <title> that says the page is an error, or is only a domain name (a parked domain's).
ERROR_TITLE = re.compile(r"^\s*(?:error\s*)?404\b|\b(?:page|content|file)\s+(?:was\s+)?not\s+found\b|"
                         r"^\s*(?:404\s+)?not\s+found\s*$|^\s*[\w-]+(?:\.[\w-]+)+\s*$", re.IGNORECASE)
_BARE_DOMAIN = re.compile(r"^\s*[\w-]+(?:\.[\w-]+)+\s*$")
# What the message says: the page cannot be found, or the domain is for sale.
ERROR_MESSAGE = re.compile(r"\b(?:could(?:n['’]t| not) (?:find|locate)|(?:does not|doesn['’]t|no longer) exists?|"
                           r"(?:page|content|file)\b[^.]{0,40}\bnot (?:be )?found|is (?:no longer|not) available|"
                           r"page you (?:are|were) looking for|(?:may|might) be for sale|is for sale)\b", re.IGNORECASE)
_PARKED = re.compile(r"\bdomain\b[^.]{0,40}\bfor sale\b", re.IGNORECASE)
MESSAGE_TEXT = 600  # characters: a block this long is more than a message
MESSAGE_BLOCK = 300  # visible characters: the message's block grows up to this (its heading, "back to home")
_INLINE = frozenset({"a", "b", "strong", "i", "em", "span", "font", "u", "small", "big", "sup", "sub", "mark"})


def is_error_title(title: str) -> bool:
    """Whether a page's <title> says it is an error page, or is a bare domain name."""
    return bool(ERROR_TITLE.search(title))


def says_error(text: str, title: str) -> bool:
    """Whether a text holds the error (or parked-domain) message."""
    if _BARE_DOMAIN.match(title):  # a domain name for a title: only a parked domain's notice counts
        return bool(_PARKED.search(text))
    return bool(ERROR_MESSAGE.search(text))


def message_block(tree: HtmlElement, title: str) -> HtmlElement | None:
    """The block that holds an error page's message, with the heading and links beside it."""
    body = tree.find("body")
    if body is None:
        return None
    found = next((e for e in body.iterdescendants() if isinstance(e.tag, str) and _holds_message(e, title)), None)
    if found is None:
        return None
    while True:  # the first match is the outermost short block: go down to where the message is
        inner = next((child for child in found if isinstance(child.tag, str) and _holds_message(child, title)), None)
        if inner is None:
            break
        found = inner
    while found.tag in _INLINE and found.getparent() is not None and found.getparent() is not body:
        found = found.getparent()
    parent = found.getparent()
    while (parent is not None and parent is not body and visible_length(text_of(parent)) <= MESSAGE_BLOCK
           and link_density(parent) < 0.5):
        found, parent = parent, parent.getparent()
    return found


_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "title"})
_HEADING_LINE = re.compile(r"^#+ .*$", re.MULTILINE)


def holds_message(markdown: str, title: str) -> bool:
    """Whether Markdown starts with the message (a heading that repeats "Page not found" is not one)."""
    return says_error(_HEADING_LINE.sub("", markdown)[:MESSAGE_TEXT], title)


def _holds_message(element: HtmlElement, title: str) -> bool:
    if element.tag in _HEADINGS:
        return False
    text = text_of(element)
    return len(text) <= MESSAGE_TEXT and says_error(text, title)
