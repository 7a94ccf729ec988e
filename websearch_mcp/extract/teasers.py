"""Blocks that list other pages: teaser grids (cards alike, each a linked title and a line) and lists
the page marks as related. Chosen beside an article, they are not more of it."""

from __future__ import annotations

import re
from collections import Counter

from websearch_mcp.extract.replies import RELATED_MARK
from websearch_mcp.extract.text import host_of, innermost

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

TEASERS = 3  # repeated cards that make a teaser grid (the box's own heading aside)
TEASER_TEXT = 300  # characters: a card holding more is an entry of its own (a ticker, a slideshow)
_HEADINGS = frozenset({"h2", "h3", "h4"})
_CARD_HEADINGS = ("h2", "h3", "h4", "h5")


def lists_other_pages(element: HtmlElement) -> bool:
    """A teaser grid, or a list of the site's other pages known by its title (a block chosen beside the
    article that is not more of it)."""
    element = innermost(element)  # a table's one row, a wrapper's one box
    return marked_other_pages(element) or is_teaser_grid(element)


ITEM_TEXT = 400  # characters of an entry of a list of the site's items (a product, a class, an event)
ITEM_TITLE = 100  # characters of its linked title
ITEMS_SHARE = 0.75  # of the list's text held by its entries


def lists_items(element: HtmlElement) -> bool:
    """A list of the site's items, each an entry of its own page: three or more blocks alike, each a short
    text with a linked title (a product with its description and price, a class with its date, an event),
    holding most of the block's text. Beside an article, they are the shop or the calendar, not more of it."""
    element = _under_title(element)
    if len(element) < TEASERS:
        return False
    groups: dict[str, list[HtmlElement]] = {}
    for child in element:
        if isinstance(child.tag, str) and child.tag not in _HEADINGS:
            groups.setdefault(card_signature(child), []).append(child)
    entries = max(groups.values(), key=len, default=[])
    if len(entries) < TEASERS:
        return False
    targets, held = set(), 0
    for entry in entries:
        text = entry.text_content()
        link = next((a for a in entry.iter("a") if not (a.get("href") or "#").startswith("#")
                     and 3 <= len(a.text_content().strip()) <= ITEM_TITLE), None)
        if len(text) > ITEM_TEXT or link is None:
            return False
        targets.add(link.get("href"))
        held += len(text.strip())
    return len(targets) == len(entries) and held >= ITEMS_SHARE * len(element.text_content().strip())


def _under_title(element: HtmlElement) -> HtmlElement:
    """The block inside a wrapper of one child, or of a title and one child ("Products for this article"
    over its list)."""
    while True:
        children = [child for child in element if isinstance(child.tag, str)]
        if len(children) == 2 and _is_title(children[0]):
            element = children[1]
        elif len(children) == 1 and len(element) == 1:
            element = children[0]
        else:
            return element


TITLE_TEXT = 80  # characters of a list's title


def _is_title(element: HtmlElement) -> bool:
    """A heading, or a block holding a short heading and nothing more (`<div class="summary-header"><h3>`)."""
    if element.tag in _HEADINGS:
        return True
    return next(element.iter(*_HEADINGS), None) is not None and len(element.text_content()) <= TITLE_TEXT


def marked_other_pages(element: HtmlElement) -> bool:
    """A block the page titles as related stories (marked when its title was read)."""
    return RELATED_MARK in (element.get("class") or "")


def is_teaser_grid(element: HtmlElement) -> bool:
    """Three or more cards alike (the box's own heading aside), each a heading that links elsewhere and
    a line of teaser text: a list of related stories, whatever share of the page's text it holds."""
    if len(element) < TEASERS:  # most elements: no need to list the children
        return False
    cards = [child for child in element if isinstance(child.tag, str) and child.tag not in _HEADINGS]
    if len(cards) < TEASERS:
        return False
    signature = card_signature(cards[0])
    if sum(1 for card in cards if card_signature(card) == signature) < TEASERS:
        return False
    headed, titled = 0, []
    for card in cards:  # the cheap tests first: most cards of most pages fail them
        heading = next(card.iter(*_CARD_HEADINGS), None)
        if heading is not None:
            headed += _heading_links(heading, card) and len(card.text_content()) <= TEASER_TEXT
        elif starts_with_link(card) and len(card.text_content()) <= TEASER_TEXT and _opens_with_linked_title(card):
            titled.append(card)
    teasers = headed + (len(titled) if titled and _one_site(titled) else 0)
    return teasers >= TEASERS and teasers * 4 >= len(cards) * 3


def _heading_links(heading: HtmlElement, card: HtmlElement) -> bool:
    """Whether a card's heading links to another page, or sits in the link (a card linked as a whole:
    `<a><img><h3>Title</h3></a>`)."""
    if heading.find(".//a[@href]") is not None:
        return True
    for ancestor in heading.iterancestors():
        if ancestor.tag == "a" and ancestor.get("href"):
            return True
        if ancestor is card:
            return False
    return False


def _opens_with_linked_title(card: HtmlElement) -> bool:
    """A card without a heading that opens with a link (picture and bold title) and has a line after
    it, in a table's cell (an old news layout's row of related stories) or on a line of its own."""
    return _text_after_link(card) and (card.tag == "td" or _title_on_its_own_line(card))


def _one_site(cards: list[HtmlElement]) -> bool:
    """Whether most cards link to one site (the page's own: its other stories), not each to a site of
    its own (a directory of clinics, a list of sources)."""
    hosts = Counter(host_of(next(card.iter("a")).get("href") or "") for card in cards)
    return 4 * hosts.most_common(1)[0][1] >= 3 * len(cards)


def _text_after_link(card: HtmlElement) -> bool:
    link = next(card.iter("a"))
    return len(card.text_content().strip()) > len(link.text_content().strip())


def _title_on_its_own_line(card: HtmlElement) -> bool:
    """A card that opens with a linked title and a line break (`<a><b>Title</b></a><br>A line`), a block,
    or a span its class calls a summary (`<span class="relSummary">`): a teaser, where a paragraph that
    opens with a link runs on after it."""
    link = next(card.iter("a"))
    after = link.getnext()
    if after is None or (link.tail or "").strip():
        return False
    return after.tag in _LINE_AFTER or (after.tag == "span" and _SUMMARY.search(after.get("class") or "") is not None)


_LINE_AFTER = frozenset({"br", "p", "div"})
_SUMMARY = re.compile(r"summary|excerpt|teaser|snippet|desc|anons|intro|lead", re.IGNORECASE)


def card_signature(element: HtmlElement) -> str:
    """What makes blocks alike: their tag and first class."""
    words = (element.get("class") or "").split(None, 1)  # (old Reddit's classes open with a space)
    return f"{element.tag} {words[0] if words else ''}"


def starts_with_link(item: HtmlElement) -> bool:
    """A list item whose first content is a link to another page (a headline with its blurb)."""
    if (item.text or "").strip():
        return False
    first = item[0] if len(item) else None
    while first is not None and first.tag in ("h2", "h3", "h4", "h5", "strong", "b", "span", "div") \
            and not (first.text or "").strip() and len(first):
        first = first[0]
    return first is not None and first.tag == "a" and not (first.get("href") or "#").startswith("#")
