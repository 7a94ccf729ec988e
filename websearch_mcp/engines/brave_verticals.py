"""Brave's news, images and videos pages: server-rendered SvelteKit pages whose data literal
(`response:{…}`, JavaScript object syntax) holds the results, also for images, which have no
server-rendered cards."""

from __future__ import annotations

import re
from typing import Any

from websearch_mcp.engines.base import Outbound, ResultsPage, SearchHit, SearchQuery, no_result_list
from websearch_mcp.engines.brave import SAFE_SEARCH, TIME_RANGES, Brave
from websearch_mcp.engines.jsliteral import read_value
from websearch_mcp.engines.locale import country_of
from websearch_mcp.engines.vertical import VerticalEngine

_RESPONSE = re.compile(r"\bresponse:\{")


def page_results(body: bytes, vertical: str) -> list[dict[str, Any]] | None:
    """The results in a page's data: `response.results` (images, videos) or `response.news.results`;
    None when the page holds no such data (a block page, a changed layout)."""
    text = body.decode("utf-8", "replace")
    for match in _RESPONSE.finditer(text):
        try:
            response, _ = read_value(text, match.end() - 1)
        except (ValueError, IndexError):
            continue
        if not isinstance(response, dict):
            continue
        inner = response.get(vertical)
        holder = inner if isinstance(inner, dict) and "results" in inner else response
        if holder is response and response.get("type") != vertical:
            continue
        results = holder.get("results")
        if isinstance(results, list):
            return [item for item in results if isinstance(item, dict)]
    return None


def mapping(value: Any) -> dict[str, Any]:
    """A nested object of the data, or {} where it is missing (`null`, `void 0`)."""
    return value if isinstance(value, dict) else {}


class BraveVertical(VerticalEngine):
    """One of Brave's vertical pages; subclasses name it and read its items."""

    setting = ""  # the URL setting: brave_news_url, ...
    block_markers = Brave.block_markers
    time_ranges = tuple(TIME_RANGES)

    def build_request(self, query: SearchQuery, offset: int) -> Outbound:
        """GET ?q=&source=web with the time range as `tf`; safe search and country in cookies (pure)."""
        params = {"q": query.text, "source": "web"}
        if offset:
            params["offset"] = str(offset // self.page_size)
        if query.time_range in TIME_RANGES and query.time_range in self.time_ranges:
            params["tf"] = TIME_RANGES[query.time_range]
        cookies = {"safesearch": SAFE_SEARCH[query.safe_search], "useLocation": "0"}
        country = country_of(query)
        if country:
            cookies["country"] = country
        return Outbound(self.config.get(self.setting), params,
                        headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())})

    def item(self, result: dict[str, Any]) -> SearchHit | None:
        """One result as a hit (None for an item without a link)."""
        raise NotImplementedError

    def parse(self, body: bytes) -> ResultsPage:
        """The page's results; BlockedError for a page without its data."""
        results = page_results(body, self.categories[0])
        if results is None:
            raise no_result_list(self)
        return ResultsPage([hit for hit in map(self.item, results) if hit is not None])
