"""Main-content extraction: an HTML page in, Markdown of its article (and its metadata) out."""

from __future__ import annotations

import lxml.html

from websearch_mcp.extract.clean import drop_junk, prune
from websearch_mcp.extract.main_content import main_elements
from websearch_mcp.extract.markdown import render_all
from websearch_mcp.extract.metadata import PageMetadata, read_metadata

_PARSER = lxml.html.HTMLParser(remove_comments=True, remove_pis=True, remove_blank_text=True, collect_ids=False)
# Every element as a plain HtmlElement, chosen in C: lxml.html's own lookup runs Python code for each
# element proxy (to pick form and input classes this module never uses), a sizeable share of the time.
_PARSER.set_element_class_lookup(lxml.etree.ElementDefaultClassLookup(element=lxml.html.HtmlElement))


class ExtractedPage:
    """The Markdown of a page's main content and what the page says about itself."""

    __slots__ = ("markdown", "metadata")

    def __init__(self, markdown: str, metadata: PageMetadata) -> None:
        self.markdown = markdown
        self.metadata = metadata


def parse_html(html: str) -> lxml.html.HtmlElement:
    """Parse a page leniently (never raises on garbage)."""
    text = html if html.strip() else "<html></html>"
    try:
        return lxml.html.document_fromstring(text, parser=_PARSER)
    except (ValueError, lxml.etree.ParserError):
        # an XML declaration with an encoding in a str, or nothing but whitespace and comments
        try:
            return lxml.html.document_fromstring(text.encode("utf-8", "replace"), parser=_PARSER)
        except (ValueError, lxml.etree.ParserError):
            return lxml.html.document_fromstring("<html></html>", parser=_PARSER)


def extract_page(html: str, url: str | None = None) -> ExtractedPage:
    """Main content as Markdown, plus title, description, byline, date, site name and language."""
    tree = parse_html(html)
    metadata = read_metadata(tree)
    drop_junk(tree)
    elements = main_elements(tree)
    for element in elements:
        prune(element)
    return ExtractedPage(render_all(elements, url), metadata)


def html_to_markdown(html: str, url: str | None = None) -> str:
    """The Markdown of a page's main content, links made absolute against `url`."""
    return extract_page(html, url).markdown
