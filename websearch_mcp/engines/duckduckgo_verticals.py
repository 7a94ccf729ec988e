"""DuckDuckGo's news, images and videos: first the search page, which carries the `vqd` token the
JSON endpoints (`news.js`, `i.js`, `v.js`, beside that page) demand, then pages of JSON."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

from websearch_mcp.engines.base import EngineAnswer, Outbound, SearchHit, SearchQuery, Turn, no_result_list
from websearch_mcp.engines.vertical import VerticalEngine, VerticalPage
from websearch_mcp.errors import BlockedError

# `vqd="4-2544…"` in the page's settings, `vqd=4-2544…` in its script URLs; older pages had
# three parts in single quotes (`vqd='3-3200…-1998…'`).
_VQD = re.compile(rb"""vqd=["']?(\d-[\d-]+)""")
# what the JSON endpoints ask of a browser: they answer scripts on the search page, not navigations
JSON_HEADERS = {"Accept": "application/json, text/javascript, */*; q=0.01", "Sec-Fetch-Dest": "empty",
                "Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin", "X-Requested-With": "XMLHttpRequest"}


def parse_token(body: bytes) -> str | None:
    """The `vqd` token of a DuckDuckGo search page, or None when the page carries none."""
    match = _VQD.search(body)
    return match.group(1).decode("ascii") if match else None


def region_of(query: SearchQuery) -> str:
    """DuckDuckGo's region (`l`): the one asked for, else the language's."""
    from websearch_mcp.engines.duckduckgo import region_for_language

    return query.region if query.region != "wt-wt" or not query.language else region_for_language(query.language)


def results_of(engine: VerticalEngine, body: bytes) -> list[dict[str, Any]]:
    """The `results` list of a JSON answer; a block (BlockedError) when the answer is no such JSON."""
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise no_result_list(engine) from None
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list):
        raise no_result_list(engine)
    return [item for item in results if isinstance(item, dict)]


def next_offset(body: bytes) -> int | None:
    """Where the next page starts, from a JSON answer's `next` link (`news.js?…&s=30&…`); None when
    the answer names no next page."""
    try:
        link = json.loads(body.decode("utf-8")).get("next")
    except (UnicodeDecodeError, ValueError, AttributeError):
        return None
    if not isinstance(link, str) or not link:
        return None
    start = (parse_qs(urlsplit(link).query).get("s") or ["0"])[0]
    return int(start) if start.isdigit() else 0


class DuckDuckGoVertical(VerticalEngine):
    """One of DuckDuckGo's JSON result endpoints; subclasses name it and read its items."""

    endpoint = ""  # "news.js", "i.js" or "v.js"
    block_markers = (b"anomalyDetectionBlock", b"anomaly-modal", b"challenge-form")

    def token_request(self, query: SearchQuery) -> Outbound:
        """The search page that carries the token (pure)."""
        return Outbound(self.config.get("ddg_url"), {"q": query.text, "ia": query.category})

    def build_request(self, query: SearchQuery, offset: int, vqd: str = "") -> Outbound:
        """The JSON page starting at `offset` (pure)."""
        params = {"l": region_of(query), "o": "json", "q": query.text, "vqd": vqd, **self.options(query)}
        if offset:
            params["s"] = str(offset)
        origin = self.config.get("ddg_url")
        return Outbound(urljoin(origin, self.endpoint), params, headers={**JSON_HEADERS, "Referer": origin})

    def options(self, query: SearchQuery) -> dict[str, str]:
        """The endpoint's own parameters: safe search, time range."""
        raise NotImplementedError

    def item(self, result: dict[str, Any]) -> SearchHit | None:
        """One result as a hit (None for an item without a link)."""
        raise NotImplementedError

    def parse(self, body: bytes) -> VerticalPage:
        """The hits of one JSON page and where the next starts; BlockedError when it is not one."""
        hits = [hit for hit in map(self.item, results_of(self, body)) if hit is not None]
        following = next_offset(body)
        return VerticalPage(hits, more=bool(hits) and following is not None, next_offset=following)

    def search(self, query: SearchQuery, turn: Turn) -> EngineAnswer:
        """The token page, then JSON pages until enough results are seen."""
        vqd = parse_token(self.send(self.token_request(query), turn).body)
        if not vqd:
            raise BlockedError("DuckDuckGo answered with a search page that carries no vqd token (a block page "
                               "or a changed layout)", url=self.config.get("ddg_url"), backend=self.name)
        hits, pages, notes = self.read_pages(query, turn, lambda offset: self.build_request(query, offset, vqd))
        return self.answer(query, hits, pages + 1, notes)
