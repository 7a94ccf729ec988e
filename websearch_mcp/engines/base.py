"""What every search engine takes and gives, and the skeleton they share:
build request → wait for a polite slot → send → detect a block → parse → page on.

An engine is mostly configuration plus two pure functions, `build_request(query, offset)` and
`parse(body)`, tested on recorded pages. Engines whose paging or endpoints are unusual
(DuckDuckGo's forms, SearXNG's instances) override `search`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websearch_mcp.config import Config
from websearch_mcp.engines.sites import with_site_operators
from websearch_mcp.engines.table import EngineEntry
from websearch_mcp.errors import BlockedError, DeadlineExceeded, UpstreamError
from websearch_mcp.http_client import HttpClient, HttpResponse
from websearch_mcp.store.base import Store

TIME_RANGES = ("", "day", "week", "month", "year")


@dataclass(frozen=True)
class SearchQuery:
    """A search in engine-neutral terms; the defaults are web_search's."""

    query: str
    max_results: int = 10
    region: str = "wt-wt"
    language: str = ""
    safe_search: int = 1
    time_range: str = ""
    page: int = 1
    category: str = "general"
    include_domains: tuple[str, ...] = ()  # only results from these sites (and their subdomains)
    exclude_domains: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The query with the site filters written as the engines' `site:` and `-site:` operators."""
        return with_site_operators(self.query, self.include_domains, self.exclude_domains)

    @property
    def offset(self) -> int:
        """How many results come before the first one asked for."""
        return (self.page - 1) * self.max_results

    @property
    def wanted(self) -> int:
        """How many results the engine must have seen to serve this page."""
        return self.page * self.max_results


@dataclass
class SearchHit:
    """One result."""

    title: str
    url: str
    snippet: str = ""
    engine: str = ""
    engines: list[str] = field(default_factory=list)
    score: float | None = None
    published_date: str | None = None
    # news, images and videos
    source: str | None = None  # the publisher (news, videos) or the site showing an image
    image_url: str | None = None  # the image file itself (images)
    thumbnail_url: str | None = None
    width: int | None = None
    height: int | None = None
    duration: str | None = None  # as the engine writes it: "4:01:40"


@dataclass
class EngineAnswer:
    """An engine's answer: its hits and whatever else it reports (answers, endpoint, instance, ...)."""

    hits: list[SearchHit]
    extras: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


@dataclass
class ResultsPage:
    """What one upstream page holds: its hits, and whether another page follows."""

    hits: list[SearchHit] = field(default_factory=list)
    more: bool = False


@dataclass
class Outbound:
    """A request to send, as `build_request` describes it."""

    url: str
    params: dict[str, str] = field(default_factory=dict)
    method: str = "GET"
    data: dict[str, str] | None = None
    headers: dict[str, str] = field(default_factory=dict)


class Turn:
    """How one search call may use the network: its deadline, its cancellation, and the polite wait
    for a request slot (shared, through the store, with every process using the same store)."""

    def __init__(self, wait_for_slot: Callable[[str, float | None], None], deadline: float | None = None,
                 cancelled: Callable[[], bool] | None = None) -> None:
        self._wait_for_slot = wait_for_slot
        self.deadline = deadline
        self.cancelled = cancelled or (lambda: False)

    def wait(self, engine: str) -> None:
        """Block until this engine may be sent the next request; DeadlineExceeded if that is too late."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise DeadlineExceeded(f"the call's deadline passed before {engine} could be asked")
        self._wait_for_slot(engine, self.deadline)


BROWSER_HEADERS = {
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
    "Accept-Language": "en-US,en;q=0.9",
    "Sec-Fetch-Dest": "document",
    "Sec-Fetch-Mode": "navigate",
    "Sec-Fetch-Site": "none",
    "Sec-Fetch-User": "?1",
    "Upgrade-Insecure-Requests": "1",
}
"""What a desktop browser sends with a top-level navigation (the User-Agent comes from the client)."""


class SearchEngine:
    """The skeleton. Subclasses set `page_size`, `categories`, and define `build_request` and `parse`;
    they may refine `block_reason`."""

    page_size = 10
    categories: tuple[str, ...] = ("general",)
    blocked_statuses: tuple[int, ...] = (403, 429)
    block_markers: tuple[bytes, ...] = ()
    no_results_notices: tuple[str, ...] = ()  # what a page without a result list says when nothing matched

    def __init__(self, entry: EngineEntry, config: Config, http: HttpClient, store: Store) -> None:
        self.entry = entry
        self.name = entry.name
        self.label = entry.label
        self.config = config
        self.http = http
        self.store = store  # for what an engine remembers across calls (SearXNG's last good instance)

    def supports(self, query: SearchQuery) -> bool:
        """Whether this engine serves the query's category."""
        return query.category in self.categories

    def build_request(self, query: SearchQuery, offset: int) -> Outbound:
        """The request for the results starting at `offset` (pure)."""
        raise NotImplementedError

    def parse(self, body: bytes) -> ResultsPage:
        """The hits of one page (pure); UpstreamError when the page holds no result list at all."""
        raise NotImplementedError

    def parse_for(self, query: SearchQuery, body: bytes) -> ResultsPage:
        """`parse`, for engines whose reading of a page depends on the query (pure)."""
        return self.parse(body)

    def empty_or_blocked(self, page_text: str) -> ResultsPage:
        """For a page without a result list: no results when its text says so, else a block."""
        if any(notice in page_text for notice in self.no_results_notices):
            return ResultsPage()
        raise no_result_list(self)

    def block_reason(self, status: int, body: bytes) -> str | None:
        """Why a reply is the engine refusing an automated client, or None (pure)."""
        if status in self.blocked_statuses:
            return f"HTTP {status}"
        head = body[:300_000]
        marker = next((m for m in self.block_markers if m in head), None)
        return f"a block page ({marker.decode('ascii', 'replace')})" if marker else None

    def search(self, query: SearchQuery, turn: Turn) -> EngineAnswer:
        """Hits for the query's page: upstream pages are read until enough results are seen."""
        hits: list[SearchHit] = []
        seen: set[str] = set()
        offset = (query.offset // self.page_size) * self.page_size
        pages = 0
        while len(hits) + offset < query.wanted and pages < self.config.max_pages and not turn.cancelled():
            page = self.parse_for(query, self.send(self.build_request(query, offset), turn).body)
            pages += 1
            fresh = [hit for hit in page.hits if hit.url not in seen]
            seen.update(hit.url for hit in fresh)
            hits.extend(fresh)
            if not page.more or not fresh:
                break
            offset += len(page.hits)
        start = query.offset - (query.offset // self.page_size) * self.page_size
        for hit in hits:
            hit.engine = hit.engine or self.name
            hit.engines = hit.engines or [self.name]
        return EngineAnswer(hits=hits[start:start + query.max_results], extras={"pages_fetched": pages})

    def send(self, request: Outbound, turn: Turn) -> HttpResponse:
        """Send after a polite wait; BlockedError for a block page, UpstreamError for an HTTP error."""
        turn.wait(self.name)
        response = self.http.request(request.method, request.url, params=request.params or None,
                                     data=request.data, headers={**BROWSER_HEADERS, **request.headers},
                                     deadline=turn.deadline, retries=0)
        reason = self.block_reason(response.status, response.body)
        if reason:
            raise BlockedError(f"{self.label} answered with {reason}", url=request.url, status=response.status,
                               retry_after=response.retry_after(), backend=self.name)
        response.raise_for_status(self.label)
        return response


def no_result_list(engine: SearchEngine) -> BlockedError:
    """A 200 page with neither results nor a no-results notice: a block page or a changed layout."""
    return BlockedError(f"{engine.label} answered with a page that holds no result list (a block page, a "
                        "consent wall, or a changed layout)", backend=engine.name)


def first_answer(candidates: list[Any], ask: Callable[[Any], Any]) -> tuple[Any, list[tuple[Any, Exception]]]:
    """The one failover loop: ask each candidate in turn until one answers. Returns the answer and the
    failures before it; raises AllFailed with every failure (a passed deadline ends the loop early).
    `ask` raises UpstreamError for a failure and Skipped for a candidate it did not ask."""
    failures: list[tuple[Any, Exception]] = []
    for candidate in candidates:
        try:
            return ask(candidate), failures
        except (UpstreamError, Skipped) as err:
            failures.append((candidate, err))
            if isinstance(err, DeadlineExceeded):
                break
    raise AllFailed(failures)


class Skipped(Exception):
    """A candidate that was not asked (cooling down, wrong category); the message says why."""


class AllFailed(Exception):
    """No candidate answered."""

    def __init__(self, failures: list[tuple[Any, Exception]]) -> None:
        super().__init__(f"{len(failures)} failures")
        self.failures = failures
