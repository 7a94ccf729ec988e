"""Fetching web pages for reading: address checks on every hop, caps, content types, charsets,
a cache, and parallel fetching with a per-host limit."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urljoin

from websearch_mcp import wire
from websearch_mcp.config import Config
from websearch_mcp.errors import ToolError, UpstreamError
from websearch_mcp.fetch.addresses import AddressGuard, check_url
from websearch_mcp.fetch.charset import decode_page
from websearch_mcp.store.base import Store
from websearch_mcp.store.memory import MemoryStore

PAGE_CACHE = "page"
MAX_REDIRECTS = 5
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
KINDS = {
    "text/html": "html", "application/xhtml+xml": "html", "text/plain": "text", "text/markdown": "markdown",
    "text/x-markdown": "markdown", "application/json": "json", "text/json": "json", "application/xml": "xml",
    "text/xml": "xml", "application/rss+xml": "xml", "application/atom+xml": "xml",
}


class FetchError(ToolError):
    """One URL could not be read; the message says why."""


def content_kind(content_type: str) -> str | None:
    """html, text, markdown, json or xml for a media type this server reads; None otherwise."""
    media = content_type.split(";")[0].strip().lower()
    if not media:
        return "html"  # no Content-Type: sniffed as HTML, which is what servers forget it for
    if media in KINDS:
        return KINDS[media]
    if media.endswith("+json"):
        return "json"
    if media.endswith("+xml"):
        return "xml"
    return None


class FetchedPage:
    """A page's decoded text and how it was obtained."""

    __slots__ = ("charset", "content_type", "elapsed_ms", "final_url", "kind", "size", "text", "url")

    def __init__(self, url: str, final_url: str, content_type: str, text: str, charset: str,
                 elapsed_ms: float, size: int) -> None:
        self.url = url
        self.final_url = final_url
        self.content_type = content_type
        self.kind = content_kind(content_type) or "text"
        self.text = text
        self.charset = charset
        self.elapsed_ms = elapsed_ms
        self.size = size

    def to_bytes(self) -> bytes:
        """The page as one cache entry."""
        head = {"url": self.url, "final_url": self.final_url, "content_type": self.content_type,
                "charset": self.charset, "elapsed_ms": self.elapsed_ms, "size": self.size}
        return wire.dumps(head).encode("utf-8") + b"\n" + self.text.encode("utf-8", "surrogatepass")

    @classmethod
    def from_bytes(cls, data: bytes) -> FetchedPage:
        """A page back from its cache entry."""
        head_bytes, _, text = data.partition(b"\n")
        head = wire.loads(head_bytes.decode("utf-8"))
        return cls(head["url"], head["final_url"], head["content_type"], text.decode("utf-8", "surrogatepass"),
                   head["charset"], head["elapsed_ms"], head["size"])


def _refuse_unreadable(headers: Mapping[str, str], url: str) -> None:
    content_type = headers.get("Content-Type", "")
    if content_kind(content_type) is None:
        media = content_type.split(";")[0].strip()
        raise FetchError(f"unsupported content type {media} (readable: HTML, XHTML, plain text, "
                         "Markdown, JSON, XML/RSS)")


class PageFetcher:
    """Fetches pages with the project's safety rules; one per configuration."""

    def __init__(self, config: Config, guard: AddressGuard | None = None, store: Store | None = None) -> None:
        from websearch_mcp.fetch.client import GuardedHttpClient

        self.config = config
        self.guard = guard or AddressGuard(allow_private=config.allow_private_urls)
        self.client = GuardedHttpClient(config, self.guard)
        self.cache = store if store is not None else MemoryStore(config.store_max_bytes)
        self._host_slots: dict[str, threading.BoundedSemaphore] = {}
        self._slots_lock = threading.Lock()

    def fetch(self, url: str, deadline: float | None = None) -> FetchedPage:
        """Fetch one page (from the cache when it is fresh there); raise ToolError on failure."""
        cached = self.cache.get(PAGE_CACHE, url)
        if cached is not None:
            return FetchedPage.from_bytes(cached)
        _, host, _ = check_url(url)
        with self._slot(host):
            page = self._fetch_uncached(url, deadline)
        self.cache.put(PAGE_CACHE, url, page.to_bytes(), self.config.cache_ttl)
        return page

    def fetch_many(self, urls: list[str], on_done: Callable[[int], None] | None = None,
                   deadline: float | None = None) -> list[FetchedPage | ToolError]:
        """Fetch several pages in parallel (bounded, and per host); results in the order asked."""
        results: list[FetchedPage | ToolError] = [ToolError("not fetched")] * len(urls)
        done = 0
        done_lock = threading.Lock()

        def run(index: int) -> None:
            nonlocal done
            try:
                results[index] = self.fetch(urls[index], deadline)
            except ToolError as err:
                results[index] = err
            with done_lock:
                done += 1
                count = done
            if on_done is not None:
                on_done(count)

        if len(urls) == 1:
            run(0)
            return results
        with ThreadPoolExecutor(max_workers=min(self.config.fetch_concurrency, len(urls))) as pool:
            list(pool.map(run, range(len(urls))))
        return results

    def _slot(self, host: str) -> threading.BoundedSemaphore:
        host = host.lower()
        with self._slots_lock:
            slot = self._host_slots.get(host)
            if slot is None:
                slot = self._host_slots[host] = threading.BoundedSemaphore(self.config.fetch_per_host)
            return slot

    def _fetch_uncached(self, url: str, deadline: float | None) -> FetchedPage:
        started = time.monotonic()
        current = url
        for _ in range(MAX_REDIRECTS + 1):
            _, host, port = check_url(current)
            self.guard.resolve(host, port)  # refuse before sending; the connection checks again
            try:
                response = self.client.request("GET", current, follow_redirects=False, retries=1,
                                               max_bytes=self.config.fetch_max_bytes,
                                               check_headers=_refuse_unreadable, deadline=deadline)
            except UpstreamError as err:
                raise FetchError(err.message) from err
            location = response.headers.get("Location")
            if response.status in REDIRECT_STATUSES and location:
                current = urljoin(current, location.strip())
                continue
            if response.status >= 400:
                raise FetchError(f"the server answered HTTP {response.status}")
            content_type = response.headers.get("Content-Type", "")
            text, charset = decode_page(response.body, content_type)
            return FetchedPage(url, current, content_type, text, charset,
                               (time.monotonic() - started) * 1000, len(response.body))
        raise FetchError(f"too many redirects (more than {MAX_REDIRECTS})")

