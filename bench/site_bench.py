"""Reading a whole site: map_site and crawl_site on the HTML build of uv's documentation (100 pages,
bench/sitedata.py) served on loopback, and on hand-made trap and address pages.

    python bench/site_bench.py

Prints: map from a sitemap index (XML + gzip part) and from links; crawl with a query (answer found
within max_pages=15, pages read to reach the answer's page best first and breadth first); politeness
(the per-host bound, Crawl-delay, two processes over one SQLite store); safety (private addresses,
another site, a calendar trap, disallowed paths); time (15 pages of 50-300 ms; two hanging pages)."""

from __future__ import annotations

import gzip
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from devset import MissingSource  # noqa: E402
from sitedata import QUESTIONS, load  # noqa: E402

from tests.fake_upstream import FakeUpstream, Reply  # noqa: E402
from tests.site_server import mount_site, site_pages  # noqa: E402
from websearch_mcp.call_context import ToolContext  # noqa: E402
from websearch_mcp.config import Config  # noqa: E402
from websearch_mcp.crawl.links import read_links  # noqa: E402
from websearch_mcp.services import Services  # noqa: E402
from websearch_mcp.tools import crawl_site, map_site  # noqa: E402
from websearch_mcp.tools.validation import validate_arguments  # noqa: E402

ORIGIN = "https://docs.astral.sh/uv"
DISALLOWED = "/uv/pip/"
RESULTS: dict[str, Any] = {}


def config(**overrides: Any) -> Config:
    """The server's defaults, with the site on loopback allowed and a per-run store."""
    base = {"allow_private_urls": True, "store": "memory", "timeout": 10.0}
    base.update(overrides)
    return Config(**base)  # type: ignore[arg-type]


def run(services: Services, tool: Any, arguments: dict[str, Any], timeout: float = 60.0) -> Any:
    """One call of a tool, as the server makes it (arguments checked, a deadline)."""
    checked = validate_arguments(arguments, tool.INPUT_SCHEMA)
    return tool.run(services, checked, ToolContext(deadline_seconds=timeout))


def serve(folder: Path, upstream: FakeUpstream, **options: Any) -> list[str]:
    """The site under /uv/ of the server; its pages' URLs."""
    return mount_site(upstream, folder, ORIGIN, prefix="/uv", **options)


def sitemap_index(folder: Path, upstream: FakeUpstream) -> list[str]:
    """An index (sitemap-index.xml) of two parts cut from the site's own sitemap: an XML and a gzip."""
    xml = (folder / "sitemap.xml").read_text().replace(ORIGIN, upstream.url + "/uv")
    head, _, rest = xml.partition("<url>")
    entries = ["<url>" + e for e in rest.split("<url>")]
    entries[-1] = entries[-1].replace("</urlset>", "")
    half = len(entries) // 2
    parts = [head + "".join(entries[:half]) + "</urlset>", head + "".join(entries[half:]) + "</urlset>"]
    upstream.route("GET", "/uv/sitemap-1.xml", Reply(body=parts[0].encode(), content_type="application/xml"))
    upstream.route("GET", "/uv/sitemap-2.xml.gz", Reply(body=gzip.compress(parts[1].encode(), mtime=0),
                                                         content_type="application/gzip"))
    index = ('<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
             f"<sitemap><loc>{upstream.url}/uv/sitemap-1.xml</loc></sitemap>"
             f"<sitemap><loc>{upstream.url}/uv/sitemap-2.xml.gz</loc></sitemap></sitemapindex>")
    upstream.route("GET", "/sitemap-index.xml", Reply(body=index.encode(), content_type="application/xml"))
    import re

    return re.findall(r"<loc>([^<]+)</loc>", xml)


def robots(upstream: FakeUpstream, text: str) -> None:
    upstream.route("GET", "/robots.txt", Reply(body=text.encode(), content_type="text/plain"))


def map_with_sitemap(folder: Path) -> None:
    with FakeUpstream() as upstream:
        serve(folder, upstream)
        listed = sitemap_index(folder, upstream)
        robots(upstream, f"User-agent: *\nDisallow: {DISALLOWED}\nSitemap: {upstream.url}/sitemap-index.xml\n")
        services = Services(config())
        started = time.monotonic()
        result = run(services, map_site, {"url": upstream.url + "/uv/", "limit": 5000})
        took = time.monotonic() - started
        got = {row["url"] for row in result.structured["urls"]}
        allowed = {u for u in listed if DISALLOWED not in u}
        fetched = {s.path for s in upstream.requests}
    site_files = {"/robots.txt", "/sitemap-index.xml", "/uv/sitemap-1.xml", "/uv/sitemap-2.xml.gz"}
    ok = got == allowed and fetched <= site_files
    print(f"map, sitemap index (XML + gzip part): {len(got)} of {len(allowed)} allowed URLs listed, "
          f"{len(got & {u for u in listed if DISALLOWED in u})} disallowed listed, requests: {sorted(fetched)}, "
          f"{took * 1000:.0f} ms  {'ok' if ok and took <= 1.0 else 'MISSED'}")
    RESULTS["map_sitemap"] = {"listed": len(got), "allowed": len(allowed), "seconds": took, "ok": ok}


def link_depths(folder: Path, base: str, start: str, limit: int) -> dict[str, int]:
    """Each page's distance in links from the start page, read from the files themselves."""
    pages = set(base + p for p in site_pages(folder))
    depth = {start: 0}
    level = [start]
    for d in range(1, limit + 1):
        following = []
        for url in level:
            html = (folder / url[len(base):].lstrip("/") / "index.html").read_text()
            for link in read_links(html, url).links:
                if link.url in pages and link.url not in depth:
                    depth[link.url] = d
                    following.append(link.url)
        level = following
    return depth


def map_without_sitemap(folder: Path) -> None:
    from websearch_mcp.crawl.mapper import LINK_DEPTH

    with FakeUpstream() as upstream:
        serve(folder, upstream, sitemaps=False)
        robots(upstream, "User-agent: *\nAllow: /\n")
        start = upstream.url + "/uv/"
        depth = link_depths(folder, upstream.url + "/uv", start, LINK_DEPTH)
        started = time.monotonic()
        result = run(Services(config()), map_site, {"url": start, "limit": 5000})
        took = time.monotonic() - started
    got = {row["url"] for row in result.structured["urls"]}
    share = len(set(depth) & got) / len(depth)
    print(f"map, no sitemap: {len(set(depth) & got)} of the {len(depth)} pages within {LINK_DEPTH} links found "
          f"({share:.1%}), {len(got)} URLs, {took:.2f} s  {'ok' if share >= 0.95 else 'MISSED'}")
    RESULTS["map_links"] = {"share": share, "seconds": took}


def page_order(upstream: FakeUpstream) -> list[str]:
    return [s.path for s in upstream.requests if s.path.startswith("/uv/") and not s.path.endswith((".xml", ".gz"))]


def crawl_questions(folder: Path) -> list[str]:
    questions = json.loads(QUESTIONS.read_text())
    found = 0
    best: list[int] = []
    breadth: list[int] = []
    bound = 0
    with FakeUpstream() as upstream:
        serve(folder, upstream, sitemaps=False)
        robots(upstream, "User-agent: *\nAllow: /\n")
        start = upstream.url + "/uv/"
        for q in questions:
            target = "/uv/" + q["page"]
            upstream.requests.clear()
            result = run(Services(config()), crawl_site, {"url": start, "query": q["question"], "max_pages": 15})
            found += q["answer"] in result.text
            order = page_order(upstream)
            best.append(order.index(target) + 1 if target in order else 16)
        upstream.requests.clear()
        run(Services(config()), crawl_site, {"url": start, "max_pages": 100, "max_depth": 3})
        order = page_order(upstream)
        for q in questions:
            target = "/uv/" + q["page"]
            breadth.append(order.index(target) + 1 if target in order else 101)
        bound = upstream.max_in_flight
    share = found / len(questions)
    print(f"crawl with a query, max_pages=15: answer in the text for {found} of {len(questions)} questions "
          f"({share:.0%})  {'ok' if share >= 0.8 else 'MISSED'}")
    print(f"  pages read to reach the answer's page: median {statistics.median(best):g} best first "
          f"(each: {best}), {statistics.median(breadth):g} breadth first (each: {breadth})")
    print(f"  most requests at once to the site: {bound} (bound {Config().crawl_per_host})  "
          f"{'ok' if bound <= Config().crawl_per_host else 'MISSED'}")
    RESULTS["crawl"] = {"share": share, "best_median": statistics.median(best),
                        "breadth_median": statistics.median(breadth), "max_in_flight": bound}
    return order


DELAY = 1.0  # Crawl-delay as sites write it (whole seconds). At 0.2 s, after the earlier parts had run in
# this process, one request in ten was seen to leave some 50 ms after its turn was checked (a pause of
# the crawler's own process), which shows as a gap 25% short of 0.2 s and 5% of 1 s


def crawl_delay(folder: Path) -> None:
    """Gaps between the requests as they arrive at a server in a process of its own."""
    host = subprocess.Popen([sys.executable, str(ROOT / "bench" / "site_host.py"), str(folder),
                             f"User-agent: *\\nCrawl-delay: {DELAY:g}\\n"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert host.stdin is not None and host.stdout is not None
    base = host.stdout.readline().strip()
    run(Services(config()), crawl_site, {"url": base + "/uv/", "max_pages": 7})
    seen, _ = host.communicate("", timeout=30)
    starts = sorted(at for path, at in map(json.loads, seen.splitlines()) if path.startswith("/uv/"))
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    ok = min(gaps) >= DELAY * 0.9 and statistics.mean(gaps) <= DELAY * 1.1
    print(f"Crawl-delay {DELAY:g} s: gaps between requests min {min(gaps) * 1000:.0f} ms, mean "
          f"{statistics.mean(gaps) * 1000:.0f} ms, max {max(gaps) * 1000:.0f} ms (server in its own process)  "
          f"{'ok' if ok else 'MISSED'}")
    RESULTS["crawl_delay"] = {"min": min(gaps), "mean": statistics.mean(gaps)}


def two_processes(folder: Path) -> None:
    command = str(Path(sys.executable).parent / "websearch-mcp")
    with FakeUpstream() as upstream, tempfile.TemporaryDirectory() as tmp:
        serve(folder, upstream, sitemaps=False, delay=0.2)
        robots(upstream, "User-agent: *\nAllow: /\n")
        env = {"PATH": os.environ.get("PATH", ""), "HOME": tmp, "WEBSEARCH_STORE": f"sqlite:///{tmp}/store.db",
               "WEBSEARCH_ALLOW_PRIVATE_URLS": "1", "NO_PROXY": "127.0.0.1"}
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "crawl_site", "arguments": {"url": upstream.url + "/uv/", "max_pages": 40, "max_wait_seconds": 20}}}
        init = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}
        payload = (json.dumps(init) + "\n" + json.dumps(call) + "\n").encode()
        processes = [subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, env=env) for _ in range(2)]
        for process in processes:  # both get their call before either answers: they crawl at the same time
            assert process.stdin is not None
            process.stdin.write(payload)
            process.stdin.close()
        outputs = [p.stdout.read() if p.stdout else b"" for p in processes]
        for process in processes:
            process.wait(60)
        paths = page_order(upstream)
        at_once = upstream.max_in_flight
    read = [json.loads(o.splitlines()[-1])["result"]["structuredContent"]["pages_read"] for o in outputs]
    twice = len(paths) - len(set(paths))
    bound = Config().crawl_per_host
    verdict = "ok" if twice == 0 and at_once <= bound else "MISSED"
    print(f"two processes at once, one SQLite store, max_pages=40: {len(paths)} page requests, {len(set(paths))} "
          f"pages, {twice} fetched twice, at most {at_once} requests at once (bound {bound}); each answered with "
          f"{read} pages  {verdict}")
    RESULTS["two_processes"] = {"requests": len(paths), "twice": twice, "read": read, "at_once": at_once}


def safety() -> None:
    """The hand-made site on a public-looking address in a network namespace of its own, where the
    private addresses it links to are real listening servers (tests/crawl_netns_scenario.py)."""
    import shutil

    scenario = ROOT / "tests" / "crawl_netns_scenario.py"
    command = str(Path(sys.executable).parent / "websearch-mcp")
    if not shutil.which("unshare") or subprocess.run(["unshare", "-rn", "true"], capture_output=True).returncode:
        print("safety: skipped (network namespaces are not available here: unshare -rn)")
        return
    done = subprocess.run(["unshare", "-rn", sys.executable, str(scenario), command], capture_output=True, timeout=180)
    seen = json.loads(done.stdout)
    paths = seen["site_paths"]
    elsewhere = sum(seen["elsewhere"].values())
    disallowed = [p for p in paths if p.startswith(("/private", "/search"))]
    calendar_requests = sum(1 for p in paths if p.startswith("/calendar/"))
    ok = not elsewhere and not disallowed and calendar_requests <= 20
    print(f"safety (network namespace): requests reaching 127.0.0.1, 10.0.0.1, 169.254.169.254 (one by redirect) "
          f"and another site: {elsewhere}; to disallowed paths: {len(disallowed)}; calendar trap: "
          f"{calendar_requests} requests for a crawl and a map  {'ok' if ok else 'MISSED'}")
    RESULTS["safety"] = {"elsewhere": elsewhere, "disallowed": len(disallowed), "calendar": calendar_requests}


def timing(folder: Path, order: list[str]) -> None:
    pick = random.Random(26)
    with FakeUpstream() as upstream:
        serve(folder, upstream, sitemaps=False)
        robots(upstream, "User-agent: *\nAllow: /\n")
        for path in site_pages(folder):
            page = (folder / path.strip("/") / "index.html") if path != "/" else folder / "index.html"
            reply = Reply(body=page.read_bytes(), delay=pick.uniform(0.05, 0.3))
            upstream.route("GET", "/uv" + path, reply)
        started = time.monotonic()
        result = run(Services(config()), crawl_site, {"url": upstream.url + "/uv/", "max_pages": 15})
        took = time.monotonic() - started
        at_once = upstream.max_in_flight
    read = result.structured["pages_read"]
    bound = Config().crawl_per_host
    verdict = "ok" if took <= 3.0 and read == 15 and at_once <= bound else "MISSED"
    print(f"time: 15 pages of 50-300 ms each: {read} read in {took:.2f} s, at most {at_once} requests at once "
          f"(bound {bound})  {verdict}")
    with FakeUpstream() as upstream:
        serve(folder, upstream, sitemaps=False)
        robots(upstream, "User-agent: *\nAllow: /\n")
        hanging = order[2:4]
        for path in hanging:
            page = folder / path[len("/uv/"):] / "index.html"
            upstream.route("GET", path, Reply(body=page.read_bytes(), delay=4.0))
        services = Services(config())
        arguments = {"url": upstream.url + "/uv/", "max_pages": 15, "max_wait_seconds": 1.5}
        started = time.monotonic()
        first = run(services, crawl_site, arguments)
        answered = time.monotonic() - started
        time.sleep(max(0.0, 4.5 - answered))
        second = run(services, crawl_site, arguments)
    urls = {upstream.url + p for p in hanging}
    has = urls <= {p["url"] for p in second.structured.get("pages", [])} or all(u in second.text for u in urls)
    ok = answered <= 1.5 + 0.5 and has
    print(f"time: two pages hanging 4 s, max_wait_seconds=1.5: answered in {answered:.2f} s with "
          f"{first.structured['pages_read']} pages (crawl goes on: {first.structured['crawl_continues']}); "
          f"the next call has them: {has}  {'ok' if ok else 'MISSED'}")
    RESULTS["time"] = {"healthy_seconds": took, "hanging_answer_seconds": answered, "next_has_them": has}


def main() -> None:
    try:
        folder = load()
    except MissingSource as err:
        print(f"site benchmark skipped: {err}")
        return
    print(f"site: uv's documentation, {len(site_pages(folder))} pages (astral-sh/docs @ 9106409e59fd, site/uv)\n")
    map_with_sitemap(folder)
    map_without_sitemap(folder)
    order = crawl_questions(folder)
    crawl_delay(folder)
    two_processes(folder)
    safety()
    timing(folder, order)


if __name__ == "__main__":
    main()
