"""Brave Search (search.brave.com/search, GET `q`): the server-rendered web results."""

from __future__ import annotations

from lxml import etree

from websearch_mcp.engines.base import (
    EngineAnswer,
    Outbound,
    ResultsPage,
    SearchEngine,
    SearchHit,
    SearchQuery,
    Turn,
    no_result_list,
)
from websearch_mcp.engines.html import first, has_class, parse, text_of
from websearch_mcp.engines.locale import country_of

SAFE_SEARCH = {0: "off", 1: "moderate", 2: "strict"}
TIME_RANGES = {"day": "pd", "week": "pw", "month": "pm", "year": "py"}
PAGE_SIZE = 20  # Brave's `offset` counts pages of this many results
# Compiled once: Brave's pages are large (half a megabyte), and these run for every result.
_WEB_RESULTS = etree.XPath("//div[@data-type='web']")
_WRAPPERS = etree.XPath(f"//div[{has_class('result-wrapper')}][not(ancestor::div[@data-type])]")
_RESULTS_CONTAINER = etree.XPath("//*[@id='results']")
_LINK = etree.XPath(".//a[starts-with(@href, 'http')]")
_TITLE = etree.XPath(f".//*[{has_class('title')}]")
_CONTENT = etree.XPath(f".//*[{has_class('generic-snippet')}]//*[{has_class('content')}] | "
                       f".//*[{has_class('snippet-description')}] | "
                       f".//*[{has_class('video-snippet')}]/*[{has_class('content')}]"
                       f"/div[not({has_class('snippet-attributes')})]")  # a video result's description
_DATE = etree.XPath(f".//span[{has_class('t-secondary')}]")
_NEXT_PAGE = etree.XPath("//a[contains(@href, 'offset=')]")


class Brave(SearchEngine):
    """Brave's HTML results; safe search and country travel in cookies, as the site sets them."""

    page_size = PAGE_SIZE
    block_markers = (b"challengeSet", b'page:"/captcha"', b"flagged as being suspicious")
    categories = ("general", "news", "images", "videos")

    def search(self, query: SearchQuery, turn: Turn) -> EngineAnswer:
        """Web results, or the news, images or videos search's."""
        if query.category != "general":
            from websearch_mcp.engines.vertical import vertical_engine

            return vertical_engine(self, query.category).search(query, turn)
        return super().search(query, turn)

    def build_request(self, query: SearchQuery, offset: int) -> Outbound:
        """GET ?q=&source=web, with the page number as `offset` and the time range as `tf`."""
        params = {"q": query.text, "source": "web"}
        if offset:
            params["offset"] = str(offset // PAGE_SIZE)
        if query.time_range:
            params["tf"] = TIME_RANGES[query.time_range]
        cookies = {"safesearch": SAFE_SEARCH[query.safe_search], "useLocation": "0"}
        country = country_of(query)
        if country:
            cookies["country"] = country
        cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        return Outbound(self.config.get("brave_url"), params, headers={"Cookie": cookie})

    def parse(self, body: bytes) -> ResultsPage:
        """The web results of one page; BlockedError for a page without a result list."""
        tree = parse(body)
        items = _WEB_RESULTS(tree) or _WRAPPERS(tree)
        if not items and not _RESULTS_CONTAINER(tree):
            raise no_result_list(self)
        hits = []
        for item in items:
            link = first(_LINK(item))
            if link is None:
                continue
            title = first(_TITLE(item))
            content = first(_CONTENT(item))
            date = first(_DATE(content)) if content is not None else None
            snippet = text_of(content)
            if date is not None and snippet.startswith(text_of(date)):
                snippet = snippet[len(text_of(date)):].lstrip(" -–")
            hits.append(SearchHit(title=(title.get("title") if title is not None else "") or text_of(title),
                                  url=link.get("href", ""), snippet=snippet,
                                  published_date=text_of(date).rstrip(" -") or None))
        more = bool(_NEXT_PAGE(tree))
        return ResultsPage(hits, more)
