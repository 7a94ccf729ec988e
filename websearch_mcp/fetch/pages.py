"""Fetching web pages for reading: address checks on every hop, caps, content types, charsets,
a cache, and parallel fetching with a per-host limit."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urljoin, urlsplit

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
    "text/xml": "xml", "application/rss+xml": "xml", "application/atom+xml": "xml", "application/pdf": "pdf",
    "application/x-pdf": "pdf",
}
BINARY_KINDS = frozenset({"pdf"})  # kept as bytes, not decoded to text
_GENERIC = ("application/octet-stream", "binary/octet-stream", "application/download")


class FetchError(ToolError):
    """One URL could not be read; the message says why."""


def content_kind(content_type: str, url: str = "") -> str | None:
    """html, text, markdown, json, xml or pdf for a media type this server reads; None otherwise (a
    generic binary type counts as PDF when the URL's path ends in .pdf, as servers often send them)."""
    media = content_type.split(";")[0].strip().lower()
    if media in _GENERIC and urlsplit(url).path.lower().endswith(".pdf"):
        return "pdf"
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

    __slots__ = ("charset", "content_type", "data", "elapsed_ms", "final_url", "kind", "size", "text", "url")

    def __init__(self, url: str, final_url: str, content_type: str, text: str, charset: str,
                 elapsed_ms: float, size: int, data: bytes = b"") -> None:
        self.url = url
        self.final_url = final_url
        self.content_type = content_type
        self.kind = content_kind(content_type, final_url) or "text"
        self.text = text
        self.data = data  # the body itself, for the kinds that are not text (PDF)
        self.charset = charset
        self.elapsed_ms = elapsed_ms
        self.size = size

    def to_bytes(self) -> bytes:
        """The page as one cache entry."""
        head = {"url": self.url, "final_url": self.final_url, "content_type": self.content_type,
                "charset": self.charset, "elapsed_ms": self.elapsed_ms, "size": self.size}
        payload = self.data if self.kind in BINARY_KINDS else self.text.encode("utf-8", "surrogatepass")
        return wire.dumps(head).encode("utf-8") + b"\n" + payload

    @classmethod
    def from_bytes(cls, data: bytes) -> FetchedPage:
        """A page back from its cache entry."""
        head_bytes, _, payload = data.partition(b"\n")
        head = wire.loads(head_bytes.decode("utf-8"))
        binary = content_kind(head["content_type"], head["final_url"]) in BINARY_KINDS
        return cls(head["url"], head["final_url"], head["content_type"],
                   "" if binary else payload.decode("utf-8", "surrogatepass"), head["charset"], head["elapsed_ms"],
                   head["size"], data=payload if binary else b"")


def _body_rules(pdf_max_bytes: int) -> Callable[[Mapping[str, str], str], int | None]:
    """The check made on a response's headers before its body is read: refuse what cannot be read;
    a PDF may be larger than a page."""

    def check(headers: Mapping[str, str], url: str) -> int | None:
        content_type = headers.get("Content-Type", "")
        kind = content_kind(content_type, url)
        if kind is None:
            media = content_type.split(";")[0].strip()
            raise FetchError(f"unsupported content type {media} (readable: HTML, XHTML, plain text, "
                             "Markdown, JSON, XML/RSS, PDF)")
        return pdf_max_bytes if kind == "pdf" else None

    return check


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
        # pages fetched at once by this process, whatever the number of calls: each may buffer a whole
        # body, so this bounds the memory that fetching can take
        self._in_flight = threading.BoundedSemaphore(config.fetch_concurrency)

    def fetch(self, url: str, deadline: float | None = None) -> FetchedPage:
        """Fetch one page (from the cache when it is fresh there); raise ToolError on failure."""
        cached = self.cache.get(PAGE_CACHE, url)
        if cached is not None:
            return FetchedPage.from_bytes(cached)
        _, host, _ = check_url(url)
        with self._in_flight, self._slot(host):
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
                                               check_headers=_body_rules(self.config.pdf_max_bytes),
                                               deadline=deadline)
            except UpstreamError as err:
                raise FetchError(err.message) from err
            location = response.headers.get("Location")
            if response.status in REDIRECT_STATUSES and location:
                current = urljoin(current, location.strip())
                continue
            if response.status >= 400:
                raise FetchError(f"the server answered HTTP {response.status}")
            content_type = response.headers.get("Content-Type", "")
            elapsed = (time.monotonic() - started) * 1000
            if content_kind(content_type, current) in BINARY_KINDS:
                return FetchedPage(url, current, content_type, "", "", elapsed, len(response.body), response.body)
            text, charset = decode_page(response.body, content_type)
            return FetchedPage(url, current, content_type, text, charset, elapsed, len(response.body))
        raise FetchError(f"too many redirects (more than {MAX_REDIRECTS})")

