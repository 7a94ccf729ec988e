"""web_search end to end in-process: the real code against the fake DuckDuckGo on loopback."""

from __future__ import annotations

import pytest

from tests.conftest import LITE_PAGE, PAGE_ONE, config_for
from tests.fake_upstream import Reply
from tests.helpers import call, exchange, registry_for

EXPECTED_TWO = """\
## Web Search Results for "rust programming language"

### 1. Rust Programming Language
**URL:** https://rust-lang.org/
Rust is a fast, reliable, and productive programming language that can run on embedded devices, \
web services, and more. Learn how to get started, why Rust is different, and what companies are using \
it in production.

---

### 2. Rust (programming language) - Wikipedia
**URL:** https://en.wikipedia.org/wiki/Rust_(programming_language)
Rust is a general-purpose programming language. It is noted for its emphasis on performance, type \
safety, concurrency, and memory safety. Rust supports multiple programming paradigms. It was influenced \
by ideas from functional programming, including immutability, higher-order functions, algebraic data \
types, and pattern matching.

---

_Source: DuckDuckGo (2 results)_"""

NO_RESULTS = """\
## Web Search Results for "xyzzy12345noresult"

No results found.

_Source: DuckDuckGo_"""


def search(config, **arguments):
    [reply] = exchange([call("web_search", arguments)], registry=registry_for(config))
    return reply["result"]


def test_markdown_is_seed_000_exactly(ddg, config):
    result = search(config, query="rust programming language", max_results=2)
    assert "isError" not in result
    assert result["content"] == [{"type": "text", "text": EXPECTED_TWO}]


def test_structured_content_mirrors_the_text(ddg, config):
    result = search(config, query="rust programming language", max_results=3)
    data = result["structuredContent"]
    assert [r["position"] for r in data["results"]] == [1, 2, 3]
    assert data["results"][0] == {"title": "Rust Programming Language", "url": "https://rust-lang.org/",
                                  "description": data["results"][0]["description"], "engine": "duckduckgo",
                                  "position": 1}
    meta = data["metadata"]
    assert meta["query"] == "rust programming language" and meta["results_count"] == 3
    assert meta["backend"] == "duckduckgo" and meta["endpoint"] == "html" and meta["pages_fetched"] == 1


def test_first_request_sends_the_sites_own_form_fields(ddg, config):
    search(config, query="rust programming language", region="jp-jp", safe_search=2, time_range="week")
    [seen] = [r for r in ddg.requests if r.path == "/html/"]
    assert seen.method == "POST"
    assert seen.form == {"q": "rust programming language", "b": "", "kl": "jp-jp", "kp": "1", "df": "w"}
    assert seen.headers["user-agent"].startswith("Mozilla/5.0")
    assert seen.headers["referer"] == f"{ddg.url}/"


@pytest.mark.parametrize("safe, kp", [(0, "-2"), (1, "-1"), (2, "1")])
def test_safe_search_levels(ddg, config, safe, kp):
    search(config, query="x", safe_search=safe, max_results=1)
    assert ddg.requests[0].form["kp"] == kp and "df" not in ddg.requests[0].form


def test_more_results_follow_the_next_page_form(ddg, config):
    result = search(config, query="rust programming language", max_results=25)
    urls = [r["url"] for r in result["structuredContent"]["results"]]
    assert len(urls) == 20 and len(set(urls)) == 20  # page 3 says "No more results."
    pages = [r.form for r in ddg.requests if r.path == "/html/"]
    assert len(pages) == 3
    assert pages[1]["vqd"] == "4-156284419797958742022477238782088922431"
    assert (pages[1]["s"], pages[1]["dc"]) == ("10", "11") and (pages[2]["s"], pages[2]["dc"]) == ("25", "26")
    assert result["content"][0]["text"].endswith("_Source: DuckDuckGo (20 results)_")
    assert "### 20. Rust result 20 & more" in result["content"][0]["text"]


def test_stops_fetching_once_it_has_enough(ddg, config):
    search(config, query="rust programming language", max_results=10)
    assert ddg.count("/html/") == 1


def test_page_two(ddg, config):
    result = search(config, query="rust programming language", max_results=10, page=2)
    items = result["structuredContent"]["results"]
    assert [r["position"] for r in items] == list(range(11, 21))
    assert items[0]["url"] == "https://example.org/rust/page-two/11?a=1&b=2"
    assert "### 11. Rust result 11 & more" in result["content"][0]["text"]


def test_no_results_form(upstream, config):
    upstream.route("POST", "/html/", Reply.fixture("ddg-html/no-results-eof-google-fallback-2025-07.extracted.html"))
    result = search(config, query="xyzzy12345noresult")
    assert result["content"][0]["text"] == NO_RESULTS and "isError" not in result
    assert result["structuredContent"]["results"] == []


BLOCKS = [
    Reply(status=202, body=b""),
    Reply(status=403, body=b"Forbidden"),
    Reply(status=429, body=b"Too Many Requests"),
    Reply.fixture("ddg-blocked/anomaly-captcha-sv-html-rust-programming-language-2026-04.html"),
    Reply.fixture("ddg-blocked/homepage-instead-of-results-html-undated.transcribed.html"),
]


@pytest.mark.parametrize("block", BLOCKS)
def test_blocking_is_an_error_never_no_results(upstream, config, block):
    upstream.route("POST", "/html/", block)
    upstream.route("POST", "/lite/", block)
    result = search(config, query="rust")
    text = result["content"][0]["text"]
    assert result["isError"] is True
    assert "No results found" not in text
    assert "rate-limiting" in text and "CAPTCHA" in text and "wait a few minutes" in text
    assert result["structuredContent"]["error_type"] == "rate_limited_or_captcha"
    assert "results" not in result["structuredContent"]


@pytest.mark.parametrize("failure", [Reply(status=500, body=b"oops"), Reply(fault="reset"),
                                     Reply.fixture("ddg-blocked/anomaly-captcha-sv-html-rust-programming-language-2026-04.html")])
def test_lite_endpoint_answers_when_html_fails(upstream, config, failure):
    upstream.route("POST", "/html/", failure)
    upstream.route("POST", "/lite/", Reply.fixture(LITE_PAGE))
    result = search(config, query="rust programming", max_results=3)
    assert "isError" not in result
    assert result["structuredContent"]["metadata"]["endpoint"] == "lite"
    assert result["structuredContent"]["metadata"]["notes"]
    assert result["content"][0]["text"].startswith('## Web Search Results for "rust programming"\n\n### 1. Rust')
    assert upstream.count("/lite/") == 1


def test_server_errors_are_retried_then_reported(upstream):
    config = config_for(upstream, retries=1)
    upstream.route("POST", "/html/", Reply(status=503, body=b"down"))
    upstream.route("POST", "/lite/", Reply(status=502, body=b"down"))
    result = search(config, query="rust")
    assert result["isError"] is True
    assert result["content"][0]["text"].startswith("DuckDuckGo is unreachable or failing")
    assert "HTTP 503" in result["content"][0]["text"] and "HTTP 502" in result["content"][0]["text"]
    assert upstream.count("/html/") == 2 and upstream.count("/lite/") == 2


def test_unreachable_backend_is_a_clear_error(upstream):
    config = config_for(upstream, retries=0).with_overrides(ddg_html_url="http://127.0.0.1:9/html/",
                                                            ddg_lite_url="http://127.0.0.1:9/lite/")
    result = search(config, query="rust")
    assert result["isError"] is True
    assert result["content"][0]["text"].startswith("DuckDuckGo is unreachable or failing")
    assert "could not reach 127.0.0.1:9" in result["content"][0]["text"]


def test_unrecognised_page_is_an_error(upstream, config):
    upstream.route("POST", "/html/", Reply(body=b"<html><body>Maintenance</body></html>"))
    upstream.route("POST", "/lite/", Reply(body=b"<html><body>Maintenance</body></html>"))
    result = search(config, query="rust")
    assert result["isError"] is True and "does not recognise" in result["content"][0]["text"]


def test_redirect_is_followed(upstream, config):
    upstream.route("POST", "/html/", Reply(status=307, headers={"Location": "/real/"}))
    upstream.route("POST", "/real/", Reply.fixture(PAGE_ONE))
    result = search(config, query="rust programming language", max_results=1)
    assert result["structuredContent"]["results"][0]["url"] == "https://rust-lang.org/"
