"""Web search across engines: the configured order (or a pinned engine), failover past engines
that are blocked or failing (cooled down for every process sharing the store), rank fusion of
several engines, a shared cache in which one caller fetches while the others wait, and politeness.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, astuple, dataclass, field
from typing import Any

from websearch_mcp import log, templates, wire
from websearch_mcp.config import Config, backend_order, setting_name
from websearch_mcp.engines.base import EngineAnswer, SearchEngine, SearchHit, SearchQuery, Skipped, Turn
from websearch_mcp.engines.fusion import fuse
from websearch_mcp.engines.table import BY_NAME
from websearch_mcp.errors import (
    BlockedError,
    DeadlineExceeded,
    InvalidArguments,
    SearchFailed,
    UpstreamConnectionError,
    UpstreamError,
    UpstreamTimeout,
)
from websearch_mcp.http_client import HttpClient
from websearch_mcp.services.hedging import Attempt, Latencies, Outcome, ask_hedged
from websearch_mcp.store.base import Store
from websearch_mcp.store.lease import LEASE_SECONDS, KeptLease

CACHE = "search"
LEASE = "lease:search:"
COOLDOWN_MAX = 3600.0
SLOT_MARGIN = 0.05  # added to each engine's interval: the time between booking a slot and sending varies
_POLL = 0.05


@dataclass
class SearchAnswer:
    """The answer of the engine (or engines, with fusion) that answered, and how it was reached."""

    hits: list[SearchHit]
    engines: list[str]
    tried: list[dict[str, str]] = field(default_factory=list)
    cached: bool = False
    store: str = "memory"
    extras: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def backend(self) -> str:
        """The engine that answered, or the engines joined with '+'."""
        return "+".join(self.engines)

    @property
    def source(self) -> str:
        """The footer's name for whoever answered: 'Bing', or 'Bing + Mojeek'."""
        return " + ".join(BY_NAME[name].label for name in self.engines)


def _encode(answer: EngineAnswer) -> bytes:
    return wire.dumps({"hits": [asdict(h) for h in answer.hits], "extras": answer.extras,
                       "notes": answer.notes}).encode("utf-8")


def _decode(data: bytes) -> EngineAnswer:
    raw = wire.loads(data.decode("utf-8"))
    return EngineAnswer(hits=[SearchHit(**h) for h in raw["hits"]], extras=raw["extras"], notes=raw["notes"])


class SearchService:
    """Runs queries on the engines; one per server instance."""

    def __init__(self, config: Config, http: HttpClient, store: Store) -> None:
        self.config = config
        self.http = http
        self.store = store
        self.order = backend_order(config)
        self._engines: dict[str, SearchEngine] = {}
        self._lock = threading.Lock()
        self.latencies = Latencies()

    def engine(self, name: str) -> SearchEngine:
        """The engine of that name, its module imported on first use."""
        with self._lock:
            if name not in self._engines:
                entry = BY_NAME[name]
                module_name, _, class_name = entry.target.partition(":")
                module = importlib.import_module(f"websearch_mcp.engines.{module_name}")
                self._engines[name] = getattr(module, class_name)(entry, self.config, self.http, self.store)
            return self._engines[name]

    def candidates(self, pinned: str | None) -> list[str]:
        """The engines to ask, in order; a pinned one alone (InvalidArguments if it cannot be asked)."""
        if not pinned:
            return self.order
        if pinned == "searxng" and not self.config.get("searxng_urls").strip():
            raise InvalidArguments("Invalid argument 'backend': searxng is not configured; set "
                                   "WEBSEARCH_SEARXNG_URLS", parameter="backend", rule="enum")
        return [pinned]

    def search(self, query: SearchQuery, pinned: str | None = None, deadline: float | None = None,
               cancelled: Callable[[], bool] | None = None) -> SearchAnswer:
        """The answer of the first engine that can give one (or, with WEBSEARCH_FUSION=N, of the first
        N healthy engines merged); SearchFailed when none can."""
        names = self.candidates(pinned)
        want = self.config.fusion if self.config.fusion > 1 and not pinned else 1
        outcome = self._hedged_round(names, want, query, deadline, cancelled)
        tried = self._tried(outcome)
        if not outcome.answers:
            failures: list[tuple[Any, Exception]] = [*outcome.failures, *(
                (a.name, UpstreamTimeout(f"{BY_NAME[a.name].label} did not answer before the call's deadline"))
                for a in outcome.slow)]
            raise self._no_answer(query, tried, failures)
        if want > 1:  # merged in the configured order, whichever answered first
            return self._merge(sorted(outcome.answers, key=lambda a: outcome.order.index(a[0])), tried, query)
        name, (_, answer, cached) = outcome.answers[0]
        return SearchAnswer(answer.hits, [name], tried, cached, self.store.kind, answer.extras, answer.notes)

    def _hedged_round(self, names: list[str], want: int, query: SearchQuery, deadline: float | None,
                      cancelled: Callable[[], bool] | None) -> Outcome:
        """Ask engines in order, hedged (services/hedging.py); the engines still silent once the answers
        are in are rested, as an engine that failed would be."""
        configured = self.config.hedge_delay

        def ask(name: str, attempt: Attempt) -> tuple[str, EngineAnswer, bool]:
            turn = Turn(self._wait_for_slot, deadline,
                        lambda: attempt.abandoned.is_set() or bool(cancelled and cancelled()))
            return self._ask(name, query, turn)

        outcome = ask_hedged(names, want, ask, lambda n: self.latencies.hedge_delay(n, configured), deadline,
                             cancelled)
        if outcome.answers:
            for attempt in outcome.slow:
                waited = time.monotonic() - attempt.started
                self._cool_down(self.engine(attempt.name), UpstreamTimeout(
                    f"{BY_NAME[attempt.name].label} had not answered after {waited:.1f} s while another engine did"))
        return outcome

    # -- one engine -------------------------------------------------------------------------------

    def _ask(self, name: str, query: SearchQuery, turn: Turn) -> tuple[str, EngineAnswer, bool]:
        engine = self.engine(name)
        if not engine.supports(query):
            reason = (f"no instance is configured ({setting_name('searxng_urls')})" if name == "searxng"
                      else f"does not serve the {query.category} category")
            raise Skipped(reason)
        key = f"{name}|{astuple(query)!r}"
        cached = self.store.get(CACHE, key)
        if cached is not None:
            return name, _decode(cached), True
        until, _, reason = self.store.cooldown(name)
        if until > time.time():
            raise Skipped(f"cooling down for {until - time.time():.0f} s more after: {reason}")
        return self._fetch_once(engine, query, key, turn)

    def _fetch_once(self, engine: SearchEngine, query: SearchQuery, key: str,
                    turn: Turn) -> tuple[str, EngineAnswer, bool]:
        """Fetch unless another caller (this process or another) is already fetching the same search:
        then wait for its answer to reach the cache."""
        while not self.store.claim(LEASE + key, LEASE_SECONDS):
            if turn.cancelled():
                raise DeadlineExceeded("the call was cancelled")
            if turn.deadline is not None and time.monotonic() > turn.deadline:
                raise DeadlineExceeded(f"the call's deadline passed while waiting for {engine.label}")
            time.sleep(_POLL)
            cached = self.store.get(CACHE, key)
            if cached is not None:
                return engine.name, _decode(cached), True
        with KeptLease(self.store, LEASE + key):  # renewed while this process works; lapses if it dies
            cached = self.store.get(CACHE, key)  # whoever held the lease may have stored its answer and let go
            if cached is not None:
                return engine.name, _decode(cached), True
            started = time.monotonic()
            try:
                answer = engine.search(query, turn)
                self.store.put(CACHE, key, _encode(answer), self.config.search_cache_ttl)  # before the lease goes
            except UpstreamError as err:
                if not turn.cancelled():  # an abandoned hedge was rested when the answer went out
                    self._cool_down(engine, err)
                raise
            self.latencies.note(engine.name, time.monotonic() - started)
        if self.store.cooldown(engine.name)[1]:
            self.store.set_cooldown(engine.name, 0.0, 0, "")  # it answers again: forget its strikes
        return engine.name, answer, False

    def _cool_down(self, engine: SearchEngine, err: UpstreamError) -> None:
        """Skip an engine that is blocked or failing for a while: its Retry-After, else a pause that
        doubles with each failure in a row (shared with every process using the store)."""
        if isinstance(err, DeadlineExceeded) or (isinstance(err, UpstreamConnectionError) and not err.transient):
            return  # the call ran out of time, or this machine is offline: no fault of the engine
        _, strikes, _ = self.store.cooldown(engine.name)
        blocked = isinstance(err, BlockedError)
        base = self.config.cooldown if blocked else self.config.cooldown / 4
        pause = err.retry_after or min(COOLDOWN_MAX if blocked else COOLDOWN_MAX / 12, base * 2 ** strikes)
        reason = err.message if len(err.message) < 160 else err.message[:157] + "..."
        if err.retry_after:
            reason = f"it asked to wait {err.retry_after:.0f} s (Retry-After)"
        self.store.set_cooldown(engine.name, time.time() + pause, strikes + 1, reason)
        log.warning(f"{engine.label} failed ({reason}); skipping it for {pause:.0f} s")

    def _wait_for_slot(self, name: str, deadline: float | None) -> None:
        interval = self.config.get(BY_NAME[name].setting("min_interval"))
        if interval <= 0:
            return
        delay = self.store.reserve(name, interval + SLOT_MARGIN)
        if deadline is not None and time.monotonic() + delay > deadline:
            raise DeadlineExceeded(f"{BY_NAME[name].label}'s next free request slot is after the call's deadline")
        if delay > 0:
            threading.Event().wait(delay)

    # -- several engines ------------------------------------------------------------------------------

    def _merge(self, answers: list[tuple[str, Any]], tried: list[dict[str, str]], query: SearchQuery) -> SearchAnswer:
        """The lists of several engines merged by reciprocal-rank fusion."""
        extras: dict[str, Any] = {}
        notes: list[str] = []
        for _, (_, answer, _) in answers:
            for key, value in answer.extras.items():
                extras.setdefault(key, value)
            notes += answer.notes
        hits = fuse([(name, answer.hits) for name, (_, answer, _) in answers])[:query.max_results]
        names = [name for name, _ in answers]
        return SearchAnswer(hits, names, tried, all(c for _, (_, _, c) in answers), self.store.kind, extras, notes)

    # -- reporting ----------------------------------------------------------------------------------

    @staticmethod
    def _tried(outcome: Outcome) -> list[dict[str, str]]:
        """What happened to each engine, in the order they were asked: answered, failed, skipped, or
        slow (still silent when the answer went out; the next engine had been asked beside it)."""
        said: dict[str, dict[str, str]] = {}
        for name, (_, _, cached) in outcome.answers:
            said[name] = {"backend": name, "status": "answered", "reason": "from the cache" if cached else ""}
        for name, err in outcome.failures:
            status = "skipped" if isinstance(err, Skipped) else "failed"
            said[name] = {"backend": name, "status": status, "reason": getattr(err, "message", str(err))}
        for attempt in outcome.slow:
            said[attempt.name] = {"backend": attempt.name, "status": "slow", "reason": (
                f"no answer within {attempt.delay:.1f} s, so the next engine was asked beside it; "
                "abandoned when the answer came")}
        return [said[name] for name in outcome.order if name in said]

    def _no_answer(self, query: SearchQuery, tried: list[dict[str, str]],
                   failures: list[tuple[Any, Exception]]) -> SearchFailed:
        errors = [err for _, err in failures if isinstance(err, UpstreamError)]
        blocked = any(isinstance(e, BlockedError) or getattr(e, "blocked", False) for e in errors)
        retry = max((e.retry_after or 0 for e in errors), default=0) or None
        if not errors:
            skipped = "; ".join(f"{t['backend']}: {t['reason']}" for t in tried)
            if query.category != "general" and all("category" in t["reason"] or "instance" in t["reason"]
                                                   for t in tried):
                message = (f"No configured backend serves the {query.category} category ({skipped}). Set "
                           f"WEBSEARCH_SEARXNG_URLS to one or more SearXNG instances to search {query.category}.")
                return SearchFailed(message, error_type="backend_unavailable")
            return SearchFailed(f"Every search engine is resting after recent blocks or failures ({skipped}). "
                                "Try again in a few minutes.", error_type="rate_limited_or_captcha")
        if len(errors) == 1 and len(failures) == 1:
            only = errors[0]
            if isinstance(only, SearchFailed):
                return only
            kind = "rate_limited_or_captcha" if blocked else "backend_unavailable"
            name = str(failures[0][0])
            label = BY_NAME[name].label if name in BY_NAME else name
            message = only.message if only.message.startswith(label) else f"{label}: {only.message}"
            if _looks_offline(only) and templates.NETWORK_HINT not in message:
                message += "\n" + templates.NETWORK_HINT
            return SearchFailed(message, error_type=kind, retry_after=only.retry_after, blocked=blocked)
        offline = any(_looks_offline(e) for e in errors)
        reasons = "\n".join(templates.ENGINE_FAILED_ITEM.format(
            backend=t["backend"], reason=t["reason"].replace(templates.NETWORK_HINT, "").strip())
            for t in tried if t["status"] != "answered")
        message = templates.ALL_ENGINES_FAILED.format(reasons=reasons)
        if offline:
            message += "\n" + templates.NETWORK_HINT  # once, at the end, not in the middle of one engine's line
        structured = next((e for e in errors if isinstance(e, SearchFailed)), None)
        attempted = list(structured.attempted_instances) if structured else []
        attempted += [t["backend"] for t in tried if t["backend"] not in attempted and t["backend"] != "searxng"]
        return SearchFailed(message,
                            error_type=structured.error_type if structured else (
                                "rate_limited_or_captcha" if blocked else "backend_unavailable"),
                            details=message, attempted_instances=attempted, retry_after=retry, blocked=blocked)


def _looks_offline(error: UpstreamError) -> bool:
    """Whether a failure is the network's (no route, no name, no answer) rather than the engine's."""
    return isinstance(error, (UpstreamConnectionError, UpstreamTimeout)) or templates.NETWORK_HINT in error.message
