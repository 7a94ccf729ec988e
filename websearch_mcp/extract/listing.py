"""Pages that are lists of other pages: a news front page, a shop's category, a chart, an index.

The rules that choose the content keep a list of other pages from winning while a block of prose can:
beside an article, a "most read" box is furniture. A page that is itself such a list has no article,
and what wins there is a line (a job title under one story, a banner, a sister project's box) while
the list is the content. When what was found is that short, is not the body under the page's title,
and the page's content area is mostly links to titled entries, the area is the content.
"""

from __future__ import annotations

import itertools

from websearch_mcp.extract.clean import outermost
from websearch_mcp.extract.intro import soon_below_title
from websearch_mcp.extract.main_content import FURNITURE_TAGS
from websearch_mcp.extract.spread import content_area
from websearch_mcp.extract.text import link_density, linked_length, text_of, visible_length

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

LISTING_SHORT = 600  # characters shown (link targets aside): a longer output is an article or a card's text
LISTING_GAIN = 4.0  # the list shows this many times as much
LISTING_LEAST = 400  # and at least this many characters
ENTRIES = 10  # titled entries (distinct link targets) that make a list of pages
ENTRY_TITLE = 20  # visible characters of a link's text that make it an entry's title (not "More", not a tag)
LINKED = 0.6  # share of the area's text in links: a page of entries, not prose with links in it
ENTRY_LINKED = 0.5  # share of a block's text in links that makes it an entry, not a body


def may_be_listing(tree: HtmlElement, found: list[HtmlElement], article: bool = False) -> bool:
    """Whether the page may be a list of other pages, read before pruning changes its tree: it has links
    enough, and the block found is not the body under the page's title (or, if it is, an entry of a
    list itself, or, on a page that does not say it is an article, a hero's line above a list whose own
    text outweighs it)."""
    if not _may_list(tree):
        return False
    if not found or not soon_below_title(found[0]) or _is_entry(found[0]):
        return True
    return not article and _a_line_above_entries(tree, found)


HERO_TEXT = 600  # visible characters of the block under the title: more make an article, not a hero's line
HERO_OUTWEIGHED = 2.5  # the content area's unlinked text is this many times the block's


def _a_line_above_entries(tree: HtmlElement, found: list[HtmlElement]) -> bool:
    """Whether the block under the page's title is a short line (a category's blurb, a hero's slogan)
    in a content area whose own text, links aside, is many times its own (the prices and notes of the
    entries listed below it): a short article beside a sidebar of links has most of its area's text."""
    block = sum(_unlinked_length(element) for element in found)
    if block > HERO_TEXT:
        return False
    area = content_area(tree)
    if area is None:
        return False
    furniture = outermost(list(area.iter(*FURNITURE_TAGS)))
    own = _unlinked_length(area) - sum(_unlinked_length(element) for element in furniture)
    return own >= HERO_OUTWEIGHED * max(block, 1)


def _unlinked_length(element: HtmlElement) -> int:
    """Visible characters of an element's text outside links."""
    return visible_length(text_of(element)) - linked_length(element)


def _may_list(tree: HtmlElement) -> bool:
    """Whether the page has links enough anywhere to hold a list of other pages (ENTRIES of them, looked
    for until found: without them, no part of the page is parsed again to be read as a list)."""
    links = (link for link in tree.iter("a") if link.get("href"))
    return next(itertools.islice(links, ENTRIES - 1, None), None) is not None


def is_listing(area: HtmlElement) -> bool:
    """Whether the content area is a list of other pages: ENTRIES titled links or more, and most of its
    text in links."""
    titles: set[str] = set()
    for link in area.iter("a"):
        href = link.get("href")
        if href and href not in titles and visible_length(text_of(link)) >= ENTRY_TITLE:
            titles.add(href)
            if len(titles) >= ENTRIES:
                return link_density(area) >= LINKED
    return False


def lists_more(listing: int, found: int) -> bool:
    """Whether a list showing `listing` characters outweighs an output showing `found`."""
    return listing >= max(LISTING_LEAST, LISTING_GAIN * found)


def _is_entry(block: HtmlElement) -> bool:
    """Whether a block reads as an entry of a list rather than a page's body: most of its text linked
    (a linked title and teaser, an author's line beside them)."""
    return link_density(block) >= ENTRY_LINKED
