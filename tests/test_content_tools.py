"""fetch_content, search_context and web_search's fetch_content, in-process against the fake upstream."""

from __future__ import annotations

import re

import pytest

from tests.conftest import config_for
from tests.fake_upstream import Reply, Seen
from tests.helpers import call, exchange, registry_for

ARTICLE = "handmade/pages/article.html"


def tool(config, name, arguments, meta=None):
    replies = exchange([call(name, arguments, meta=meta)], registry=registry_for(config))
    result = next(r for r in replies if r.get("id") == 1)["result"]
    return result, [r for r in replies if r.get("method") == "notifications/progress"]


@pytest.fixture
def pages(upstream):
    upstream.route("GET", "/post", Reply.fixture(ARTICLE))
    upstream.route("GET", "/ja", Reply.fixture("handmade/pages/ja-shift_jis-meta.html"))
    upstream.route("GET", "/missing", Reply(status=404))
    upstream.route("GET", "/image", Reply(body=b"\x89PNG", content_type="image/png"))
    return upstream


@pytest.fixture
def private_ok(upstream):
    return config_for(upstream, allow_private_urls=True)


def test_fetch_content_output(pages, private_ok):
    url = f"{pages.url}/post"
    result, _ = tool(private_ok, "fetch_content", {"urls": [url]})
    text = result["content"][0]["text"]
    assert text.startswith(f"## Understanding Async Rust\n**URL:** {url}\n"
                           "_Note: this page was fetched over plain http")
    assert "\nAsync programming in Rust lets a single thread serve **thousands of connections**" in text
    assert "Failed URLs" not in text and "isError" not in result
    page = result["structuredContent"]["pages"][0]
    assert page["next_start_index"] is None and page["total_chars"] == len(page["content"])
    assert page["metadata"]["byline"] == "Jane Doe" and page["warning"]


def test_long_pages_continue_from_start_index(pages, private_ok):
    url = f"{pages.url}/post"
    first, _ = tool(private_ok, "fetch_content", {"urls": [url], "max_chars": 500})
    part = first["structuredContent"]["pages"][0]
    assert part["next_start_index"] == part["end_index"] <= 500
    assert f"To read on, call fetch_content with start_index={part['end_index']}." in first["content"][0]["text"]
    second, _ = tool(private_ok, "fetch_content", {"urls": [url], "max_chars": 200000,
                                                   "start_index": part["end_index"]})
    rest = second["structuredContent"]["pages"][0]
    assert part["content"] + rest["content"] == whole_page(pages, private_ok)
    assert rest["next_start_index"] is None


def whole_page(pages, config):
    whole, _ = tool(config, "fetch_content", {"urls": [f"{pages.url}/post"]})
    return whole["structuredContent"]["pages"][0]["content"]


def test_start_index_past_the_end(pages, private_ok):
    result, _ = tool(private_ok, "fetch_content", {"urls": [f"{pages.url}/post"], "start_index": 10**6})
    assert "is past the end of this page" in result["content"][0]["text"]


def test_failures_are_listed_and_the_others_proceed(pages, private_ok):
    urls = [f"{pages.url}/post", "ftp://example.org/x", f"{pages.url}/missing", f"{pages.url}/image",
            f"{pages.url}/post", "not a url"]
    result, _ = tool(private_ok, "fetch_content", {"urls": urls})
    text = result["content"][0]["text"]
    assert text.count("## Understanding Async Rust") == 1  # duplicates merged
    failed = {f["url"]: f["error"] for f in result["structuredContent"]["failed"]}
    assert set(failed) == {"ftp://example.org/x", f"{pages.url}/missing", f"{pages.url}/image", "not a url"}
    assert "HTTP 404" in failed[f"{pages.url}/missing"] and "unsupported content type" in failed[f"{pages.url}/image"]
    assert "\n## Failed URLs\n- ftp://example.org/x: only http and https" in text


def test_all_failed_is_an_error(pages, private_ok):
    result, _ = tool(private_ok, "fetch_content", {"urls": [f"{pages.url}/missing"]})
    assert result["isError"] is True
    assert result["content"][0]["text"].startswith("No page could be read.\n\n## Failed URLs\n")


@pytest.mark.parametrize("urls, message", [([], "must have at least 1 item (minItems)"),
                                           ([f"https://e.org/{n}" for n in range(21)], "at most 20 items"),
                                           ("e.org", "must be an array")])
def test_url_list_validation(private_ok, urls, message):
    result, _ = tool(private_ok, "fetch_content", {"urls": urls})
    assert result["isError"] is True and message in result["content"][0]["text"]


def test_default_configuration_refuses_private_pages(pages, upstream):
    result, _ = tool(config_for(upstream), "fetch_content", {"urls": [f"{pages.url}/post"]})
    assert result["isError"] is True and "loopback" in result["content"][0]["text"]
    assert pages.count("/post") == 0


def test_progress_is_reported_per_page(pages, private_ok):
    urls = [f"{pages.url}/post", f"{pages.url}/ja", f"{pages.url}/missing"]
    _, progress = tool(private_ok, "fetch_content", {"urls": urls}, meta={"progressToken": "p1"})
    values = [n["params"]["progress"] for n in progress]
    assert values == [0, 1, 2, 3]
    assert all(n["params"]["progressToken"] == "p1" and n["params"]["total"] == 3 for n in progress)
    assert values == sorted(values)


# -- web_search with fetch_content ----------------------------------------------------------------

def search_with_pages(upstream):
    """A results page whose links point back at the fake upstream's pages."""
    html = (b'<html><body class="body--html"><div id="links">' + b"".join(
        b'<div class="result results_links results_links_deep web-result"><h2 class="result__title">'
        b'<a class="result__a" href="' + f"{upstream.url}{path}".encode() + b'">' + title.encode() + b"</a></h2>"
        b'<a class="result__snippet" href="#">Snippet of ' + title.encode() + b"</a></div>"
        for path, title in (("/post", "Async Rust"), ("/missing", "Gone"), ("/ja", "Tokyo weather")))
        + b'<div class="nav-link"></div></div></body></html>')

    def respond(seen: Seen) -> Reply:
        return Reply(body=html)

    upstream.route("POST", "/html/", respond)


def test_web_search_fetches_each_results_page(pages, private_ok):
    search_with_pages(pages)
    result, progress = tool(private_ok, "web_search", {"query": "async rust", "fetch_content": True,
                                                       "max_content_chars": 300}, meta={"progressToken": 7})
    data = result["structuredContent"]
    first, missing, japanese = data["results"]
    assert first["content"]["markdown"].startswith("Async programming in Rust")
    assert len(first["content"]["markdown"]) == 300 and first["content"]["truncated"] is True
    assert first["content"]["word_count"] > 200 and first["content"]["summary"].startswith("A practical guide")
    assert "HTTP 404" in missing["content_error"] and "content" not in missing
    assert "東京" in japanese["content"]["markdown"]
    assert data["metadata"]["content_fetch_stats"]["attempted"] == 3
    assert data["metadata"]["content_fetch_stats"]["successful"] == 2
    assert data["metadata"]["fetch_content"] is True
    text = result["content"][0]["text"]
    assert "**Content** (" in text and "_Content could not be fetched: the server answered HTTP 404_" in text
    assert text.endswith("_Source: DuckDuckGo (3 results)_") and progress


def test_web_search_without_fetch_content_fetches_nothing(pages, private_ok):
    search_with_pages(pages)
    result, _ = tool(private_ok, "web_search", {"query": "async rust"})
    assert "content" not in result["structuredContent"]["results"][0] and pages.count("/post") == 0


# -- search_context ---------------------------------------------------------------------------------

def test_search_context_packs_relevant_passages_with_citations(pages, private_ok):
    search_with_pages(pages)
    arguments = {"query": "executor polls future waker", "max_tokens": 300, "max_results": 3}
    result, _ = tool(private_ok, "search_context", arguments)
    text = result["content"][0]["text"]
    assert text.startswith('## Context for "executor polls future waker"\n\n[1]')
    assert "executor" in text and "\n### Sources\n[1] [Understanding Async Rust](" in text
    data = result["structuredContent"]
    assert data["estimated_tokens"] <= 300 and data["passages"]
    assert {p["source"] for p in data["passages"]} <= {s["number"] for s in data["sources"]}
    assert data["failed"][0]["url"].endswith("/missing")
    again, _ = tool(private_ok, "search_context", arguments)
    assert again["content"] == result["content"]  # deterministic for the same pages


def results_page(upstream, entries):
    """DuckDuckGo's html page listing (path, title, snippet) results on the fake upstream."""
    html = (b'<html><body class="body--html"><div id="links">' + b"".join(
        b'<div class="result results_links results_links_deep web-result"><h2 class="result__title">'
        b'<a class="result__a" href="' + f"{upstream.url}{path}".encode() + b'">' + title.encode() + b"</a></h2>"
        b'<a class="result__snippet" href="#">' + snippet.encode() + b"</a></div>"
        for path, title, snippet in entries) + b'<div class="nav-link"></div></div></body></html>')
    upstream.route("POST", "/html/", Reply(body=html))


def test_search_context_reads_each_article_once(pages, private_ok):
    pages.route("GET", "/mirror", Reply.fixture(ARTICLE))  # the same article at another address
    results_page(pages, [("/post", "Async Rust", "a guide"), ("/post/?utm_source=feed", "Async Rust", "a guide"),
                         ("/mirror", "Async Rust (mirror)", "a copy")])
    result, _ = tool(private_ok, "search_context", {"query": "executor polls future", "max_results": 3})
    data = result["structuredContent"]
    texts = [p["text"] for p in data["passages"]]
    assert len(texts) == len(set(texts)) and texts  # no passage twice
    assert [s["url"] for s in data["sources"]] == [f"{pages.url}/post"]  # the tracking variant and the mirror
    assert sum(1 for p in pages.requests if p.path in ("/post", "/post/")) == 1  # the variant is not read again


def test_search_context_leaves_out_unrelated_passages_and_demotes_page_headings(pages, private_ok):
    results_page(pages, [("/post", "Async Rust", "a guide")])
    result, _ = tool(private_ok, "search_context", {"query": "executor polls future", "max_tokens": 50000})
    data = result["structuredContent"]
    assert data["passages"] and all(p["score"] > 0 for p in data["passages"])
    assert not any("cookies" in p["text"].lower() for p in data["passages"])
    text = result["content"][0]["text"]
    headings = [line for line in text.splitlines() if re.match(r"#{1,6} ", line)]
    own_headings = [line for line in headings if not line.startswith("####")]
    assert own_headings == ['## Context for "executor polls future"', "### Sources"]
    assert "\n##### Futures and executors\n" in text  # the page's ## sits below the tool's ###


@pytest.mark.parametrize("failing, note", [
    (1, "_1 of 2 pages could not be read; only its search snippet was used._"),
    (2, "_2 of 3 pages could not be read; only their search snippets were used._"),
])
def test_search_context_marks_snippet_only_sources(pages, private_ok, failing, note):
    gone = [(f"/missing?{n}", f"Gone {n}", f"executor polls the future of gone page {n}") for n in range(failing)]
    results_page(pages, [("/post", "Async Rust", "a guide"), *gone])
    result, _ = tool(private_ok, "search_context", {"query": "executor polls future", "max_results": 3})
    text = result["content"][0]["text"]
    assert text.rstrip().endswith(note)
    assert f"[2] [Gone 0]({pages.url}/missing?0) (search snippet only: the page could not be read)" in text
    sources = result["structuredContent"]["sources"]
    assert [s["snippet_only"] for s in sources] == [False] + [True] * failing


# -- arguments sent as strings (some clients send every argument so) ------------------------------------

@pytest.mark.parametrize("arguments, expected", [
    ({"urls": '["https://e.org/a"]', "max_chars": "3000"}, {"urls": ["https://e.org/a"], "max_chars": 3000}),
    ({"urls": "https://e.org/a", "outline": "true"}, {"urls": ["https://e.org/a"], "outline": True}),
])
def test_arguments_sent_as_strings_are_read_as_what_they_hold(arguments, expected):
    from websearch_mcp.tools.fetch_content import INPUT_SCHEMA
    from websearch_mcp.tools.validation import validate_arguments

    checked = validate_arguments(arguments, INPUT_SCHEMA)
    assert {k: checked[k] for k in expected} == expected


@pytest.mark.parametrize("arguments, message", [
    ({"urls": ["https://e.org"], "max_chars": "many"}, "'max_chars': must be an integer, got a string (type)"),
    ({"urls": ["https://e.org"], "max_chars": "3000.5"}, "'max_chars': must be an integer, got a string (type)"),
    ({"urls": ["https://e.org"], "outline": "yes"}, "'outline': must be a boolean, got a string (type)"),
    ({"urls": '{"a": 1}'}, "'urls': must be an array, got a string (type)"),
])
def test_strings_that_hold_something_else_are_refused_as_before(arguments, message):
    from websearch_mcp.errors import InvalidArguments
    from websearch_mcp.tools.fetch_content import INPUT_SCHEMA
    from websearch_mcp.tools.validation import validate_arguments

    with pytest.raises(InvalidArguments, match=message.replace("(", r"\(").replace(")", r"\)")):
        validate_arguments(arguments, INPUT_SCHEMA)


def test_web_search_takes_a_whole_call_of_strings(ddg):
    from tests.conftest import config_for

    result, _ = tool(config_for(ddg), "web_search", {"query": "rust", "max_results": "3", "safe_search": "1",
                                                    "fetch_content": "false"})
    assert not result.get("isError") and len(result["structuredContent"]["results"]) == 3
