"""Brave news (search.brave.com/news): the article, its source, its age and picture."""

from __future__ import annotations

from typing import Any

from websearch_mcp.engines.base import SearchHit
from websearch_mcp.engines.brave_verticals import BraveVertical, mapping
from websearch_mcp.engines.html import strip_tags
from websearch_mcp.engines.vertical import iso_date, site_of


class BraveNews(BraveVertical):
    """News from Brave."""

    categories = ("news",)
    setting = "brave_news_url"

    def item(self, result: dict[str, Any]) -> SearchHit | None:
        """An article: link, title, description, source (the publisher's name or site), date, picture."""
        url = str(result.get("url") or "")
        if not url.startswith(("http://", "https://")):
            return None
        source = mapping(result.get("profile")).get("name") or site_of(url)
        return SearchHit(title=strip_tags(str(result.get("title") or "")), url=url,
                         snippet=strip_tags(str(result.get("description") or "")), source=source or None,
                         published_date=iso_date(result.get("page_age") or result.get("age")),
                         thumbnail_url=mapping(result.get("thumbnail")).get("src") or None)
