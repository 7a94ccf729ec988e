"""Pages whose content is spread over many short blocks.

A landing, service or product page spreads its text over a hero line, feature cards, plans, a list of
services: no block holds most of it, and the best block is one card. When the content found is that
short and the page's content area holds much more of its own text, in many blocks, the area is the
content. The area is the page's one <main> or, on a page that marks its header, menus and footer with
their own tags, its <body> less those; comment sections, runs of replies and lists of other pages are
set aside in it, as they are when the best block is chosen (a short article beside its comments or its
"more news" list stays as it was found).
"""

from __future__ import annotations

import itertools
import re

from lxml import etree

from websearch_mcp.extract.clean import drop
from websearch_mcp.extract.main_content import (
    FURNITURE_TAGS,
    INLINE_TAGS,
    Scores,
    is_date_line,
    only_one,
    replies_below,
)
from websearch_mcp.extract.replies import signed_post
from websearch_mcp.extract.teasers import lists_other_pages, starts_with_link
from websearch_mcp.extract.text import innermost

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

SPREAD_SHORT = 1000  # characters of the content found: a card, a line, a short post
SPREAD_GAIN = 3.0  # the area holds this many times its words
SPREAD_WORDS = 150  # and at least this many
LINE = 25  # words found: fewer make a line or a label (a price, a date, a banner), not a short article
LINE_WORDS = 80  # words the area needs beside such a line
SPREAD_BLOCKS = 6  # in at least this many blocks (paragraphs, headings, lists)
TEXT_BLOCKS = 3  # of which at least this many are not headings


def content_area(tree: HtmlElement) -> HtmlElement | None:
    """The page's one <main>, or, on a page that marks its header, menus or footer with their own tags
    (so that they can be set aside), its <body>; None on other pages (an old page's sidebars and menus,
    known by class words alone, would be read as content)."""
    main = only_one(tree, "main")
    if main is not None:
        return main
    body = tree.find("body")
    if body is None or next(body.iter("nav", "header", "footer"), None) is None:
        return None
    return body


def words_needed(found: str) -> float:
    """The area's words needed to win: three times what was found, and at least SPREAD_WORDS (a line
    or a label found, no article of its own: LINE_WORDS)."""
    words = len(found.split())
    return max(LINE_WORDS if words < LINE else SPREAD_WORDS, SPREAD_GAIN * words)


def may_spread(tree: HtmlElement, found: str) -> bool:
    """Whether the content area may hold enough words and enough text outside headings: its text before
    pruning, at least what pruning leaves, read at the cost of a walk or two (most short outputs are
    looked at no further; a page of bare headings, however long, is turned down before it is read)."""
    area = content_area(tree)
    return (area is not None and len(area.text_content().split()) >= words_needed(found)
            and bool(_NTH_TEXT_OUTSIDE_HEADINGS(area)))


# The TEXT_BLOCKS-th piece of text below an element that no heading holds: without it, what the area
# renders cannot hold TEXT_BLOCKS blocks of text that are not headings.
_NTH_TEXT_OUTSIDE_HEADINGS = etree.XPath(
    f"(descendant::text()[normalize-space()][not(ancestor::h1 or ancestor::h2 or ancestor::h3 or ancestor::h4 "
    f"or ancestor::h5 or ancestor::h6)])[{TEXT_BLOCKS}]")


def spread_area(tree: HtmlElement, chosen: list[HtmlElement], scores: Scores) -> HtmlElement | None:
    """The page's content area with what is not the page's own text set aside: sidebars, menus and
    footers by their tags, the page's header, comment sections, runs of replies and lists of other
    pages (never a block that holds one of the chosen ones). None when what was found is an
    <article> inside the area: a short post, whose page's other sections are not more of it."""
    area = content_area(tree)
    if area is None or any(_in_post(element, area) or is_dated_item(element) for element in chosen):
        return None
    holding = {ancestor for element in chosen for ancestor in element.iterancestors()} | set(chosen)
    drop_furniture_tags(tree)
    for header in list(tree.iter("header")):
        if header.getparent() is not None and not any(a.tag in ("article", "main") for a in header.iterancestors()):
            drop(header)  # the page's header (its logo and menu), not an article's
    _set_aside(area, holding, scores)
    return area


SHORT_POST = 2000  # characters of a post that is short, all of it found
_POST_WORDS = frozenset({"post", "entry", "hentry", "blog"})
_TOKENS = re.compile(r"[a-z0-9]+")


def _in_post(element: HtmlElement, area: HtmlElement) -> bool:
    """Whether an element is, or is inside, the area's one post: an <article> below the area that is
    dated (a <time>) or classed as a post or an entry, with no other article beside it (a blog's front
    page of posts spreads), or the wrappers of one child each around it."""
    inner = innermost(element)  # (the post inside the wrappers the climb took, each of one child)
    post = next((node for node in (inner, *inner.iterancestors()) if node.tag == "article" or node is area),
                None)
    if post is None or post is area or len(post.text_content()) > SHORT_POST:
        return False  # (a long post holds more than a box found in it: the area is read)
    if post.find(".//time") is None and _POST_WORDS.isdisjoint(_TOKENS.findall((post.get("class") or "").lower())):
        return False
    around = set(post.iterancestors())
    return all(other is post or other in around or post in set(other.iterancestors())
               for other in area.iter("article"))


ITEM_PARTS = 4  # blocks before the body looked at for the item's title and date
TITLE_LINE = 200  # visible characters of a box around the item's title
_ITEM_TITLES = frozenset({"h1", "h2", "h3"})


def is_dated_item(element: HtmlElement) -> bool:
    """Whether the block found is the body of one dated item: its title and a line that gives its date
    just before it (a company's news, a hospital's notice: "Summer hours", "25. jun 2015."), whose
    page's other sections (the firm's services, its story) are not more of it."""
    titled = dated = False
    for sibling in itertools.islice(innermost(element).itersiblings(preceding=True), ITEM_PARTS):
        if not isinstance(sibling.tag, str):
            continue
        text = " ".join(sibling.text_content().split())
        if sibling.tag in _ITEM_TITLES or (len(text) <= TITLE_LINE
                                           and next(sibling.iter(*_ITEM_TITLES), None) is not None):
            titled = True  # (a heading, or a box of its own around one: Joomla's `page-header`, or a
            # theme's `entry-header` with the date under the title: `<time>2024. november 25.</time>`)
            dated = dated or (sibling.tag not in _ITEM_TITLES and next(sibling.iter("time"), None) is not None)
            break
        dated = dated or is_date_line(sibling)
    return titled and dated


def _set_aside(element: HtmlElement, holding: set[HtmlElement], scores: Scores) -> None:
    """Drop, below element, every block that is not the page's own text (see spread_area)."""
    children = [child for child in element if isinstance(child.tag, str)]
    signed = _signed_run(children)
    for child in children:
        if child.tag in INLINE_TAGS or child in holding:
            _set_aside(child, holding, scores)
        elif child in signed or _not_own_text(child, scores):
            drop(child)
        else:
            _set_aside(child, holding, scores)


SIGNED_RUN = 3  # blocks alike, most of them dated or signed: replies, reviews, a list of dated posts


def _signed_run(children: list[HtmlElement]) -> set[HtmlElement]:
    """The children that make a run of blocks alike (same tag and first class) most of which carry a date, a
    time or a reply link: comments, reviews or dated teasers, whatever their markup."""
    groups: dict[tuple[object, str], list[HtmlElement]] = {}
    for child in children:
        if child.tag not in INLINE_TAGS:
            classes = (child.get("class") or "").split()
            groups.setdefault((child.tag, classes[0] if classes else ""), []).append(child)
    run: set[HtmlElement] = set()
    for group in groups.values():
        if len(group) >= SIGNED_RUN and 2 * sum(1 for block in group if signed_post(block)) > len(group):
            run.update(group)
    return run


def _not_own_text(element: HtmlElement, scores: Scores) -> bool:
    return (scores.context_factor(element) < 1.0 or lists_other_pages(element) or _lists_links(element)
            or replies_below(element, scores))


LINKED_ITEMS = 3  # items of a list that open with a link to another page: a list of other pages


def _lists_links(element: HtmlElement) -> bool:
    """A list whose items mostly open with a link to another page ("[Title](url) and a line"): other
    pages of the site, not this one's text."""
    if element.tag not in ("ul", "ol"):
        return False
    items = [item for item in element if item.tag == "li"]
    linked = sum(1 for item in items if starts_with_link(item))
    return linked >= LINKED_ITEMS and 3 * linked >= 2 * len(items)


def drop_furniture_tags(tree: HtmlElement) -> None:
    """Sidebars, menus and footers go, unless one holds the page's <article> or <main> (broken markup
    that closed one around the article)."""
    for element in list(tree.iter(*FURNITURE_TAGS)):
        if element.getparent() is not None and next(element.iter("article", "main"), None) is None:
            drop(element)


def spreads_further(whole: str, found: str) -> bool:
    """Whether the area's text, pruned, is the page's content rather than what was found: many more
    words, in many blocks, some of them text rather than headings (a page of bare headings is an
    index, and what was found on it stays)."""
    blocks = [block for block in whole.split("\n\n") if block.strip()]
    texts = sum(1 for block in blocks if not block.lstrip().startswith("#"))
    return len(whole.split()) >= words_needed(found) and len(blocks) >= SPREAD_BLOCKS and texts >= TEXT_BLOCKS
