"""Main-content extraction: an HTML page in, Markdown of its article out."""

from __future__ import annotations

import lxml.html

from websearch_mcp.extract.clean import drop_junk, prune
from websearch_mcp.extract.main_content import main_elements
from websearch_mcp.extract.markdown import render_all

_PARSER = lxml.html.HTMLParser(remove_comments=True, remove_pis=True)


def parse_html(html: str) -> lxml.html.HtmlElement:
    """Parse a page leniently (never raises on garbage)."""
    text = html if html.strip() else "<html></html>"
    try:
        return lxml.html.document_fromstring(text, parser=_PARSER)
    except (ValueError, lxml.etree.ParserError):
        # e.g. an XML declaration with an encoding in a str: parse the bytes instead
        return lxml.html.document_fromstring(text.encode("utf-8", "replace"), parser=_PARSER)


def html_to_markdown(html: str, url: str | None = None) -> str:
    """The Markdown of a page's main content, links made absolute against `url`."""
    tree = parse_html(html)
    drop_junk(tree)
    elements = main_elements(tree)
    for element in elements:
        prune(element)
    return render_all(elements, url)
