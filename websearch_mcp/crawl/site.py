"""crawl_site's work: check the request, join (or start) the shared crawl, wait for it as long as the
caller allows, and answer with what has been read."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from websearch_mcp.call_context import ToolContext
from websearch_mcp.crawl.crawler import CrawlPlan, Crawls
from websearch_mcp.crawl.robots import Robots
from websearch_mcp.crawl.state import DOCS, finished
from websearch_mcp.crawl.urls import normalise, site_of
from websearch_mcp.errors import InvalidArguments, ToolError

ANSWER_MARGIN = 0.25  # seconds kept before the caller's wait ends to write the answer
DEADLINE_MARGIN = 1.0
POLL = 0.1  # how often the call looks at the shared state (a read of the store)


def start_url(url: str) -> str:
    """The normalised start URL; InvalidArguments for anything but an http(s) URL with a host."""
    start = normalise(url)
    if start is None or not url.strip().lower().startswith(("http://", "https://")):
        raise InvalidArguments(f"url must be an http or https URL with a host, not {url!r}", parameter="url")
    return start


def compiled(patterns: list[str], name: str) -> list[str]:
    """The patterns, each checked to compile; InvalidArguments names the one that does not."""
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as err:
            raise InvalidArguments(f"{name}: {pattern!r} is not a regular expression ({err})",
                                   parameter=name) from None
    return patterns


class CrawlOutcome:
    """What the crawl had read when the call answered."""

    def __init__(self, plan: CrawlPlan, state: dict[str, Any], pages: list[tuple[str, str, str]],
                 going_on: bool) -> None:
        self.plan = plan
        self.state = state
        self.pages = pages  # (url, title, Markdown) in the order read
        self.going_on = going_on


def crawl(crawls: Crawls, arguments: dict[str, Any], context: ToolContext) -> CrawlOutcome:
    """Run (or join) the crawl the arguments describe and gather what it has read by the time the
    caller's wait ends."""
    start = start_url(arguments["url"])
    include = compiled(arguments.get("include_paths") or [], "include_paths")
    exclude = compiled(arguments.get("exclude_paths") or [], "exclude_paths")
    context.limit_wait(arguments.get("max_wait_seconds"))
    robots = _allowed(crawls, start, context)
    settled = crawls.settle(start, robots, context.deadline)
    if settled != start:
        start, robots = settled, _allowed(crawls, settled, context)
    plan = CrawlPlan(start, (arguments.get("query") or "").strip(), arguments["max_pages"],
                     arguments["max_depth"], include, exclude)
    shared = crawls.join(plan, robots, context.deadline)
    until = _answer_time(context)
    state = shared.view() or {}
    while state and not finished(state, plan.max_pages) and time.monotonic() < until:
        context.report_progress(len(state["done"]), plan.max_pages,
                                f"{len(state['done'])} of up to {plan.max_pages} pages read")
        if context.cancelled.wait(POLL):
            break
        state = shared.view() or state
    done = state.get("done", [])
    context.report_progress(len(done), plan.max_pages, f"{len(done)} pages read")
    if not done and state.get("failed") and finished(state, plan.max_pages):
        raise ToolError(f"the start page could not be read: {state['failed'][0]['error']}")
    return CrawlOutcome(plan, state, _documents(crawls, done), not finished(state, plan.max_pages))


def _allowed(crawls: Crawls, url: str, context: ToolContext) -> Robots:
    """The rules of the URL's site; ToolError when they keep the crawler from it."""
    robots = crawls.robots(url, context.deadline)
    if not robots.allowed(url):
        why = f" ({robots.why}; the site is not read for a while)" if robots.why else ""
        raise ToolError(f"robots.txt of {site_of(url)} does not allow reading {url}{why}")
    return robots


def _answer_time(context: ToolContext) -> float:
    """When the call must stop waiting: the caller's wait, else the deadline, with room to answer."""
    until = time.monotonic() + 3600.0
    if context.wait_until is not None:
        until = context.wait_until - ANSWER_MARGIN
    if context.deadline is not None:
        until = min(until, context.deadline - DEADLINE_MARGIN)
    return until


def _documents(crawls: Crawls, done: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    pages = []
    for entry in done:
        raw = crawls.services.store.get(DOCS, entry["url"])
        if raw is not None:
            data = json.loads(raw)
            pages.append((entry["url"], data["title"] or entry["title"], data["markdown"]))
    return pages
