"""Main-content extraction: an HTML page in, Markdown of its article (and its metadata) out."""

from __future__ import annotations

import re
import threading
import unicodedata

import lxml.html

from websearch_mcp.extract.clean import drop, drop_junk, prune
from websearch_mcp.extract.error_page import MESSAGE_TEXT, holds_message, is_error_title, message_block
from websearch_mcp.extract.intro import intro_before
from websearch_mcp.extract.listing import LISTING_SHORT, is_listing, lists_more, may_be_listing
from websearch_mcp.extract.main_content import Scores, holds_replies, is_thread_url, main_elements, score_paragraphs
from websearch_mcp.extract.markdown import render_all
from websearch_mcp.extract.metadata import PageMetadata, read_metadata
from websearch_mcp.extract.notices import opening_of, reads_as_notice
from websearch_mcp.extract.shell import ShellVerdict, detect_shell
from websearch_mcp.extract.spread import (
    SPREAD_SHORT,
    content_area,
    drop_furniture_tags,
    is_dated_item,
    may_spread,
    spread_area,
    spreads_further,
)
from websearch_mcp.extract.streamed import STREAMED_MARK, drop_fallbacks
from websearch_mcp.extract.structured import article_body, declared_kind, json_ld_nodes, structured_content
from websearch_mcp.extract.teasers import lists_other_pages
from websearch_mcp.extract.text import host_of
from websearch_mcp.extract.titled import titled_block
from websearch_mcp.passages import cjk_count

# The page is handed over as UTF-8 bytes (encoded by Python, faster than libxml2's conversion of a str);
# the parser is told so, and reads no charset the page declares (the text is decoded already).
_OPTIONS = {"remove_comments": True, "remove_pis": True, "remove_blank_text": True, "collect_ids": False,
            "encoding": "utf-8"}
_LOCAL = threading.local()  # each thread its own parsers: a parser's error log is per parse, not per thread


def _parsers() -> tuple[lxml.html.HTMLParser, lxml.html.HTMLParser]:
    """This thread's parsers: the usual one, and one for pages nested deeper than libxml2's default
    limit of 256 levels (hundreds of unclosed <font> or <b> tags), whose text past that depth the
    usual one loses; its limit is 2048."""
    parsers: tuple[lxml.html.HTMLParser, lxml.html.HTMLParser] | None = getattr(_LOCAL, "parsers", None)
    if parsers is None:
        parsers = (lxml.html.HTMLParser(**_OPTIONS), lxml.html.HTMLParser(huge_tree=True, **_OPTIONS))
        for parser in parsers:
            # Every element as a plain HtmlElement, chosen in C: lxml.html's own lookup runs Python code
            # for each element proxy (to pick form and input classes never used here), a sizeable cost.
            parser.set_element_class_lookup(lxml.etree.ElementDefaultClassLookup(element=lxml.html.HtmlElement))
        _LOCAL.parsers = parsers
    return parsers


# Elements deeper than this are unwrapped (their text and children move up), so that the recursive
# Markdown writer stays far from Python's recursion limit.
MAX_DEPTH = 160


class ExtractedPage:
    """The Markdown of a page's main content, what the page says about itself, whether it is a shell
    that scripts fill, and where its content came from when not from the markup."""

    __slots__ = ("content_source", "markdown", "metadata", "shell")

    def __init__(self, markdown: str, metadata: PageMetadata, shell: ShellVerdict | None = None,
                 content_source: str = "") -> None:
        self.markdown = markdown
        self.metadata = metadata
        self.shell = shell
        self.content_source = content_source  # "" (the markup), or e.g. "JSON-LD NewsArticle"


def parse_html(html: str) -> lxml.html.HtmlElement:
    """Parse a page leniently (never raises on garbage)."""
    if STREAMED_MARK in html:
        html = drop_fallbacks(html)
    tree = _parse(html)
    swallowed = _swallowed_by(tree, len(html))
    if swallowed:
        tree = _parse(re.sub(f"<{swallowed}\\b[^>]*>", "", html, flags=re.IGNORECASE))
    if tree.find("body") is None:
        _give_body(tree)
    return tree


_HEAD_ONLY = frozenset({"title", "meta", "link", "base", "style", "script", "noscript"})


def _give_body(tree: lxml.html.HtmlElement) -> None:
    """A page whose content the parser left in <head> (an unknown element came before any body
    content, so no <body> was made): what is not head matter moves into a new <body>."""
    head = tree.find("head")
    content = [child for child in head if child.tag not in _HEAD_ONLY] if head is not None else []
    if content:
        body = lxml.etree.SubElement(tree, "body")
        body.extend(content)


# Elements whose content the parser reads as plain text: left unclosed (`<title>` with a broken end
# tag, `<iframe>` without one), they swallow the rest of the page as a string.
_RAW_TEXT = ("title", "textarea", "iframe", "xmp")


def _swallowed_by(tree: lxml.html.HtmlElement, size: int) -> str:
    """The raw-text element that holds much of the page's markup as text, if one does."""
    for element in tree.iter(*_RAW_TEXT):
        text = element.text or ""
        if len(text) > max(300, size // 4) and "<" in text:
            return str(element.tag)
    return ""


def _parse(html: str) -> lxml.html.HtmlElement:
    usual, deep = _parsers()
    tree = _parse_with(usual, html)
    if _too_deep(usual):
        tree = _parse_with(deep, html)
        if _too_deep(deep):  # deeper than even 2,048 levels: the wrappers go before parsing
            tree = _parse_with(deep, _WRAPPER_TAGS.sub("", html))
        _flatten_below(tree, MAX_DEPTH)
    return tree


def _too_deep(parser: lxml.html.HTMLParser) -> bool:
    return any(error.type_name == "ERR_RESOURCE_LIMIT" for error in parser.error_log)


# Tags that only wrap (no paragraph, heading, list or table of their own): dropped from a page nested so
# deep that no parser keeps its text (thousands of unclosed or nested <div>, <font> or <b>).
_WRAPPER_TAGS = re.compile(r"</?(?:div|span|font|section|center|b|i|u|em|strong|small|big|article|main)\b[^>]*>",
                           re.IGNORECASE)


def _parse_with(parser: lxml.html.HTMLParser, html: str) -> lxml.html.HtmlElement:
    text = html if html.strip() else "<html></html>"
    try:
        return lxml.html.document_fromstring(text.encode("utf-8", "replace"), parser=parser)
    except (ValueError, lxml.etree.ParserError):  # nothing but whitespace and comments
        return lxml.html.document_fromstring(b"<html></html>", parser=parser)


def _flatten_below(tree: lxml.html.HtmlElement, limit: int) -> None:
    """Unwrap every element deeper than `limit`: its text and children join its parent."""
    depth, deep = 0, []
    for event, element in lxml.etree.iterwalk(tree, events=("start", "end")):
        if event == "start":
            depth += 1
            if depth > limit and isinstance(element.tag, str):
                deep.append(element)
        else:
            depth -= 1
    for element in reversed(deep):
        element.drop_tag()


def extract_page(html: str, url: str | None = None) -> ExtractedPage:
    """Main content as Markdown, plus title, description, byline, date, site name and language. A
    shell (a page scripts fill) gets the content of its own data (JSON-LD, data islands) when it has
    some; an ordinary page whose JSON-LD article body is much longer than the visible article (cut
    short behind a wall of script or a teaser) gets that body."""
    tree = parse_html(html)
    metadata = read_metadata(tree)
    shell = detect_shell(tree, html)
    data = structured_content(tree) if shell.is_shell else None
    nodes = [] if shell.is_shell else json_ld_nodes(tree)  # read while its scripts are there
    body = article_body(nodes)
    kind = "" if shell.is_shell else declared_kind(tree, nodes)
    drop_junk(tree)
    page_body = tree.find("body")
    page_chars = len(page_body.text_content()) if page_body is not None else 0
    thread = is_thread_url(url) and kind != "product"  # a shop's "/t/" is no forum's thread
    scores = score_paragraphs(tree, thread)
    found = main_elements(tree, thread, scores=scores, is_article=kind == "article")
    intro = [] if thread else intro_before(found, scores)
    listing = not thread and may_be_listing(tree, found, kind == "article")  # read before the tree changes
    elements = [e for e in found if not lists_other_pages(e)] or found
    host = _page_host(url)
    for element in elements:
        prune(element, host, thread)
    markdown = first = render_all(elements, url)
    opening = render_all(intro, url) if intro else ""  # read before a later rule changes the tree
    if not _WORD.search(markdown):
        markdown = _unpruned(html, url)
    if _doubtful(markdown) and page_chars > _elsewhere_needed(markdown) and not (
            not _is_furniture(markdown) and any(is_dated_item(element) for element in elements)):
        markdown = _second_opinion(html, url, thread, markdown)  # only when the page holds more text elsewhere
        # (and not for a short item under its title and date: a firm's notice beside its services)
    if _is_furniture(markdown) or _is_tiny(markdown):
        markdown = _titled_or(html, url, metadata, markdown)
    product = kind == "product" and not _is_description(found)  # a product's page, its description not found
    if product or (not thread and len(markdown) < SPREAD_SHORT and may_spread(tree, markdown)):
        markdown = _spread_or(tree, found, scores, url, markdown, product)
    if listing and _shown_length(markdown) < LISTING_SHORT:
        markdown = _listing_or(html, url, markdown)
    source = ""
    if data is not None:
        markdown, source = data.markdown, data.source
    elif body and _cut_short(markdown, body):
        markdown, source = body, "JSON-LD articleBody (the visible article was shorter)"
    title = tree.findtext(".//title") or ""
    if is_error_title(title) and not holds_message(markdown, title):
        message = _with_error_message(html, url, title, markdown)  # a "not found" page: its message
        markdown, source = message, (source if message is markdown else "")
    if opening and markdown is first:  # the body chosen first stands: its introduction comes with it
        markdown = f"{opening}\n\n{markdown}"
    return ExtractedPage(fit_for_model(markdown), metadata, shell, source)


def _junk_free(html: str) -> lxml.html.HtmlElement:
    """The page parsed again, its junk dropped (scripts, hidden elements...): the tree every other opinion
    is read on."""
    tree = parse_html(html)
    drop_junk(tree)
    return tree


def fit_for_model(text: str) -> str:
    """Text as a model should read it: no soft hyphens inside words (U+00AD, invisible on the page but
    splitting a word into tokens) and in Unicode NFC (one code point for "é", as most text is)."""
    if "\u00ad" in text:
        text = text.replace("\u00ad", "")
    return text if text.isascii() or unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


# The first opinion is doubtful when it is short, or reads like furniture (a footer, a disclaimer, a
# blog's description, an empty comment widget).
DOUBTFUL_TEXT = 300
DOUBTFUL_FURNITURE = 1500  # characters: a longer output that mentions a copyright early is an article
OVERRIDE_GAIN = 2.0  # the second opinion wins with this many times the first's words, and at least 30 more


ELSEWHERE = 100  # characters of the page beside a notice that may be the article


def _elsewhere_needed(markdown: str) -> float:
    """How much text the page must hold for a second look: beside a notice, a sentence or so more;
    beside a short output, much more than it."""
    return len(markdown) + ELSEWHERE if _is_furniture(markdown) else OVERRIDE_GAIN * len(markdown) + DOUBTFUL_TEXT


def _doubtful(markdown: str) -> bool:
    text = markdown.strip()
    return len(text) < DOUBTFUL_TEXT or (len(text) < DOUBTFUL_FURNITURE and reads_as_notice(text[:400]))


def _second_opinion(html: str, url: str | None, thread: bool, first: str) -> str:
    """A second look at a doubtful first opinion, by two other means: the content chosen once the first
    opinion's block is set aside, and the content chosen where the page's text is, class and id words
    not read (a rule that took the article for furniture cannot have removed it then). The better one
    wins when it is not doubtful itself and holds at least twice the words (the article beside a footer
    or a disclaimer), in paragraphs (not a list of teasers, not the replies below the article)."""
    best = first
    # class words are set aside only when the first opinion reads like furniture: a short post that
    # they found is right more often than the comments or sidebar a reading without them would find
    for plain in (False, True) if _is_furniture(first) else (False,):
        other = _other_opinion(html, url, thread, plain)
        if other is not None and _better(other, first) and (best is first or len(other.split()) > len(best.split())):
            best = other
    return best


def _other_opinion(html: str, url: str | None, thread: bool, plain: bool) -> str | None:
    tree = _junk_free(html)
    if not plain:
        drop_furniture_tags(tree)  # an author's bio in the sidebar is no second opinion on a short post
        for element in main_elements(tree, thread):
            if element.getparent() is not None:
                drop(element)
    elements = [e for e in main_elements(tree, thread, plain) if not lists_other_pages(e)]
    if not thread and holds_replies(tree, elements):
        return None  # replies alike: the comments below an article, on a page that is not a thread
    host = _page_host(url)
    for element in elements:
        prune(element, host, thread)
    return render_all(elements, url)


def _better(other: str, first: str) -> bool:
    """Whether another opinion is prose, not furniture, with at least twice the words of the first (or,
    when the first reads like furniture itself, a sentence or more: an error page's message beats the
    copyright line below it)."""
    first_words, other_words = len(first.split()), len(other.split())
    if reads_as_notice(other.strip()[:400]) or _mostly_list(other):
        return False
    if _is_furniture(first) and other_words >= SENTENCE_WORDS:
        return True
    enough = max(OVERRIDE_GAIN * first_words, first_words + 30)
    return other_words >= enough and _mean_block(other) >= 0.8 * _mean_block(first)


SENTENCE_WORDS = 8
FURNITURE_TEXT = 600  # characters: a text this short that reads like furniture is furniture


FURNITURE_OPENING = 400  # characters of a text read for a notice's phrases (a third as many in Chinese)


def _is_furniture(text: str) -> bool:
    """A short text that reads like furniture: a copyright line, a legal notice, a cookie note (read in
    its opening: an article may close with one)."""
    text = text.strip()
    if len(text) > FURNITURE_TEXT:
        return False
    return reads_as_notice(opening_of(text, FURNITURE_OPENING, FURNITURE_OPENING // 3))


_LIST_LINE = re.compile(r"^\s*(?:[-*+]|\d+\.|\|)\s", re.MULTILINE)


def _mostly_list(markdown: str) -> bool:
    """Whether most of a text's lines are list items or table rows (a list of other pages, a league
    table: not prose)."""
    lines = sum(1 for line in markdown.splitlines() if line.strip())
    return lines > 2 and len(_LIST_LINE.findall(markdown)) * 2 > lines


def _mean_block(markdown: str) -> float:
    """The mean length of a text's paragraphs (headings not counted)."""
    blocks = [b for b in markdown.split("\n\n") if b.strip() and not b.lstrip().startswith("#")]
    return sum(len(b) for b in blocks) / len(blocks) if blocks else 0.0


def _page_host(url: str | None) -> str:
    return host_of(url) if url else ""


# The JSON-LD body replaces the visible article when it is this many times as long and holds most of
# the visible article's words (so it is the same article, in full).
FULLER_BODY = 1.6
SAME_ARTICLE = 0.8


def _cut_short(markdown: str, body: str) -> bool:
    shown = _WORDS.findall(markdown.lower())
    if len(body) < FULLER_BODY * max(len(markdown), 200):
        return False
    words = set(_WORDS.findall(body.lower()))
    return bool(shown) and sum(1 for w in shown if w in words) >= SAME_ARTICLE * len(shown)


_WORDS = re.compile(r"\w{3,}")


_WORD = re.compile(r"\w")


def _with_error_message(html: str, url: str | None, title: str, markdown: str) -> str:
    """For a page that is itself an error or a parked domain, its message: in place of what was found
    when that is long (other stories) or furniture (a footer), else before it (the page's own note)."""
    tree = _junk_free(html)
    block = message_block(tree, title)
    message = render_all([block], url) if block is not None else ""
    if not _WORD.search(message):
        return markdown
    if len(markdown) > MESSAGE_TEXT or _is_furniture(markdown) or not _WORD.search(markdown):
        return message
    return f"{message}\n\n{markdown}"


TINY_TEXT = 100  # characters shown (link targets aside): an output this short (a headline from a list)
# is worth a look at the block around the post's title
# A link's target as the Markdown writer makes it (no space, bracket or parenthesis inside: on a run of
# "[a](" never closed, each try stops at once)
_LINK_TARGET = re.compile(r"\]\([^()\[\]\s]*\)")


def _is_tiny(markdown: str) -> bool:
    """Whether an output shows fewer than TINY_TEXT characters (see _shown_length)."""
    return len(markdown) < TINY_TEXT * 20 and _shown_length(markdown) < TINY_TEXT


def _shown_length(markdown: str) -> int:
    """The characters an output shows, link targets aside (a Chinese, Japanese or Korean character
    counting as the three Latin ones it carries about as much as)."""
    shown = _LINK_TARGET.sub("]", markdown).strip()
    return len(shown) + 2 * cjk_count(shown)


_MARKS = re.compile(r"[#*_\[\]>`|]")  # Markdown's marks, to find a text shown in the page's own
SHOWN_PROBE = 40  # characters of the text shown so far looked for in the post


def _titled_or(html: str, url: str | None, metadata: PageMetadata, markdown: str) -> str:
    """For a page whose content reads like furniture once every opinion is in (a photo post beside its
    licence note), or is a line the post does not hold (a video post of one line beside a headline from
    the featured stories), the block around the post's title instead, when that is not furniture."""
    tree = _junk_free(html)
    title = tree.findtext(".//title") or metadata.title
    furniture = _is_furniture(markdown)
    # a short text that the post itself holds is the post, rightly found (a furniture note is never)
    shown = "" if furniture else " ".join(_MARKS.sub("", _LINK_TARGET.sub("]", markdown)).split()).lower()
    block = titled_block(tree, title, metadata.site_name, shown[:SHOWN_PROBE])
    titled = render_all([block], url) if block is not None else ""
    longer = furniture or len(titled.strip()) > len(markdown.strip())
    return titled if longer and _WORD.search(titled) and not _is_furniture(titled) else markdown


# On a product's page, its content area (price, options, delivery, details, description: the whole of
# what a buyer reads) replaces the block found when it holds this many times its characters.
PRODUCT_AREA_GAIN = 1.5


_DESCRIPTION = re.compile(r"(?:^|[\s_-])desc(?:ription)?(?:$|[\s_-])", re.IGNORECASE)


def _is_description(found: list[lxml.html.HtmlElement]) -> bool:
    """Whether the block found on a product's page is the product's description (its class or id, or
    its parent's, says so): what the shop writes of the product, kept as it was found."""
    first = found[0] if found else None
    for element in (first, first.getparent() if first is not None else None):
        if element is not None and _DESCRIPTION.search(f"{element.get('class') or ''} {element.get('id') or ''}"):
            return True
    return False


def _spread_or(tree: lxml.html.HtmlElement, chosen: list[lxml.html.HtmlElement], scores: Scores,
               url: str | None, found: str, product: bool = False) -> str:
    """For a short output, the page's content area when its text is spread over many blocks and holds
    much more (see spread.py); on a product's page, the area when it holds more than the block found.
    Read on the page's tree as it is, the chosen blocks already pruned, with the tallies that chose
    them."""
    area = spread_area(tree, chosen, scores)
    if area is None:
        return found
    prune(area, _page_host(url), False, calls=False)
    whole = render_all([area], url)
    fuller = product and len(whole) >= PRODUCT_AREA_GAIN * len(found)
    return whole if fuller or (len(found) < SPREAD_SHORT and spreads_further(whole, found)) else found


def _listing_or(html: str, url: str | None, found: str) -> str:
    """For a short output on a page that is a list of other pages (see listing.py), the list: the page's
    content area, its menus, sidebars and footer set aside, when it shows much more."""
    tree = _junk_free(html)
    drop_furniture_tags(tree)
    area = content_area(tree)
    if area is None or not is_listing(area):
        return found
    listing = render_all([area], url)
    return listing if lists_more(_shown_length(listing), _shown_length(found)) else found


def _unpruned(html: str, url: str | None) -> str:
    """When pruning left nothing (a short article beside long comments, an odd page), the chosen
    content as it is, or failing that the whole page's text: something rather than nothing."""
    tree = _junk_free(html)
    markdown = render_all(main_elements(tree), url)
    if _WORD.search(markdown):
        return markdown
    body = tree.find("body")
    return render_all([body if body is not None else tree], url)


def html_to_markdown(html: str, url: str | None = None) -> str:
    """The Markdown of a page's main content, links made absolute against `url`."""
    return extract_page(html, url).markdown
