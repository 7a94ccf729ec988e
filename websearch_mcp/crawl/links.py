"""What a crawl reads of a page's HTML: its title, its canonical address, and its links with their
text and the heading they sit under."""

from __future__ import annotations

from websearch_mcp.crawl.urls import normalise

HEADINGS = frozenset({"h1", "h2", "h3", "h4"})


class Link:
    """A link found on a page."""

    __slots__ = ("heading", "text", "url")

    def __init__(self, url: str, text: str, heading: str) -> None:
        self.url = url
        self.text = text
        self.heading = heading


class PageLinks:
    """A page's title, canonical URL (normalised, or '') and links, in document order."""

    __slots__ = ("canonical", "links", "title")

    def __init__(self, title: str, canonical: str, links: list[Link]) -> None:
        self.title = title
        self.canonical = canonical
        self.links = links


def read_links(html: str, base: str) -> PageLinks:
    """The page's title, canonical address and links (each normalised; rel=nofollow kept: it is a
    ranking hint, not a rule for crawlers)."""
    import lxml.html

    try:
        root = lxml.html.document_fromstring(html)
    except Exception:  # lxml raises several kinds on broken or empty documents
        return PageLinks("", "", [])
    base_href = root.xpath("string(//base/@href)")
    if base_href:
        base = normalise(base_href, base) or base
    title = " ".join(root.xpath("string(//title)").split())
    canonical = ""
    for href in root.xpath("//link[@rel='canonical']/@href"):
        canonical = normalise(str(href), base) or ""
        break
    links: list[Link] = []
    heading = ""
    for element in root.iter("a", *HEADINGS):
        tag = element.tag
        if tag in HEADINGS:
            heading = " ".join(element.text_content().split())
            continue
        href = element.get("href")
        if not href or href.startswith(("#", "javascript:", "mailto:", "tel:")):
            continue
        url = normalise(href, base)
        if url:
            links.append(Link(url, " ".join(element.text_content().split()), heading))
    return PageLinks(title, canonical, links)
