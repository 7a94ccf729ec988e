"""Finds the elements that hold a page's main content, by where its paragraphs' text concentrates.

Each paragraph earns points for its length and commas, less the share of its text in links. Two
tallies are kept: readability's (a paragraph credits its parent fully and its grandparent half, plus
what class and id say), which picks the best container; and the points of every paragraph under each
element, discounted inside furniture such as comments and sidebars, which lets a container of many
small blocks compete, and decides how far up from the best container the article reaches and which
of its siblings belong to it.
"""

from __future__ import annotations

import heapq
import itertools
import re

from lxml import etree

from websearch_mcp.extract.labels import NEUTRAL, class_weight, kind_of
from websearch_mcp.extract.notices import (
    block_opens,
    is_box_of_notices,
    is_notice_block,
    opens_as_notice,
    opens_with_notice_words,
    prose_length,
    short_enough,
)
from websearch_mcp.extract.replies import (
    NO_TEXT,
    THREAD_POSTS,
    THREAD_REPLY,
    are_posts,
    article_before,
    is_reply_run,
    lead_before,
    replies_after,
    signature,
    signed_post,
    thread_of,
)
from websearch_mcp.extract.teasers import ITEM_TEXT, card_signature, lists_items, lists_other_pages, starts_with_link
from websearch_mcp.extract.text import (
    HEADINGS,
    ends_a_sentence,
    in_its_wrappers,
    innermost,
    inside,
    link_density,
    text_of,
    visible_length,
)
from websearch_mcp.passages import CJK, cjk_count

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from lxml.html import HtmlElement

MIN_PARAGRAPH = 25
CANDIDATES = 15
SUBTREE_DEPTH = 14  # a page builder's article: its paragraphs eleven levels below the block of its sections
# A container earns this share of the points of every paragraph below it (up to SUBTREE_DEPTH levels
# down) when they are spread over its children rather than held by one. So an article spread over
# many small blocks (a live ticker, a slideshow, recipe steps, one component per paragraph) outscores
# a single teaser, while a wrapper around an ordinary article would need more than three times the
# article's points to outscore it.
SPREAD_CREDIT = 0.3
SPREAD_TOP = 0.5  # "held by one": a child holding more than this share
SPREAD_BLOCKS = 4  # "many": at least this many children with points

CLIMB_GAIN = 2.0
SIBLING_MIN = 6.0
LEAD_CAPTION = 30  # visible characters that make the lead image's caption worth keeping
LINK_CARD_MAX = 1000  # characters: a link holding more is broken markup around an article, not a card
SIBLING_SHARE = 0.15
SIBLING_MIN_PEER = 3.0
SIBLING_PROSE = 80  # visible characters: a sibling paragraph this long with few links joins the article
INLINE_TAGS = frozenset({"a", "b", "strong", "i", "em", "span", "font", "u", "small", "big", "sup", "sub",
                         "mark", "abbr", "cite", "q", "time", "code", "br", "s", "del", "ins"})
# Paragraph-like elements: the usual tags, and containers that hold text directly or in inline children.
_HOLDERS = ("div", "section", "article", "font", "span", "li")
_PARAGRAPHS = etree.XPath(
    "//body//p | //body//pre | //body//td | //body//dd | //body//blockquote[not(p)] | "
    + " | ".join(f"//body//{tag}[text()[normalize-space()] or span or font or b or strong or em or i or a]"
                 f"[not(p) or text()[string-length(normalize-space()) > 100]][string-length(.) >= {MIN_PARAGRAPH}]"
                 for tag in _HOLDERS)
    + " | //body[text()[string-length(normalize-space()) > 40]]")  # one name test per tag: faster than self::
# The same from the page's one <body>: one walk below it rather than one from the root per tag. (The
# length test, MIN_PARAGRAPH, is a first cut in C: a container's own text is never longer than all of it.)
_BODY_PARAGRAPHS = etree.XPath(
    "descendant::p | descendant::pre | descendant::td | descendant::dd | descendant::blockquote[not(p)] | "
    + " | ".join(f"descendant::{tag}[text()[normalize-space()] or span or font or b or strong or em or i or a]"
                 f"[not(p) or text()[string-length(normalize-space()) > 100]][string-length(.) >= {MIN_PARAGRAPH}]"
                 for tag in _HOLDERS)
    + " | self::body[text()[string-length(normalize-space()) > 40]]")
_NO_CREDIT = frozenset({"html"})  # text directly under <body> (old pages) makes <body> the container
_PARAGRAPH_TAGS = frozenset({"p", "pre", "td", "dd", "blockquote"})


def _own_text_length(element: HtmlElement) -> int:
    """Text of a container that sits in it directly or inside inline children (not nested blocks)."""
    length = len((element.text or "").strip())
    for child in element:
        if child.tag in INLINE_TAGS:
            length += len(text_of(child))
        length += len((child.tail or "").strip())
    return length


class Scores:
    """Both tallies for one page."""

    def __init__(self, root: HtmlElement, thread: bool = False, plain: bool = False) -> None:
        self.thread = thread  # a forum thread or Q&A page: its replies are the content, not furniture
        self.plain = plain  # class and id words ignored: where the text is, and nothing else, decides
        self.holds_main = {ancestor for main in root.iter("main") for ancestor in main.iterancestors()}
        self.readability: dict[HtmlElement, float] = {}
        self.paragraphs: dict[HtmlElement, int] = {}
        self.subtree: dict[HtmlElement, float] = {}
        self.factors: dict[HtmlElement, float] = {}  # context factors found so far
        self._final: dict[HtmlElement, float] = {}

    def context_factor(self, element: HtmlElement) -> float:
        """How much a paragraph inside this element still counts (comments: nothing; furniture and
        teaser cards wrapped in a link: a little)."""
        factor = self.factors.get(element)
        if factor is None:
            # <body>'s classes describe the page (Jimdo lists every module whose styles it loads,
            # `j-m-guestbook-styles` among them), never a part of it to set aside
            kind = NEUTRAL if self.plain or element.tag == "body" else kind_of(element)
            comments = kind.comments and not self.thread
            factor = 0.0 if comments or kind.citations else 0.3 if kind.negative and not kind.positive else 1.0
            role = element.get("role") if factor else None
            if factor and (element.tag in FURNITURE_TAGS or role in _FURNITURE_ROLES):
                # a tag or a role, not a class word (read in plain passes too): the page's footer, whose
                # notices are never the article, counts a tenth; a sidebar, a menu, an article's footer a third
                factor = 0.1 if _is_page_footer(element, role) else min(factor, 0.3)
            if self.thread and kind.comments:
                factor = 1.0
            if element.tag == "a" and element.get("href") and len(element.text_content()) < LINK_CARD_MAX:
                factor = min(factor, 0.3)  # a teaser card: the whole block is one link to another page
            if factor < 1.0 and element in self.holds_main:
                factor = 1.0  # broken markup closed furniture (a menu, a hidden toolbar) around the article
            self.factors[element] = factor
        return factor

    def base(self, element: HtmlElement) -> float:
        """Readability's score, or, for a container whose paragraph points are spread over its children
        (no child holds most of them), a share of all those points, whichever is more."""
        own = self.readability.get(element, 0.0)
        below = self.subtree.get(element, 0.0)
        if SPREAD_CREDIT * below <= own:
            return own
        shares = [self.subtree.get(child, 0.0) for child in element]
        if sum(1 for share in shares if share) < SPREAD_BLOCKS or max(shares) > below * SPREAD_TOP:
            return own
        return SPREAD_CREDIT * below

    def weighted(self, element: HtmlElement) -> float:
        """The base score plus what class and id say (for containers of paragraphs); a list of citations
        is never the article."""
        if self.plain:
            return self.base(element)
        if kind_of(element).citations:
            return 0.0
        score = self.base(element)
        if self.paragraphs.get(element, 0) >= 2 or element.get("itemprop") == "articleBody" or _names_body(element):
            score += class_weight(element) + (10.0 if element.tag in ("article", "main") else 0.0)
        return score

    def final(self, element: HtmlElement) -> float:
        """The weighted score less the share of text in links, discounted inside furniture
        (a candidate inside a comment section scores nothing)."""
        if element not in self._final:
            score = self.weighted(element) * (1.0 - link_density(element))
            if score > 0:
                named = not self.plain and _names_body(element)
                for ancestor in element.iterancestors():
                    if ancestor.tag in NO_TEXT:
                        break
                    factor = self.context_factor(ancestor)
                    if named and 0.0 < factor < 1.0 and not _furniture_by_tag(ancestor):
                        factor = 1.0  # the body by its own name, in a box a class word calls furniture
                    score *= factor
            self._final[element] = score
        return self._final[element]


# A class or id that names the article's body itself, not a page or a box of content: a body of one
# paragraph (a brief) earns its name's points, as one of several would.
_BODY_NAME = re.compile(r"(?:^|\s)(?:article|story|entry|post|news)[-_]?(?:body|content|text)(?:$|\s)", re.IGNORECASE)


def _names_body(element: HtmlElement) -> bool:
    label = f"{element.get('class') or ''} {element.get('id') or ''}"
    return len(label) > 8 and _BODY_NAME.search(label) is not None


FURNITURE_TAGS = frozenset({"aside", "nav", "footer"})
# ARIA roles of the page's footer, a sidebar and a menu.
_FURNITURE_ROLES = frozenset({"contentinfo", "complementary", "navigation"})


def _furniture_by_tag(element: HtmlElement) -> bool:
    """Furniture by its tag or ARIA role (a footer, an aside, a menu), not by a class word."""
    return element.tag in FURNITURE_TAGS or element.get("role") in _FURNITURE_ROLES


def _is_page_footer(element: HtmlElement, role: str | None) -> bool:
    """The page's own footer (an article's <footer>, with its tags and byline, is the article's)."""
    if role == "contentinfo":
        return True
    return element.tag == "footer" and not any(a.tag in ("article", "main") for a in element.iterancestors())


def score_paragraphs(root: HtmlElement, thread: bool = False, plain: bool = False) -> Scores:
    """Tally every paragraph of the page."""
    scores = Scores(root, thread, plain)
    readability = scores.readability
    subtree = scores.subtree
    counts = scores.paragraphs
    body = root.find("body")
    cjk_page = body is not None and bool(CJK.search((body.text_content() or "")[:20000]))
    factors, context_factor = scores.factors, scores.context_factor
    chains: dict[HtmlElement, list[tuple[HtmlElement, float]]] = {}

    def chain(start: HtmlElement | None) -> list[tuple[HtmlElement, float]]:
        """The elements from start up (SUBTREE_DEPTH at most, to the first that counts nothing), each
        with the product of the context factors so far: shared by every paragraph of one parent."""
        if start is None:
            return []
        found = chains.get(start)
        if found is None:
            found, product, element = [], 1.0, start
            while element is not None and len(found) < SUBTREE_DEPTH and element.tag not in _NO_CREDIT:
                own = factors.get(element)
                product *= own if own is not None else context_factor(element)
                found.append((element, product))
                if not product:
                    break
                element = element.getparent()
            chains[start] = found
        return found

    # broken pages can have more than one <body>, or an element beside <html> that holds another
    bodies = list(root.iter("body"))
    alone = len(bodies) == 1 and root.getnext() is None and root.getprevious() is None
    # a code block is one paragraph: its highlighter's lines (`<span class="line">`) are not more of them
    in_code = inside(root, "pre")
    for paragraph in _BODY_PARAGRAPHS(bodies[0]) if alone else _PARAGRAPHS(root):
        if in_code and paragraph in in_code:
            continue
        holds_text = paragraph.tag not in _PARAGRAPH_TAGS
        if holds_text:  # its own text first: it is cheaper than the whole subtree's, and mostly too short
            length = _own_text_length(paragraph)
            if length < MIN_PARAGRAPH:
                continue
            text = text_of(paragraph)
        else:
            text = text_of(paragraph)
            length = len(text.strip())
            if length < MIN_PARAGRAPH:
                continue
        # text in links (menus, teaser lists, lists of names) is not prose: only the rest earns points.
        # A Chinese or Japanese character carries about what three Latin ones do, and their commas differ;
        # a code block's commas are syntax, not clauses.
        wide = cjk_count(text) if cjk_page and not text.isascii() else 0
        commas = 0 if paragraph.tag == "pre" else text.count(",") + (text.count("，") + text.count("、") if wide else 0)
        points = (1.0 + commas + min((length + 2 * wide) / 100.0, 3.0)) * (1.0 - link_density(paragraph, text))
        if paragraph.tag == "li" and starts_with_link(paragraph):
            points *= TEASER_ITEM  # "[Headline] and a line about it": an entry of a list of other pages
        parent = paragraph.getparent()
        factor = factors.get(paragraph)
        if factor is None:
            factor = context_factor(paragraph)
        if not factor:
            continue  # inside a comment section or a list of citations: it makes no candidate of its own
        gain = points * factor
        if holds_text:
            subtree[paragraph] = subtree.get(paragraph, 0.0) + gain
        # the climb never goes further up than SUBTREE_DEPTH elements from the paragraph
        climb = chain(parent)
        if holds_text and len(climb) >= SUBTREE_DEPTH:
            climb = climb[:SUBTREE_DEPTH - 1]
        for element, product in climb:
            subtree[element] = subtree.get(element, 0.0) + gain * product
        if climb and not climb[-1][1]:
            continue
        grandparent = parent.getparent() if parent is not None else None
        credited = ((paragraph, 1.0), (parent, 1.0), (grandparent, 0.5)) if holds_text \
            else ((parent, 1.0), (grandparent, 0.5))
        for ancestor, share in credited:
            if ancestor is None or ancestor.tag in _NO_CREDIT:
                break
            readability[ancestor] = readability.get(ancestor, 0.0) + points * share
            counts[ancestor] = counts.get(ancestor, 0) + 1
    return scores


TEASER_ITEM = 0.4


def _climb(best: HtmlElement, scores: Scores, passed_over: HtmlElement | None = None) -> HtmlElement:
    """Move up through wrappers, and while the parent holds much more article text, few links (never to a
    block that holds the candidate the best was chosen over)."""
    while True:
        parent = best.getparent()
        if parent is None or parent.tag in _NO_CREDIT:
            return best
        if passed_over is not None and within(passed_over, parent):
            return best
        if len(parent) == 1:
            best = parent
            continue
        mine = scores.subtree.get(best, 0.0)
        theirs = scores.subtree.get(parent, 0.0)
        if theirs < mine * CLIMB_GAIN or link_density(parent) > 0.3:
            further = _gains_above(best, parent, mine, scores)
            if further is None:
                return _opened_above(best, scores)
            if passed_over is not None and within(passed_over, further):
                return best
            parent = further
        if not scores.thread and any(replies_below(sibling, scores) for sibling in best.itersiblings()):
            return best  # what the parent adds is the replies below the article: its comments
        if not scores.thread and _gain_is_listing(best, parent, scores):
            return best  # what it adds is the site's items (a company's service cards below its news)
        best = parent


def _gain_is_listing(best: HtmlElement, parent: HtmlElement, scores: Scores) -> bool:
    """Whether most of what a block above the best adds is lists of the site's items or of other pages."""
    child = best
    while child.getparent() is not parent:
        child = child.getparent()
    gain = scores.subtree.get(parent, 0.0) - scores.subtree.get(child, 0.0)
    listed = sum(scores.subtree.get(other, 0.0) for other in parent if other is not child
                 and scores.subtree.get(other, 0.0) > 0 and (lists_items(other) or lists_other_pages(other)))
    return gain > 0 and listed * 2 >= gain


ALIKE_LEVELS = 3  # levels above the parent looked at for the block that holds the best's alike blocks


def _gains_above(best: HtmlElement, parent: HtmlElement, mine: float, scores: Scores) -> HtmlElement | None:
    """When the parent adds too little, the nearest block at most ALIKE_LEVELS above it that holds
    CLIMB_GAIN times the best's text and whose gain is blocks alike the best (by tag and first class,
    with as much text as the best): a page builder's article, one text module per section, each in a
    row and a column of its own. None when there is no such block, or it is mostly links or furniture."""
    element = parent
    for _ in range(ALIKE_LEVELS):
        element = element.getparent()
        if element is None or element.tag in _NO_CREDIT or element.tag == "body":
            return None
        if scores.subtree.get(element, 0.0) >= mine * CLIMB_GAIN:
            if link_density(element) > 0.3 or in_furniture(element, scores):
                return None
            return element if _alike_below(element, best, scores, mine) else None
    return None


ALIKE_LOOKED_AT = 2000  # blocks of the best's tag looked at below the block climbed to (a hostile page's bound)


def _alike_below(element: HtmlElement, best: HtmlElement, scores: Scores, needed: float) -> bool:
    """Whether the blocks below element alike the best (its tag and first class), apart from the best,
    what holds it and what it holds, have text tallies of `needed` or more (the first ALIKE_LOOKED_AT
    blocks of its tag looked at)."""
    first = (best.get("class") or "").split()[:1]
    if not first:
        return False  # blocks alike by their tag alone are any blocks
    alike = 0.0
    for other in itertools.islice(element.iter(best.tag), ALIKE_LOOKED_AT):
        if (other.get("class") or "").split()[:1] == first and not within(other, best) and not within(best, other):
            alike += scores.subtree.get(other, 0.0)
            if alike >= needed:
                return True
    return False


def _through_wrappers(element: HtmlElement) -> HtmlElement:
    """The outermost of the wrappers that hold nothing but the element (a page builder's section, row,
    column and module around one text block)."""
    while True:
        parent = element.getparent()
        if parent is None or parent.tag in _NO_CREDIT or parent.tag == "body" or len(parent) != 1:
            return element
        element = parent


OPENED_LEVELS = 2  # how far above the best block the article may open in paragraphs of its own
OPENED_MODULE_LEVELS = 4  # ... and in text modules of its own (a page builder's wrappers are deep)
OPENED_SHARE = 0.3  # of the best block's visible text: the opening paragraphs that make the article


def _opened_above(best: HtmlElement, scores: Scores) -> HtmlElement:
    """The ancestor in whose own paragraphs the article opens, before the best block (a post whose body
    quotes a press release in a box of its own), or in text modules of its own (a page builder's topic
    page whose body is a list in the module after them); or the best block."""
    element, shown = best, visible_length(text_of(best))
    for level in range(OPENED_MODULE_LEVELS):
        parent = element.getparent()
        if parent is None or parent.tag in NO_TEXT or parent.tag in _NO_CREDIT:
            return best
        opening = in_blocks = 0
        for child in parent:
            if child is element:
                break
            if level < OPENED_LEVELS and _is_prose(child, scores):
                opening += visible_length(text_of(child))
            elif level and _is_prose_block(child, scores):  # (beside the best block itself: a sibling)
                in_blocks += visible_length(text_of(child))
        opening += in_blocks
        if opening >= SIBLING_PROSE and opening >= OPENED_SHARE * shown and not (
                in_blocks and visible_length(text_of(parent)) > (shown + opening) * OPENED_GROWTH) \
                and not in_furniture(parent, scores) and link_density(parent) <= 0.3:
            return parent
        element = parent
    return best


OPENED_GROWTH = 1.3  # a block it opens in by text modules holds little more than they and the best


def _is_prose_block(element: HtmlElement, scores: Scores) -> bool:
    """A block of paragraphs before the best one (the article's opening in a block of its own, a page
    builder's text module): the paragraphs hold nearly all its text, it ends a sentence, it has few links."""
    if element.tag not in ("div", "section"):
        return False
    text = text_of(element)
    shown = visible_length(text)
    if shown < SIBLING_PROSE:
        return False
    inside = sum(visible_length(text_of(p)) for p in element.iter("p"))
    return (inside >= 0.9 * shown and ends_a_sentence(text) and link_density(element, text) < 0.25
            and not in_furniture(element, scores))


def _best(ranked: list[HtmlElement], scores: Scores) -> HtmlElement:
    """The candidate with the best final score. A final score is never above a non-negative weighted
    one, so the candidates (best weighted first) are only scored until none can win."""
    best, top = ranked[0], float("-inf")
    for candidate in ranked:
        weighted = scores.weighted(candidate)
        if 0 <= weighted <= top:
            break
        final = scores.final(candidate)
        if final > top:
            best, top = candidate, final
    return best


# Hacker News' `item?id=`, and Reddit's `/r/<sub>/comments/<id>/`: threads whose replies are the content.
_THREAD_URL = re.compile(r"/(?:threads?|topics?|discussions?|forums?|foren|forum|t|questions?|answers|board)/|"
                         r"viewtopic\.php|showthread\.php|[?&](?:t|topic|thread)=\d|/item\?id=\d|"
                         r"/r/\w+/comments/[a-z0-9]+", re.IGNORECASE)


def is_thread_url(url: str | None) -> bool:
    """Whether a URL names a forum thread or a question (its replies and answers are the content)."""
    return bool(url) and bool(_THREAD_URL.search(url or ""))


def main_elements(root: HtmlElement, thread: bool = False, plain: bool = False,
                  scores: Scores | None = None, is_article: bool = False) -> list[HtmlElement]:
    """The best container and those of its siblings that look like more of the same article (on a
    thread's page, every post of the thread); with plain, class and id words are not read; with article,
    the page says it is an article (its title may be an <h2>). The page's tallies are taken here unless
    given (score_paragraphs with the same thread and plain)."""
    scores = scores if scores is not None else score_paragraphs(root, thread, plain)
    if not scores.readability:
        body = root.find("body")
        return [body if body is not None else root]
    # class weights move a score by 85 at most: only the best raw scores can end up on top
    # (candidates in the order paragraphs first credited them, not a set's: equal scores tie the same way each run)
    candidates = {**dict.fromkeys(scores.readability), **dict.fromkeys(scores.subtree)}
    raw = heapq.nlargest(CANDIDATES * 3, candidates, key=scores.base)
    ranked = heapq.nlargest(CANDIDATES, raw, key=scores.weighted)
    best = _best(ranked, scores)
    if is_notice_block(best, opens_with_notice_words) or is_box_of_notices(best):  # a notice never wins while a
        best = _best_rival(best, ranked, scores,  # block of text can
                           lambda c: not is_notice_block(c, opens_as_notice) and not is_box_of_notices(c))
    listing, over_list = _list_around(best), None
    if listing is not None:  # nor a list of other pages, or one of its entries, while a block of sentences can
        rival = _best_rival(listing, ranked, scores, lambda c: not lists_other_pages(c) and _sentences(c) >= 2)
        if rival is not listing:
            best, over_list = rival, (listing if listing is not best else None)
    best = _inside_main(best, ranked, scores)
    title, names_page = _page_title(root.getroottree(), is_article)
    item = _titled_article(title) if names_page and not thread else None  # the page's one <article>, titled
    titled = _under_title(best, ranked, scores, title, names_page)
    if titled is best and names_page and title is not None and (is_article or _dated_title(title) or item is not None):
        titled = _titles_branch(best, ranked, scores, title, item, body_needed=not is_article)
    passed_over, best = (best if titled is not best else None), titled
    posts = thread_of(best, scores)
    opening_post = None
    if thread and not posts:
        apart = replies_after(best, scores)  # a question, and its answers in a block of their own below it
        if apart:
            return _under_lead(apart, scores)
        opening_post = _opening_post(best, ranked, scores)
    replies = posts or ([child for child in best if len(child)] if is_reply_run(best, scores) else [])
    article = None if thread or not replies else article_before(replies, ranked, scores)
    if article is not None:
        best = article  # replies below an article are its comments, unless the page is a thread
    elif posts:
        return _under_lead(_the_titled_item(posts, item), scores, opening=not thread)
    prose = None if thread else _prose_over_list(best, ranked, scores)
    if prose is None and over_list is not None and not thread and article is None and not posts:
        prose, best = best, over_list  # an entry of a list of the site's items won first: the list stays out
    if prose is not None:  # the list it won over stays out: no climbing to it, no sibling that holds it
        outer = _through_wrappers(prose)
        chosen = [prose] if outer is prose else [
            c for c in _with_siblings(outer, scores)
            if c is outer or not (_related(c, best) or c is best or _mostly_list_items(c))]
        best = outer
    elif (post := _post_content(scores)) is not None:
        best, chosen = post, [post]  # a block theme's post, whatever blocks of the site's template sit around it
    elif names_page and _is_dated_body(best, title):
        chosen = [best]  # a news item's body under its title and date: what the title's block holds beside
        # it (the firm's service cards, its "about us") is the site's
    else:
        if best is not item:  # (the titled <article> itself is the item, whole: no climb out of it)
            best = _climb(best, scores, passed_over)
        if passed_over is not None and (best.getparent() is passed_over
                                        or _site_sections_beside(best, passed_over, title)):
            chosen = [best]  # the branch under the title, not the blocks beside it it won over (the site's)
        else:
            chosen = [c for c in _with_siblings(best, scores)
                      if passed_over is None or not within(passed_over, c) or same_classes(c, best)]
    chosen = _the_titled_item(chosen, item)
    if opening_post is not None and not any(_related(opening_post, c) for c in chosen):
        chosen = [opening_post, *chosen]
    return _under_lead(chosen, scores)


def _post_content(scores: Scores) -> HtmlElement | None:
    """WordPress's post content block (`wp-block-post-content`), when the page has one that holds prose: in
    a block theme, the post itself; the template's own blocks around it (the site's offer, its "about
    us") are not more of it. (A list of posts shows each in a block of its own: no one post there.)"""
    if scores.plain or scores.thread:
        return None
    posts = [element for element in scores.readability if "wp-block-post-content" in (element.get("class") or "")]
    if len(posts) != 1 or _prose_length(posts[0]) < LIST_RIVAL_PROSE:
        return None
    return posts[0]


def _opening_post(replies_block: HtmlElement, ranked: list[HtmlElement], scores: Scores) -> HtmlElement | None:
    """On a thread's page whose best block is the run of its replies (three or more alike by tag and first
    class word, most of them signed), the post that opened the thread in a block of its own before them,
    in the same part of the page: old Reddit's submission above its comments, whose classes name each
    comment apart."""
    replies = [child for child in replies_block if scores.subtree.get(child, 0.0) > 0]
    if len(replies) < THREAD_POSTS:
        return None
    signature = card_signature(replies[0])
    if not replies[0].get("class", "").strip() or any(card_signature(r) != signature for r in replies):
        return None
    top = replies_block  # the post shares a block below <body> with its replies (a sidebar's text does not)
    while top.getparent() is not None and top.getparent().tag not in NO_TEXT:
        top = top.getparent()
    return article_before(replies, [c for c in ranked if within(c, top)], scores)


ENTRY_DEPTH = 3  # levels above a candidate looked at for the list of the site's items it is an entry of


def _list_around(best: HtmlElement) -> HtmlElement | None:
    """The list of other pages that the best candidate is, or that it is an entry of (one card of a
    company's services, with its linked title and a line or two), if any."""
    if lists_other_pages(best) or lists_items(best):
        return best  # (a news agency's "Main stories", each a dated linked title and its summary)
    if len(best.text_content()) > ITEM_TEXT:
        return None  # (more than an entry holds: most pages' best block)
    for ancestor in itertools.islice(best.iterancestors(), ENTRY_DEPTH):
        if ancestor.tag in NO_TEXT:
            break
        if lists_items(ancestor) or lists_other_pages(ancestor):
            return ancestor
    return None


def _best_rival(best: HtmlElement, ranked: list[HtmlElement], scores: Scores,
                fits: Callable[[HtmlElement], bool]) -> HtmlElement:
    """The best-scoring candidate apart from best (neither holds the other) that fits, or best."""
    rivals = [c for c in ranked if scores.final(c) > 0 and not _related(c, best) and fits(c)]
    return max(rivals, key=scores.final) if rivals else best


def _inside_main(best: HtmlElement, ranked: list[HtmlElement], scores: Scores) -> HtmlElement:
    """The best candidate inside the page's one <main>, when the best of all is outside it (a band of
    "about us" and newsletter text above the footer) and one inside holds a sentence of prose."""
    main = only_one(best.getroottree(), "main")
    if main is None or within(best, main):
        return best
    inside = [c for c in ranked if scores.final(c) > 0 and _prose_length(c) >= LIST_RIVAL_PROSE
              and within(c, main)]
    return max(inside, key=scores.final) if inside else best


TITLED_SHARE = 0.5  # of the best's score: a block under the page's title with this much is the article
BRIEF_PARAGRAPHS = 3  # paragraphs of a brief beside its title
TITLED_TEXT = 0.25  # of the best's visible text: a block beside the title with less is no rival of a long article
BRANCH_PARAGRAPHS = 2  # paragraphs of the item under the title (a standfirst beside it has one)
TITLE_BLOCK = 1  # levels above the title: the block holding the title's own box and the brief's paragraphs


def _under_title(best: HtmlElement, ranked: list[HtmlElement], scores: Scores, title: HtmlElement | None,
                 names_page: bool) -> HtmlElement:
    """The block of prose nearest the page's title (a brief under it, in the title's block or in the block
    after it), when the best candidate lies further from the title (a company's profile box in the
    sidebar, its "about us" band below the brief), scores at most twice as much, holds no more
    paragraphs (up to a brief's), and no more than four times the text (a video's transcript beside the
    title is not the story). Beyond the title's own block only for a title that names the page."""
    if title is None:
        return best
    reach = {ancestor: depth for depth, ancestor in enumerate(title.iterancestors())}
    best_reach = _reach(best, reach)
    if best_reach == 0:
        return best  # beside the title already
    # beyond the title's own block, only for a title that names the page (not a sidebar's "Tags")
    furthest = best_reach if names_page else 1
    floor = scores.final(best) * TITLED_SHARE
    # a lead beside the title has fewer paragraphs than the body (a brief has a few of its own)
    count = min(scores.paragraphs.get(best, 0), BRANCH_PARAGRAPHS if _dated_title(title) else BRIEF_PARAGRAPHS)
    shortest = visible_length(text_of(best)) * TITLED_TEXT
    after = _block_after_title(title, best, best_reach) if names_page else None
    article = only_one(title.getroottree(), "article")
    if article is not None and within(best, article):
        article = None  # (the page's one <article>, when the best lies outside it: a brief in it needs no more
        # paragraphs than the block beside it has)
    nearer = [c for c in ranked if (_reach(c, reach) < furthest or (
                  after is not None and within(c, after) and _prose_paragraphs(c) >= BRANCH_PARAGRAPHS))
              and scores.final(c) >= floor
              and (scores.paragraphs.get(c, 0) >= count or (article is not None and within(c, article)))
              and not _related(c, best) and (c not in reach or _brief_beside_title(c, reach))
              and _prose_length(c) >= LIST_RIVAL_PROSE and visible_length(text_of(c)) >= shortest]
    return max(nearer, key=scores.final) if nearer else best


def _brief_beside_title(block: HtmlElement, reach: dict[HtmlElement, int]) -> bool:
    """Whether a block that holds the title's own box (the title, its date and author) holds a brief's
    paragraphs of prose beside that box, as children of its own (a school's news item: the title's box,
    an image and three paragraphs in one column)."""
    return reach[block] <= TITLE_BLOCK and sum(
        1 for child in block if child.tag == "p" and is_sentence(child)) >= BRANCH_PARAGRAPHS


def _site_sections_beside(chosen: HtmlElement, passed_over: HtmlElement, title: HtmlElement | None) -> bool:
    """Whether the block chosen under the title won over one as far from the title as itself, in a later
    section of the same frame (a page builder's: the title's section, the brief's, then the site's
    services, then its "about us"): the sections after the brief's are the site's, not more of it."""
    if title is None:
        return False
    reach = {ancestor: depth for depth, ancestor in enumerate(title.iterancestors())}
    return (_reach(chosen, reach) == _reach(passed_over, reach)
            and any(within(passed_over, sibling) and not same_classes(sibling, chosen)
                    for sibling in chosen.itersiblings()))


def same_classes(one: HtmlElement, other: HtmlElement) -> bool:
    """Whether two blocks have the very same classes, two or more (`section blog-content`): the same part
    of the template (the article's text on both sides of a band of other content), not merely both
    sections."""
    classes = (one.get("class") or "").split()
    return len(classes) > 1 and (other.get("class") or "").split() == classes


def _block_after_title(title: HtmlElement, best: HtmlElement, best_reach: int) -> HtmlElement | None:
    """The block right after the title's own, below the ancestor the title shares with the best candidate,
    when the best lies further on (a page builder's sections: the title's, the brief's, then the site's
    services and its "about us"): a brief there (two paragraphs of prose, not a standfirst) is nearer the
    title than the best, at the same depth."""
    shared = next(itertools.islice(title.iterancestors(), best_reach, None), None)
    if shared is None:
        return None
    branch = next((a for a in title.iterancestors() if a.getparent() is shared), None)
    following = branch.getnext() if branch is not None else None
    if following is not None and within(best, following) and _dated_title(title):
        following = _first_section_before(following, best)  # a dated item's post content: its first section
    if following is None or within(best, following):
        return None
    return following


def _first_section_before(block: HtmlElement, best: HtmlElement) -> HtmlElement | None:
    """Within a block that holds the best candidate, the first of the sections it is split into (the level
    where the best's section has others before it), when that is not the best's own: the post's opening
    section, before the page builder's later ones (the firm's listings, its "about us")."""
    for ancestor in [best, *best.iterancestors()]:
        parent = ancestor.getparent()
        if parent is None or not within(parent, block):
            return None
        if ancestor.getprevious() is not None:
            first = next((child for child in parent if isinstance(child.tag, str)), None)
            return first if first is not ancestor else None
    return None


def _titles_branch(best: HtmlElement, ranked: list[HtmlElement], scores: Scores, title: HtmlElement,
                   article: HtmlElement | None, body_needed: bool = False) -> HtmlElement:
    """On an article's page whose best candidate holds the page's title (one that names the page) and more
    (a company's <main>, which its tag and class words put first, with its news item, its service cards
    and its "about us"), the best block in the branch that holds the title, when it scores half the
    best's own points: the item the title names. On another page (a dated item's title), only a block
    that holds the item's body too (paragraphs of prose, not a header's standfirst and byline)."""
    branch = _item_of(title, best, article)
    if branch is None:
        return best
    floor = scores.base(best) * TITLED_SHARE
    inside = [c for c in ranked if within(c, branch) and scores.base(c) >= floor
              and scores.paragraphs.get(c, 0) >= BRANCH_PARAGRAPHS and _prose_length(c) >= LIST_RIVAL_PROSE
              and (not body_needed or _prose_paragraphs(c) >= BRANCH_PARAGRAPHS)]
    return max(inside, key=scores.final) if inside else best


def _item_of(title: HtmlElement, best: HtmlElement, article: HtmlElement | None) -> HtmlElement | None:
    """The branch of best that holds the item the title names: the page's one <article> that holds the
    title (see _titled_article), inside best (a page builder's rows after it in the same wrapper are the
    site's), or the branch below best that holds the title, or, for a title right under best, the block
    after it (a news item's body under its heading: Bitrix's `news-detail`)."""
    if article is not None and article is not best and within(article, best):
        return article
    branch = next((a for a in title.iterancestors() if a.getparent() is best), None)
    if branch is None and title.getparent() is best:
        branch = next((s for s in title.itersiblings() if isinstance(s.tag, str)), None)
    return branch


def _the_titled_item(chosen: list[HtmlElement], article: HtmlElement | None) -> list[HtmlElement]:
    """Of the chosen blocks, those of the page's one <article> that holds its title (see _titled_article),
    when one of them holds it or is inside it: what sits beside the item's <article> (a shop's products, an
    "about us" section in a block of the same kind) is the site's."""
    if article is None or not any(within(c, article) or within(article, c) for c in chosen):
        return chosen
    return [c for c in chosen if within(c, article) or within(article, c)]


def _titled_article(title: HtmlElement | None) -> HtmlElement | None:
    """The page's one <article> when it holds the page's title: the item the page is about, whole."""
    if title is None:
        return None
    article = only_one(title.getroottree(), "article")
    return article if article is not None and within(title, article) else None


def _prose_paragraphs(element: HtmlElement) -> int:
    """How many of a block's <p> hold a sentence's worth of text (LIST_RIVAL_PROSE visible characters)."""
    return sum(1 for paragraph in element.iter("p") if visible_length(text_of(paragraph)) >= LIST_RIVAL_PROSE)


def _page_title(tree: etree._ElementTree, article: bool) -> tuple[HtmlElement | None, bool]:
    """The page's title heading, and whether it names the page: its one <h1>, or, on an article's page
    whose <h1> names a section of the site ("News"), the one <h2> that opens or ends the document's <title>."""
    title = only_one(tree, "h1")
    if title is not None and _names_page(title):
        return title, True
    if not article:
        return title, False  # (a shop's product has its name in an <h2> beside what it costs)
    named = [heading for heading in itertools.islice(tree.iter("h2"), TITLE_H2) if _names_page(heading)]
    return (named[0], True) if len(named) == 1 else (title, False)


TITLE_H2 = 20  # <h2> looked at for the page's title
DATE_LINE = 60  # visible characters of a line that gives an item's date ("Opublikowano: 22.01.2016")
DATE = re.compile(r"\b(?:\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})|\d{4}-\d{2}-\d{2}|\d{1,2}\.? [^\W\d]{3,} \d{4}|"
                  r"[^\W\d]{3,}\.? \d{1,2},? \d{4})\b")


def _dated_title(title: HtmlElement) -> bool:
    """Whether a line giving a date follows the title right after it (a company's news item: its heading,
    then "02.03.2015"): the title of one dated item, whatever the page says it is."""
    boxed = in_its_wrappers(title)  # a page builder's heading widget: the date is the next widget
    for sibling in itertools.islice(title.itersiblings() if boxed is title else boxed.itersiblings(), 2):
        if isinstance(sibling.tag, str):
            if is_date_line(sibling):
                return True
            first = sibling[0] if len(sibling) else None  # the item's block, opening with its date
            if first is not None and not (sibling.text or "").strip() and is_date_line(first):
                return True
    return False


def _is_dated_body(block: HtmlElement, title: HtmlElement | None) -> bool:
    """Whether a block is the body of a dated item: right after its title (the page's), with a date line
    between them or at the block's opening (Bitrix's `news-detail`)."""
    if title is None or not _dated_title(title):
        return False
    following = [s for s in itertools.islice(title.itersiblings(), 2) if isinstance(s.tag, str)]
    return block in following and _prose_paragraphs(block) >= BRANCH_PARAGRAPHS


def is_date_line(element: HtmlElement) -> bool:
    """Whether an element is a line giving a date ("02.03.2015", "Opublikowano: 22.01.2016")."""
    if element.tag == "time":
        return True
    text = " ".join(element.text_content().split())
    return len(text) <= DATE_LINE and DATE.search(text) is not None


def _names_page(heading: HtmlElement) -> bool:
    """Whether a heading is the page's title: its text opens or ends the document's <title>."""
    text = " ".join(text_of(heading).split()).casefold()
    title = " ".join((heading.getroottree().findtext(".//title") or "").split()).casefold()
    return len(text) >= 4 and (title.startswith(text) or title.endswith(text))


def _reach(element: HtmlElement, reach: dict[HtmlElement, int]) -> int:
    """How far up from the title the block's first ancestor shared with it lies (0: the title's parent)."""
    for ancestor in element.iterancestors():
        depth = reach.get(ancestor)
        if depth is not None:
            return depth
    return len(reach)


def only_one(tree: etree._ElementTree | HtmlElement, tag: str) -> HtmlElement | None:
    """The page's element of that tag when it has exactly one (its one <main>, its one <h1>), else None
    (looked for until a second is found)."""
    found = list(itertools.islice(tree.iter(tag), 2))
    return found[0] if len(found) == 1 else None


def _under_lead(chosen: list[HtmlElement], scores: Scores, opening: bool = False) -> list[HtmlElement]:
    """The chosen blocks under the lead before them: a block named as the lead, or, with opening (sections
    alike, whose siblings were not looked at), a paragraph of its own just before the first."""
    lead = lead_before(chosen[0], scores)
    if lead is None and opening:
        lead = _opening_block(chosen[0], scores)
    return [lead, *chosen] if lead is not None else chosen


LIST_SHARE = 0.7  # a candidate whose text is at least this share list items is a list
LIST_LINES, LIST_LINE = 4, 120  # ... or at least this many lines of at most this many characters
LIST_RIVAL_PROSE = 80  # visible characters of sentences that make a rival of a list


def _prose_over_list(best: HtmlElement, ranked: list[HtmlElement], scores: Scores) -> HtmlElement | None:
    """When the winner is a list without a sentence of prose (a "top 10" box, an award list, a list of
    headlines) and another candidate holds paragraphs of sentences, those paragraphs are the article:
    a list outscores a short article only by the number of its items."""
    if _has_prose(best) or not _mostly_list_items(best):
        return None
    rivals = [c for c in ranked if c is not best and scores.final(c) > 0 and _prose_length(c) >= LIST_RIVAL_PROSE
              and not _related(c, best) and not in_furniture(c, scores)]
    return max(rivals, key=scores.final) if rivals else None


def in_furniture(element: HtmlElement, scores: Scores) -> bool:
    """Whether an element sits in furniture (a footer, a sidebar: a context that counts less)."""
    return any(scores.context_factor(node) < 1.0 for node in [element, *element.iterancestors()]
               if node.tag not in NO_TEXT)


def _mostly_list_items(element: HtmlElement) -> bool:
    """Whether most of the element's text is list items, and most items are titles (a line without a
    stop: a headline, a name, an award), not sentences (advice, steps)."""
    total = visible_length(text_of(element))
    items = [text_of(item) for item in element.iter("li") if item.find(".//li") is None]
    if not items:  # lines in blocks of their own (an award list of <div>s)
        items = [text for text in (text_of(child) for child in element
                                   if isinstance(child.tag, str) and child.tag not in HEADINGS) if text.strip()]
        if len(items) < LIST_LINES or any(visible_length(text) > LIST_LINE for text in items):
            return False
    listed = sum(visible_length(text) for text in items)
    titles = sum(1 for text in items if not ends_a_sentence(text))
    return total > 0 and listed >= LIST_SHARE * total and titles >= LIST_SHARE * len(items)


def _has_prose(element: HtmlElement) -> bool:
    """Whether one of the element's paragraphs reads as a sentence (the first found is enough)."""
    return any(is_sentence(paragraph) for paragraph in element.iter("p"))


def is_sentence(paragraph: HtmlElement, shortest: int = SIBLING_PROSE) -> bool:
    """Whether a paragraph reads as prose: this long at least (a Chinese, Japanese or Korean character
    counting as three Latin ones), ending as a sentence, with few links."""
    text = text_of(paragraph)
    return (prose_length(text) >= shortest and ends_a_sentence(text)
            and link_density(paragraph, text) < 0.25)


def _prose_length(element: HtmlElement) -> int:
    """Visible characters of the element's paragraphs that read as sentences (long enough, few links,
    ending with a stop); a block of text without <p> (a site builder's `div.paragraph`) is one."""
    paragraphs = list(element.iter("p"))
    if not paragraphs and all(child.tag in INLINE_TAGS for child in element if isinstance(child.tag, str)):
        paragraphs = [element]
    return sum(visible_length(text_of(paragraph)) for paragraph in paragraphs if is_sentence(paragraph))


SHORT_SENTENCE = 20  # visible characters: a short sentence in Korean or Chinese


def _sentences(element: HtmlElement) -> int:
    """Paragraphs of the element that end as sentences, with few links (of any length: a Korean
    sentence is short)."""
    return sum(1 for paragraph in element.iter("p") if is_sentence(paragraph, SHORT_SENTENCE))


def _related(one: HtmlElement, other: HtmlElement) -> bool:
    """Whether one element holds the other."""
    return any(a is other for a in one.iterancestors()) or any(a is one for a in other.iterancestors())


def within(element: HtmlElement, container: HtmlElement) -> bool:
    """Whether an element is the container or inside it."""
    return element is container or any(a is container for a in element.iterancestors())


def holds_replies(root: HtmlElement, elements: list[HtmlElement]) -> bool:
    """Whether the chosen elements are replies (on a page that is not a thread: the comments below an
    article): blocks alike, or one block that holds a run of them."""
    if are_posts(elements):
        return True
    if len(elements) != 1:
        return False
    return replies_within(elements[0], score_paragraphs(root), REPLIES_DEPTH)


def replies_below(block: HtmlElement, scores: Scores) -> bool:
    """Whether a block beside the article holds its comments: a run of replies two levels down at most,
    or four when the replies carry names and dates (a theme's rows and columns around them)."""
    return replies_within(block, scores) or replies_within(block, scores, REPLIES_DEPTH, signed=True)


def replies_within(block: HtmlElement, scores: Scores, depth: int = 2, signed: bool = False) -> bool:
    """Whether a block is a run of replies, or holds one (down `depth` levels of wrappers: a heading
    and a form around the list) that has most of its paragraphs' points; with signed, most of the run's
    blocks carry a name and a date."""
    subtree = scores.subtree
    whole = subtree.get(block, 0.0)
    inner: HtmlElement | None = block
    for _ in range(depth):
        if inner is None or whole <= 0:
            return False
        if is_reply_run(inner, scores):
            return not signed or sum(1 for post in inner if signed_post(post)) * 2 > len(inner)
        inner = max(inner, key=lambda child: subtree.get(child, 0.0), default=None)
        if inner is not None and subtree.get(inner, 0.0) < REPLIES_SHARE * whole:
            return False
    return False


REPLIES_DEPTH = 4
REPLIES_SHARE = 0.7  # of a block's text: a run of replies holding this much makes it the comments


def _with_siblings(best: HtmlElement, scores: Scores) -> list[HtmlElement]:
    """The best container and those of its siblings that hold enough article text, few links."""
    parent = best.getparent()
    if parent is None or parent.tag == "html":
        return [best]
    mine = scores.subtree.get(best, 0.0)
    threshold = max(min(SIBLING_MIN, mine * 0.5), mine * SIBLING_SHARE)
    chosen = []
    signature = card_signature(best)  # blocks of one kind ("row band-a", "row band-b")
    lead = _lead_caption(parent, best)
    openings = _opening_blocks(best, scores, past_links=True)
    for sibling in parent:
        if lead is not None and sibling is lead:
            caption = lead.find(".//figcaption")
            if caption is not None:
                caption.tag = "p"  # the lead image's caption, beside the article's body: more of it
                chosen.append(caption)
            continue
        # a block of the same kind as the best one (the next part of an article split into sections)
        # needs only some article text
        enough = min(threshold, SIBLING_MIN_PEER) if card_signature(sibling) == signature else threshold
        if scores.thread:
            enough = min(enough, THREAD_REPLY)  # on a thread's page a short reply beside the post is a post
        elif sibling is not best and replies_below(sibling, scores):
            continue  # the replies below the article: its comments
        if sibling is best:
            chosen.append(sibling)
        elif (sibling.tag == "form" or _furniture_by_tag(sibling) or (not scores.thread and lists_items(sibling))
              or is_box_of_notices(sibling)):
            continue  # a form to fill in (a comment form and its rules), a sidebar or a menu by its tag or
            # role, the shop's products or the coming classes: not more of the article, however much text
        elif _joins(sibling, scores, enough, openings) and not _opens_as_notice(sibling):
            chosen.append(sibling)  # (not a disclaimer or a copyright line beside it, in whatever language)
    return _with_repeated_parents(parent, chosen, scores, threshold)


def _joins(sibling: HtmlElement, scores: Scores, enough: float, openings: list[HtmlElement]) -> bool:
    """Whether a block beside the article is more of it: its opening, or enough article text with few links
    or prose, unless its class or id calls it furniture."""
    if sibling in openings:
        return True
    text_enough = scores.subtree.get(sibling, 0.0) >= enough and link_density(sibling) < 0.3
    return (text_enough or _is_prose(sibling, scores)) and not _named_furniture(sibling, scores)


def _named_furniture(element: HtmlElement, scores: Scores) -> bool:
    """A block its class or id calls furniture and nothing of the article (a Joomla module after the
    article: `moduletable_sprawy`, the office's services in sentences)."""
    if scores.plain:
        return False
    kind = kind_of(element)
    return kind.negative and not kind.positive and not kind.comments


def _opening_block(best: HtmlElement, scores: Scores) -> HtmlElement | None:
    """The article's opening paragraph in a block of its own just before its body (no class saying it is
    the lead), with nothing between them but a little text (an advertisement's label, a caption)."""
    openings = _opening_blocks(best, scores)
    return openings[0] if openings else None


LINK_BOX = 0.5  # link density of a box the opening blocks may sit on either side of ("Related articles")


def _opening_blocks(best: HtmlElement, scores: Scores, past_links: bool = False) -> list[HtmlElement]:
    """The blocks of paragraphs just before the article's body, nearest first, with nothing between
    them but a little text; with past_links, a box of links too (an old news layout puts each of the
    first paragraphs in a block of its own, and a box of related articles before the body)."""
    found: list[HtmlElement] = []
    sibling = best.getprevious()
    while sibling is not None:
        text = text_of(sibling)
        if visible_length(text) >= SIBLING_PROSE:
            if _is_prose_block(sibling, scores):
                found.append(sibling)
            elif not (past_links and link_density(sibling, text) > LINK_BOX):
                break
        sibling = sibling.getprevious()
    return found


def _opens_as_notice(element: HtmlElement) -> bool:
    """A short block that opens with a notice's phrase (beside the article: set aside, whatever follows)."""
    text = text_of(element)
    return short_enough(text) and block_opens(element, opens_as_notice, text)


def _lead_caption(parent: HtmlElement, best: HtmlElement) -> HtmlElement | None:
    """The figure before the article's body, when it is the first and its caption says something."""
    for sibling in parent:
        if sibling is best:
            return None
        if sibling.tag == "figure":
            caption = sibling.find(".//figcaption")
            if caption is not None and visible_length(caption.text_content()) >= LEAD_CAPTION:
                return sibling
            return None
    return None


def _is_prose(element: HtmlElement, scores: Scores) -> bool:
    """A paragraph beside the article's container (the intro before a "read more" block, the lead
    above a table) is more of the article, whatever its score, when it is long and has few links."""
    if element.tag != "p" or scores.context_factor(element) < 1.0:
        return False
    text = element.text_content()
    return visible_length(text) >= SIBLING_PROSE and link_density(element, text) < 0.25


def _with_repeated_parents(parent: HtmlElement, chosen: list[HtmlElement], scores: Scores,
                           threshold: float) -> list[HtmlElement]:
    """Articles split into repeated blocks (`<div class="chunk">` after `<div class="chunk">`): when
    the chosen elements' parent has siblings of the same tag and class that hold article text too,
    those blocks are the article."""
    grandparent = parent.getparent()
    if grandparent is None or grandparent.tag in NO_TEXT or not parent.get("class"):
        return chosen
    same = [s for s in grandparent if signature(s) == signature(parent)]
    peers = [s for s in same if s is parent or (scores.subtree.get(s, 0.0) >= threshold
                                                 and link_density(s) < 0.3 and not kind_of(s).negative)]
    if len(peers) < 2:
        return _with_repeated_sections(parent, chosen, scores, threshold)
    return peers


SECTION_TEXT = 1500  # characters of a section that may be one of several alike


def _with_repeated_sections(parent: HtmlElement, chosen: list[HtmlElement], scores: Scores,
                            threshold: float) -> list[HtmlElement]:
    """A page of sections alike (`<div class="section">`, each holding only its container, and in it a
    title and the text): when the chosen blocks' parent is the one child of such a section, the sections
    beside it of the same kind that hold article text are more of it (an association's "Our story" and
    "How we work")."""
    unit = in_its_wrappers(parent)
    holder = unit.getparent()
    if unit is parent or holder is None or not unit.get("class") or len(unit.text_content()) > SECTION_TEXT:
        return chosen  # (a long article in a section of its own is the article)
    kind, shape = card_signature(unit), _shape(unit)
    peers = [s for s in holder if s is unit or (
        card_signature(s) == kind and scores.subtree.get(s, 0.0) >= threshold and _shape(s) == shape
        and link_density(s) < 0.3 and not _opens_as_notice(s))]
    return peers if len(peers) >= 2 else chosen


def _shape(unit: HtmlElement) -> tuple[tuple[str, str], ...]:
    """The tags and classes of the children of a section's first block of more than one (its title and
    its text, in the template every section of the page shares)."""
    return tuple((child.tag, child.get("class") or "") for child in innermost(unit) if isinstance(child.tag, str))
