"""Bing images (`/images/async`, the fragment Bing's image page loads as one scrolls; the full
`/images/search` page has the same tiles): `a.iusc` tiles whose `m` attribute is JSON naming the
page (`purl`), the file (`murl`) and the thumbnail (`turl`); the file's size is in the link."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

from websearch_mcp.engines.base import Outbound, ResultsPage, SearchHit, SearchQuery, no_result_list
from websearch_mcp.engines.bing import Bing, market_and_safety
from websearch_mcp.engines.html import clean_text, first, has_class, parse
from websearch_mcp.engines.vertical import VerticalEngine, number, site_of

MINUTES = {"day": 1440, "week": 10080, "month": 43200, "year": 525600}
HIGHLIGHT = str.maketrans("", "", "\ue000\ue001")  # Bing marks the matched words with these


class BingImages(VerticalEngine):
    """Images from Bing."""

    page_size = 35
    block_markers = Bing.block_markers
    time_ranges = tuple(MINUTES)

    def build_request(self, query: SearchQuery, offset: int) -> Outbound:
        """GET ?q=&first=&count=, with market, safe search and age filter (pure)."""
        params = {"q": query.text, "first": str(offset), "count": str(self.page_size),
                  **market_and_safety(query)}
        if query.time_range in MINUTES:
            params["qft"] = f"+filterui:age-lt{MINUTES[query.time_range]}"
        return Outbound(self.config.get("bing_images_url"), params)

    def parse(self, body: bytes) -> ResultsPage:
        """The image tiles; BlockedError for a reply without any."""
        tiles = parse(body).xpath(f"//a[{has_class('iusc')}][@m]")
        if not tiles:
            raise no_result_list(self)
        hits = []
        for tile in tiles:
            try:
                meta = json.loads(tile.get("m"))
            except ValueError:
                continue
            page, image = str(meta.get("purl") or ""), str(meta.get("murl") or "")
            if not page.startswith(("http://", "https://")):
                continue
            size = parse_qs(urlsplit(tile.get("href", "")).query)
            site = first(tile.xpath(f"../..//div[{has_class('lnkw')}]/a/@title"))
            hits.append(SearchHit(
                title=clean_text(str(meta.get("t") or "").translate(HIGHLIGHT)), url=page,
                snippet=_description(meta), image_url=image or None, thumbnail_url=meta.get("turl") or None,
                width=number((size.get("expw") or [""])[0]), height=number((size.get("exph") or [""])[0]),
                source=site or site_of(page) or None))
        return ResultsPage(hits, more=len(tiles) >= self.page_size)


def _description(meta: dict[str, object]) -> str:
    """The tile's description unless it only repeats the title."""
    title = clean_text(str(meta.get("t") or "").translate(HIGHLIGHT))
    text = clean_text(str(meta.get("desc") or "").translate(HIGHLIGHT))
    return "" if text == title else text
