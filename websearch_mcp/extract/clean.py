"""Removes what is never content, and names what is page furniture by its class or id."""

from __future__ import annotations

import re

from lxml import etree

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

JUNK_TAGS = ("script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "embed",
             "button", "input", "select", "textarea", "label", "dialog", "link", "meta", "map", "audio",
             "video", "picture", "source", "img")

_EDGE = r"(?:^|[\s_-])"
_END = r"(?:$|[\s_-])"
# Class or id words of page furniture; each match costs a candidate 25 points.
NEGATIVE = re.compile(
    _EDGE + r"(?:comments?|commentlist|disqus|share|sharing|social|related|recommend\w*|newsletter|subscribe\w*|"
    r"signup|promo\w*|advert\w*|ads?|adslot|sponsor\w*|sidebar|widget|breadcrumbs?|cookie\w*|consent|gdpr|"
    r"popup|modal|banner|outbrain|taboola|tags?|keywords|more-stories|trending|popular|byline|author|"
    r"toolbar|pagination|pager|nav|navbar|navigation|menu|masthead|footer|header|skip|hidden|caption|"
    r"credit|shoutbox|skyscraper|shopping|footnote|meta|contact|combx|rating|reply|respond)" + _END,
    re.IGNORECASE)
# Class or id words of the article itself; each match earns a candidate 25 points.
POSITIVE = re.compile(
    _EDGE + r"(?:article\w*|story\w*|entry\w*|hentry|h-entry|post|post-?content|post-?body|content|"
    r"body|main|text|prose|blog|page|articlebody|article-?body|story-?body|entry-content)" + _END,
    re.IGNORECASE)
# Comment sections: nothing inside them is the article ("commentary" and "responsive" are not comments).
STRONG_NEGATIVE = re.compile(r"comment(?!ary|ator)|disqus|" + _EDGE + r"(?:respond|reply|replies)" + _END,
                             re.IGNORECASE)


_MAYBE_HIDDEN = etree.XPath("//body//*[@hidden or @aria-hidden or @style]")


def drop_junk(tree: HtmlElement) -> None:
    """Remove scripts, styles, embedded media, images and form controls, keeping text that follows them."""
    etree.strip_elements(tree, *JUNK_TAGS, etree.Comment, etree.ProcessingInstruction, with_tail=False)
    for element in _MAYBE_HIDDEN(tree):
        style = element.get("style")
        hidden = (element.get("hidden") is not None or element.get("aria-hidden") == "true"
                  or (style is not None and "display:none" in style.replace(" ", "").lower()))
        if hidden and element.getparent() is not None:
            element.drop_tree()


def class_weight(element: HtmlElement) -> float:
    """Points for what an element's class and id say it is."""
    label = f"{element.get('class', '')} {element.get('id', '')}"
    if len(label) < 2:
        return 0.0
    weight = 0.0
    if NEGATIVE.search(label):
        weight -= 25.0
        if STRONG_NEGATIVE.search(label):
            weight -= 25.0
    if POSITIVE.search(label):
        weight += 25.0
    if element.get("itemprop") == "articleBody":
        weight += 50.0
    return weight


_PRUNE_CANDIDATES = ("div", "section", "aside", "ul", "ol", "table", "p", "span", "figure", "figcaption", "h1", "h2",
                     "h3", "h4", "header", "footer", "nav", "form", "dl")
_ALWAYS_DROP = frozenset({"figure", "figcaption", "h1", "nav", "form"})
_LISTS = frozenset({"ul", "ol", "div", "section", "table", "dl", "aside", "p", "h2", "h3", "h4"})
# Labels of widgets that sit inside articles: "Advertisement", "Read more", "You may also like...".
_NOISE = re.compile(
    r"^(?:advert\w*|ad|sponsored( content)?|story continues below( advertisement)?|continue reading\w*|read more\w*|"
    r"related( articles| stories| content| posts)?|share( this( article| story)?)?|you (may|might) also like\w*|"
    r"don'?t miss|see more|more from \w+|more stories|tags?|topics|previous post|next post|report (an )?error|"
    r"top videos?|recommended( for you)?|this slideshow requires javascript|click (here|to) \w+|"
    r"sign up for \w+|subscribe( now)?|follow us\w*|(posted|published|updated|last updated)( on| at)?\b.*|"
    r"(?:©|\(c\)|copyright)\s.*|all rights reserved.*)$",
    re.IGNORECASE)
_BYLINE = re.compile(r"^(?:by|posted by|written by|author:?)\s+\S", re.IGNORECASE)


def prune(root: HtmlElement) -> None:
    """Inside the chosen content, remove furniture: captions, titles, link lists, labelled widgets."""
    total = len(root.text_content()) or 1
    for element in list(root.iter(*_PRUNE_CANDIDATES)):  # one pass, in document order
        if element is not root and _is_furniture(element, total):
            element.drop_tree()


def _is_furniture(element: HtmlElement, total: int) -> bool:
    text = element.text_content()
    size = len(text)
    label = f"{element.get('class', '')} {element.get('id', '')}"
    if len(label) > 2 and STRONG_NEGATIVE.search(label):
        return True  # comments go however long they are
    if size >= total * 0.4:
        return False  # whatever its name says, an element holding this much of the text is the article
    tag = element.tag
    if tag in _ALWAYS_DROP:
        return True
    if class_weight(element) < 0 or (tag == "header" and size < total * 0.2):
        return True
    if tag in _LISTS and _link_heavy(element, size):
        return True
    if size < 120:
        line = " ".join(text.split()).rstrip(":.…! ")
        if _NOISE.match(line) or (size < 60 and _BYLINE.match(line)):
            return True
        if size < 100 and tag != "p" and element.find(".//time") is not None:
            return True
    return False


def _link_heavy(element: HtmlElement, size: int) -> bool:
    if not size:
        return False
    linked = sum(len(a.text_content()) for a in element.iter("a"))
    return linked / size > 0.5
