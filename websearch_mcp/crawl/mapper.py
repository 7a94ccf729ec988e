"""map_site's work: a site's pages from its sitemaps (robots.txt `Sitemap:` lines, else /sitemap.xml),
else from the links of the start page and the pages it leads to."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from websearch_mcp.call_context import ToolContext
from websearch_mcp.crawl import ranking
from websearch_mcp.crawl.crawler import Crawls
from websearch_mcp.crawl.links import read_links
from websearch_mcp.crawl.politeness import HostGate
from websearch_mcp.crawl.robots import Robots
from websearch_mcp.crawl.site import compiled, start_url
from websearch_mcp.crawl.sitemaps import read_sitemaps
from websearch_mcp.crawl.urls import (
    TrapLimits,
    host_of,
    in_site,
    normalise,
    origin_of,
    page_key,
    readable_link,
    site_of,
)
from websearch_mcp.crawl.web import get_site_file
from websearch_mcp.errors import ToolError

LINK_DEPTH = 3  # how far from the start page links are followed when there is no sitemap
DEADLINE_MARGIN = 1.0


class SitePage:
    """One page of the map."""

    __slots__ = ("lastmod", "source", "text", "title", "url")

    def __init__(self, url: str, source: str, title: str = "", lastmod: str = "", text: str = "") -> None:
        self.url = url
        self.source = source
        self.title = title
        self.lastmod = lastmod
        self.text = text  # the text of the links to it

    def row(self) -> dict[str, Any]:
        """The page as an entry of `urls`."""
        row: dict[str, Any] = {"url": self.url, "source": self.source}
        if self.title:
            row["title"] = self.title
        if self.lastmod:
            row["lastmod"] = self.lastmod
        return row


class SiteMap:
    """The pages found, where they came from, how many robots.txt excluded, whether the limit cut it."""

    def __init__(self, start: str, pages: list[SitePage], source: str, excluded: int, found: int,
                 limit: int, sitemap_files: int) -> None:
        self.start = start
        self.pages = pages
        self.source = source
        self.excluded = excluded
        self.found = found
        self.limit = limit
        self.sitemap_files = sitemap_files


class _Filter:
    """Which URLs belong in the map: the site's, through the path patterns, allowed by the robots.txt
    of their own host (another subdomain has rules of its own, read when it first comes up)."""

    def __init__(self, start: str, arguments: dict[str, Any], robots: Robots,
                 robots_of: Callable[[str], Robots]) -> None:
        import re

        self.host = site_of(start)
        self.rules = {origin_of(start): robots}
        self.robots_of = robots_of
        self.subdomains = bool(arguments.get("include_subdomains"))
        self.include = [re.compile(p) for p in compiled(arguments.get("include_paths") or [], "include_paths")]
        self.exclude = [re.compile(p) for p in compiled(arguments.get("exclude_paths") or [], "exclude_paths")]
        self.robots = robots
        self.excluded = 0

    def of_site(self, url: str) -> bool:
        return in_site(url, self.host, self.subdomains) and readable_link(url)

    def keep(self, url: str) -> bool:
        """Whether a URL of the site belongs in the map (counting those robots.txt excludes)."""
        path = "/" + url.split("://", 1)[-1].partition("/")[2]
        if self.include and not any(p.search(path) for p in self.include):
            return False
        if any(p.search(path) for p in self.exclude):
            return False
        origin = origin_of(url)
        if origin not in self.rules:
            self.rules[origin] = self.robots_of(url)
        if not self.rules[origin].allowed(url):
            self.excluded += 1
            return False
        return True


def map_site(crawls: Crawls, arguments: dict[str, Any], context: ToolContext) -> SiteMap:
    """The site's pages, ranked by the query when there is one."""
    start = start_url(arguments["url"])
    deadline = context.deadline
    robots = crawls.robots(start, deadline)
    if robots.state == "unreachable":
        raise ToolError(f"robots.txt of {host_of(start)} could not be read ({robots.why}); the site is not "
                        "read for a while")
    rules = _Filter(start, arguments, robots, lambda url: crawls.robots(url, deadline))
    pages, files = _from_sitemaps(crawls, start, robots, rules, deadline)
    source = "sitemap"
    if not pages:
        settled = crawls.settle(start, robots, deadline)
        if settled != start:  # the site lives under another host of its domain: its sitemap may be there
            start, robots = settled, crawls.robots(settled, deadline)
            rules = _Filter(start, arguments, robots, lambda url: crawls.robots(url, deadline))
            pages, more = _from_sitemaps(crawls, start, robots, rules, deadline)
            files += more
    if not pages:
        source = "links"
        pages = _from_links(crawls, start, rules, arguments["limit"], context)
    query = (arguments.get("query") or "").strip()
    if query:
        words = ranking.query_terms(query)
        scores = {p.url: 3 * ranking.share(words, p.title) + 2 * ranking.url_share(words, p.url)
                  + ranking.share(words, p.text) for p in pages}
        pages = sorted(pages, key=lambda p: -scores[p.url])
    limit = arguments["limit"]
    return SiteMap(start, pages[:limit], source, rules.excluded, len(pages), limit, files)


def _from_sitemaps(crawls: Crawls, start: str, robots: Robots, rules: _Filter,
                   deadline: float | None) -> tuple[list[SitePage], int]:
    origin = origin_of(start)
    listed = [u for u in (normalise(s) for s in robots.sitemaps()) if u and rules.of_site(u)]
    fetcher = crawls.services.fetcher

    def fetch(url: str) -> bytes | None:
        answer = get_site_file(fetcher, url, deadline)
        return answer.body if 200 <= answer.status < 300 else None

    def allowed(url: str) -> bool:
        return in_site(url, rules.host, rules.subdomains)

    entries, files = read_sitemaps(listed or [origin + "/sitemap.xml"], fetch, allowed)
    pages: dict[str, SitePage] = {}
    for entry in entries:
        url = normalise(entry.url)
        if url is None or page_key(url) in pages or not rules.of_site(url) or not rules.keep(url):
            continue
        pages[page_key(url)] = SitePage(url, "sitemap", lastmod=entry.lastmod)
    return list(pages.values()), files


def _from_links(crawls: Crawls, start: str, rules: _Filter, limit: int, context: ToolContext) -> list[SitePage]:
    """Pages found by following links breadth first from the start page, up to LINK_DEPTH."""
    services = crawls.services
    stop = time.monotonic() + 3600.0 if context.deadline is None else context.deadline - DEADLINE_MARGIN
    gate = HostGate(services.store, services.config.crawl_per_host, services.config.timeout * 2 + 30.0)
    delay = rules.rules[origin_of(start)].crawl_delay()
    found: dict[str, SitePage] = {page_key(start): SitePage(start, "links")}  # by page key
    traps = TrapLimits()
    lock = threading.Lock()
    level = [start]
    failures: list[str] = []
    aliases: dict[str, str] = {}  # a page -> the address its rel=canonical names
    fetched: set[str] = set()

    def visit(url: str) -> list[tuple[str, str]]:
        from websearch_mcp.fetch.pages import PAGE_CACHE

        slot = None
        if services.store.get(PAGE_CACHE, url) is None:
            slot = gate.enter(site_of(url), delay, stop)
            if slot is None:
                return []
        try:
            page = services.fetcher.fetch(url, stop)
        except ToolError as err:
            failures.append(err.message)
            return []
        finally:
            if slot is not None:
                gate.leave(slot)
        if page.kind != "html" or not in_site(page.final_url, rules.host, rules.subdomains):
            return []
        links = read_links(page.text, page.final_url)
        with lock:
            found[page_key(url)].title = links.title
            if links.canonical and links.canonical != url and rules.of_site(links.canonical):
                aliases[url] = links.canonical
        return [(link.url, link.text) for link in links.links]

    with ThreadPoolExecutor(max_workers=max(1, services.config.crawl_per_host)) as pool:
        for depth in range(LINK_DEPTH + 1):
            if not level or time.monotonic() >= stop:
                break
            context.report_progress(len(found), None, f"{len(found)} pages found")
            following: list[str] = []
            fetched.update(level)
            for links in pool.map(visit, level):
                for url, text in links:
                    page = found.get(page_key(url))
                    if page is not None:
                        page.text = page.text or text
                        if url.endswith("/") and not page.url.endswith("/") and page.url not in fetched:
                            page.url = url  # the form with the slash, which servers of such sites answer
                        continue
                    if not rules.of_site(url) or not rules.keep(url) or not traps.admit(url):
                        continue
                    found[page_key(url)] = SitePage(url, "links", text=text)
                    following.append(url)
            if len(found) >= limit or depth == LINK_DEPTH:
                break
            level = following
    if len(found) == 1 and failures:
        raise ToolError(f"the start page could not be read: {failures[0]}")
    for url, canonical in aliases.items():  # one entry per page, under the address it names itself
        page = found.pop(page_key(url))
        if page_key(canonical) not in found:
            page.url = canonical
            found[page_key(canonical)] = page
    for page in found.values():
        page.title = page.title or page.text
    return list(found.values())
