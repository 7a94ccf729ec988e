"""Renders an lxml subtree as compact Markdown: headings, paragraphs, nested lists, links, emphasis,
code, blockquotes and GFM tables. Images are dropped."""

from __future__ import annotations

import re
from urllib.parse import urljoin

from lxml import etree

from websearch_mcp.passages import CJK

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

BLOCK_TAGS = frozenset({
    "p", "div", "section", "article", "main", "header", "footer", "aside", "nav", "body", "html",
    "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "pre", "blockquote", "table", "thead", "tbody",
    "tfoot", "tr", "td", "th", "figure", "figcaption", "dl", "dt", "dd", "hr", "address", "center",
    "details", "summary", "fieldset", "form", "caption", "hgroup",
})
SKIP_TAGS = frozenset({"img", "script", "style", "noscript", "template", "svg", "iframe", "head", "title",
                       "button", "input", "select", "textarea", "object", "embed", "video", "audio", "picture"})
HEADINGS = {"h1": "# ", "h2": "## ", "h3": "### ", "h4": "#### ", "h5": "##### ", "h6": "###### "}
# A paragraph's opening that Markdown would read as a heading, a quote, or a list item's mark: escaped (the
# mark itself, or the stop after a number: "8\. 4. 2024", as a backslash before a digit escapes nothing).
_LINE_START = re.compile(r"^(?:([#>+-])|(\d+)([.)]))(?=\s)")


def _escaped(mark: re.Match[str]) -> str:
    return f"\\{mark[1]}" if mark[1] else f"{mark[2]}\\{mark[3]}"


_LANGUAGE = re.compile(r"(?:lang(?:uage)?-)([\w+#-]+)")
_ROWS = etree.XPath("./tr | ./thead/tr | ./tbody/tr | ./tfoot/tr")
# A cell that holds several paragraphs, a list, a heading or another table belongs to a layout table.
_BLOCK_IN_CELL = etree.XPath(
    "boolean((./tr | ./*/tr | .)/*[self::td or self::th][count(.//p | .//div) > 1 or .//*[self::table or "
    "self::ul or self::ol or self::h1 or self::h2 or self::h3 or self::h4 or self::blockquote or self::pre]])")


# Elements that are inline in HTML; an element not named here or in BLOCK_TAGS (a custom element such
# as <my-card>, an old or unknown tag) is a block when it holds blocks.
INLINE_TAGS = frozenset({
    "a", "abbr", "acronym", "b", "bdi", "bdo", "big", "br", "cite", "code", "data", "del", "dfn", "em", "font",
    "i", "ins", "kbd", "mark", "nobr", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time",
    "tt", "u", "var", "wbr", "label", "output", "ruby", "rt", "rp",
})


def _holds_blocks(element: HtmlElement) -> bool:
    return any(isinstance(d.tag, str) and d.tag in BLOCK_TAGS for d in element.iterdescendants())


def _inline_text(text: str) -> str:
    if "\n" not in text and "  " not in text and "\t" not in text and "\xa0" not in text and "\r" not in text:
        return text  # most fragments (rarer white space, such as U+2009, stays as it is): cheaper than the substitution
    # re.sub(r"\s+", " ", text), faster (str.split and the pattern's \s agree on what white space is)
    words = text.split()
    if not words:
        return " "
    return (" " if text[0].isspace() else "") + " ".join(words) + (" " if text[-1].isspace() else "")


# Characters of a line that, said twice in a row, is said once: a caption and its lightbox's copy, a
# date shown twice (an article's paragraphs said twice are left as the page has them).
REPEAT_LINE = 200


# Inline elements that a page lays out side by side as fields of one line (an author, a date, a reading
# time: `<span>Ann Lee</span><span>12 March 2025</span>`), with no space between them in the markup.
_FIELDS = frozenset({"span", "time"})
_FIELD_TEXT = 2  # characters each field holds at least (a drop cap's one letter is part of its word)


def _runs_together(element: HtmlElement, before: str) -> bool:
    """Whether an element's text would run into a field just before it: word characters meet (not in
    Chinese, Japanese or Korean, written without spaces)."""
    previous = element.getprevious()
    if previous is None or previous.tag not in _FIELDS or (previous.tail or "") or not before[-1:].isalnum():
        return False
    text = element.text_content()
    return (len(text.strip()) >= _FIELD_TEXT and text[:1].isalnum() and not CJK.match(text[0])
            and not CJK.match(before[-1]) and len(previous.text_content().strip()) >= _FIELD_TEXT)


class MarkdownRenderer:
    """Turns one element into Markdown blocks."""

    def __init__(self, base_url: str | None = None) -> None:
        self.base_url = base_url
        self.blocks: list[str] = []

    # -- inline content ---------------------------------------------------------------------------

    def inline(self, element: HtmlElement, parts: list[str], sublists: list[str] | None = None,
               depth: int = 0) -> None:
        """Append the inline Markdown of an element's content (not its tail) to parts. For a list
        item (`sublists` given), nested lists go to `sublists` and line breaks become spaces."""
        if element.text:
            parts.append(_inline_text(element.text))
        for child in element:
            tag = child.tag if isinstance(child.tag, str) else ""
            if tag in SKIP_TAGS or not tag:
                pass
            elif sublists is not None and tag in ("ul", "ol"):
                nested = MarkdownRenderer(self.base_url)
                nested.list_block(child, tag == "ol", depth + 1)
                sublists.extend(nested.blocks)
            elif tag == "br":
                parts.append(" " if sublists is not None else "\n")
            elif tag in BLOCK_TAGS:
                parts.append(" ")
                self.inline(child, parts)
                parts.append(" ")
            else:
                if tag in _FIELDS and parts and _runs_together(child, parts[-1]):
                    parts.append(" ")
                self._inline_element(child, tag, parts)
            if child.tail:
                parts.append(_inline_text(child.tail))

    def _inline_element(self, element: HtmlElement, tag: str, parts: list[str]) -> None:
        if tag == "a":
            inner: list[str] = []
            self.inline(element, inner)
            raw = "".join(inner)
            text = raw.strip()
            href = (element.get("href") or "").strip()
            # spaces at the edges of the link text stay outside the brackets: `<a>site </a>serves`
            lead = " " if raw[:1].isspace() else ""
            trail = " " if raw[-1:].isspace() else ""
            if text and href and not href.startswith(("#", "javascript:", "mailto:")):
                if self.base_url:
                    href = urljoin(self.base_url, href)
                label = text.replace("]", "\\]")
                target = href.replace(" ", "%20").replace(")", "%29")
                parts.append(f"{lead}[{label}]({target}){trail}")
            else:
                parts.append(f"{lead}{text}{trail}")
        elif tag in ("strong", "b"):
            self._wrap(element, "**", parts)
        elif tag in ("em", "i", "cite"):
            self._wrap(element, "*", parts)
        elif tag in ("code", "kbd", "samp", "tt"):
            text = element.text_content()
            if text.strip():
                fence = "``" if "`" in text else "`"
                parts.append(f"{fence}{_inline_text(text).strip()}{fence}")
        elif tag in ("del", "s", "strike"):
            self._wrap(element, "~~", parts)
        else:
            self.inline(element, parts)

    def _wrap(self, element: HtmlElement, mark: str, parts: list[str]) -> None:
        inner: list[str] = []
        self.inline(element, inner)
        text = "".join(inner)
        stripped = text.strip()
        if not stripped:
            parts.append(text)
            return
        lead = " " if text[0].isspace() else ""
        trail = " " if text[-1].isspace() else ""
        parts.append(f"{lead}{mark}{stripped}{mark}{trail}")

    # -- blocks -----------------------------------------------------------------------------------

    def paragraph(self, parts: list[str], prefix: str = "") -> None:
        """Flush collected inline parts as one block."""
        text = "".join(parts)
        parts.clear()
        if "\n" in text:
            text = "\n".join(line for line in (line.strip() for line in text.split("\n")) if line)
        else:
            text = text.strip()
        if text:
            if not prefix:
                text = _LINE_START.sub(_escaped, text)
                if len(text) <= REPEAT_LINE and self.blocks and self.blocks[-1] == text:
                    return  # the same paragraph again (a caption and its lightbox's copy, a date twice)
            self.blocks.append(prefix + text)

    def block(self, element: HtmlElement) -> None:
        """Render a block element's content into self.blocks."""
        parts: list[str] = []
        if element.text:
            parts.append(_inline_text(element.text))
        for child in element:
            tag = child.tag if isinstance(child.tag, str) else ""
            if not tag or tag in SKIP_TAGS:
                pass
            elif tag in BLOCK_TAGS or (tag not in INLINE_TAGS and _holds_blocks(child)):
                self.paragraph(parts)
                self.render_block(child, tag)
            elif tag == "br":
                parts.append("\n")
            else:
                if tag in _FIELDS and parts and _runs_together(child, parts[-1]):
                    parts.append(" ")
                self._inline_element(child, tag, parts)
            if child.tail:
                parts.append(_inline_text(child.tail))
        self.paragraph(parts)

    def render_block(self, element: HtmlElement, tag: str) -> None:
        """Render one block-level element."""
        if tag in HEADINGS:
            parts: list[str] = []
            self.inline(element, parts)
            text = _inline_text("".join(parts)).strip()
            if text:
                self.blocks.append(HEADINGS[tag] + text)
        elif tag in ("ul", "ol"):
            self.list_block(element, tag == "ol", 0)
        elif tag == "pre":
            self.code_block(element)
        elif tag == "blockquote":
            self.nested(element, "> ")
        elif tag == "table":
            self.table(element)
        elif tag == "hr":
            self.blocks.append("---")
        else:
            self.block(element)

    def nested(self, element: HtmlElement, prefix: str) -> None:
        """Render an element on its own and prefix every line (blockquotes)."""
        inner = MarkdownRenderer(self.base_url)
        inner.block(element)
        if inner.blocks:
            text = "\n\n".join(inner.blocks)
            self.blocks.append("\n".join(prefix + line if line else prefix.rstrip() for line in text.split("\n")))

    def code_block(self, element: HtmlElement) -> None:
        """A fenced code block, its language taken from a `language-x` class."""
        text = element.text_content().strip("\n")
        if not text.strip():
            return
        label = " ".join(e.get("class", "") for e in [element, *element.iter("code")])
        found = _LANGUAGE.search(label)
        fence = "````" if "```" in text else "```"
        self.blocks.append(f"{fence}{found.group(1) if found else ''}\n{text}\n{fence}")

    def list_block(self, element: HtmlElement, ordered: bool, depth: int) -> None:
        """A list; nested lists are indented under their item."""
        if not any(item.tag == "li" for item in element):
            self.block(element)  # a list without items (its lines in <p>s or bare text) shows as text
            return
        number = int(element.get("start", "1")) if (element.get("start") or "").isdigit() else 1
        lines: list[str] = []
        for item in element:
            if item.tag in ("ul", "ol"):  # a list straight inside a list: browsers indent it under the item before
                nested = MarkdownRenderer(self.base_url)
                nested.list_block(item, item.tag == "ol", depth + 1)
                lines.extend(nested.blocks)
                continue
            if not isinstance(item.tag, str) or item.tag in SKIP_TAGS:
                continue
            if item.tag != "li" and not item.text_content().strip():
                continue  # a stray element between the items shows as one when it has text
            marker = f"{number}. " if ordered else "- "
            number += 1
            text, sublists = self._list_item(item, depth)
            if not text and not sublists:
                continue
            lines.append("  " * depth + marker + text)
            lines.extend(sublists)
        if lines:
            self.blocks.append("\n".join(lines))

    def _list_item(self, item: HtmlElement, depth: int) -> tuple[str, list[str]]:
        parts: list[str] = []
        sublists: list[str] = []
        self.inline(item, parts, sublists, depth)
        return _inline_text("".join(parts)).strip(), sublists

    def table(self, element: HtmlElement) -> None:
        """A GFM table; layout tables (cells holding blocks, one column, or no rows) become blocks."""
        rows = [[cell for cell in row if cell.tag in ("td", "th")] for row in _ROWS(element)]
        width = max((len(r) for r in rows), default=0)
        if width < 2 or _BLOCK_IN_CELL(element):
            self.block(element)
            return
        texts = []
        for row in rows:
            cells = []
            for cell in row:
                parts: list[str] = []
                self.inline(cell, parts)
                cells.append(_inline_text("".join(parts)).strip().replace("|", "\\|"))
            if any(cells):
                texts.append(cells + [""] * (width - len(cells)))
        if texts:
            lines = ["| " + " | ".join(r) + " |" for r in texts]
            lines.insert(1, "|" + " --- |" * width)
            self.blocks.append("\n".join(lines))


def render_all(elements: list[HtmlElement], base_url: str | None = None) -> str:
    """The Markdown of several elements, in order."""
    renderer = MarkdownRenderer(base_url)
    for element in elements:
        tag = element.tag if isinstance(element.tag, str) else "div"
        renderer.render_block(element, tag if tag in BLOCK_TAGS else "div")
    return "\n\n".join(renderer.blocks)
