"""Search across backends: the configured order (or a pinned backend), fallback when one is blocked
or down, a cache of recent results, and politeness towards each backend."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import astuple, dataclass, field
from typing import Any, Protocol

from websearch_mcp import log
from websearch_mcp.backends.base import BackendOutcome, BackendUnavailable, SearchQuery
from websearch_mcp.backends.politeness import LIMITER
from websearch_mcp.config import Config, backend_order, one_per_config
from websearch_mcp.errors import BlockedError, InvalidArguments, UpstreamError
from websearch_mcp.fetch.cache import TtlCache


class Backend(Protocol):
    """What the service needs of a backend."""

    name: str
    label: str

    def supports(self, query: SearchQuery) -> bool: ...

    def search(self, query: SearchQuery) -> BackendOutcome: ...


@dataclass
class ServiceOutcome:
    """The answer of the backend that answered, and how the service got there."""

    outcome: BackendOutcome
    backend: str
    label: str
    tried: list[dict[str, str]] = field(default_factory=list)
    cached: bool = False


def _backends(config: Config) -> dict[str, Backend]:
    from websearch_mcp.backends.duckduckgo import DuckDuckGoBackend
    from websearch_mcp.backends.searxng import Searxng

    available: dict[str, Backend] = {"duckduckgo": _Cancellable(DuckDuckGoBackend(config))}
    if config.searxng_urls.strip():
        available["searxng"] = Searxng(config)
    return available


class _Cancellable:
    """Adapts DuckDuckGo's search, which also takes a cancellation check."""

    def __init__(self, backend: Any) -> None:
        self.backend = backend
        self.name = backend.name
        self.label = backend.label
        self.cancelled: Callable[[], bool] | None = None

    def supports(self, query: SearchQuery) -> bool:
        return bool(self.backend.supports(query))

    def search(self, query: SearchQuery) -> BackendOutcome:
        return self.backend.search(query, self.cancelled)


def _new_cache(config: Config) -> TtlCache[BackendOutcome]:
    return TtlCache(config.search_cache_bytes, config.search_cache_ttl)


_cache_for = one_per_config(_new_cache)


def _size(outcome: BackendOutcome) -> int:
    return 200 + sum(len(h.title) + len(h.url) + len(h.snippet) + 100 for h in outcome.hits)


class SearchService:
    """Runs a query on the first backend that can answer it."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.backends = _backends(config)
        self.order = [name for name in backend_order(config) if name in self.backends] or ["duckduckgo"]
        self.cache = _cache_for(config)
        self.intervals = {"duckduckgo": config.ddg_min_interval, "searxng": config.searxng_min_interval}

    def candidates(self, pinned: str | None) -> list[str]:
        """The backends to try, in order; a pinned one alone (InvalidArguments if not configured)."""
        if not pinned:
            return self.order
        if pinned not in self.backends:
            setting = "WEBSEARCH_SEARXNG_URLS" if pinned == "searxng" else "WEBSEARCH_BACKENDS"
            raise InvalidArguments(f"Invalid argument 'backend': {pinned} is not configured; set {setting}")
        return [pinned]

    def search(self, query: SearchQuery, pinned: str | None = None,
               cancelled: Callable[[], bool] | None = None) -> ServiceOutcome:
        """The first answer among the candidates; raises the last failure when none answers."""
        tried: list[dict[str, str]] = []
        failures: list[UpstreamError] = []
        for name in self.candidates(pinned):
            backend = self.backends[name]
            if not backend.supports(query):
                tried.append({"backend": name, "status": "skipped",
                              "reason": f"does not serve the {query.category} category"})
                continue
            key = repr((name, astuple(query)))
            cached = self.cache.get(key)
            if cached is not None:
                tried.append({"backend": name, "status": "answered", "reason": "from the cache"})
                return ServiceOutcome(cached, name, backend.label, tried, cached=True)
            paused = LIMITER.paused_for(name)
            if paused > 0:
                tried.append({"backend": name, "status": "skipped",
                              "reason": f"paused for {paused:.0f} s after it asked to wait (Retry-After)"})
                continue
            try:
                outcome = self._ask(backend, query, cancelled)
            except UpstreamError as err:
                log.warning(f"backend {name} failed: {err.message}")
                if err.retry_after:
                    LIMITER.pause(name, err.retry_after)
                tried.append({"backend": name, "status": "failed", "reason": err.message})
                failures.append(err)
                continue
            self.cache.put(key, outcome, _size(outcome))
            tried.append({"backend": name, "status": "answered", "reason": ""})
            return ServiceOutcome(outcome, name, backend.label, tried)
        raise self._no_answer(query, tried, failures)

    def _ask(self, backend: Backend, query: SearchQuery, cancelled: Callable[[], bool] | None) -> BackendOutcome:
        LIMITER.wait_turn(backend.name, self.intervals.get(backend.name, 0.0), cancelled)
        if isinstance(backend, _Cancellable):
            backend.cancelled = cancelled
        return backend.search(query)

    def _no_answer(self, query: SearchQuery, tried: list[dict[str, str]],
                   failures: list[UpstreamError]) -> UpstreamError:
        if not failures:
            return BackendUnavailable(
                f"No configured backend serves the {query.category} category: DuckDuckGo serves general web "
                "search only. Set WEBSEARCH_SEARXNG_URLS to one or more SearXNG instances to search "
                f"{query.category}.")
        if len(failures) == 1:
            error = failures[0]
        else:
            lines = "; ".join(f"{t['backend']}: {t['reason']}" for t in tried if t["status"] != "answered")
            error = BackendUnavailable(f"Every search backend failed. {lines}",
                                       structured=next((f.structured for f in failures if f.structured), None))
        if error.structured is None:  # seed 002's error shape, whatever the backend
            blocked = any(isinstance(f, BlockedError) for f in failures)
            retry = max((f.retry_after or 0 for f in failures), default=0)
            error.structured = {"error_type": "rate_limited_or_captcha" if blocked else "backend_unavailable",
                                "error_details": error.message, "attempted_instances": [],
                                "retry_after": int(retry) if retry else None}
        return error
