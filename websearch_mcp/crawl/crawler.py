"""The crawl itself: workers that take the best page of the shared frontier, read it through the
guarded fetcher and the page reader, and put its links back, best first for a query, else breadth
first. Workers outlive the call that started them, up to `max_pages` or their own time budget."""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from typing import Any

from websearch_mcp.call_context import ToolContext
from websearch_mcp.crawl import ranking
from websearch_mcp.crawl.links import read_links
from websearch_mcp.crawl.politeness import HostGate
from websearch_mcp.crawl.robots import Robots, load_robots
from websearch_mcp.crawl.state import DOCS, MAX_FRONTIER, WAIT, CrawlState, fresh_state, take
from websearch_mcp.crawl.urls import TrapLimits, in_site, normalise, origin_of, page_key, readable_link, site_of
from websearch_mcp.crawl.web import get_site_file
from websearch_mcp.errors import ToolError
from websearch_mcp.fetch.pages import PAGE_CACHE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from websearch_mcp.services import Services

BACKGROUND_SECONDS = 120.0  # how long a crawl may go on after the call that started it answered
HOLD_EXTRA = 30.0


class CrawlPlan:
    """What one crawl_site call asks for; equal plans share one crawl."""

    def __init__(self, start: str, query: str, max_pages: int, max_depth: int, include: list[str],
                 exclude: list[str]) -> None:
        self.start = start
        self.query = query
        self.max_pages = max_pages
        self.max_depth = max_depth
        self.include = [re.compile(p) for p in include]
        self.exclude = [re.compile(p) for p in exclude]
        self.key = hashlib.sha256(json.dumps([start, query, max_pages, max_depth, include, exclude]).encode()
                                  ).hexdigest()[:32]
        self.host = site_of(start)
        self.words = ranking.query_terms(query) if query else set()

    def wanted(self, url: str) -> bool:
        """Whether the URL is of the site and passes the path patterns."""
        if not in_site(url, self.host, False) or not readable_link(url):
            return False
        path = url.split("://", 1)[-1].partition("/")[2]
        path = "/" + path
        if self.include and not any(p.search(path) for p in self.include):
            return url == self.start
        return not any(p.search(path) for p in self.exclude)


class Crawls:
    """The crawls this process works on (its workers), by plan key."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self._workers: dict[str, list[threading.Thread]] = {}
        self._lock = threading.Lock()

    def robots(self, url: str, deadline: float | None) -> Robots:
        """The rules of the URL's origin (kept in the store)."""
        fetcher = self.services.fetcher
        return load_robots(lambda u: get_site_file(fetcher, u, deadline), self.services.store, origin_of(url),
                           deadline)

    def settle(self, start: str, robots: Robots, deadline: float | None) -> str:
        """The start page's own address: where it redirects when that is the same site under another
        host of its domain or another scheme (example.org -> www.example.org, http -> https). The page
        is read once, politely, into the page cache, where the crawl (of any process) then finds it."""
        services = self.services
        hold = services.config.timeout * 2 + HOLD_EXTRA
        until = time.monotonic() + hold if deadline is None else deadline
        lease = f"crawl-start:{start}"
        owned = False
        pause = 0.01
        while services.store.get(PAGE_CACHE, start) is None and time.monotonic() < until:
            owned = services.store.claim(lease, hold)
            if owned:
                break
            threading.Event().wait(pause)  # another call is reading it
            pause = min(0.1, pause * 2)
        try:
            return self._settled(start, robots, deadline, until, polite=owned)
        finally:
            if owned:
                services.store.release(lease)

    def _settled(self, start: str, robots: Robots, deadline: float | None, until: float, polite: bool) -> str:
        services = self.services
        slot = None
        if polite:
            gate = HostGate(services.store, services.config.crawl_per_host, services.config.timeout * 2 + HOLD_EXTRA)
            slot = gate.enter(site_of(start), robots.crawl_delay(), until)
            if slot is None:
                raise ToolError("the start page could not be read in time: other requests to the site were waiting")
        try:
            page = services.fetcher.fetch(start, deadline)
        except ToolError as err:
            raise ToolError(f"the start page could not be read: {err.message}") from None
        finally:
            if slot is not None:
                services.store.release(slot)
        final = normalise(page.final_url)
        if final and final != start and in_site(final, site_of(start), True):
            return final
        return start

    def state(self, plan: CrawlPlan) -> CrawlState:
        """The plan's shared state."""
        return CrawlState(self.services.store, plan.key, max(self.services.config.cache_ttl, 60.0))

    def join(self, plan: CrawlPlan, robots: Robots, deadline: float | None) -> CrawlState:
        """Make sure the plan's crawl exists in the store and that this process works on it."""
        state = self.state(plan)
        state.change(lambda s: (fresh_state(plan.start), None) if s is None else (None, None), deadline)
        with self._lock:
            alive = [t for t in self._workers.get(plan.key, []) if t.is_alive()]
            if not alive:
                stop = time.monotonic() + BACKGROUND_SECONDS
                if deadline is not None:
                    stop = max(stop, deadline)
                worker = Worker(self.services, plan, robots, state, stop)
                alive = [threading.Thread(target=worker.run, name="crawl", daemon=True)
                         for _ in range(max(1, self.services.config.crawl_per_host))]
                for thread in alive:
                    thread.start()
            self._workers[plan.key] = alive
        return state


class Worker:
    """Takes pages from the shared frontier until the crawl is over or its time is up."""

    def __init__(self, services: Services, plan: CrawlPlan, robots: Robots, state: CrawlState,
                 stop: float) -> None:
        self.services = services
        self.plan = plan
        self.robots = robots
        self.state = state
        self.stop = stop
        config = services.config
        self.hold = config.timeout * 2 + HOLD_EXTRA
        self.gate = HostGate(services.store, config.crawl_per_host, self.hold)

    def run(self) -> None:
        """Read pages until there are none left to read."""
        while time.monotonic() < self.stop:
            try:
                taken = self.state.change(lambda s: take(s, self.plan.max_pages, self.hold) if s else (None, None))
            except ToolError:
                return
            if taken is None:
                return
            if taken == WAIT:
                threading.Event().wait(0.05)
                continue
            url, depth = taken
            try:
                self.visit(url, depth)
            except Exception as err:  # a fault must not leave the page held for ever
                self._record(url, depth, None, f"could not be read ({type(err).__name__})")

    def visit(self, url: str, depth: int) -> None:
        """Fetch one page (politely), read it, and record it with its links."""
        fetcher = self.services.fetcher
        if self.services.store.get(PAGE_CACHE, url) is None:
            slot = self.gate.enter(self.plan.host, self.robots.crawl_delay(), self.stop)
            if slot is None:
                self._record(url, depth, None, "", give_back=True)
                return
            try:
                page = fetcher.fetch(url, self.stop)
            except ToolError as err:
                self._record(url, depth, None, err.message)
                return
            finally:
                self.gate.leave(slot)
        else:
            page = fetcher.fetch(url, self.stop)
        if not in_site(page.final_url, self.plan.host, False):
            self._record(url, depth, None, f"redirected off the site, to {page.final_url}")
            return
        found = read_links(page.text, page.final_url) if page.kind == "html" else None
        quiet = ToolContext()
        quiet.deadline = self.stop
        outcome = self.services.pages.read([url], quiet)[0]
        document = outcome.document
        if document is None:
            self._record(url, depth, None, outcome.error)
            return
        title = document.title or (found.title if found else "")
        self.services.store.put(DOCS, url, json.dumps({"title": title, "markdown": document.markdown}).encode(),
                                max(self.services.config.cache_ttl, 60.0))
        page_score = ranking.share(self.plan.words, title + " " + document.markdown[:20000])
        links: list[tuple[float, str]] = []
        if found is not None and depth < self.plan.max_depth:
            for link in found.links:
                if not self.plan.wanted(link.url):
                    continue
                score = ranking.link_score(self.plan.words, link.text, link.url, link.heading, page_score)
                links.append((score, link.url))
        canonical = found.canonical if found else ""
        self._record(url, depth, {"url": url, "title": title, "depth": depth, "canonical": canonical}, "", links)

    def _record(self, url: str, depth: int, done: dict[str, Any] | None, error: str,
                links: list[tuple[float, str]] | None = None, give_back: bool = False) -> None:
        allowed = {u: self.robots.allowed(u) for _, u in links or []}

        def edit(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, None]:
            if state is None:
                return None, None
            held = state["inflight"].pop(url, None)
            if give_back:  # back in the frontier where it was
                state["frontier"].append([held[2] if held else 0.0, depth, state["seq"], url, ""])
                state["seq"] += 1
                return state, None
            if done is None:
                state["failed"].append({"url": url, "error": error})
                return state, None
            state["done"].append(done)
            seen = set(state["seen"])
            canonical = page_key(done["canonical"]) if done["canonical"] else ""
            if canonical and canonical not in seen:
                state["seen"].append(canonical)
                seen.add(canonical)
            traps = TrapLimits.from_json(state["traps"])
            for score, link in links or []:
                key = page_key(link)
                if key in seen or len(state["frontier"]) >= MAX_FRONTIER:
                    continue
                seen.add(key)
                state["seen"].append(key)
                if not allowed[link]:
                    state["skipped"]["robots"] += 1
                    continue
                if not traps.admit(link):
                    state["skipped"]["traps"] += 1
                    continue
                state["frontier"].append([-score, depth + 1, state["seq"], link, ""])
                state["seq"] += 1
            state["traps"] = traps.to_json()
            return state, None

        self.state.change(edit)
