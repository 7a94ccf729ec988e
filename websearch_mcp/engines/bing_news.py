"""Bing news (`/news/infinitescrollajax`, the fragment Bing's news page loads as one scrolls):
`div.news-card` cards carrying the article link, title and source as attributes."""

from __future__ import annotations

from urllib.parse import urljoin

from websearch_mcp.engines.base import Outbound, ResultsPage, SearchHit, SearchQuery, no_result_list
from websearch_mcp.engines.bing import Bing
from websearch_mcp.engines.html import first, has_class, parse, text_of
from websearch_mcp.engines.locale import country_of, language_of
from websearch_mcp.engines.vertical import VerticalEngine, iso_date

TIME_RANGES = {"day": 'interval="7"', "week": 'interval="8"', "month": 'interval="9"'}  # Bing's `qft`
BING = "https://www.bing.com/"  # Bing's thumbnails are site-relative


class BingNews(VerticalEngine):
    """News from Bing."""

    block_markers = Bing.block_markers
    time_ranges = tuple(TIME_RANGES)

    def build_request(self, query: SearchQuery, offset: int) -> Outbound:
        """GET ?q=&InfiniteScroll=1&first=, with market and time range (pure)."""
        params = {"q": query.text, "InfiniteScroll": "1", "first": str(offset + 1),
                  "SFX": str(offset // self.page_size + 1)}
        language, country = language_of(query), country_of(query)
        if language:
            params["setlang"] = language
        if country:
            params["cc"] = country.upper()
        if query.time_range in TIME_RANGES:
            params["qft"] = TIME_RANGES[query.time_range]
        return Outbound(self.config.get("bing_news_url"), params)

    def parse(self, body: bytes) -> ResultsPage:
        """The news cards; BlockedError for a reply without any (a block page or a changed layout)."""
        cards = parse(body).xpath(f"//div[{has_class('news-card')}][@data-title or @url or @data-url]")
        if not cards:
            raise no_result_list(self)
        hits = []
        for card in cards:
            url = card.get("url") or card.get("data-url") or ""
            if not url.startswith(("http://", "https://")):
                continue
            date = first(card.xpath(f".//div[{has_class('source')}]//span[@aria-label]"))
            snippet = first(card.xpath(f".//div[{has_class('snippet')}]"))
            picture = first(card.xpath(f".//div[{has_class('image')}]//img/@src"))
            hits.append(SearchHit(
                title=card.get("data-title") or card.get("title") or "", url=url,
                snippet=(snippet.get("title") or text_of(snippet)) if snippet is not None else "",
                source=card.get("data-author") or None,
                published_date=iso_date(date.get("aria-label")) if date is not None else None,
                thumbnail_url=urljoin(BING, picture) if picture else None))
        return ResultsPage(hits, more=len(cards) >= self.page_size)
