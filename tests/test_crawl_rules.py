"""The rules of every crawl request: robots.txt by RFC 9309 (through Protego), kept in the store;
sitemaps (indexes, gzip, lastmod); URL normal forms; trap caps."""

from __future__ import annotations

import gzip

import pytest

from tests.conftest import config_for
from tests.fake_upstream import FIXTURES, Reply
from websearch_mcp.crawl.robots import KEEP, NAMESPACE, Robots, load_robots
from websearch_mcp.crawl.sitemaps import parse, read_sitemaps, unpack
from websearch_mcp.crawl.urls import TrapLimits, in_site, normalise, path_pattern, registrable
from websearch_mcp.crawl.web import get_site_file
from websearch_mcp.fetch.pages import PageFetcher
from websearch_mcp.store.memory import MemoryStore

ROBOTS = (FIXTURES / "handmade" / "site" / "robots.txt").read_text()


def rules(text: str = ROBOTS) -> Robots:
    return Robots("https://docs.example.org", "parsed", text)


@pytest.mark.parametrize("path, allowed", [
    ("/guide/retries/", True),
    ("/private/notes/", False),
    ("/private/public-note/", True),  # the longer Allow wins over the shorter Disallow
    ("/private/public-note/deeper", True),
    ("/search?q=retries", False),  # a wildcard
    ("/search?page=2", True),
    ("/guide/manual.pdf", False),  # $ anchors the end
    ("/guide/manual.pdf?download=1", True),
])
def test_rfc9309_matching(path, allowed):
    assert rules().allowed("https://docs.example.org" + path) is allowed


def test_allow_beside_disallow_of_equal_length_allows():
    robots = rules("User-agent: *\nDisallow: /page\nAllow: /page\n")
    assert robots.allowed("https://docs.example.org/page")


def test_crawl_delay_and_sitemaps():
    robots = rules(ROBOTS + "\nSitemap: https://docs.example.org/sitemap-index.xml\n")
    assert robots.crawl_delay() == pytest.approx(0.3)
    assert robots.sitemaps() == ["https://docs.example.org/sitemap-index.xml"]


def test_the_group_for_this_crawler_applies_before_the_general_one():
    robots = rules("User-agent: *\nAllow: /\n\nUser-agent: websearch-mcp\nDisallow: /drafts/\n")
    assert not robots.allowed("https://docs.example.org/drafts/x") and robots.allowed("https://docs.example.org/x")


def test_a_group_for_another_crawler_does_not_apply():
    assert rules("User-agent: othercrawler\nDisallow: /\n").allowed("https://docs.example.org/x")


@pytest.mark.parametrize("status, state, allowed", [
    (200, "parsed", False), (404, "allow-all", True), (401, "allow-all", True), (403, "allow-all", True),
    (500, "unreachable", False), (503, "unreachable", False)])
def test_robots_answers(upstream, status, state, allowed):
    upstream.route("GET", "/robots.txt", Reply(status=status, body=b"User-agent: *\nDisallow: /\n",
                                               content_type="text/plain"))
    store = MemoryStore(10_000_000)
    fetcher = PageFetcher(config_for(upstream, allow_private_urls=True), store=store)
    robots = load_robots(lambda u: get_site_file(fetcher, u, None), store, upstream.url, None)
    assert robots.state == state
    assert robots.allowed(upstream.url + "/page") is allowed


def test_no_answer_disallows_the_host_for_a_while(upstream):
    upstream.route("GET", "/robots.txt", Reply(body=b"User-agent: *\n", delay=3.0))
    store = MemoryStore(10_000_000)
    fetcher = PageFetcher(config_for(upstream, allow_private_urls=True, timeout=0.5), store=store)
    robots = load_robots(lambda u: get_site_file(fetcher, u, None), store, upstream.url, None)
    assert robots.state == "unreachable" and "did not answer" in robots.why
    assert not robots.allowed(upstream.url + "/")


def test_robots_txt_is_read_once_and_kept_a_day(upstream):
    upstream.route("GET", "/robots.txt", Reply(body=ROBOTS.encode(), content_type="text/plain"))
    store = MemoryStore(10_000_000)
    fetcher = PageFetcher(config_for(upstream, allow_private_urls=True), store=store)
    for _ in range(3):
        robots = load_robots(lambda u: get_site_file(fetcher, u, None), store, upstream.url, None)
        assert not robots.allowed(upstream.url + "/private/x")
    assert upstream.count("/robots.txt") == 1
    assert store.get(NAMESPACE, upstream.url) is not None
    assert KEEP == 24 * 3600


def test_robots_redirect_to_a_private_address_is_not_followed(upstream):
    upstream.route("GET", "/robots.txt", Reply(status=301, headers={"Location": "http://169.254.169.254/robots.txt"}))
    store = MemoryStore(10_000_000)
    fetcher = PageFetcher(config_for(upstream, allow_private_urls=False), store=store)
    robots = load_robots(lambda u: get_site_file(fetcher, u, None), store, "http://127.0.0.1:9", None)
    assert robots.state == "unreachable" and "loopback" in robots.why


def test_sitemap_index_with_xml_and_gzip_parts():
    part = (FIXTURES / "sites" / "httpx" / "sitemap.xml").read_bytes()
    files = {
        "https://www.python-httpx.org/sitemap-index.xml":
            b'<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            b"<sitemap><loc>https://www.python-httpx.org/sitemap.xml</loc></sitemap>"
            b"<sitemap><loc>https://www.python-httpx.org/sitemap.xml.gz</loc></sitemap>"
            b"<sitemap><loc>https://www.python-httpx.org/sitemap-index.xml</loc></sitemap></sitemapindex>",
        "https://www.python-httpx.org/sitemap.xml": part,
        "https://www.python-httpx.org/sitemap.xml.gz": (FIXTURES / "sites" / "httpx" / "sitemap.xml.gz").read_bytes(),
    }
    pages, read = read_sitemaps(["https://www.python-httpx.org/sitemap-index.xml"], files.get, lambda u: True)
    assert read == 3  # the index once, though it lists itself
    assert len(pages) == 2 * part.count(b"<loc>")
    assert pages[0].url == "https://www.python-httpx.org/" and pages[0].lastmod == "2025-09-11"


def test_gzip_is_told_by_its_bytes_and_garbage_is_no_sitemap():
    xml = b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.org/x</loc></url></urlset>'
    assert unpack(gzip.compress(xml)) == xml
    assert parse(unpack(gzip.compress(xml)))[0][0].url == "https://a.org/x"
    assert parse(b"<html><body>not a sitemap</body></html>") == ([], [])
    assert parse(b"\x1f\x8bnot gzip") == ([], [])


def test_a_sitemap_that_would_fetch_an_entity_is_not_expanded():
    xml = (b'<?xml version="1.0"?><!DOCTYPE u [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
           b'<urlset><url><loc>https://a.org/&x;</loc></url></urlset>')
    pages, _ = parse(xml)
    assert all("root:" not in p.url for p in pages)


@pytest.mark.parametrize("link, expected", [
    ("HTTPS://Docs.Example.org:443/a/#part", "https://docs.example.org/a/"),
    ("http://docs.example.org:80/a?utm_source=x&b=2&a=1&fbclid=z", "http://docs.example.org/a?b=2&a=1"),
    ("http://docs.example.org:8080", "http://docs.example.org:8080/"),
    ("mailto:someone@example.org", None),
    ("javascript:void(0)", None),
    ("http://[::1]:8080/x", "http://[::1]:8080/x"),
])
def test_normal_forms(link, expected):
    assert normalise(link) == expected


def test_relative_links_and_sites():
    assert normalise("../b/?sid=1#x", "https://docs.example.org/a/c/") == "https://docs.example.org/a/b/"
    assert registrable("docs.example.co.uk") == "example.co.uk" and registrable("a.b.example.org") == "example.org"
    assert in_site("https://docs.example.org/x", "docs.example.org", False)
    assert not in_site("https://docs.example.org:8443/x", "docs.example.org", False)  # another port, another site
    assert not in_site("https://blog.example.org/x", "docs.example.org", False)
    assert in_site("https://blog.example.org/x", "docs.example.org", True)
    assert not in_site("https://example-org.com/x", "docs.example.org", True)
    assert not in_site("https://docs.example.org.evil.com/x", "docs.example.org", True)
    assert in_site("http://127.0.0.1:8080/x", "127.0.0.1:8080", True) and not in_site("http://127.0.0.1:9/x",
                                                                                        "127.0.0.1:8080", True)


def test_trap_caps():
    limits = TrapLimits(pattern_cap=12, variant_cap=4)
    calendar = [f"https://a.org/calendar/{2026 + m // 12}/{m % 12 + 1:02d}/" for m in range(40)]
    assert sum(limits.admit(u) for u in calendar) == 12
    assert path_pattern(calendar[0]) == path_pattern(calendar[-1])
    variants = [f"https://a.org/list?page={n}" for n in range(40)]
    assert sum(limits.admit(u) for u in variants) == 4
    assert limits.admit("https://a.org/guide/retries/") and limits.admit("https://a.org/guide/timeouts/")
    again = TrapLimits.from_json(limits.to_json())
    assert not again.admit(calendar[20])


def test_callers_asking_at_once_share_one_fetch(upstream):
    import threading

    upstream.route("GET", "/robots.txt", Reply(body=ROBOTS.encode(), content_type="text/plain", delay=0.3))
    store = MemoryStore(10_000_000)
    fetcher = PageFetcher(config_for(upstream, allow_private_urls=True), store=store)
    found: list[Robots] = []

    def ask() -> None:
        found.append(load_robots(lambda u: get_site_file(fetcher, u, None), store, upstream.url, None))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert upstream.count("/robots.txt") == 1
    assert [r.allowed(upstream.url + "/private/x") for r in found] == [False] * 4
