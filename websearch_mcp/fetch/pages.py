"""Fetching web pages for reading: address checks on every hop, caps, content types, charsets,
a cache, and parallel fetching with a per-host limit."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import contextmanager
from typing import Any, TypeVar
from urllib.parse import urljoin, urlsplit

from websearch_mcp import exchange, log, wire
from websearch_mcp.config import Config
from websearch_mcp.errors import ToolError, UpstreamConnectionError, UpstreamError
from websearch_mcp.fetch.addresses import AddressGuard, UnresolvedHostError, check_url
from websearch_mcp.fetch.charset import decode_page
from websearch_mcp.fetch.proxies import proxy_for
from websearch_mcp.fetch.slots import FairSlots, Holding
from websearch_mcp.store.base import Store
from websearch_mcp.store.memory import MemoryStore
from websearch_mcp.templates import NETWORK_HINT

PAGE_CACHE = "page"
Made = TypeVar("Made")
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


class LatePage(FetchError):
    """A page not read within the time the call gave it; it is still being read in the background."""

    def __init__(self, url: str, waited: float) -> None:
        super().__init__(f"not read in time (still loading after {waited:.1f} s); ask again: it is still "
                         "being read")
        self.url = url


class _Retry(Exception):
    """One attempt failed in a way a later attempt may not (a reset, a 5xx): wait, then try again."""

    def __init__(self, wait: float, error: FetchError) -> None:
        super().__init__(error.message)
        self.wait = wait
        self.error = error


class NotStarted(FetchError):
    """A page still waiting for a connection to its host when the answer went out; it is not read."""

    def __init__(self, url: str, host: str, waited: float) -> None:
        super().__init__(f"not read: after {waited:.1f} s it was still waiting in line for a connection to "
                         f"{host} (its other pages were being read); ask again to read it")
        self.url = url


FETCH_RETRIES = 1
QUORUM = 0.6  # share of the pages asked for after which the rest only get a grace period
GRACE_FACTOR = 2.0  # the grace: this many times what the quorum took ...
GRACE_MIN, GRACE_MAX = 0.3, 5.0  # ... within these bounds (seconds)
STALL_AFTER = 1.0  # seconds on the wire after which a request steps aside for the host's next page
STALLED_MAX = 4  # requests of one host that may have stepped aside at once (at most the host's bound)
_POLL = 0.05  # how often the wait looks again while a page is still in line for its host


def grace_after(quorum_seconds: float) -> float:
    """How long the pages still loading are waited for once the quorum is in."""
    return min(GRACE_MAX, max(GRACE_MIN, GRACE_FACTOR * quorum_seconds))


class _Read:
    """One URL's read under way: its result, when its first request went out, and how many calls wait
    for it (a read nobody waits for any more is dropped if it has not started)."""

    __slots__ = ("abandoned", "finished_at", "future", "started_at", "waiters")

    def __init__(self) -> None:
        self.future: Future[FetchedPage] = Future()
        self.started_at: float | None = None  # when its first request went out (None: cached, or in line)
        self.finished_at: float | None = None
        self.waiters = 0
        self.abandoned = False


class PageFetcher:
    """Fetches pages with the project's safety rules; one per configuration."""

    def __init__(self, config: Config, guard: AddressGuard | None = None, store: Store | None = None) -> None:
        from websearch_mcp.fetch.client import GuardedHttpClient

        self.config = config
        self.guard = guard or AddressGuard(allow_private=config.allow_private_urls)
        self.client = GuardedHttpClient(config, self.guard)
        self.cache = store if store is not None else MemoryStore(config.store_max_bytes)
        self._host_slots: dict[str, FairSlots] = {}
        self._slots_lock = threading.Lock()
        # pages fetched at once by this process, whatever the number of calls: each may buffer a whole
        # body, so this bounds the memory that fetching can take
        self._in_flight = FairSlots(config.fetch_concurrency)
        self._reading: dict[str, _Read] = {}  # URL -> the read under way (one per URL)

    def fetch(self, url: str, deadline: float | None = None, read: _Read | None = None) -> FetchedPage:
        """Fetch one page (from the cache when it is fresh there); raise ToolError on failure."""
        cached = self.cache.get(PAGE_CACHE, url)
        if cached is not None:
            return FetchedPage.from_bytes(cached)
        _, host, _ = check_url(url)
        page = self._fetch_with_retries(url, host.lower(), deadline, read)
        self.cache.put(PAGE_CACHE, url, page.to_bytes(), self.config.cache_ttl)
        return page

    def fetch_many(self, urls: list[str], on_done: Callable[[int], None] | None = None,
                   deadline: float | None = None, max_wait: float | None = None) -> list[FetchedPage | ToolError]:
        """Fetch several pages in parallel (bounded, and per host); results in the order asked.

        Once a quorum of them is in, the others get a grace period (a small multiple of what the
        quorum took, counted for a page from when its request went out); those still loading then are
        answered as LatePage and keep loading in the background into the page cache, so asking again
        soon finds them. `max_wait` (seconds) caps the whole wait."""
        return self.fetch_many_then(urls, _same, on_done, deadline, max_wait)

    def fetch_many_then(self, urls: list[str], then: Callable[[FetchedPage], Made],
                        on_done: Callable[[int], None] | None = None, deadline: float | None = None,
                        max_wait: float | None = None,
                        cancelled: Callable[[], bool] | None = None) -> list[Made | ToolError]:
        """fetch_many, with `then` applied to each page as soon as it is in (on the thread that read it,
        so converting the first pages overlaps waiting for the last). A cancelled call stops waiting at
        once; pages nobody else waits for that have not started are dropped."""
        started = time.monotonic()
        until = deadline
        if max_wait is not None:
            until = started + max_wait if until is None else min(until, started + max_wait)
        reads = [self._reading_of(url, deadline) for url in urls]
        futures = [_chained(read.future, then) for read in reads]
        try:
            self._wait_for_quorum_and_grace(reads, futures, started, until, on_done, cancelled)
            waited = time.monotonic() - started
            return [self._outcome(url, read, future, waited) for url, read, future in zip(urls, reads, futures,
                                                                                           strict=True)]
        finally:
            for read in reads:
                self._let_go(read)

    def _wait_for_quorum_and_grace(self, reads: list[_Read], futures: list[Future[Made]], started: float,
                                   until: float | None, on_done: Callable[[int], None] | None,
                                   cancelled: Callable[[], bool] | None = None) -> None:
        """Wait until every page is in, or the grace after the quorum ends (for each page, counted from
        when its request went out: a page still in line for its host is not late), or `until`."""
        done_count = 0
        quorum = max(1, math.ceil(len(futures) * QUORUM))
        quorum_at: float | None = None
        grace = 0.0
        pending = set(futures)
        while pending:
            now = time.monotonic()
            limit, poll = until, None
            if quorum_at is not None:
                end = quorum_at + grace
                for read, future in zip(reads, futures, strict=True):
                    if future not in pending:
                        continue
                    if read.started_at is None:
                        end, poll = max(end, quorum_at + 2 * grace), _POLL
                    elif read.started_at > quorum_at:
                        end = max(end, read.started_at + grace)
                limit = end if limit is None else min(limit, end)
            if (limit is not None and now >= limit) or (cancelled is not None and cancelled()):
                break
            timeout = None if limit is None else limit - now
            if cancelled is not None:
                poll = _POLL * 2
            if poll is not None:
                timeout = poll if timeout is None else min(timeout, poll)
            finished, pending = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
            for _ in finished:
                done_count += 1
                if on_done is not None:
                    on_done(done_count)
            if quorum_at is None and len(futures) - len(pending) >= quorum and pending:
                quorum_at = time.monotonic()
                grace = grace_after(_slowest_read(reads, started, quorum_at))

    def _reading_of(self, url: str, deadline: float | None) -> _Read:
        """The read of a URL: the one under way, or a new one on its own thread (a read outlives the
        call that started it when it is late, so it runs on a daemon thread, not a pool the call joins)."""
        with self._slots_lock:
            running = self._reading.get(url)
            if running is not None:
                running.waiters += 1
                running.abandoned = False
                return running
            read = self._reading[url] = _Read()
            read.waiters = 1

        def run() -> None:
            try:
                page = self.fetch(url, deadline, read)
            except BaseException as err:
                read.finished_at = time.monotonic()
                read.future.set_exception(err)
            else:
                read.finished_at = time.monotonic()
                read.future.set_result(page)
            finally:
                with self._slots_lock:
                    if self._reading.get(url) is read:
                        del self._reading[url]

        threading.Thread(target=run, name="page-read", daemon=True).start()
        return read

    def _let_go(self, read: _Read) -> None:
        """One call stops waiting for a read; a read nobody waits for that has not started is dropped."""
        with self._slots_lock:
            read.waiters -= 1
            if read.waiters <= 0 and read.started_at is None:
                read.abandoned = True

    def _outcome(self, url: str, read: _Read, future: Future[Any], waited: float) -> Any:
        if not future.done():
            if read.started_at is None:
                return NotStarted(url, _host_of(url), waited)
            return LatePage(url, waited)
        error = future.exception()
        if error is None:
            return future.result()
        if isinstance(error, ToolError):
            return error
        log.warning(f"reading {url} failed inside the server: {type(error).__name__}: {error}")
        return FetchError(f"could not be read ({type(error).__name__})")

    def _slot(self, host: str) -> FairSlots:
        with self._slots_lock:
            slot = self._host_slots.get(host)
            if slot is None:
                per_host = self.config.fetch_per_host
                slot = self._host_slots[host] = FairSlots(per_host, stalled_capacity=min(per_host, STALLED_MAX))
            return slot

    def _fetch_with_retries(self, url: str, host: str, deadline: float | None, read: _Read | None) -> FetchedPage:
        """Fetch with one retry of a transient failure; a slot of the host and of the process is held
        only while a request is on the wire, never during the pause before a retry."""
        queued = time.monotonic()
        for attempt in range(FETCH_RETRIES + 1):
            with self._slots_held(host, deadline, queued, read):
                try:
                    return self._fetch_uncached(url, deadline, attempt)
                except _Retry as retry:
                    failure = retry
            if attempt == FETCH_RETRIES or (deadline is not None and
                                            time.monotonic() + failure.wait + 1.0 >= deadline):
                raise failure.error
            self.client.pause(failure.wait)
            queued = time.monotonic()
        raise AssertionError("unreachable")

    @contextmanager
    def _slots_held(self, host: str, deadline: float | None, queued: float, read: _Read | None) -> Iterator[None]:
        host_slot = self._slot(host)
        if not host_slot.acquire(deadline):
            raise _queue_timeout(host, queued, deadline)
        holding = Holding(host_slot)
        try:
            if not self._in_flight.acquire(deadline):
                raise _queue_timeout(host, queued, deadline)
            try:
                if read is not None:
                    with self._slots_lock:
                        if read.abandoned:
                            raise NotStarted("", host, time.monotonic() - queued)
                        read.started_at = read.started_at or time.monotonic()
                exchange.call_at(time.monotonic() + STALL_AFTER, holding.stall)
                yield
            finally:
                self._in_flight.release()
        finally:
            holding.release()

    def _fetch_uncached(self, url: str, deadline: float | None, attempt: int = 0) -> FetchedPage:
        started = time.monotonic()
        current = url
        for _ in range(MAX_REDIRECTS + 1):
            _, host, port = check_url(current)
            try:  # refuse before sending; a direct connection checks again
                if proxy_for(current) is None:
                    self.guard.resolve(host, port)
                else:
                    self.guard.check_behind_proxy(host, port)
            except UnresolvedHostError as err:
                raise FetchError(f"{err.message}. {NETWORK_HINT}") from err
            try:
                response = self.client.request("GET", current, follow_redirects=False, retries=0,
                                               max_bytes=self.config.fetch_max_bytes,
                                               check_headers=_body_rules(self.config.pdf_max_bytes),
                                               deadline=deadline)
            except UpstreamConnectionError as err:
                if err.transient:
                    raise _Retry(self.client.backoff(attempt), FetchError(f"{err.message}. {NETWORK_HINT}")) from err
                raise FetchError(f"{err.message}. {NETWORK_HINT}") from err
            except UpstreamError as err:
                raise FetchError(err.message) from err
            location = response.headers.get("Location")
            if response.status in REDIRECT_STATUSES and location:
                current = urljoin(current, location.strip())
                continue
            if response.status >= 400:
                error = FetchError(f"the server answered HTTP {response.status}")
                wait = self.client.retry_wait(response, attempt)
                if wait is not None:
                    raise _Retry(wait, error)
                raise error
            content_type = response.headers.get("Content-Type", "")
            elapsed = (time.monotonic() - started) * 1000
            if content_kind(content_type, current) in BINARY_KINDS:
                return FetchedPage(url, current, content_type, "", "", elapsed, len(response.body), response.body)
            text, charset = decode_page(response.body, content_type)
            return FetchedPage(url, current, content_type, text, charset, elapsed, len(response.body))
        raise FetchError(f"too many redirects (more than {MAX_REDIRECTS})")


def _queue_timeout(host: str, queued: float, deadline: float | None) -> FetchError:
    waited = time.monotonic() - queued
    return FetchError(f"not fetched: the call's deadline passed after {waited:.1f} s waiting in line for a "
                      f"connection to {host} (other pages of this host or of this server were being read)")


def _same(page: FetchedPage) -> FetchedPage:
    return page


def _chained(reading: Future[FetchedPage], then: Callable[[FetchedPage], Made]) -> Future[Made]:
    """A future of `then(page)`, computed by whichever thread completes the read."""
    made: Future[Made] = Future()

    def finish(done: Future[FetchedPage]) -> None:
        error = done.exception()
        if error is not None:
            made.set_exception(error)
            return
        try:
            made.set_result(then(done.result()))
        except BaseException as err:  # handed to the caller through the future
            made.set_exception(err)

    reading.add_done_callback(finish)
    return made


def _slowest_read(reads: list[_Read], started: float, now: float) -> float:
    """How long the slowest page in so far took on the wire (time spent in line for its host left out:
    the grace is what a page of this host normally takes, not what the queue took)."""
    times = [read.finished_at - (read.started_at or read.finished_at) for read in reads
             if read.finished_at is not None]
    return max(times) if times else now - started


def _host_of(url: str) -> str:
    try:
        return urlsplit(url).hostname or url
    except ValueError:
        return url
