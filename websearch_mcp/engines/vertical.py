"""What the news, images and videos searches of DuckDuckGo, Bing and Brave share: the skeleton they
run on (the engine's own name, so its politeness slot, cool-down and cache are the web search's),
the table that finds each one's module, and small readers of dates and sizes."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from websearch_mcp import log
from websearch_mcp.engines.base import EngineAnswer, ResultsPage, SearchEngine, SearchHit, SearchQuery, Turn
from websearch_mcp.engines.sites import filter_hits
from websearch_mcp.errors import UpstreamError

VERTICALS = ("news", "images", "videos")

_MODULES = {
    ("duckduckgo", "news"): "duckduckgo_news:DuckDuckGoNews",
    ("duckduckgo", "images"): "duckduckgo_images:DuckDuckGoImages",
    ("duckduckgo", "videos"): "duckduckgo_videos:DuckDuckGoVideos",
    ("bing", "news"): "bing_news:BingNews",
    ("bing", "images"): "bing_images:BingImages",
    ("bing", "videos"): "bing_videos:BingVideos",
    ("brave", "news"): "brave_news:BraveNews",
    ("brave", "images"): "brave_images:BraveImages",
    ("brave", "videos"): "brave_videos:BraveVideos",
}


@dataclass
class VerticalPage(ResultsPage):
    """A page that says where the next one starts (DuckDuckGo's `next` link)."""

    next_offset: int | None = None


def vertical_engine(parent: SearchEngine, category: str) -> VerticalEngine:
    """The engine's news, images or videos search, made on first use and kept on the engine."""
    made: dict[str, VerticalEngine] = parent.__dict__.setdefault("_verticals", {})
    if category not in made:
        module_name, _, class_name = _MODULES[(parent.name, category)].partition(":")
        module = importlib.import_module(f"websearch_mcp.engines.{module_name}")
        made[category] = getattr(module, class_name)(parent.entry, parent.config, parent.http, parent.store)
    return made[category]


class VerticalEngine(SearchEngine):
    """A news, images or videos search: pages read until enough results are seen, a failure after
    the first page keeps what came before, and the site filters applied to what comes back."""

    categories: tuple[str, ...] = VERTICALS
    time_ranges: tuple[str, ...] = ()  # the time ranges this search can apply

    def search(self, query: SearchQuery, turn: Turn) -> EngineAnswer:
        """Hits for the query's page, site-filtered, with a note when its time range cannot apply."""
        hits, pages, notes = self.read_pages(query, turn, lambda offset: self.build_request(query, offset))
        return self.answer(query, hits, pages, notes)

    def read_pages(self, query: SearchQuery, turn: Turn, request: Any) -> tuple[list[SearchHit], int, list[str]]:
        """Pages from `request(offset)` until `query.wanted` results are seen or no page follows."""
        hits: list[SearchHit] = []
        seen: set[str] = set()
        notes: list[str] = []
        offset, pages = 0, 0
        while len(hits) < query.wanted and pages < self.config.max_pages and not turn.cancelled():
            try:
                page = self.parse_for(query, self.send(request(offset), turn).body)
            except UpstreamError as err:
                if not pages:
                    raise
                notes.append(f"{self.label} page {pages + 1}: {err.message}")  # keep the pages read before it
                log.warning(notes[-1])
                break
            pages += 1
            fresh = [hit for hit in page.hits if self.key(hit) not in seen]
            seen.update(self.key(hit) for hit in fresh)
            hits.extend(fresh)
            if not page.more or not fresh:
                break
            following = page.next_offset if isinstance(page, VerticalPage) else None
            offset = following if following and following > offset else offset + len(page.hits)
        return hits, pages, notes

    def key(self, hit: SearchHit) -> str:
        """What makes two hits the same result (images: the file, as one page shows several)."""
        return hit.image_url or hit.url

    def answer(self, query: SearchQuery, hits: list[SearchHit], pages: int, notes: list[str]) -> EngineAnswer:
        """The answer: this page's slice of the filtered hits, tagged with the engine."""
        if query.time_range and query.time_range not in self.time_ranges:
            notes.append(f"{self.label} {query.category} cannot limit results to the last {query.time_range}; "
                         "they are not filtered by date")
        hits = filter_hits(hits, query.include_domains, query.exclude_domains)
        for hit in hits:
            hit.engine, hit.engines = self.name, [self.name]
        return EngineAnswer(hits=hits[query.offset:query.wanted], notes=notes,
                            extras={"pages_fetched": pages, "endpoint": query.category})


def number(value: Any) -> int | None:
    """A positive whole number from an int, a float or digits; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return int(value) if value > 0 else None
    text = str(value or "").strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


_DATE_FORMATS = ("%Y-%m-%dT%H:%M:%S", "%Y-%m-%d", "%m/%d/%Y", "%b %d, %Y", "%B %d, %Y", "%d %b %Y", "%d %B %Y")


def iso_date(value: Any) -> str | None:
    """An ISO 8601 date (with the time when one is given) from an epoch number or a written date;
    text no format fits ("3 days ago") comes back as it is."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return datetime.fromtimestamp(value, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    text = " ".join(str(value or "").split())
    if not text:
        return None
    head = text[:19]  # drop fractions and zones: "2023-06-08T12:43:32.0000000"
    for pattern in _DATE_FORMATS:
        try:
            parsed = datetime.strptime(head if pattern.startswith("%Y-") else text, pattern)
        except ValueError:
            continue
        return parsed.strftime("%Y-%m-%dT%H:%M:%S" if "%H" in pattern else "%Y-%m-%d")
    return text


def site_of(url: str) -> str:
    """The site a URL is on, as people write it: `https://www.example.com/x` -> `example.com`."""
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").lower()
    return host[4:] if host.startswith("www.") else host
