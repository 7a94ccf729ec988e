"""DuckDuckGo images (`i.js`): the page showing each image, the file, its thumbnail and size."""

from __future__ import annotations

from typing import Any

from websearch_mcp.engines.base import SearchHit, SearchQuery
from websearch_mcp.engines.duckduckgo_verticals import DuckDuckGoVertical
from websearch_mcp.engines.html import strip_tags
from websearch_mcp.engines.vertical import number, site_of

SAFE_SEARCH = {0: "-1", 1: "1", 2: "1"}  # i.js knows only on and off
TIME_RANGES = {"day": "time:Day", "week": "time:Week", "month": "time:Month", "year": "time:Year"}


class DuckDuckGoImages(DuckDuckGoVertical):
    """Images from DuckDuckGo."""

    endpoint = "i.js"
    page_size = 100
    time_ranges = tuple(TIME_RANGES)

    def options(self, query: SearchQuery) -> dict[str, str]:
        """Safe search as `p`; the filters (time first) as `f`."""
        return {"p": SAFE_SEARCH[query.safe_search], "f": TIME_RANGES.get(query.time_range, "") + ",,,,"}

    def item(self, result: dict[str, Any]) -> SearchHit | None:
        """An image: the page that shows it, the file, the thumbnail, its size."""
        page, image = str(result.get("url") or ""), str(result.get("image") or "")
        if not page.startswith(("http://", "https://")):
            return None
        return SearchHit(title=strip_tags(str(result.get("title") or "")), url=page, image_url=image or None,
                         thumbnail_url=result.get("thumbnail") or None, width=number(result.get("width")),
                         height=number(result.get("height")), source=site_of(page) or None)
