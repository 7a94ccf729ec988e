"""The services tools call: search, page reading, retrieval context, instant answers, Tavily.

One `Services` object belongs to one server instance and owns all state that outlives a call (the
HTTP client and its connection pool, the shared store with caches, politeness and cool-downs).
Each part is made on first use, so start-up, `initialize` and `tools/list` import none of it.
"""

from __future__ import annotations

import _thread

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    from websearch_mcp.config import Config
    from websearch_mcp.crawl.crawler import Crawls
    from websearch_mcp.fetch.addresses import AddressGuard
    from websearch_mcp.fetch.pages import PageFetcher
    from websearch_mcp.http_client import HttpClient
    from websearch_mcp.services.context import ContextService
    from websearch_mcp.services.instant_answer import InstantAnswerApi
    from websearch_mcp.services.pages import PageReader
    from websearch_mcp.services.rendering import Renderer
    from websearch_mcp.services.search import SearchService
    from websearch_mcp.services.tavily import TavilyClient
    from websearch_mcp.store import Store

    Made = TypeVar("Made")


class Services:
    """Everything the tools use beyond one call, made lazily, once, for one server instance."""

    def __init__(self, config: Config, guard: AddressGuard | None = None) -> None:
        self.config = config
        self.guard = guard  # the address rules of page fetches (the tests swap the network below them)
        self._made: dict[str, Any] = {}
        self._lock = _thread.RLock()  # one part's factory asks for another

    def _once(self, name: str, factory: Callable[[], Made]) -> Made:
        made = self._made.get(name)
        if made is None:
            with self._lock:
                made = self._made.get(name)
                if made is None:
                    made = self._made[name] = factory()
        return made

    @property
    def http(self) -> HttpClient:
        """The client for search engines and APIs (one connection pool)."""
        from websearch_mcp.http_client import HttpClient

        return self._once("http", lambda: HttpClient(self.config))

    @property
    def store(self) -> Store:
        """Caches, politeness and cool-downs, shared with other processes as configured."""
        from websearch_mcp.store import open_store

        return self._once("store", lambda: open_store(self.config))

    @property
    def fetcher(self) -> PageFetcher:
        """The guarded fetcher of arbitrary pages (address checks, caps, page cache)."""
        from websearch_mcp.fetch.pages import PageFetcher

        return self._once("fetcher", lambda: PageFetcher(self.config, guard=self.guard, store=self.store))

    @property
    def search(self) -> SearchService:
        """Web search over the configured engines."""
        from websearch_mcp.services.search import SearchService

        return self._once("search", lambda: SearchService(self.config, self.http, self.store))

    @property
    def pages(self) -> PageReader:
        """Pages read as Markdown documents."""
        from websearch_mcp.services.pages import PageReader

        return self._once("pages", lambda: PageReader(self.fetcher, self.renderer))

    @property
    def renderer(self) -> Renderer:
        """Pages built by scripts: their data, or the headless browser."""
        from websearch_mcp.services.rendering import Renderer

        return self._once("renderer", lambda: Renderer(self.config, self.fetcher.guard, self.store))

    @property
    def context(self) -> ContextService:
        """Retrieval context: search, read, rank and pack."""
        from websearch_mcp.services.context import ContextService

        return self._once("context", lambda: ContextService(self.search, self.pages))

    @property
    def crawls(self) -> Crawls:
        """Site crawls this process works on (their state is in the store)."""
        from websearch_mcp.crawl.crawler import Crawls

        return self._once("crawls", lambda: Crawls(self))

    @property
    def instant_answers(self) -> InstantAnswerApi:
        """DuckDuckGo's Instant Answer API."""
        from websearch_mcp.services.instant_answer import InstantAnswerApi

        return self._once("instant_answers", lambda: InstantAnswerApi(self.config, self.http))

    @property
    def tavily(self) -> TavilyClient:
        """The Tavily API."""
        from websearch_mcp.services.tavily import TavilyClient

        return self._once("tavily", lambda: TavilyClient(self.config, self.http))

    def close(self) -> None:
        """Release what is open (the store's connections)."""
        renderer = self._made.get("renderer")
        if renderer is not None:
            renderer.close()
        store = self._made.get("store")
        if store is not None:
            store.close()
