"""DuckDuckGo news (`news.js`): the article, its source, its date (epoch seconds) and picture."""

from __future__ import annotations

from typing import Any

from websearch_mcp.engines.base import SearchHit, SearchQuery
from websearch_mcp.engines.duckduckgo_verticals import DuckDuckGoVertical
from websearch_mcp.engines.html import strip_tags
from websearch_mcp.engines.vertical import iso_date

SAFE_SEARCH = {0: "-2", 1: "-1", 2: "1"}
TIME_RANGES = {"day": "d", "week": "w", "month": "m"}


class DuckDuckGoNews(DuckDuckGoVertical):
    """News from DuckDuckGo."""

    endpoint = "news.js"
    time_ranges = tuple(TIME_RANGES)

    def options(self, query: SearchQuery) -> dict[str, str]:
        """Safe search as `p`, the time range as `df`."""
        options = {"noamp": "1", "p": SAFE_SEARCH[query.safe_search]}
        if query.time_range in TIME_RANGES:
            options["df"] = TIME_RANGES[query.time_range]
        return options

    def item(self, result: dict[str, Any]) -> SearchHit | None:
        """An article: its link, title, excerpt (highlight tags dropped), source, date and picture."""
        url = str(result.get("url") or "")
        if not url.startswith(("http://", "https://")):
            return None
        return SearchHit(title=strip_tags(str(result.get("title") or "")), url=url,
                         snippet=strip_tags(str(result.get("excerpt") or "")),
                         published_date=iso_date(result.get("date")), source=result.get("source") or None,
                         thumbnail_url=result.get("image") or None)
