"""One crawl's state in the store: the frontier, the seen set, the pages read and failed. Every
process and machine sharing the store works on the same state, under a short lease, so a page is
taken from the frontier once."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from websearch_mcp.errors import ToolError
from websearch_mcp.store.base import Store

NAMESPACE = "crawl"
DOCS = "crawl-doc"  # a page's Markdown as the crawl read it, by URL
LOCK_TTL = 5.0
LOCK_WAIT = 10.0
MAX_FRONTIER = 5000
WAIT = "wait"  # take(): nothing to take now, but pages are being read that may add some


def fresh_state(start: str) -> dict[str, Any]:
    """A crawl that has seen only its start page (`seen` holds page keys, see urls.page_key)."""
    from websearch_mcp.crawl.urls import page_key

    return {"frontier": [[0.0, 0, 0, start, ""]], "seen": [page_key(start)], "inflight": {}, "done": [], "failed": [],
            "traps": {}, "skipped": {"robots": 0, "traps": 0}, "seq": 1, "started": time.time()}


class CrawlState:
    """Read-modify-write of one crawl's state under a lease in the store."""

    def __init__(self, store: Store, key: str, ttl: float) -> None:
        self.store = store
        self.key = key
        self.ttl = ttl
        # the state as this process last saw it: when the store loses it (a shared store that fails
        # falls back to this process's memory), the crawl goes on from there instead of stopping
        self.last: dict[str, Any] | None = None

    def view(self) -> dict[str, Any] | None:
        """The state as it is now (no lease), or None when there is none."""
        raw = self.store.get(NAMESPACE, self.key)
        if raw is None:
            return None if self.last is None else json.loads(json.dumps(self.last))
        self.last = dict(json.loads(raw))
        return json.loads(raw)  # a copy the caller may change

    def change(self, edit: Callable[[dict[str, Any] | None], tuple[dict[str, Any] | None, Any]],
               until: float | None = None) -> Any:
        """Apply `edit(state) -> (new state or None to keep it, result)` under the lease; the result.
        The wait for the lease ends by `until` (time.monotonic()) when given."""
        lock = f"crawl-lock:{self.key}"
        give_up = time.monotonic() + LOCK_WAIT
        if until is not None:
            give_up = min(give_up, until)
        pause = 0.002
        while not self.store.claim(lock, LOCK_TTL):
            if time.monotonic() > give_up:
                raise ToolError("the crawl's shared state stayed locked; try again")
            threading.Event().wait(pause)
            pause = min(0.05, pause * 2)  # a store shared by processes is not to be hammered
        try:
            new, result = edit(self.view())
            if new is not None:
                new["updated"] = time.time()
                self.store.put(NAMESPACE, self.key, json.dumps(new).encode(), self.ttl)
                self.last = new
            return result
        finally:
            self.store.release(lock)


def finished(state: dict[str, Any], max_pages: int) -> bool:
    """Whether the crawl has read what it may, or has nothing left to read."""
    if len(state["done"]) >= max_pages or len(state["failed"]) >= max_pages:
        return True
    return not state["frontier"] and not state["inflight"]


def take(state: dict[str, Any], max_pages: int, hold: float) -> tuple[dict[str, Any], Any]:
    """The best URL of the frontier, moved to the pages being read: (url, depth), WAIT, or None when
    the crawl is over. A page held longer than `hold` by a process that went away goes back."""
    now = time.time()
    for url, held in list(state["inflight"].items()):  # [since, depth, priority]
        if now - held[0] > hold:
            del state["inflight"][url]
            state["frontier"].append([held[2], held[1], state["seq"], url, ""])
            state["seq"] += 1
    if finished(state, max_pages):
        return state, None
    if len(state["done"]) + len(state["inflight"]) >= max_pages or not state["frontier"]:
        return state, WAIT
    state["frontier"].sort(key=lambda item: (item[0], item[1], item[2]))
    priority, depth, _, url, _ = state["frontier"].pop(0)
    state["inflight"][url] = [now, depth, priority]
    return state, (url, depth)
