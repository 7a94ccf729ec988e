"""Bing videos (`/videos/asyncv2`, the fragment Bing's video page loads): `div.mc_vtvc` cards
(inside `<noscript>`) whose `mmeta` attribute is JSON naming the video's page and thumbnail, with
the duration, views, date, publisher and channel in the card's text."""

from __future__ import annotations

import json

from websearch_mcp.engines.base import Outbound, ResultsPage, SearchHit, SearchQuery, no_result_list
from websearch_mcp.engines.bing import Bing, market_and_safety
from websearch_mcp.engines.html import first, has_class, parse, text_of
from websearch_mcp.engines.vertical import VerticalEngine, iso_date

MINUTES = {"day": 1440, "week": 10080, "month": 43200, "year": 525600}


class BingVideos(VerticalEngine):
    """Videos from Bing."""

    page_size = 35
    block_markers = Bing.block_markers
    time_ranges = tuple(MINUTES)

    def build_request(self, query: SearchQuery, offset: int) -> Outbound:
        """GET ?q=&async=content&first=&count=, with market, safe search and age filter (pure)."""
        params = {"q": query.text, "async": "content", "first": str(offset + 1), "count": str(self.page_size),
                  **market_and_safety(query)}
        if query.time_range in MINUTES:
            params["qft"] = f"+filterui:videoage-lt{MINUTES[query.time_range]}"
        return Outbound(self.config.get("bing_videos_url"), params)

    def parse(self, body: bytes) -> ResultsPage:
        """The video cards; BlockedError for a reply without any."""
        cards = parse(body).xpath(f"//div[{has_class('mc_vtvc')}][@mmeta]")
        if not cards:
            raise no_result_list(self)
        hits = []
        for card in cards:
            try:
                meta = json.loads(card.get("mmeta"))
            except ValueError:
                continue
            url = str(meta.get("pgurl") or meta.get("murl") or "")
            if not url.startswith(("http://", "https://")):
                continue
            title = first(card.xpath(f".//div[{has_class('mc_vtvc_title')}]"))
            rows = card.xpath(f".//div[{has_class('mc_vtvc_meta_row')}]")
            publisher = first(rows[1].xpath("./span[1]")) if len(rows) > 1 else None
            channel = first(card.xpath(f".//span[{has_class('mc_vtvc_meta_row_channel')}]"))
            views = first(card.xpath(f".//span[{has_class('meta_vc_content')}]"))
            date = first(card.xpath(f".//span[{has_class('meta_pd_content')}]"))
            duration = first(card.xpath(f".//div[{has_class('mc_bc_rc')}][{has_class('items')}]"))
            hits.append(SearchHit(
                title=(title.get("title") or text_of(title)) if title is not None else "", url=url,
                snippet=" · ".join(filter(None, (text_of(channel), text_of(views)))),
                source=text_of(publisher) or None, published_date=iso_date(text_of(date)),
                duration=text_of(duration) or None, thumbnail_url=meta.get("turl") or None))
        return ResultsPage(hits, more=len(cards) >= self.page_size)
