"""Removes what is never content, and prunes page furniture from the chosen content."""

from __future__ import annotations

import itertools
import re
from collections import Counter

import lxml.html
from lxml import etree

from websearch_mcp.extract.labels import LEAD, hides, kind_of
from websearch_mcp.extract.main_content import is_sentence
from websearch_mcp.extract.notices import (
    PROSE_BESIDE,
    is_box_of_notices,
    is_notice_block,
    opening_of,
    opens_as_notice,
    opens_as_site_note,
    short_enough,
)
from websearch_mcp.extract.replies import READ_ALSO_LINE, lead_in, mark_titled_sections
from websearch_mcp.extract.streamed import place_streamed_parts
from websearch_mcp.extract.teasers import card_signature, is_teaser_grid, marked_other_pages
from websearch_mcp.extract.text import (
    ends_a_sentence,
    host_of,
    in_its_wrappers,
    inside,
    link_density,
    linked_length,
    text_of,
    visible_length,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

JUNK_TAGS = ("script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "embed",
             "button", "input", "select", "textarea", "label", "dialog", "link", "meta", "map", "audio",
             "video", "picture", "source", "img",
             "rt", "rp")  # a ruby annotation (the reading of 子供) would run into its base text: 子こども

# The attributes rather than the elements: the same search in half the time of an element predicate.
_MAYBE_HIDDEN = etree.XPath("//body//@hidden | //body//@aria-hidden | //body//@style"
                             " | //body//@class[contains(., 'hidden') or contains(., 'd-none')]")
_NAMED_ANCHORS = etree.XPath("//a[not(@href)][@name or @id]")
# A <noscript> with this much text is content (the page's no-JavaScript copy, or the rest of the page
# that an unclosed <noscript> swallowed), not a tracking pixel or a "please enable JavaScript" note.
NOSCRIPT_CONTENT = 200
# A button or a label left open (`<button><div></button>`: the parser keeps the <div> open and ignores the
# end tag, where a browser closes both) swallows the rest of the page, as can a dialog, a plugin's <object>
# or a media element whose end tag went missing. One that holds more than this share of the page's text
# is a wrapper, not a control or a fallback.
SWALLOWING_CONTROL = 0.5
_CONTROLS_LEFT_OPEN = ("button", "label", "dialog", "object", "map", "audio", "video", "canvas", "picture")
# A hidden element holding this share of the page's text is a wrapper that broken markup closed around
# the article (a browser's HTML5 parser would not have); removing it would remove the article.
HIDDEN_WRAPPER_SHARE = 0.3
# A hidden element holding this share of the page's one <main> is its content, hidden until a script
# shows it (a shop's lock-down app, a fade-in): the reader sees it once the page has run.
HIDDEN_MAIN_SHARE = 0.8
# A hidden element holding this many times the text the page shows is the content a script reveals
# (a shop's deferred product block under a bare header), not a menu or a dialog beside it.
HIDDEN_OVER_SHOWN = 2.0
# Visible characters outside links that make a list item a sentence around its links, not a title.
SENTENCE_AROUND_LINKS = 25


def drop_junk(tree: HtmlElement) -> None:
    """Remove scripts, styles, embedded media, images, form controls and hidden elements, keeping text
    that follows them, and content that sits in <noscript> or inside a hidden wrapper. Parts a React
    server streamed after the page's frame are first put where its scripts put them."""
    place_streamed_parts(tree)
    for noscript in list(tree.iter("noscript")):
        if not len(noscript) and "<" in (noscript.text or ""):
            _parse_as_markup(noscript)
        if len(noscript.text_content().strip()) >= NOSCRIPT_CONTENT:
            noscript.tag = "div"
    _unwrap_swallowing_controls(tree)
    etree.strip_elements(tree, *JUNK_TAGS, etree.Comment, etree.ProcessingInstruction, with_tail=False)
    for anchor in _NAMED_ANCHORS(tree):
        anchor.tag = "span"  # a place to link to (`<a name="seq1">`), not a link: its text is the page's own
    mark_titled_sections(tree)
    owners = list(dict.fromkeys(attribute.getparent() for attribute in _MAYBE_HIDDEN(tree)))
    panels = _collapsed_panels(owners)
    hidden = [element for element in owners if _is_hidden(element, panels)]
    if not hidden:
        return
    body = tree.find("body")
    total = len(body.text_content()) if body is not None else 0
    mains = list(itertools.islice(tree.iter("main"), 2))
    main = mains[0] if len(mains) == 1 else None
    main_text = len(main.text_content()) if main is not None else 0
    sizes = {element: len(element.text_content()) for element in hidden}
    shown = total - sum(sizes[element] for element in outermost(hidden))
    page_text: str | None = None
    for element in hidden:
        if element.getparent() is None:
            continue
        size = sizes[element]
        if size < total * HIDDEN_WRAPPER_SHARE and size < shown * HIDDEN_OVER_SHOWN and not (
                size >= main_text * HIDDEN_MAIN_SHARE > 0 and main in element.iterancestors()):
            drop(element)
            continue
        if page_text is None:
            page_text = body.text_content() if body is not None else ""
        if _said_elsewhere(element.text_content(), page_text):
            drop(element)  # a hidden copy of what the page shows (a paywall's duplicate of the article)


def _unwrap_swallowing_controls(tree: HtmlElement) -> None:
    """A control or media element holding most of the page's text (markup left open) becomes a plain block."""
    body = tree.find("body")
    if body is None:
        return
    total: int | None = None
    for control in list(body.iter(*_CONTROLS_LEFT_OPEN)):
        size = len(control.text_content())
        if size < NOSCRIPT_CONTENT:
            continue
        if total is None:
            total = len(body.text_content())
        if size > total * SWALLOWING_CONTROL:
            control.tag = "div"


REPEAT_SAMPLE = 80  # characters of a hidden block looked for again in the page's text
REPEAT_SAMPLES = 3


def _said_elsewhere(text: str, page_text: str) -> bool:
    """Whether runs of a block's text occur in the page's text outside the block (another copy of it): a
    few samples from its body, each taken within one line of the page's source."""
    lines = [line.strip() for line in text.splitlines() if len(line.strip()) >= REPEAT_SAMPLE * 2]
    if not lines:
        return False
    longest = max(lines, key=len)
    step = max(1, (len(longest) - REPEAT_SAMPLE) // REPEAT_SAMPLES)
    samples = [longest[start:start + REPEAT_SAMPLE] for start in range(step // 2, len(longest) - REPEAT_SAMPLE, step)]
    samples = samples[:REPEAT_SAMPLES]
    return len(samples) >= 2 and all(page_text.count(sample) > text.count(sample) for sample in samples)


def outermost(elements: list[HtmlElement]) -> list[HtmlElement]:
    """The elements with none of the others above them (each ancestor looked at once)."""
    marked = set(elements)
    covered: dict[HtmlElement, bool] = {}  # whether an element or one above it is marked

    def is_covered(node: HtmlElement | None) -> bool:
        path = []
        while node is not None and node not in covered and node not in marked:
            path.append(node)
            node = node.getparent()
        result = node is not None and (node in marked or covered[node])
        for element in path:
            covered[element] = result
        return result

    return [element for element in elements if not is_covered(element.getparent())]


def _parse_as_markup(noscript: HtmlElement) -> None:
    """A <noscript> the parser left as raw text (in <head>, for one) holds markup, not text: parse it,
    so that a tracking pixel counts as the image it is and an article as its paragraphs."""
    try:
        parts = lxml.html.fragments_fromstring(noscript.text or "")
    except (etree.ParserError, ValueError):
        return
    noscript.text = parts.pop(0) if parts and isinstance(parts[0], str) else None
    for part in parts:
        if not isinstance(part, str):
            noscript.append(part)


_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def drop(element: HtmlElement) -> None:
    """Remove an element and its content, keeping the text that follows it."""
    try:
        element.drop_tree()
    except ValueError:
        # libxml2 keeps characters XML forbids in text nodes, and lxml refuses to join such a tail to
        # the text before it: clean both, then drop (checked here, not on every page, for speed)
        element.tail = _CONTROL.sub("", element.tail or "")
        previous, parent = element.getprevious(), element.getparent()
        if previous is not None:
            previous.tail = _CONTROL.sub("", previous.tail or "")
        elif parent is not None:
            parent.text = _CONTROL.sub("", parent.text or "")
        element.drop_tree()


def _is_hidden(element: HtmlElement, panels: frozenset[str] = frozenset()) -> bool:
    style = element.get("style")
    return (element.get("hidden") is not None or element.get("aria-hidden") == "true"
            or (style is not None and "display:none" in style.replace(" ", "").lower())
            or _hidden_by_class(element, panels))


PANELS = 3  # blocks hidden by the same classes that make them a page's collapsed panels (a FAQ's answers)
PANEL_TEXT = 80  # characters of each: an answer, not a label ("Continue reading the main story")


def _collapsed_panels(owners: list[HtmlElement]) -> frozenset[str]:
    """The class names that PANELS or more blocks hidden by a class share: an accordion's answers or a
    carousel's slides, each shown when the reader asks, not a box the page keeps out of sight."""
    counts = Counter(names for names, element in ((element.get("class"), element) for element in owners)
                     if names and hides(names) and len(element.text_content()) >= PANEL_TEXT)
    return frozenset(names for names, count in counts.items() if count >= PANELS)


def _hidden_by_class(element: HtmlElement, panels: frozenset[str]) -> bool:
    """Whether a class hides an element at every screen width, and it is neither one of a page's collapsed
    panels nor one of a list of items alike that shows only some of them (the rest of a FAQ behind "show
    more")."""
    names = element.get("class")
    if not names or not hides(names) or names in panels:
        return False
    parent = element.getparent()
    alike = {name for name in names.split() if not hides(name)}
    return parent is None or not any(
        sibling is not element and sibling.tag == element.tag and set((sibling.get("class") or "").split()) == alike
        for sibling in parent)


_PRUNE_CANDIDATES = ("div", "section", "aside", "ul", "ol", "table", "p", "span", "figure", "figcaption", "h1", "h2",
                     "h3", "h4", "header", "footer", "nav", "form", "dl")
# The page's title (<h1>) comes with the metadata; a figure's caption is not the article's prose.
_ALWAYS_DROP = frozenset({"figure", "figcaption", "h1", "nav", "form"})
_HEADINGS = frozenset({"h2", "h3", "h4"})
_LISTS = frozenset({"ul", "ol", "div", "section", "table", "dl", "aside", "h2", "h3", "h4"})
# Labels of widgets that sit inside articles: "Advertisement", "Read more", "You may also like...".
_NOISE = re.compile(
    r"^(?:advert\w*|ad|sponsored( content)?|story continues below( advertisement)?|"
    r"continue reading( the main story)?|read more\w*|"
    r"related( articles| stories| content| posts)?|share( this( article| story)?)?|you (may|might) also like\w*|"
    r"don'?t miss|see more|more from \w+|more stories|tags?|topics|previous post|next post|report (an )?error|"
    r"top videos?|recommended( for you)?|this slideshow requires javascript|click (here|to) \w+|"
    r"sign up for \w+|subscribe( now)?|follow us\w*|(posted|published|updated|last updated)( on| at)?\b.*|"
    r"(?:©|\(c\)|copyright)\s.*|all rights reserved.*)$",
    re.IGNORECASE)
# The time an article takes to read ("4 min read", "Lesezeit: 3 Minuten", "Temps de lecture : 2 min", "2min").
_READING_TIME = re.compile(
    r"^(?:(?:reading time|read time|lesezeit|lesedauer|temps de lecture|tiempo de lectura|tempo di lettura|"
    r"tempo de leitura|czas czytania|время чтения|час читання|leestijd|lästid|lesetid|læsetid|lukuaika|"
    r"okuma süresi|doba čtení|χρόνος ανάγνωσης)\W*(?:ca\.?\s*)?\d+\s*\w*|"
    r"(?:ca\.?\s*)?\d+\s*(?:min|mins|minutes?|minuten|minutos|minuti|minut|минут[аы]?|хвилин[аи]?|dk|dakika)\.?"
    r"(?:\s+(?:read|reading|lesezeit|lesedauer|de lecture|de lectura|di lettura|de leitura|czytania|чтения|"
    r"читання|leestijd|okuma))?)$",
    re.IGNORECASE)
_BYLINE = re.compile(r"^(?:by|posted by|written by|author:?)\s+\S", re.IGNORECASE)


LINKED_TITLES = 6  # headings that are links, in the chosen content: the names of the entries it lists


def prune(root: HtmlElement, host: str = "", thread: bool = False, calls: bool = True) -> None:
    """Inside the chosen content, remove furniture: captions, titles, link lists, labelled widgets,
    teaser grids, the site's notes to its reader. The lead image's caption stays (as a paragraph), and
    so does a list of links to other sites (a link post's content) when the page's host is known. When
    the content holds LINKED_TITLES headings that are links (a "top ten" whose items' names link to
    them, an index of posts), a heading that is a link stays: it names the entry its text describes.
    Calls to action go too, unless calls is false (a page whose content is spread over its sections,
    a call among them, as a service's landing page)."""
    text = text_of(root)
    total, shown = len(text) or 1, visible_length(text)
    entries = _linked_titles(root) >= LINKED_TITLES
    if not _keep_gallery_captions(root, total):
        _keep_lead_caption(root)
    runs: dict[tuple[HtmlElement, str, bool], bool] = {}
    # a code block is verbatim: a highlighter's `hljs-comment` or `token comment` span is the code's own
    verbatim = inside(root, "pre", "code")
    posts = _forms_of_posts(root, total)
    # on a thread's page, the blocks around a post's form are the post and its replies (a reply nested
    # under another, its action links many beside a short text), not a box of links
    around_posts = {a for form in posts for a in form.iterancestors() if a is not root} if thread else set()
    dropped: set[HtmlElement] = set()
    for element in list(root.iter(*_PRUNE_CANDIDATES)):  # one pass, in document order
        if element is root or element in verbatim or (dropped and _inside_dropped(element, root, dropped)):
            continue
        if posts and (element in posts or element in around_posts):
            continue  # a post's text in its edit form: the form is no furniture (what it holds is read on)
        # (a list of other pages under a title that says so goes wherever its links lead: "Read also")
        if is_teaser_grid(element) or marked_other_pages(element) or (
                _is_furniture(element, total, runs, thread, entries, calls, shown)
                and not _links_elsewhere(element, host)):
            drop(element)
            dropped.add(element)
        elif element.tag == "header" and len(element.text_content()) < total * 0.2 and lead_in(element) is None:
            dropped.update(_header_to_standfirst(element))  # (a header the rule above keeps for its standfirst)
    _drop_closing_notices(root)


READ_ALSO_TEXT = 400  # characters: a "Read also: …" line, not a block that opens with one
POST_FORMS = 3  # forms alike that hold text: each post of a thread in its edit form (old Reddit's `usertext`)
POST_FORMS_SHARE = 0.4  # of the content's text, held by those forms together


def _forms_of_posts(root: HtmlElement, total: int) -> set[HtmlElement]:
    """Forms that hold the posts of a thread: three or more alike (tag and first class), each with text,
    holding much of the content's text together. A form is furniture (a search box, a comment form and
    its rules) except where a site puts every post in one, to be edited in place."""
    groups: dict[str, list[HtmlElement]] = {}
    for form in root.iter("form"):
        if form is not root and form.get("class"):
            groups.setdefault(card_signature(form), []).append(form)
    posts: set[HtmlElement] = set()
    for forms in groups.values():
        sizes = [len(text_of(form).strip()) for form in forms]
        if len(forms) >= POST_FORMS and all(sizes) and sum(sizes) >= total * POST_FORMS_SHARE:
            posts.update(forms)
    return posts


def _on_a_line_of_its_own(element: HtmlElement) -> bool:
    """Whether no text of the line it sits in comes before or after an element ("Cooking time: <b>10
    minutes</b>" is one line)."""
    previous, parent = element.getprevious(), element.getparent()
    before = previous.tail if previous is not None else parent.text if parent is not None else None
    return not (before or "").strip() and not (element.tail or "").strip()


def _linked_titles(root: HtmlElement) -> int:
    """Headings (h2 to h4) below root that hold a link, counted up to LINKED_TITLES."""
    linked = (heading for heading in root.iter(*_HEADINGS) if next(heading.iter("a"), None) is not None)
    return sum(1 for _ in itertools.islice(linked, LINKED_TITLES))


CLOSING_NOTICES = 3  # notices at the content's end looked at (a copyright line, a reprint rule, a disclaimer)
CLOSING_LINE = 100  # visible characters of a line after them that is looked past (a photo credit, the author)
CLOSING_LINES = 2


def _drop_closing_notices(root: HtmlElement) -> None:
    """The blocks that close the content when they are notices (a copyright line, a reprint rule): what
    the site says under every article, not the article. A short line or two after them (the photo's
    credit, the author's name) is looked past, and stays."""
    looked_past: list[tuple[HtmlElement, HtmlElement]] = []
    for _ in range(CLOSING_NOTICES + CLOSING_LINES):
        closing = _closing_block(root)
        if closing is None:
            closing = _closing_line(root)
        if closing is None:
            break
        if is_notice_block(closing, _opens_closing_notice):
            drop(closing)
        elif len(looked_past) < CLOSING_LINES and visible_length(text_of(closing)) <= CLOSING_LINE:
            stand_in = etree.Element("span")
            closing.getparent().replace(closing, stand_in)  # out of the text's end while the rest is read
            looked_past.append((stand_in, closing))
        else:
            break
    for stand_in, line in reversed(looked_past):
        parent = stand_in.getparent()
        if parent is not None:
            parent.replace(stand_in, line)


# Characters read for a closing notice's phrase: it says what it is at once ("© 2019 AP. All rights
# reserved"), within two sentences, and within a hundred characters of Chinese or Japanese.
CLOSING_OPENING = 160
CLOSING_OPENING_CJK = 100


def _opens_closing_notice(text: str) -> bool:
    return opens_as_notice(opening_of(text.strip(), CLOSING_OPENING, CLOSING_OPENING_CJK), CLOSING_OPENING)


def _closing_block(root: HtmlElement) -> HtmlElement | None:
    """The outermost block below root whose text is the end of root's text (its last paragraph, and the
    wrappers that hold nothing else), if one does end it."""
    text = text_of(root).rstrip()
    last, ending = None, ""
    for element in reversed(list(root.iter(*_CLOSING_TAGS))):  # the last block with text (a share bar has none)
        ending = text_of(element).strip() if element is not root else ""
        if ending:
            last = element
            break
    if last is not None and not text.endswith(ending):
        text = _before_trailer(text, last)  # the editor's name after it, in no block: "(责任编辑：admin)"
    if last is None or not short_enough(ending) or not text.endswith(ending) or len(ending) * 2 > len(text):
        return None  # (a long last block is no notice: no climb through its wrappers)
    while True:
        parent = last.getparent()
        if parent is None or parent is root or text_of(parent).strip() != ending:
            return last
        last = parent


def _before_trailer(text: str, last: HtmlElement) -> str:
    """A content's text without the short line that follows its last block outside any block (the text
    after the block's end tag: an editor's credit), when that line ends the text."""
    trailer = (last.tail or "").strip()
    if trailer and visible_length(trailer) <= CLOSING_LINE and text.endswith(trailer):
        return text[:-len(trailer)].rstrip()
    return text


_LINE_TAGS = frozenset({"i", "em", "small", "span", "b", "strong", "font"})


def _last_with_text(element: HtmlElement) -> HtmlElement | None:
    """An element's last child, past empty ones with nothing after them (Blogger's `<div style="clear:
    both">` after the post's last line)."""
    for child in reversed(element):
        if child.tag == "br" or len(child) or (child.text or "").strip() or (child.tail or "").strip():
            return child
    return None


def _closing_line(root: HtmlElement) -> HtmlElement | None:
    """The content's last line when it is an inline element after a line break or a block, ending the text
    (a blog's "<br><br><i>© All texts and photos…</i>", an agency's `</p><span>…subscribers…</span>`), with
    no paragraph around it."""
    last = root
    while (child := _last_with_text(last)) is not None and not (child.tail or "").strip():
        last = child
        if last.tag in _LINE_TAGS:
            previous = last.getprevious()
            ending = text_of(last).strip()
            after_a_break = previous is not None and (previous.tag == "br" or previous.tag in _CLOSING_TAGS)
            if after_a_break and ending and text_of(root).rstrip().endswith(ending):
                return last
            return None
    return None


def _inside_dropped(element: HtmlElement, root: HtmlElement, dropped: set[HtmlElement]) -> bool:
    """Whether an element went with a block dropped before it (no need to judge it)."""
    parent = element.getparent()
    while parent is not None and parent is not root:
        if parent in dropped:
            return True
        parent = parent.getparent()
    return parent is None


LEAD_CAPTION = 30  # visible characters that make the first figure's caption worth keeping
LEAD_PROSE = 80  # visible characters of a paragraph before it that make a figure part of the story's body


def _keep_lead_caption(root: HtmlElement) -> None:
    """The first figure's caption, as a paragraph in the figure's place, when the figure comes before the
    article's prose (the lead image; a photo between two sections is not the story's)."""
    figure = _lead_figure(root)
    caption = figure.find(".//figcaption") if figure is not None else None
    if figure is None or caption is None or figure.getparent() is None:
        _keep_opening_caption(root)
        return
    if visible_length(caption.text_content()) >= LEAD_CAPTION and not kind_of(caption).negative:
        _caption_before(figure, caption)


GALLERY_FIGURES = 3  # captioned figures that, holding more text than the prose beside them, make a gallery


def _keep_gallery_captions(root: HtmlElement, total: int) -> bool:
    """A gallery (a post of photos, its prose a few lines above them): when GALLERY_FIGURES or more
    figures have a caption of LEAD_CAPTION characters and their captions hold more text than the rest,
    the captions are what it says, and each stays as a paragraph in its figure's place."""
    captions = []
    for figure in root.iter("figure"):
        caption = figure.find(".//figcaption")
        if caption is not None and visible_length(caption.text_content()) >= LEAD_CAPTION:
            captions.append((figure, caption))
    if len(captions) < GALLERY_FIGURES:
        return False
    held = sum(len(caption.text_content()) for _, caption in captions)
    if held * 2 < total:
        return False
    for figure, caption in captions:
        if figure.getparent() is not None:
            caption.attrib.pop("class", None)  # `caption`: a class word for furniture, which it is not here
            _caption_before(figure, caption)
    return True


def _caption_before(figure: HtmlElement, caption: HtmlElement) -> None:
    """A figure's caption as a paragraph of its own just before the figure (which goes with the rest)."""
    caption.tag = "p"
    caption.tail = None
    figure.addprevious(caption)


def _lead_figure(root: HtmlElement) -> HtmlElement | None:
    """The first <figure>, unless a paragraph of the body's prose comes before it (a standfirst or a
    caption may)."""
    for element in root.iter("figure", "p"):
        if element.tag == "figure":
            return element
        label = element.get("class") or ""
        if (visible_length(text_of(element)) >= LEAD_PROSE and not _CAPTION_CLASS.search(label)
                and not LEAD.search(label)):
            return None
    return None


_CAPTION_CLASS = re.compile(r"(?:^|[\s_-])caption(?:$|[\s_-])", re.IGNORECASE)


def _keep_opening_caption(root: HtmlElement) -> None:
    """A lead image's caption without <figure> (WordPress's `wp-caption-text`): when the content's first
    paragraph is a caption, it stays as a paragraph, in place of the captioned block around it."""
    first = next(root.iter("p"), None)
    if first is None or visible_length(first.text_content()) < LEAD_CAPTION:
        return
    outer = None
    for element in [first, *first.iterancestors()]:
        if element is root:
            break
        if _CAPTION_CLASS.search(element.get("class") or ""):
            outer = element
    if outer is None:
        return
    first.attrib.pop("class", None)
    if outer is not first:
        first.tail = None
        outer.addprevious(first)


def _links_elsewhere(element: HtmlElement, host: str) -> bool:
    """A list of three or more links, most of them to other sites: what a link post is made of."""
    if not host or element.tag not in ("ul", "ol"):
        return False
    links = [a.get("href", "") for a in element.iter("a")]
    if len(links) < 3:
        return False
    outside = sum(1 for href in links if href.startswith(("http://", "https://")) and host_of(href) != host)
    return outside * 3 >= len(links) * 2


def _is_furniture(element: HtmlElement, total: int, runs: dict[tuple[HtmlElement, str, bool], bool],
                  thread: bool = False, entries: bool = False, calls: bool = True, shown: int = 0) -> bool:
    """Whether a block inside the content is furniture; total is the content's length, shown its visible
    characters."""
    text = text_of(element)
    size = len(text)
    kind = kind_of(element)
    if kind.comments and not thread:
        return True  # comments go however long they are (but a thread's replies are its content)
    if size >= SITE_NOTE_MIN and element.tag in _NOTE_TAGS and is_notice_block(element, opens_as_site_note, text):
        return True  # the site's note to its reader: cookies, an old browser, comment rules, an offer
    if element.tag in _BOX_TAGS and is_box_of_notices(element):
        return True  # a box of notices, paragraph after paragraph: rights, disclaimers, comment rules, data
    # whatever its name says, an element holding this much of the text is the article (of the text a reader
    # sees: a box of tags indented line by line is mostly white space)
    if size >= total * 0.4 and visible_length(text) >= shown * 0.35 and not (
            kind.negative and (is_notice_block(element, opens_as_notice, text) or is_teaser_grid(element))):
        return False
    tag = element.tag
    if calls and not thread and tag in _BOX_TAGS and size <= CALL_TEXT * 3 and _is_call_to_action(element, text):
        return True
    if tag in _ALWAYS_DROP and not _holds_text(element):
        return True
    if (kind.negative and not kind.positive and not _repeated_content(element, total, runs)
            and not _is_lead_paragraph(element, text) and not (tag == "header" and _standfirst(element) is not None)
            ) or (tag == "header" and size < total * 0.2
                                                           and lead_in(element) is None
                                                           and _standfirst(element) is None):
        return True  # (a header that holds the standfirst is read part by part: its title and byline go)
    # a heading that links to itself (`<h2><a href="#part-2">`) is a heading, not a link to elsewhere
    if (tag in _LISTS and not (entries and tag in _HEADINGS)
            and link_density(element, text, anchors=tag not in _HEADINGS) > 0.5 and not _items_are_sentences(element)
            and not _holds_prose_of_its_own(element)):
        return True  # (a block of the article's paragraphs around a carousel of links: the carousel goes alone)
    if tag == "p" and link_density(element, text) > 0.9:
        return True  # a paragraph that is one link: "Read more: ...", "See also ..."
    if tag in ("p", "div") and size < READ_ALSO_TEXT and READ_ALSO_LINE.match(text):
        return True  # "Read also: …" and the other story's line, linked or not
    if size < 120:
        line = " ".join(text.split()).rstrip(":.…! ")
        if _NOISE.match(line) or (size < 60 and _BYLINE.match(line)) or (
                _READING_TIME.match(line) and _on_a_line_of_its_own(element)):
            return True
        if size < 100 and tag != "p" and element.find(".//time") is not None:
            return True
    return False


# What a figure holds when it is text, not an image: a quotation and its source (a testimonial, a
# speaker's words pulled out), a table of data (WordPress puts every table in one), a code listing
# (Jekyll's and Hexo's highlighters put every code block in one).
_TEXT_FIGURE = etree.XPath("blockquote | table | .//pre")
FIGURE_PROSE = 150  # visible characters outside a figure's caption that make it text (an image has none)
FIGURE_LINKED = 0.3  # share of a figure's text in links above which it is a card of another page (a product's)


STANDFIRST = 80  # visible characters of a sentence under an article's title that make it the standfirst


def _standfirst(header: HtmlElement) -> HtmlElement | None:
    """The paragraph of prose under the title in an article's header (the standfirst, in a class that
    does not name it: `<p class="css-4h7b2n">`), if it holds one."""
    for paragraph in header.iter("p"):
        text = text_of(paragraph).strip()
        if visible_length(text) >= STANDFIRST and ends_a_sentence(text) and link_density(paragraph, text) < 0.3:
            return paragraph
    return None


def _header_to_standfirst(header: HtmlElement) -> list[HtmlElement]:
    """An article's header read for its standfirst alone: its section link, date and byline go (the
    parts dropped are returned)."""
    standfirst = _standfirst(header)
    if standfirst is None:
        return []
    keep = {standfirst, *standfirst.iterancestors()}
    parts = [child for child in header if isinstance(child.tag, str) and child not in keep]
    for part in parts:
        drop(part)
    return parts


def _holds_text(element: HtmlElement) -> bool:
    """A figure whose content is text (a quotation, a table, a listing, prose outside its caption), or
    that figure's caption (the quotation's source, the table's title, the listing's file name)."""
    if element.tag == "figcaption":
        element = element.getparent()
        if element is None or element.tag != "figure":
            return False
    return element.tag == "figure" and (bool(_TEXT_FIGURE(element)) or _prose_beside_caption(element))


def _prose_beside_caption(figure: HtmlElement) -> bool:
    """Whether a figure holds prose outside its caption (a quotation built of <div>s: "Embedded quote"), not
    a card of another page (a shop's product tile)."""
    text = text_of(figure)
    caption = sum(len(text_of(caption)) for caption in figure.iter("figcaption"))
    return (len(text) - caption >= FIGURE_PROSE and visible_length(text) - caption >= FIGURE_PROSE
            and link_density(figure, text) <= FIGURE_LINKED)


CALL_TEXT = 300  # visible characters of a call to action: a title, a line or two, and its button or form
CALL_PARAGRAPHS = 2
_BOX_TAGS = frozenset({"div", "section", "aside"})
_BUTTON_WORDS = re.compile(r"(?:^|[\s_-])(?:button|btn)(?:$|[\s_-])", re.IGNORECASE)


def _is_button_link(link: HtmlElement) -> bool:
    """A link drawn as a button, or one that opens a members' sign-up (Ghost's portal: `#/portal/signup`)."""
    return bool(_BUTTON_WORDS.search(link.get("class") or "")) or (link.get("href") or "").startswith("#/portal")


def _is_call_to_action(element: HtmlElement, text: str) -> bool:
    """A box asking the reader to act: a title and a line or two beside a button or a form to fill in
    ("New patient? Book online", "Book direct for the best price", "Your first lesson is free")."""
    if not any(node.tag in ("form", "button") or (node.tag == "a" and _is_button_link(node))
               for node in element.iter("form", "button", "a")):
        return False  # (most boxes: no button, nothing more to read)
    if visible_length(text) > CALL_TEXT or sum(1 for _ in element.iter("p")) > CALL_PARAGRAPHS:
        return False
    # one of a run of cards alike (the card in its wrappers), each with its "Read more" button, is no call
    unit = in_its_wrappers(element)
    parent, kind = unit.getparent(), card_signature(unit)
    return parent is None or sum(1 for sibling in parent if card_signature(sibling) == kind) <= 2


SITE_NOTE_MIN = 20  # characters: a shorter block is no site note ("Cookies" alone is a menu entry)
_NOTE_TAGS = frozenset({"div", "section", "aside", "p", "form", "table", "header", "footer"})  # blocks that hold one
_CLOSING_TAGS = _NOTE_TAGS | {"tr", "td"}  # and an old page's table row or cell ("Last updated")
LEAD_PARAGRAPH = 50  # visible characters of a sentence that make a "teaser" paragraph in the article its lead


def _is_lead_paragraph(element: HtmlElement, text: str) -> bool:
    """A paragraph inside the article, or a block of one paragraph under the title, that a class calls its
    "teaser" (as German sites and Contao's news reader mark the lead): a sentence without links, not a
    teaser of another page."""
    one_paragraph = element.tag == "p" or (element.tag == "div" and len(element) == 1 and element[0].tag == "p"
                                           and _opens_its_block(element))
    return (one_paragraph and "teaser" in (element.get("class") or "").lower()
            and visible_length(text) >= LEAD_PARAGRAPH and ends_a_sentence(text)
            and link_density(element, text) == 0.0)


def _opens_its_block(element: HtmlElement) -> bool:
    """Whether short lines (a title, a date, a kicker), and nothing else, come before a block in its parent
    (not a box's only text: "Tagesschau reported on this on 3 August")."""
    before = [sibling for sibling in element.itersiblings(preceding=True) if isinstance(sibling.tag, str)]
    return bool(before) and all(visible_length(text_of(sibling)) < PROSE_BESIDE for sibling in before)


OWN_PROSE = 150  # visible characters of a paragraph of sentences, with few links, that a block holds itself


def _holds_prose_of_its_own(element: HtmlElement) -> bool:
    """Whether a block holds, as a child of its own, a paragraph of prose (the article's first paragraphs
    beside a carousel of job offers, in one block of the page's rich text)."""
    if element.tag not in _BOX_TAGS:
        return False
    return any(child.tag == "p" and is_sentence(child, OWN_PROSE) for child in element)


def _items_are_sentences(element: HtmlElement) -> bool:
    """A list whose items are mostly sentences around their links ("gero removed the windowtype
    attribute from dialogs where we did not need it"), not titles, names or dates beside them: the
    article's own list, however much of it is linked."""
    if element.tag not in ("ul", "ol"):
        return False
    items = element.findall("li")
    if len(items) < 2:
        return False
    worded = sum(1 for item in items
                 if visible_length(item.text_content()) - linked_length(item) >= SENTENCE_AROUND_LINKS)
    return worded * 2 >= len(items)


def _repeated_content(element: HtmlElement, total: int, runs: dict[tuple[HtmlElement, str, bool], bool]) -> bool:
    """Part of a run of three or more sibling blocks of the same kind (the element, or the block that
    holds it) that together hold much of the text: a slideshow's captions or a ticker's entries are
    the article, whatever their class says. The element itself is in a run only when most of its peers
    are furniture by name too (a call to action among the page's sections is not a run)."""
    for block in (element, element.getparent()):
        parent = block.getparent() if block is not None else None
        if parent is None:
            continue
        signature = card_signature(block)
        if not block.get("class"):
            continue  # blocks alike by their tag alone (a page's header, content and footer <div>s) are no run
        key = (parent, signature, block is element)
        if key not in runs:
            peers = [sibling for sibling in parent if card_signature(sibling) == signature]
            named = block is not element or sum(1 for peer in peers if kind_of(peer).negative) * 2 >= len(peers)
            runs[key] = named and len(peers) >= 3 and sum(len(peer.text_content()) for peer in peers) >= total * 0.4
        if runs[key]:
            return True
    return False
