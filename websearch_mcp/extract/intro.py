"""The opening paragraph under the page's title, when the chosen body starts below it.

A page builder puts the title and a line of introduction in a section of their own (a "hero"), and
the body in the sections after it; a newspaper's template puts the standfirst under the headline, in
a block without a class that says so. The body is chosen, and the introduction, a paragraph with
nothing of its own around it, is lost. Here the paragraphs between the page's one <h1> and the chosen
body join it when they read as sentences and nothing else of substance lies between.
"""

from __future__ import annotations

import copy
import itertools
import re

from websearch_mcp.extract.labels import LEAD, kind_of
from websearch_mcp.extract.main_content import INLINE_TAGS, Scores, is_sentence, only_one, within
from websearch_mcp.extract.notices import opens_as_notice
from websearch_mcp.extract.replies import NO_TEXT
from websearch_mcp.extract.text import text_of, visible_length

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from lxml.html import HtmlElement

INTRO_PARAGRAPHS = 2  # an introduction is a line or two
INTRO_PROSE = 40  # visible characters of a paragraph that may be the introduction
INTRO_LONGEST = 400  # and at most this many: a longer one is text of its own
BETWEEN = 300  # visible characters of other text between title and body that end the search
WALK = 400  # elements after the title looked at: an introduction is close to it
_NOT_INTRO = frozenset({"figure", "figcaption", "blockquote", "li", "td", "th", "aside", "nav", "footer", "form"})


def intro_before(chosen: list[HtmlElement], scores: Scores) -> list[HtmlElement]:
    """The paragraphs of introduction between the page's title and the first chosen block, if any."""
    if not chosen:
        return []
    title = _title_above(chosen[0])
    if title is None or any(within(title, block) for block in chosen):
        return []
    # what holds both the title and the body is the page's frame, however it is named
    layout = set(title.iterancestors()) & set(chosen[0].iterancestors())
    common = next((node for node in title.iterancestors() if node in layout), None)
    if common is not None and common.tag == "article":
        # inside the article, its header (with the title and the standfirst) is the article's own
        layout |= {node for node in itertools.takewhile(lambda node: node is not common, title.iterancestors())
                   if node.tag == "header" or "header" in (node.get("class") or "").lower()}
    kind = kind_of(chosen[0])
    if (kind.negative and not kind.positive) or _in_furniture_below(chosen[0], layout, scores):
        return []  # a block that is not the page's own text (testimonials, a box) takes no introduction
    return [_as_paragraph(element) for element in _paragraphs_between(title, chosen[0], scores, layout) or []]


def _as_paragraph(element: HtmlElement) -> HtmlElement:
    """The introduction as the paragraph it is: a standfirst set as a subheading is no section's title."""
    if element.tag == "p":
        return element
    paragraph = copy.deepcopy(element)
    paragraph.tag, paragraph.tail = "p", None
    return paragraph


def _in_furniture_below(element: HtmlElement, layout: set[HtmlElement], scores: Scores) -> bool:
    """Whether an element sits in furniture (a sidebar, a footer) below the blocks that hold the title as
    well (a news site's main column named `sidebar_main` holds both)."""
    return any(scores.context_factor(node) < 1.0 for node in [element, *element.iterancestors()]
               if node not in layout and node.tag not in NO_TEXT)


TITLES = 4  # <h1> elements on a page beyond which none is taken for the article's title


def _title_above(first: HtmlElement) -> HtmlElement | None:
    """The page's title above the chosen block: its one <h1>, or the last of a few before the block (a
    second <h1> titles the related stories below the article)."""
    titles = list(itertools.islice(first.getroottree().iter("h1"), TITLES + 1))
    before = [title for title in titles if _follows(first, title)] if len(titles) <= TITLES else []
    return before[-1] if before else None


def soon_below_title(first: HtmlElement) -> bool:
    """Whether a block holds the page's one <h1> or comes soon below it (BETWEEN characters of other text
    at most between them): the body under the page's title, not a line found elsewhere."""
    title = only_one(first.getroottree(), "h1")
    if title is None:
        return False
    if within(title, first):
        return True
    return _follows(first, title) and _paragraphs_between(title, first, None) is not None


def _follows(element: HtmlElement, other: HtmlElement) -> bool:
    """Whether element comes after other in the page's order (neither holding the other), read from the
    children of their nearest common ancestor that lead to each."""
    path = [element, *element.iterancestors()]
    positions = {node: index for index, node in enumerate(path)}
    child = other
    for ancestor in other.iterancestors():
        if ancestor in positions:
            below = positions[ancestor] - 1
            return below >= 0 and ancestor.index(path[below]) > ancestor.index(child)
        child = ancestor
    return False


def _paragraphs_between(title: HtmlElement, first: HtmlElement, scores: Scores | None,
                        layout: set[HtmlElement] | None = None) -> list[HtmlElement] | None:
    """The paragraphs after the title and before first that read as an introduction (none looked for
    without scores), or None when first does not follow the title soon or other text of substance lies
    between them."""
    above = set(first.iterancestors())
    found: list[HtmlElement] = []
    taken: set[HtmlElement] = set()  # the found paragraphs and what they hold
    other = visible_length(title.tail or "")
    for element in itertools.islice(_after(title), WALK):
        if element is first:
            return found
        if element in taken:
            continue
        if scores is not None and _may_be_intro(element) and element not in above \
                and not _under_tag(element, _NOT_INTRO) and _reads_as_intro(element, text_of(element), scores, layout) \
                and not _repeats(element):
            if len(found) == INTRO_PARAGRAPHS:
                return None
            found.append(element)
            taken.update(element.iter())
            continue
        other += visible_length(element.text or "") + (0 if element in above else visible_length(element.tail or ""))
        if other > BETWEEN:
            return None
    return None  # the body is not soon below the title


# A standfirst set as a subheading (`<h2 class="description">`, an agency's `<h4>` under the headline): a
# sentence, where a section's heading is a few words. Or a block of text with no paragraph in it, whose
# class names a lead (`<div class="chapo">`): a box of text without that name is as likely a notice.
_STANDFIRST_HEADINGS = frozenset({"h2", "h3", "h4"})
_DESCRIPTION = re.compile(r"description", re.IGNORECASE)  # Plone's `documentDescription`, a portal's `description`


def _may_be_intro(element: HtmlElement) -> bool:
    if element.tag == "p":
        return True
    names = element.get("class") or ""
    named_lead = element.tag == "div" and (LEAD.search(names) is not None or _DESCRIPTION.search(names) is not None)
    if element.tag not in _STANDFIRST_HEADINGS and not named_lead:
        return False
    return all(child.tag in INLINE_TAGS for child in element if isinstance(child.tag, str))


def _after(title: HtmlElement) -> Iterator[HtmlElement]:
    """The elements after the title (and its own content) in the page's order."""
    element: HtmlElement | None = title
    while element is not None:
        for sibling in element.itersiblings():
            yield from (node for node in sibling.iter() if isinstance(node.tag, str))
        element = element.getparent()


def _repeats(paragraph: HtmlElement) -> bool:
    """Whether a paragraph repeats one of the page's titles (whole, where the title was cut short with an
    ellipsis)."""
    text = " ".join(text_of(paragraph).split())
    for title in itertools.islice(paragraph.getroottree().iter("h1"), TITLES):
        heading = " ".join(text_of(title).split()).rstrip("…. ")
        if len(heading) >= 20 and text.startswith(heading):
            return True
    return False


STANDFIRST_HEADING = 80  # visible characters of a subheading that is a standfirst (a blog's tagline is shorter)
_FULL_STOPS = (".", "!", "?", "…", "。", "！", "？")  # a headline ends in a quotation mark, a standfirst in a stop


def _reads_as_intro(paragraph: HtmlElement, text: str, scores: Scores, layout: set[HtmlElement] | None) -> bool:
    if paragraph.tag in _STANDFIRST_HEADINGS and (visible_length(text) < STANDFIRST_HEADING
                                                  or not text.rstrip().endswith(_FULL_STOPS)):
        return False
    return (visible_length(text) <= INTRO_LONGEST and is_sentence(paragraph, INTRO_PROSE)
            and not opens_as_notice(text) and not _in_furniture_below(paragraph, layout or set(), scores))


def _under_tag(element: HtmlElement, tags: frozenset[str]) -> bool:
    return any(ancestor.tag in tags for ancestor in element.iterancestors())
