"""web_search for news, images and videos through the installed server against the fake upstream:
fallback past a blocked engine, blocks never reported as "no results", the line under each title,
the media fields, the site filters, a pinned engine, SearXNG's place, thumbnails as image content."""

from __future__ import annotations

import base64
import json
import struct
import zlib
from typing import Any

from tests.conftest import env_for
from tests.fake_upstream import FIXTURES, Reply, Seen
from tests.helpers import call, initialize
from tests.schema_check import validate_response
from tests.test_end_to_end import replies, run

DDG_BLOCKED = "ddg-blocked/anomaly-captcha-sv-html-rust-programming-language-2026-04.html"
DDG_TOKEN = "engines/duckduckgo/token/ddg_token-page_openclaw-images_2026-02.html"
BING_NEWS = "engines/bing/news/bing_infinitescrollajax_rust-programming_2026-08.html"
BRAVE_VIDEOS = "engines/brave/videos/brave_videos_rust-programming_2026-08.html"
BRAVE_BLOCK = "engines/brave/brave_BLOCK-pow-captcha-challengeSet_http_2026-10.reconstructed.html"
DDG_IMAGES = "engines/duckduckgo/images/ddg_i-js_rust-programming_2026-08.json"


def web_search(upstream, arguments: dict[str, Any], **env: str) -> dict[str, Any]:
    process = run([initialize(id=0), call("web_search", arguments, id=1)],
                  env={**env_for(upstream), "WEBSEARCH_BACKENDS": "", **env})  # the default order
    answered = replies(process)[1]
    validate_response(answered, "2025-11-25", "tools/call")
    return answered["result"]


def test_news_fall_back_from_a_blocked_duckduckgo_to_bing(upstream):
    upstream.route("GET", "/ddg/", Reply.fixture(DDG_BLOCKED))
    upstream.route("GET", "/bing/news", Reply.fixture(BING_NEWS))
    result = web_search(upstream, {"query": "rust programming", "category": "news", "max_results": 2})
    assert not result.get("isError")
    text = result["content"][0]["text"]
    assert text.startswith('## Web Search Results for "rust programming"\n\n'
                           "### 1. Programming languages: Rust just got a big boost from Facebook's Meta\n"
                           "_ZDNet · 2022-07-28_\n"
                           "**URL:** https://www.zdnet.com/article/the-rust-programming-language-just-got-a-big-"
                           "boost-from-meta/\n")
    assert text.endswith("_Source: Bing (2 results)_")
    first = result["structuredContent"]["results"][0]
    assert first["source"] == "ZDNet" and first["published_date"] == "2022-07-28" and first["engine"] == "bing"
    tried = result["structuredContent"]["metadata"]["backends_tried"]
    assert [(t["backend"], t["status"]) for t in tried] == [("duckduckgo", "failed"), ("bing", "answered")]
    assert [r.path for r in upstream.requests] == ["/ddg/", "/bing/news"]


def test_every_engine_blocked_is_a_block_never_no_results(upstream):
    upstream.route("GET", "/ddg/", Reply.fixture(DDG_TOKEN))
    upstream.route("GET", "/ddg/v.js", Reply(status=403, body=b""))
    upstream.route("GET", "/bing/videos", Reply.fixture("engines/bing/bing_javascript-tutorial_http_2026-04-04.html"))
    upstream.route("GET", "/brave/videos", Reply.fixture(BRAVE_BLOCK))
    result = web_search(upstream, {"query": "rust programming", "category": "videos"})
    assert result["isError"] and result["structuredContent"]["error_type"] == "rate_limited_or_captcha"
    text = result["content"][0]["text"]
    assert "No results" not in text and "HTTP 403" in text and "no result list" in text and "challengeSet" in text
    assert [r.path for r in upstream.requests] == ["/ddg/", "/ddg/v.js", "/bing/videos", "/brave/videos"]


def test_a_pinned_engine_answers_videos_with_duration_publisher_and_date(upstream):
    upstream.route("GET", "/brave/videos", Reply.fixture(BRAVE_VIDEOS))
    result = web_search(upstream, {"query": "rust programming", "category": "videos", "backend": "brave",
                                   "max_results": 1, "time_range": "month"})
    text = result["content"][0]["text"]
    assert ("### 1. Rust programming language explained | ThePrimeagen and Lex Fridman - YouTube\n"
            "_04:03 · YouTube · 2025-03-25_\n**URL:** https://www.youtube.com/watch?v=cA7flwaBiC0\n") in text
    [seen] = upstream.requests
    assert seen.path == "/brave/videos" and seen.query["tf"] == "pm"
    assert result["structuredContent"]["results"][0]["duration"] == "04:03"


def test_site_filters_are_sent_as_operators_and_applied_to_web_results(upstream):
    upstream.route("GET", "/bing/search", Reply.fixture("engines/bing/bing_javascript-tutorial_http_2026-04-04.html"))
    everything = web_search(upstream, {"query": "javascript tutorial", "backend": "bing"})
    hosts = [r["url"].split("/")[2] for r in everything["structuredContent"]["results"]]
    assert "www.w3schools.com" in hosts
    result = web_search(upstream, {"query": "javascript tutorial", "backend": "bing",
                                   "exclude_domains": ["w3schools.com"], "include_domains": []})
    kept = [r["url"].split("/")[2] for r in result["structuredContent"]["results"]]
    assert kept == [h for h in hosts if not h.endswith("w3schools.com")]  # the engine ignored the operator
    assert upstream.requests[-1].query["q"] == "javascript tutorial -site:w3schools.com"
    assert result["structuredContent"]["metadata"]["exclude_domains"] == ["w3schools.com"]


def test_too_many_domains_or_a_non_domain_is_refused(upstream):
    many = web_search(upstream, {"query": "x", "include_domains": [f"site{i}.com" for i in range(11)]})
    assert many["isError"] and "at most 10 items" in many["content"][0]["text"]
    bad = web_search(upstream, {"query": "x", "exclude_domains": ["not a domain"]})
    assert bad["isError"] and "is not a domain" in bad["content"][0]["text"]
    assert upstream.requests == []


def test_searxng_keeps_its_place_for_news(upstream):
    upstream.route("GET", "/ddg/", Reply.fixture(DDG_BLOCKED))
    upstream.route("GET", "/search", Reply.fixture("searxng/search-news-artificial-intelligence-2026-08.json"))
    result = web_search(upstream, {"query": "artificial intelligence", "category": "news"},
                        WEBSEARCH_SEARXNG_URLS=upstream.url)
    assert result["structuredContent"]["metadata"]["backend"] == "searxng"
    assert [r.path for r in upstream.requests] == ["/ddg/", "/search"]  # DuckDuckGo, then SearXNG, as for web


def tiny_png() -> bytes:
    """A 1x1 PNG made here (a hand-made image, not a recording): the thumbnails' stand-in."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0\xff\0\0")) + \
        chunk(b"IEND", b"")


def test_image_results_and_their_thumbnails(upstream):
    recorded = json.loads((FIXTURES / DDG_IMAGES).read_bytes())

    def images(seen: Seen) -> Reply:
        # the recorded answer, its thumbnail addresses pointed at the fake upstream: nothing leaves the machine
        for number, item in enumerate(recorded["results"]):
            item["thumbnail"] = f"{upstream.url}/thumb/{number}" + (".big" if number == 1 else "")
        return Reply(body=json.dumps(recorded).encode(), content_type="application/json")

    upstream.route("GET", "/ddg/", Reply.fixture(DDG_TOKEN))
    upstream.route("GET", "/ddg/i.js", images)
    for number in range(4):
        upstream.route("GET", f"/thumb/{number}", Reply(body=tiny_png(), content_type="image/png"))
    upstream.route("GET", "/thumb/1.big", Reply(body=b"\xff" * 300_000, content_type="image/jpeg"))  # over the cap
    result = web_search(upstream, {"query": "rust programming", "category": "images", "max_results": 5,
                                   "include_thumbnails": True}, WEBSEARCH_ALLOW_PRIVATE_URLS="1")
    text, *pictures = result["content"]
    assert text["text"].startswith('## Web Search Results for "rust programming"\n\n### 1. Rust Programming '
                                   "Language\n_2048×1024 · on rust-lang.org_ · **Image:** https://www.rust-lang.org/"
                                   "static/images/rust-social-wide.jpg\n**URL:** https://rust-lang.org/\n")
    assert [p["type"] for p in pictures] == ["image"] * 3  # four asked, the oversized one left out
    assert base64.b64decode(pictures[0]["data"]) == tiny_png() and pictures[0]["mimeType"] == "image/png"
    first = result["structuredContent"]["results"][0]
    assert (first["width"], first["height"], first["image_url"]) == (
        2048, 1024, "https://www.rust-lang.org/static/images/rust-social-wide.jpg")
    assert sorted(r.path for r in upstream.requests if r.path.startswith("/thumb/")) == [
        "/thumb/0", "/thumb/1.big", "/thumb/2", "/thumb/3"]


def test_a_query_too_long_with_its_site_operators_is_refused(upstream):
    domains = [f"a-rather-long-domain-name-number-{i}.example.com" for i in range(10)]
    result = web_search(upstream, {"query": "x" * 100, "include_domains": domains})
    assert result["isError"] and "site: operators" in result["content"][0]["text"] and upstream.requests == []
