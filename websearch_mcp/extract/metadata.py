"""Page metadata: title, description, byline, date, site name and language, from the usual tags."""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

_TITLE_SUFFIX = re.compile(r"\s+[|\-–—·:]\s+[^|\-–—·:]{2,40}$")


class PageMetadata:
    """What a page says about itself."""

    __slots__ = ("byline", "date", "description", "language", "site_name", "title")

    def __init__(self) -> None:
        self.title = ""
        self.description = ""
        self.byline = ""
        self.date = ""
        self.site_name = ""
        self.language = ""

    def to_dict(self) -> dict[str, str]:
        """The non-empty fields."""
        return {name: getattr(self, name) for name in self.__slots__ if getattr(self, name)}


def _meta(tree: HtmlElement, *names: str) -> str:
    for name in names:
        for element in tree.xpath(f"//meta[@property='{name}' or @name='{name}' or @itemprop='{name}']"):
            content = " ".join((element.get("content") or "").split())
            if content:
                return content
    return ""


def _first_text(tree: HtmlElement, xpath: str) -> str:
    for element in tree.xpath(xpath):
        text = " ".join((element.text_content() if hasattr(element, "text_content") else str(element)).split())
        if text:
            return text
    return ""


def read_metadata(tree: HtmlElement) -> PageMetadata:
    """Metadata from meta tags, <title>, <time> and byline markup (read before any cleaning)."""
    meta = PageMetadata()
    title = _meta(tree, "og:title", "twitter:title") or _first_text(tree, "//title")
    site = _meta(tree, "og:site_name", "application-name")
    if title and site and title.endswith(site):
        title = _TITLE_SUFFIX.sub("", title) or title
    meta.title = title or _first_text(tree, "//h1")
    meta.site_name = site
    meta.description = _meta(tree, "description", "og:description", "twitter:description")
    meta.byline = (_meta(tree, "author", "article:author", "parsely-author", "sailthru.author")
                   or _first_text(tree, "//*[@itemprop='author']//*[@itemprop='name'] | //*[@rel='author'] | "
                                        "//*[contains(concat(' ', normalize-space(@class), ' '), ' byline ')]"))
    meta.date = (_meta(tree, "article:published_time", "datePublished", "date", "pubdate", "og:updated_time")
                 or _first_text(tree, "//time/@datetime"))
    meta.language = (tree.get("lang") or _meta(tree, "og:locale", "content-language")
                     or _first_text(tree, "//meta[@http-equiv='content-language']/@content")).strip()
    if meta.byline.lower().startswith("by "):
        meta.byline = meta.byline[3:].strip()
    return meta
