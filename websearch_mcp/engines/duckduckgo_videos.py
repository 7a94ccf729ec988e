"""DuckDuckGo videos (`v.js`): the video's page, its duration, publisher, date and thumbnail."""

from __future__ import annotations

from typing import Any

from websearch_mcp.engines.base import SearchHit, SearchQuery
from websearch_mcp.engines.duckduckgo_verticals import DuckDuckGoVertical
from websearch_mcp.engines.html import strip_tags
from websearch_mcp.engines.vertical import iso_date

SAFE_SEARCH = {0: "-2", 1: "-1", 2: "1"}
TIME_RANGES = {"day": "publishedAfter:d", "week": "publishedAfter:w", "month": "publishedAfter:m"}


class DuckDuckGoVideos(DuckDuckGoVertical):
    """Videos from DuckDuckGo."""

    endpoint = "v.js"
    page_size = 60
    time_ranges = tuple(TIME_RANGES)

    def options(self, query: SearchQuery) -> dict[str, str]:
        """Safe search as `p`; the filters (time first) as `f`."""
        return {"noamp": "1", "p": SAFE_SEARCH[query.safe_search],
                "f": TIME_RANGES.get(query.time_range, "") + ",,,"}

    def item(self, result: dict[str, Any]) -> SearchHit | None:
        """A video: its page, description, duration, publisher, date and thumbnail."""
        url = str(result.get("content") or "")
        if not url.startswith(("http://", "https://")):
            return None
        images = result["images"] if isinstance(result.get("images"), dict) else {}
        return SearchHit(title=strip_tags(str(result.get("title") or "")), url=url,
                         snippet=strip_tags(str(result.get("description") or "")),
                         published_date=iso_date(result.get("published")), source=result.get("publisher") or None,
                         duration=result.get("duration") or None,
                         thumbnail_url=images.get("medium") or images.get("large") or images.get("small") or None)
