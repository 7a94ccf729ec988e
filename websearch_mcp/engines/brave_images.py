"""Brave images (search.brave.com/images): the page showing each image, the file, its size."""

from __future__ import annotations

from typing import Any

from websearch_mcp.engines.base import SearchHit
from websearch_mcp.engines.brave_verticals import BraveVertical, mapping
from websearch_mcp.engines.html import strip_tags
from websearch_mcp.engines.vertical import number, site_of


class BraveImages(BraveVertical):
    """Images from Brave."""

    categories = ("images",)
    setting = "brave_images_url"
    page_size = 200
    time_ranges = ()  # the images page has no time filter

    def item(self, result: dict[str, Any]) -> SearchHit | None:
        """An image: the page that shows it, the file (`properties.url`), thumbnail, full size."""
        page = str(result.get("url") or "")
        if not page.startswith(("http://", "https://")):
            return None
        file, thumbnail = mapping(result.get("properties")), mapping(result.get("thumbnail"))
        return SearchHit(title=strip_tags(str(result.get("title") or "")), url=page,
                         image_url=file.get("url") or thumbnail.get("original") or None,
                         thumbnail_url=thumbnail.get("src") or None,
                         width=number(file.get("width")) or number(thumbnail.get("width")),
                         height=number(file.get("height")) or number(thumbnail.get("height")),
                         source=result.get("source") or site_of(page) or None)
