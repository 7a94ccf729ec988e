"""robots.txt by RFC 9309, parsed by Protego: longest match, Allow beside Disallow, wildcards. A 4xx
answer allows everything; a 5xx answer or no answer disallows the host for a while. A site's rules
are read once and kept in the store (at most 24 hours, as the RFC allows)."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from websearch_mcp.errors import ToolError
from websearch_mcp.store.base import Store

NAMESPACE = "robots"
KEEP = 24 * 3600.0  # RFC 9309 §2.4: a crawler should not use a cached robots.txt for more than 24 hours
UNREACHABLE_KEEP = 600.0  # how long a host whose robots.txt failed stays disallowed
AGENT = "websearch-mcp"  # the product token matched against User-agent lines
MAX_ROBOTS_BYTES = 500 * 1024  # RFC 9309 §2.5: at least 500 KiB are parsed
LEASE_WAIT = 15.0  # the longest one caller waits for another fetching the same robots.txt


class Robots:
    """One origin's rules."""

    def __init__(self, origin: str, state: str, body: str = "", why: str = "") -> None:
        self.origin = origin
        self.state = state  # parsed, allow-all (4xx), unreachable (5xx or no answer)
        self.body = body
        self.why = why
        self._parser: Any = None
        if state == "parsed":
            from protego import Protego  # imported only when a site is read

            self._parser = Protego.parse(body)

    def allowed(self, url: str) -> bool:
        """Whether the rules let this crawler fetch the URL."""
        if self.state == "unreachable":
            return False
        if self._parser is None:
            return True
        return bool(self._parser.can_fetch(url, AGENT))

    def crawl_delay(self) -> float | None:
        """The Crawl-delay of the group that applies, in seconds, if any."""
        if self._parser is None:
            return None
        delay = self._parser.crawl_delay(AGENT)
        return None if delay is None else float(delay)

    def sitemaps(self) -> list[str]:
        """The Sitemap: lines."""
        return [] if self._parser is None else list(self._parser.sitemaps)

    def to_bytes(self) -> bytes:
        """The rules as a store entry."""
        return json.dumps({"state": self.state, "body": self.body, "why": self.why}).encode()


def load_robots(fetch: Any, store: Store, origin: str, deadline: float | None) -> Robots:
    """The origin's rules: from the store when kept there, else fetched (and kept) with `fetch(url)`,
    which returns a SiteFile or raises ToolError. Callers that ask at once (other calls, processes,
    machines) wait for the one that fetches it."""
    lease = f"robots-fetch:{origin}"
    until = time.monotonic() + LEASE_WAIT if deadline is None else min(deadline, time.monotonic() + LEASE_WAIT)
    owned = False
    while True:
        kept = store.get(NAMESPACE, origin)
        if kept is not None:
            if owned:
                store.release(lease)
            data = json.loads(kept)
            return Robots(origin, data["state"], data["body"], data.get("why", ""))
        if owned or time.monotonic() >= until:
            break
        owned = store.claim(lease, LEASE_WAIT)
        if not owned:
            threading.Event().wait(0.02)
    try:
        return _fetch_and_keep(fetch, store, origin)
    finally:
        if owned:
            store.release(lease)


def _fetch_and_keep(fetch: Any, store: Store, origin: str) -> Robots:
    from websearch_mcp.errors import DeadlineExceeded

    try:
        answer = fetch(origin + "/robots.txt")
    except DeadlineExceeded as err:  # the call ran out of time, not the site: nothing to keep
        return Robots(origin, "unreachable", why=err.message)
    except ToolError as err:
        robots = Robots(origin, "unreachable", why=err.message)
    else:
        if 200 <= answer.status < 300:
            robots = Robots(origin, "parsed", answer.body[:MAX_ROBOTS_BYTES].decode("utf-8", "replace"))
        elif 400 <= answer.status < 500:
            robots = Robots(origin, "allow-all")
        else:
            robots = Robots(origin, "unreachable", why=f"robots.txt answered HTTP {answer.status}")
    store.put(NAMESPACE, origin, robots.to_bytes(), UNREACHABLE_KEEP if robots.state == "unreachable" else KEEP)
    return robots
