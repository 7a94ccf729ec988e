"""map_site and crawl_site in-process against a recorded documentation site (fixtures/sites/httpx)
and hand-made trap, robots and address pages served on loopback."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import config_for, installed_command
from tests.fake_upstream import FIXTURES, Reply, Seen
from tests.helpers import call, exchange, registry_for
from tests.site_server import mount_site, robots, site_pages
from tests.test_ssrf import PUBLIC, FakeNetwork
from websearch_mcp.services import Services
from websearch_mcp.tools import build_registry

HANDMADE = FIXTURES / "handmade" / "site"
SCENARIO = Path(__file__).resolve().parent / "crawl_netns_scenario.py"
PAGES = len(site_pages(FIXTURES / "sites" / "httpx"))


def tool(config, name, arguments, meta=None, registry=None):
    replies = exchange([call(name, arguments, meta=meta)], registry=registry or registry_for(config), config=config)
    result = next(r for r in replies if r.get("id") == 1)["result"]
    return result, [r["params"] for r in replies if r.get("method") == "notifications/progress"]


def text(result) -> str:
    return result["content"][0]["text"]


@pytest.fixture
def site(upstream):
    mount_site(upstream)
    robots(upstream, f"User-agent: *\nDisallow: /advanced/ssl/\nSitemap: {upstream.url}/sitemap.xml\n")
    return upstream


@pytest.fixture
def private_ok(upstream):
    return config_for(upstream, allow_private_urls=True)


# -- map_site ------------------------------------------------------------------------------------------

def test_map_from_the_sitemap_fetches_no_page(site, private_ok):
    result, _ = tool(private_ok, "map_site", {"url": site.url + "/"})
    urls = [row["url"] for row in result["structuredContent"]["urls"]]
    assert len(urls) == PAGES - 1 and f"{site.url}/advanced/ssl/" not in urls
    assert {r["source"] for r in result["structuredContent"]["urls"]} == {"sitemap"}
    assert result["structuredContent"]["urls"][0]["lastmod"] == "2025-09-11"
    assert {s.path for s in site.requests} == {"/robots.txt", "/sitemap.xml"}
    assert text(result).startswith(f"{PAGES - 1} pages of {site.url}/ from its sitemap (1 excluded by robots.txt):")
    meta = result["structuredContent"]["metadata"]
    assert meta["robots_excluded"] == 1 and meta["limited"] is False and meta["source"] == "sitemap"


def test_map_ranks_by_query_and_cuts_at_the_limit(site, private_ok):
    result, _ = tool(private_ok, "map_site", {"url": site.url + "/", "query": "proxies", "limit": 3})
    urls = [row["url"] for row in result["structuredContent"]["urls"]]
    assert urls[0] == f"{site.url}/advanced/proxies/" and len(urls) == 3
    assert f"cut at limit=3 of {PAGES - 1} found" in text(result)


def test_map_path_patterns(site, private_ok):
    result, _ = tool(private_ok, "map_site", {"url": site.url + "/", "include_paths": ["^/advanced/"],
                                              "exclude_paths": ["time"]})
    urls = [row["url"] for row in result["structuredContent"]["urls"]]
    assert urls and all("/advanced/" in u and "time" not in u for u in urls)


def test_map_from_links_when_there_is_no_sitemap(upstream, private_ok):
    mount_site(upstream, sitemaps=False)
    result, progress = tool(private_ok, "map_site", {"url": upstream.url + "/", "limit": 500},
                            meta={"progressToken": "m"})
    urls = {row["url"] for row in result["structuredContent"]["urls"]}
    assert urls == {upstream.url + p for p in site_pages(FIXTURES / "sites" / "httpx")}  # /x and /x/ are one
    assert result["structuredContent"]["metadata"]["source"] == "links"
    assert "from the links of its pages" in text(result)
    titled = {r["url"]: r.get("title") for r in result["structuredContent"]["urls"]}
    assert titled[f"{upstream.url}/quickstart/"] == "QuickStart - HTTPX"
    assert progress and all(p["progressToken"] == "m" for p in progress)


# -- crawl_site ----------------------------------------------------------------------------------------

def test_crawl_with_a_query_reads_best_first(site, private_ok):
    result, progress = tool(private_ok, "crawl_site", {"url": site.url + "/", "query": "configure proxies",
                                                       "max_pages": 5}, meta={"progressToken": 7})
    body = text(result)
    assert 'Context for "configure proxies"' in body and "proxy=" in body
    sources = result["structuredContent"]["sources"]
    assert f"{site.url}/advanced/proxies/" in [s["url"] for s in sources]
    assert result["structuredContent"]["pages_read"] == 5
    counts = [p["progress"] for p in progress]
    assert counts == sorted(counts) and counts[-1] == 5 and progress[-1]["total"] == 5
    assert site.count("/advanced/ssl/") == 0  # disallowed: never requested


def test_crawl_without_a_query_is_breadth_first_within_the_budget(site, private_ok):
    result, _ = tool(private_ok, "crawl_site", {"url": site.url + "/", "max_pages": 4, "max_tokens": 800})
    pages = result["structuredContent"]["pages"]
    assert pages[0]["url"] == site.url + "/" and pages[0]["title"] == "HTTPX"
    assert sum(len(p["markdown"]) for p in pages) <= 800 * 4
    body = text(result)
    assert "Read, not shown (over max_tokens):" in body and body.endswith("more found, not read; 1 links excluded "
                                                                          "by robots.txt._")
    assert result["structuredContent"]["pages_read"] == 4 and not result["structuredContent"]["crawl_continues"]


def test_a_page_in_the_cache_is_not_fetched_again(site, private_ok):
    tool(private_ok, "crawl_site", {"url": site.url + "/", "max_pages": 6})
    before = len(site.requests)
    tool(private_ok, "crawl_site", {"url": site.url + "/", "max_pages": 6, "query": "timeouts"})
    fetched = [s.path for s in site.requests[before:]]
    assert len(fetched) == len(set(fetched))
    first_six = {s.path for s in site.requests[:before]}
    assert not first_six & set(fetched)


def test_politeness_bound_and_crawl_delay(upstream, private_ok):
    mount_site(upstream, delay=0.05)
    robots(upstream, "User-agent: *\nCrawl-delay: 0.25\n")
    tool(private_ok, "crawl_site", {"url": upstream.url + "/", "max_pages": 5})
    starts = sorted(s.at for s in upstream.requests if s.path != "/robots.txt")
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert len(starts) == 5 and min(gaps) >= 0.25 * 0.9 and max(gaps) < 0.25 * 1.6
    assert upstream.max_in_flight <= private_ok.crawl_per_host


def test_calendar_and_query_traps_are_cut_short(upstream, private_ok):
    calendar = (HANDMADE / "calendar.html").read_text()

    def month(seen: Seen) -> Reply:
        _, _, year, number = seen.path.rstrip("/").split("/")
        y, m = int(year), int(number)
        prev, nxt = (y - 1, 12) if m == 1 else (y, m - 1), (y + 1, 1) if m == 12 else (y, m + 1)
        body = calendar.format(year=y, month=f"{m:02d}", prev_year=prev[0], prev_month=f"{prev[1]:02d}",
                               next_year=nxt[0], next_month=f"{nxt[1]:02d}", n=int(seen.query.get("n", 0)) + 1)
        return Reply(body=body.encode())

    for y in range(1990, 2060):
        for m in range(1, 13):
            upstream.route("GET", f"/calendar/{y}/{m:02d}/", month)
    robots(upstream, "User-agent: *\nAllow: /\n")
    result, _ = tool(private_ok, "crawl_site", {"url": upstream.url + "/calendar/2026/01/", "max_pages": 100,
                                                "max_depth": 50})
    assert upstream.count("/robots.txt") + sum(1 for s in upstream.requests if s.path.startswith("/calendar/")) <= 20
    assert result["structuredContent"]["pages_read"] <= 19


def test_bad_input_is_a_clear_error(site, private_ok):
    for arguments, words in [({"url": "ftp://example.org/"}, "http or https"),
                             ({"url": "example.org"}, "http or https"),
                             ({"url": site.url + "/", "max_pages": 101}, "max_pages"),
                             ({"url": site.url + "/", "max_pages": 0}, "max_pages"),
                             ({"url": site.url + "/", "include_paths": ["(unclosed"]}, "(unclosed")]:
        result, _ = tool(private_ok, "crawl_site", arguments)
        assert result.get("isError") and words in text(result), arguments
    result, _ = tool(private_ok, "map_site", {"url": site.url + "/", "limit": 5001})
    assert result.get("isError") and "limit" in text(result)


def test_an_unreachable_start_page_says_why(upstream, private_ok):
    robots(upstream, "", status=404)
    result, _ = tool(private_ok, "crawl_site", {"url": upstream.url + "/gone/"})
    assert result.get("isError") and "the start page could not be read: the server answered HTTP 404" in text(result)
    result, _ = tool(private_ok, "map_site", {"url": upstream.url + "/gone/"})
    assert result.get("isError") and "HTTP 404" in text(result)


def test_a_robots_txt_that_fails_keeps_the_crawler_away(upstream, private_ok):
    mount_site(upstream)
    robots(upstream, "oops", status=503)
    result, _ = tool(private_ok, "crawl_site", {"url": upstream.url + "/"})
    assert result.get("isError") and "robots.txt answered HTTP 503" in text(result)
    assert [s.path for s in upstream.requests] == ["/robots.txt"]


# -- addresses: the site under a public name, on a network where private addresses are told apart ------

@pytest.fixture
def public_site(upstream):
    port = upstream.url.rsplit(":", 1)[1]
    for name in ("start", "retries", "timeouts"):
        body = (HANDMADE / f"{name}.html").read_text().replace("{port}", port).encode()
        path = {"start": "/", "retries": "/guide/retries/", "timeouts": "/guide/timeouts/"}[name]
        upstream.route("GET", path, Reply(body=body))
    upstream.route("GET", "/robots.txt", Reply(body=(HANDMADE / "robots.txt").read_bytes(), content_type="text/plain"))
    upstream.route("GET", "/redirect-to-metadata", Reply(status=302, headers={
        "Location": "http://169.254.169.254/latest/meta-data/"}))
    for secret in ("/secret/loopback", "/secret/loopback6", "/secret/private", "/secret/elsewhere",
                   "/latest/meta-data/", "/private/notes/"):
        upstream.route("GET", secret, Reply(body=b"<p>secret</p>"))
    guard = FakeNetwork(int(port), {"docs.example.org": [PUBLIC], "other-site.example": [PUBLIC]})
    config = config_for(upstream)  # private addresses refused: the default
    return upstream, build_registry(Services(config, guard=guard)), config


def test_private_addresses_other_sites_and_disallowed_paths_are_never_fetched(public_site):
    upstream, registry, config = public_site
    result, _ = tool(config, "crawl_site", {"url": "http://docs.example.org/", "max_pages": 20,
                                            "max_wait_seconds": 8}, registry=registry)
    paths = [s.path for s in upstream.requests]
    assert not [p for p in paths if p.startswith(("/secret", "/latest", "/private"))], paths
    assert "/search" not in paths and "/logo.png" not in paths
    assert paths.count("/guide/retries/") == 1  # the fragment and the tracking parameter are the same page
    assert result["structuredContent"]["pages_read"] == 3
    failed = {f["url"]: f["error"] for f in result["structuredContent"]["failed"]}
    refused = failed["http://docs.example.org/redirect-to-metadata"]
    assert "169.254.169.254" in refused and "link-local" in refused
    assert "HTTP 404" in failed["http://docs.example.org/calendar/2026/01/"]  # not served here


def test_a_start_page_on_a_private_address_is_refused(public_site):
    upstream, registry, config = public_site
    port = upstream.url.rsplit(":", 1)[1]
    for url in (f"http://127.0.0.1:{port}/", "http://10.0.0.1/", "http://169.254.169.254/"):
        result, _ = tool(config, "map_site", {"url": url}, registry=registry)
        assert result.get("isError") and "refused" in text(result), url
    assert not [s for s in upstream.requests if s.path != "/robots.txt"]


# -- long crawls -----------------------------------------------------------------------------------------

def test_a_long_crawl_answers_in_time_and_goes_on(upstream, private_ok):
    mount_site(upstream)
    robots(upstream, "", status=404)
    for path in ("/advanced/proxies/", "/advanced/ssl/"):
        page = (FIXTURES / "sites" / "httpx" / path.strip("/") / "index.html").read_bytes()
        upstream.route("GET", path, Reply(body=page, delay=2.5))
    arguments = {"url": upstream.url + "/", "max_pages": PAGES, "max_wait_seconds": 1.0}
    started = time.monotonic()
    first, _ = tool(private_ok, "crawl_site", arguments)
    assert time.monotonic() - started <= 1.5
    assert first["structuredContent"]["crawl_continues"] and "the crawl goes on" in text(first)
    read = {p["url"] for p in first["structuredContent"]["pages"]}
    assert f"{upstream.url}/advanced/proxies/" not in read
    time.sleep(3.0)
    second, _ = tool(private_ok, "crawl_site", arguments)
    assert second["structuredContent"]["pages_read"] == PAGES
    assert f"{upstream.url}/advanced/proxies/" in text(second) and f"{upstream.url}/advanced/ssl/" in text(second)
    assert upstream.count("/advanced/proxies/") == 1


def test_cancelled_waits_end_by_the_deadline(upstream):
    mount_site(upstream, delay=0.4)
    robots(upstream, "", status=404)
    config = config_for(upstream, allow_private_urls=True, call_timeout=2.0)
    started = time.monotonic()
    result, _ = tool(config, "crawl_site", {"url": upstream.url + "/", "max_pages": 40})
    assert time.monotonic() - started < 2.0
    assert not result.get("isError") and result["structuredContent"]["crawl_continues"]




def test_map_merges_a_page_under_its_canonical_address(upstream, private_ok):
    start = (HANDMADE / "start.html").read_text().replace("{port}", "9")
    start = start.replace("</main>", '<p><a href="/old/retries">Retries, at its old address</a></p></main>')
    upstream.route("GET", "/", Reply(body=start.encode()))
    upstream.route("GET", "/guide/retries/", Reply.fixture("handmade/site/retries.html"))
    upstream.route("GET", "/guide/timeouts/", Reply.fixture("handmade/site/timeouts.html"))
    upstream.route("GET", "/old/retries", Reply.fixture("handmade/site/retries.html"))
    robots(upstream, "", status=404)
    result, _ = tool(private_ok, "map_site", {"url": upstream.url + "/"})
    urls = [row["url"] for row in result["structuredContent"]["urls"]]
    assert urls.count(f"{upstream.url}/guide/retries/") == 1 and f"{upstream.url}/old/retries" not in urls
    assert upstream.count("/old/retries") == 1  # read once, and found to be the same page
    assert f"{upstream.url}/logo.png" not in urls and not [u for u in urls if "127.0.0.1:9" in u]


def _namespaces_work() -> bool:
    unshare = shutil.which("unshare")
    if unshare is None or shutil.which("ip") is None:
        return False
    return subprocess.run([unshare, "-rn", "ip", "link", "set", "lo", "up"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _namespaces_work(), reason="network namespaces are not available here (unshare -rn, ip)")
def test_in_a_network_namespace_private_addresses_other_sites_and_traps_stay_unvisited():
    done = subprocess.run(["unshare", "-rn", sys.executable, str(SCENARIO), installed_command()],
                          capture_output=True, timeout=180)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    seen = json.loads(done.stdout)
    assert seen["elsewhere"] == {"93.184.216.35": 0, "127.0.0.1": 0, "10.0.0.1": 0, "169.254.169.254": 0}
    paths = seen["site_paths"]
    assert not [p for p in paths if p.startswith(("/private", "/search", "/secret", "/latest"))], paths
    assert sum(1 for p in paths if p.startswith("/calendar/")) <= 20
    assert seen["crawl"]["pages_read"] >= 3
    failed = {f["url"].rsplit("/", 1)[-1] or f["url"]: f["error"] for f in seen["crawl"]["failed"]}
    assert "169.254.169.254" in failed["redirect-to-metadata"]
    mapped = [row["url"] for row in seen["map"]["urls"]]
    assert mapped and all(u.startswith("http://93.184.216.34:") for u in mapped)
    assert seen["map"]["metadata"]["robots_excluded"] >= 2  # /private/notes/ and /search?q=...


def test_a_start_page_that_moves_to_the_www_host_takes_the_site_along(upstream):
    mount_site(upstream)
    home = (FIXTURES / "sites" / "httpx" / "index.html").read_bytes()

    def front(seen: Seen) -> Reply:
        if seen.headers.get("host", "").startswith("python-httpx.example"):
            return Reply(status=301, headers={"Location": "http://www.python-httpx.example/"})
        return Reply(body=home)

    upstream.route("GET", "/", front)
    robots(upstream, "User-agent: *\nDisallow: /advanced/ssl/\n")
    guard = FakeNetwork(int(upstream.url.rsplit(":", 1)[1]), {"python-httpx.example": [PUBLIC],
                                                              "www.python-httpx.example": [PUBLIC]})
    config = config_for(upstream)
    registry = build_registry(Services(config, guard=guard))
    result, _ = tool(config, "crawl_site", {"url": "http://python-httpx.example/", "max_pages": 4}, registry=registry)
    assert result["structuredContent"]["url"] == "http://www.python-httpx.example/"
    assert result["structuredContent"]["pages_read"] == 4 and not result["structuredContent"]["failed"]
    mapped, _ = tool(config, "map_site", {"url": "http://python-httpx.example/"}, registry=registry)
    urls = [row["url"] for row in mapped["structuredContent"]["urls"]]
    expected = {"http://www.python-httpx.example" + p for p in site_pages(FIXTURES / "sites" / "httpx")}
    assert set(urls) - expected == set() and expected - set(urls) == {"http://www.python-httpx.example/advanced/ssl/"}


def test_only_readable_types_are_downloaded(upstream, private_ok):
    upstream.route("GET", "/", Reply(body=b'<title>Files</title><main><p>Downloads of the guide.</p>'
                                          b'<a href="/download">the guide as an archive</a> '
                                          b'<a href="/guide.pdf">as PDF</a> <a href="/photo.jpg">a photo</a></main>'))
    upstream.route("GET", "/download", Reply(body=b"PK\x03\x04" + b"\0" * 5000, content_type="application/zip"))
    upstream.route("GET", "/guide.pdf", Reply.fixture("pdf/py-pdf-sample-files/google-doc-document.pdf",
                                                      content_type="application/pdf"))
    robots(upstream, "", status=404)
    result, _ = tool(private_ok, "crawl_site", {"url": upstream.url + "/", "max_tokens": 2000})
    failed = {f["url"]: f["error"] for f in result["structuredContent"]["failed"]}
    assert "unsupported content type application/zip" in failed[f"{upstream.url}/download"]
    assert upstream.count("/photo.jpg") == 0
    read = [p["url"] for p in result["structuredContent"]["pages"]]
    assert f"{upstream.url}/guide.pdf" in read  # a PDF is read, through the same reader as fetch_content
    assert "## PDF Example Document\n" in text(result)


def test_subdomains_only_when_asked_and_never_another_domain(upstream):
    listing = ('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
               "<url><loc>http://docs.example.org/a/</loc></url><url><loc>http://blog.example.org/b/</loc></url>"
               "<url><loc>http://example.org/c/</loc></url><url><loc>http://example.com/d/</loc></url>"
               "<url><loc>http://docs.example.org.example.com/e/</loc></url></urlset>")
    upstream.route("GET", "/sitemap.xml", Reply(body=listing.encode(), content_type="application/xml"))
    robots(upstream, "", status=404)
    names = {n: [PUBLIC] for n in ("docs.example.org", "blog.example.org", "example.org", "example.com",
                                   "docs.example.org.example.com")}
    guard = FakeNetwork(int(upstream.url.rsplit(":", 1)[1]), names)
    config = config_for(upstream)
    registry = build_registry(Services(config, guard=guard))
    narrow, _ = tool(config, "map_site", {"url": "http://docs.example.org/"}, registry=registry)
    wide, _ = tool(config, "map_site", {"url": "http://docs.example.org/", "include_subdomains": True},
                   registry=registry)
    assert [r["url"] for r in narrow["structuredContent"]["urls"]] == ["http://docs.example.org/a/"]
    assert [r["url"] for r in wide["structuredContent"]["urls"]] == [
        "http://docs.example.org/a/", "http://blog.example.org/b/", "http://example.org/c/"]
    assert {s.path for s in upstream.requests} == {"/robots.txt", "/sitemap.xml"}
    hosts = [s.headers["host"].split(":")[0] for s in upstream.requests if s.path == "/robots.txt"]
    assert sorted(hosts) == ["blog.example.org", "docs.example.org", "example.org"]  # each host's own rules
