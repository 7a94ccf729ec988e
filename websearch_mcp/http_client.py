"""The one HTTP layer: every outbound request goes through here (the only module importing requests).

It owns the `requests.Session` and adds timeouts, bounded retries with backoff on connection
errors and 5xx, `Retry-After` honoured up to a cap, a realistic User-Agent, proxies from the
usual environment variables, a body-size cap enforced while streaming, and the mapping of
transport failures to the project's own exceptions.
"""

from __future__ import annotations

import email.utils
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import requests
import urllib3
from requests.adapters import HTTPAdapter

from websearch_mcp import exchange, log
from websearch_mcp.config import Config
from websearch_mcp.errors import (
    DeadlineExceeded,
    ResponseTooLarge,
    ToolError,
    UpstreamConnectionError,
    UpstreamError,
    UpstreamHTTPError,
    UpstreamTimeout,
)
from websearch_mcp.fetch.addresses import AddressGuard, BlockedAddressError

_CHUNK = 64 * 1024
MAX_REDIRECTS = 5
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
HeaderCheck = Callable[[Mapping[str, str], str], "int | None"]
_RETRY_AFTER_STATUSES = (429, 503)
DEFAULT_HEADERS = {
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,application/json;q=0.8,*/*;q=0.7",
    "Accept-Language": "en-US,en;q=0.9",
}


@dataclass
class HttpResponse:
    """A finished response whose body has been read in full (within the cap)."""

    status: int
    headers: Mapping[str, str]
    body: bytes
    url: str
    elapsed_ms: float

    @property
    def content_type(self) -> str:
        """The media type without parameters, lower-cased."""
        return self.headers.get("Content-Type", "").split(";")[0].strip().lower()

    def text(self) -> str:
        """The body decoded with the charset the headers name (UTF-8 otherwise)."""
        charset = "utf-8"
        for part in self.headers.get("Content-Type", "").split(";")[1:]:
            key, _, value = part.partition("=")
            if key.strip().lower() == "charset" and value.strip():
                charset = value.strip().strip('"')
        try:
            return self.body.decode(charset, errors="replace")
        except LookupError:
            return self.body.decode("utf-8", errors="replace")

    def retry_after(self) -> float | None:
        """Seconds the server asked us to wait, from a Retry-After header, if any."""
        return parse_retry_after(self.headers.get("Retry-After"))

    def raise_for_status(self, what: str) -> None:
        """Raise UpstreamHTTPError unless the status is 2xx."""
        if not 200 <= self.status < 300:
            raise UpstreamHTTPError(f"{what} answered HTTP {self.status}", url=self.url,
                                    status=self.status, retry_after=self.retry_after())


def parse_retry_after(value: str | None) -> float | None:
    """A Retry-After value (seconds or an HTTP date) as seconds from now."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class _GuardedAdapter(HTTPAdapter):
    """A transport adapter whose connections open sockets only to checked addresses and whose replies
    are read under the exchange's deadline."""

    def __init__(self, guard: AddressGuard) -> None:
        self.guard = guard
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        from websearch_mcp.fetch.connections import pool_classes

        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = pool_classes(self.guard)

    def proxy_manager_for(self, proxy: str, **proxy_kwargs: Any) -> Any:
        """The proxy's connections go to the configured proxy (the target was checked before, and the
        proxy resolves it); their replies are read under the exchange's deadline like any other."""
        from websearch_mcp.fetch.connections import deadline_pool_classes

        manager = super().proxy_manager_for(proxy, **proxy_kwargs)
        if isinstance(manager, urllib3.ProxyManager):
            manager.pool_classes_by_scheme = deadline_pool_classes()
        return manager


class HttpClient:
    """Sends requests with the project's policy; thread-safe for concurrent tool calls.

    Every hop obeys the address rules (`AddressGuard`); this client, which asks the configured search
    engines and APIs, lets the URL it was asked for sit on a private address (a SearXNG on the LAN),
    but never a redirect away from that origin. The page fetcher's client trusts no hop."""

    trust_first_hop = True

    def __init__(self, config: Config, guard: AddressGuard | None = None) -> None:
        self.config = config
        self.guard = guard or AddressGuard(allow_private=config.allow_private_urls)
        self.session = requests.Session()  # trust_env: HTTP(S)_PROXY, NO_PROXY, ALL_PROXY apply
        self.session.headers.update(DEFAULT_HEADERS)
        self.session.headers["User-Agent"] = config.user_agent
        adapter = _GuardedAdapter(self.guard)
        self.session.mount("http://", adapter)
        self.session.mount("https://", adapter)

    def request(self, method: str, url: str, *, params: Mapping[str, Any] | None = None,
                data: Mapping[str, Any] | None = None, headers: Mapping[str, str] | None = None,
                json_body: Any = None, max_bytes: int | None = None, retries: int | None = None,
                follow_redirects: bool = True, check_headers: HeaderCheck | None = None,
                deadline: float | None = None) -> HttpResponse:
        """Send a request and read its body; retry transient failures; raise UpstreamError.

        `check_headers(headers, url)` may raise to refuse a response before its body is read, and may
        return a different size cap for this body (a PDF may be larger than a page).
        `deadline` (a time.monotonic() value) bounds the whole exchange, retries and waits included."""
        attempts = 1 + (self.config.retries if retries is None else retries)
        options = _SendOptions(params, data, headers, max_bytes, follow_redirects, check_headers)
        options.json_body = json_body
        options.deadline = deadline
        for attempt in range(attempts):
            last = attempt == attempts - 1
            try:
                response = self._send_following(method, url, options)
            except UpstreamConnectionError as err:
                if last or not err.transient:
                    raise
                wait = self.backoff(attempt)
                if not self._time_left(deadline, wait):
                    raise
                log.info(f"{method} {_host(url)}: {err.message}; retrying in {wait:.1f} s")
                self.pause(wait)
                continue
            retry_wait = self.retry_wait(response, attempt)
            if retry_wait is None or last or not self._time_left(deadline, retry_wait):
                return response
            wait = retry_wait
            log.info(f"{method} {_host(url)}: HTTP {response.status}; retrying in {wait:.1f} s")
            self.pause(wait)
        raise AssertionError("unreachable")

    @staticmethod
    def _time_left(deadline: float | None, wait: float) -> bool:
        """Whether a retry after `wait` seconds still has a second of the deadline to run in."""
        return deadline is None or time.monotonic() + wait + 1.0 < deadline

    def backoff(self, attempt: int) -> float:
        """The pause before retry number `attempt + 1` of a transient failure."""
        return float(self.config.backoff_seconds * (2 ** attempt))

    def retry_wait(self, response: HttpResponse, attempt: int) -> float | None:
        """Seconds to wait before retrying this response, or None when it is final (also used by the
        page fetcher, which retries outside its connection slots)."""
        if response.status in _RETRY_AFTER_STATUSES:
            asked = response.retry_after()
            if asked is not None:
                return asked if asked <= self.config.retry_after_cap else None
            return self.backoff(attempt) if response.status == 503 else None
        if response.status >= 500:
            return self.backoff(attempt)
        return None

    @staticmethod
    def pause(seconds: float) -> None:
        """Sleep between retries."""
        threading.Event().wait(seconds)

    def _send_following(self, method: str, url: str, options: _SendOptions) -> HttpResponse:
        """One attempt: the request and, when asked, its redirects, each hop checked on its own."""
        origin = _origin(url)
        current, hop_method, hop_options = url, method, options
        for _ in range(MAX_REDIRECTS + 1):
            trusted = origin if self.trust_first_hop and _origin(current) == origin else None
            if trusted is None and self.trust_first_hop:
                self._check_hop(url, current)  # the page fetcher checks its hops itself
            response = self._send_once(hop_method, current, hop_options, trusted)
            location = response.headers.get("Location")
            if not options.follow_redirects or response.status not in _REDIRECTS or not location:
                return response
            current = urljoin(current, location.strip())
            if response.status not in (307, 308):
                hop_method = "GET" if hop_method != "HEAD" else hop_method
                hop_options = options.without_body()
            else:
                hop_options = options.without_params()
        raise UpstreamError(f"{_host(url)} redirected too many times", url=url)

    def _check_hop(self, asked: str, url: str) -> None:
        """Refuse a hop whose host is not a public address before anything is sent to it."""
        from websearch_mcp.fetch.addresses import check_url
        from websearch_mcp.fetch.proxies import proxy_for

        try:
            _, host, port = check_url(url)
            if proxy_for(url) is None:
                self.guard.resolve(host, port)
            else:
                self.guard.check_behind_proxy(host, port)  # the proxy resolves what this machine cannot
        except ToolError as err:
            if url == asked:
                raise UpstreamError(err.message, url=url) from err
            raise UpstreamError(f"{_host(asked)} redirected to {url}, which is not followed: {err.message}",
                                url=asked) from err

    def _send_once(self, method: str, url: str, options: _SendOptions,
                   trusted: tuple[str, int] | None = None) -> HttpResponse:
        cap = self.config.max_response_bytes if options.max_bytes is None else options.max_bytes
        timeout = self.config.timeout
        started = time.monotonic()
        slow = f"{_host(url)} did not answer within {timeout:g} s (WEBSEARCH_TIMEOUT)"
        if options.deadline is not None:
            left = options.deadline - started
            if left <= 0.05:
                raise DeadlineExceeded(f"no time was left to ask {_host(url)} (the call's deadline passed)",
                                       url=url)
            if left < timeout:
                timeout = left
                slow = f"{_host(url)} did not answer within the {left:.1f} s left of the call's deadline"
        with exchange.Exchange(started + timeout, trusted) as running:
            try:
                with self.session.request(method, url, params=options.params, data=options.data,
                                          json=options.json_body, headers=options.headers,
                                          timeout=(min(timeout, 10.0), timeout), stream=True,
                                          allow_redirects=False) as reply:
                    if options.check_headers is not None and not reply.is_redirect:
                        cap = options.check_headers(reply.headers, reply.url) or cap
                    body = self._read_body(reply, cap, started + timeout)
            except requests.exceptions.RequestException as err:
                if running.expired:
                    raise UpstreamTimeout(slow, url=url) from err
                raise self._failure(url, err, slow) from err
            except BlockedAddressError as err:  # the connection's own check (the name now resolves elsewhere)
                if not self.trust_first_hop:
                    raise  # the page fetcher reports it as it is
                raise UpstreamError(f"{_host(url)}: {err.message}", url=url) from err
            if running.expired:
                raise UpstreamTimeout(slow, url=url)
        return HttpResponse(status=reply.status_code, headers=reply.headers, body=body,
                            url=reply.url, elapsed_ms=(time.monotonic() - started) * 1000)

    @staticmethod
    def _failure(url: str, err: requests.exceptions.RequestException, slow: str) -> UpstreamError:
        """The project's exception for a transport failure."""
        if isinstance(err, requests.exceptions.Timeout):
            return UpstreamTimeout(slow, url=url)
        if isinstance(err, (requests.exceptions.ConnectionError, requests.exceptions.ChunkedEncodingError)):
            if _name_not_resolved(err):
                return UpstreamConnectionError(f"could not resolve the host name {urlsplit(url).hostname}",
                                               url=url, transient=False)
            return UpstreamConnectionError(f"could not reach {_host(url)} ({_reason(err)})", url=url)
        return UpstreamError(f"request to {_host(url)} failed ({_reason(err)})", url=url)

    @staticmethod
    def _read_body(reply: requests.Response, cap: int, deadline: float) -> bytes:
        declared = reply.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > cap:
            raise ResponseTooLarge(f"{_host(reply.url)} sent {declared} bytes, over the {cap}-byte cap",
                                   url=reply.url, status=reply.status_code)
        chunks: list[bytes] = []
        size = 0
        for chunk in _pieces(reply):
            size += len(chunk)
            if size > cap:
                raise ResponseTooLarge(f"{_host(reply.url)} sent more than the {cap}-byte cap",
                                       url=reply.url, status=reply.status_code)
            if time.monotonic() > deadline:
                raise UpstreamTimeout(f"{_host(reply.url)} was too slow sending its reply", url=reply.url)
            chunks.append(chunk)
        return b"".join(chunks)


def _pieces(reply: requests.Response) -> Iterator[bytes]:
    """The body as it arrives: each piece is whatever came in (read1), so a server that trickles its
    reply a few bytes at a time is measured against the deadline after every piece, not every 64 KiB."""
    raw = reply.raw
    try:
        while True:
            piece = raw.read1(_CHUNK, decode_content=True)
            if not piece:
                return
            yield piece
    except urllib3.exceptions.ReadTimeoutError as err:
        raise requests.exceptions.ReadTimeout(err) from err
    except urllib3.exceptions.DecodeError as err:
        raise requests.exceptions.ContentDecodingError(err) from err
    except (urllib3.exceptions.ProtocolError, urllib3.exceptions.SSLError, OSError) as err:
        raise requests.exceptions.ChunkedEncodingError(err) from err


def _host(url: str) -> str:
    return urlsplit(url).netloc or url


def _origin(url: str) -> tuple[str, int] | None:
    """(host, port) of a URL, as the connection sees them."""
    try:
        parts = urlsplit(url)
        return (parts.hostname or "").lower(), parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return None


def _name_not_resolved(err: BaseException) -> bool:
    """Whether a connection failed because the host name does not resolve (retrying cannot help)."""
    seen: set[int] = set()
    pending: list[object] = [err]
    while pending:
        current = pending.pop()
        if not isinstance(current, BaseException) or id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, socket.gaierror) or type(current).__name__ == "NameResolutionError":
            return True
        pending.extend([current.__cause__, current.__context__, *current.args,
                        getattr(current, "reason", None)])
    return False


_ERRNO = re.compile(r"\[Errno -?\d+\] ([^'\")\]]+)")
_KNOWN = ("Connection aborted", "Connection refused", "Connection reset", "RemoteDisconnected",
          "IncompleteRead", "Read timed out", "timed out", "certificate verify failed")


def _reason(err: Exception) -> str:
    """A short cause for a transport error (requests nests the real one several levels deep)."""
    text = str(err)
    found = _ERRNO.search(text)
    if found:
        return found.group(1).strip()
    for known in _KNOWN:
        if known in text:
            return known
    return text if len(text) <= 160 else text[:157] + "..."


class _SendOptions:
    """The per-request choices of HttpClient.request, passed down as one value."""

    def __init__(self, params: Mapping[str, Any] | None, data: Mapping[str, Any] | None,
                 headers: Mapping[str, str] | None, max_bytes: int | None, follow_redirects: bool,
                 check_headers: HeaderCheck | None) -> None:
        self.params = params
        self.data = data
        self.headers = headers
        self.max_bytes = max_bytes
        self.follow_redirects = follow_redirects
        self.check_headers = check_headers
        self.json_body: Any = None
        self.deadline: float | None = None

    def without_body(self) -> _SendOptions:
        """These options for a redirect that turns the request into a GET (301, 302, 303)."""
        other = self.without_params()
        other.data = None
        other.json_body = None
        return other

    def without_params(self) -> _SendOptions:
        """These options for any redirect: its Location carries the query."""
        other = _SendOptions(None, self.data, self.headers, self.max_bytes, self.follow_redirects,
                             self.check_headers)
        other.json_body = self.json_body
        other.deadline = self.deadline
        return other
