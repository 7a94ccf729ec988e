"""Brave videos (search.brave.com/videos): the video's page, duration, publisher, date, thumbnail."""

from __future__ import annotations

from typing import Any

from websearch_mcp.engines.base import SearchHit
from websearch_mcp.engines.brave_verticals import BraveVertical, mapping
from websearch_mcp.engines.html import strip_tags
from websearch_mcp.engines.vertical import iso_date, site_of


class BraveVideos(BraveVertical):
    """Videos from Brave."""

    categories = ("videos",)
    setting = "brave_videos_url"
    page_size = 50

    def item(self, result: dict[str, Any]) -> SearchHit | None:
        """A video: its page, description, duration, publisher (else the site), date, thumbnail."""
        url = str(result.get("url") or "")
        if not url.startswith(("http://", "https://")):
            return None
        video = mapping(result.get("video"))
        return SearchHit(title=strip_tags(str(result.get("title") or "")), url=url,
                         snippet=strip_tags(str(result.get("description") or "")),
                         source=video.get("publisher") or site_of(url) or None,
                         duration=video.get("duration") or None,
                         published_date=iso_date(result.get("page_age") or result.get("age")),
                         thumbnail_url=mapping(result.get("thumbnail")).get("src") or None)
