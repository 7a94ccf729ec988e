"""SearXNG, backend order and fallback, the search cache and politeness, against fake upstreams."""

from __future__ import annotations

import time

import pytest

from tests.conftest import config_for
from tests.fake_upstream import FakeUpstream, Reply
from tests.helpers import call, exchange, registry_for
from websearch_mcp.engines.duckduckgo import region_for_language
from websearch_mcp.engines.searxng import parse_results
from websearch_mcp.store.memory import MemoryStore

GENERAL = "searxng/search-general-attention-is-all-you-need-2026-08.json"
NEWS = "searxng/search-news-artificial-intelligence-2026-08.json"
CAPTCHA_ENGINES = "searxng/search-general-severance-captcha-unresponsive-2026-08.pretty.json"
RICH = "handmade/searxng/answers-infobox-suggestions.json"


def search(config, **arguments):
    [reply] = exchange([call("web_search", arguments)], registry=registry_for(config))
    return reply["result"]


def test_parse_recorded_replies():
    from tests.fake_upstream import FIXTURES
    from websearch_mcp import wire

    general = parse_results(wire.loads((FIXTURES / GENERAL).read_text()))
    assert len(general.hits) == 20 and general.hits[0].url == "https://arxiv.org/abs/1706.03762"
    assert general.hits[0].engine == "google cse" and general.hits[0].score == 1.0
    assert "total_results" not in general.extras
    assert ["brave", "HTTP connection error"] in general.extras["unresponsive_engines"]
    news = parse_results(wire.loads((FIXTURES / NEWS).read_text()))
    assert len(news.hits) == 10 and all(h.engine == "bing news" for h in news.hits)
    assert all(h.published_date is None for h in news.hits)  # the recording's publishedDate values are null
    captcha = parse_results(wire.loads((FIXTURES / CAPTCHA_ENGINES).read_text()))
    assert ["duckduckgo", "CAPTCHA"] in captcha.extras["unresponsive_engines"]


def test_searxng_request_and_markdown(upstream):
    upstream.route("GET", "/search", Reply.fixture(GENERAL))
    config = config_for(upstream, searxng_urls=upstream.url, backends="searxng")
    result = search(config, query="attention is all you need", max_results=3, category="it", language="en",
                    time_range="year", safe_search=2, page=2)
    [seen] = upstream.requests
    assert seen.query == {"q": "attention is all you need", "format": "json", "categories": "it",
                          "safesearch": "2", "pageno": "2", "language": "en", "time_range": "year"}
    text = result["content"][0]["text"]
    assert text.startswith('## Web Search Results for "attention is all you need"\n\n### 4. [1706.03762] Attention')
    assert text.endswith("_Source: SearXNG (3 results)_")
    meta = result["structuredContent"]["metadata"]
    assert meta["backend"] == "searxng" and meta["instance_used"] == upstream.url
    assert meta["unresponsive_engines"][0] == ["brave", "HTTP connection error"]
    assert result["structuredContent"]["results"][0]["engine"] == "google cse"
    assert result["structuredContent"]["results"][0]["score"] == 1.0


def test_answers_infoboxes_and_suggestions_are_rendered(upstream):
    upstream.route("GET", "/search", Reply.fixture(RICH))
    config = config_for(upstream, searxng_urls=upstream.url, backends="searxng")
    result = search(config, query="python")
    text = result["content"][0]["text"]
    assert "### Answers\n- Python is a programming language.\n" in text
    assert "### Python\nPython is a high-level, general-purpose programming language.\n" in text
    assert "_Suggestions: python download, python tutorial_" in text
    assert result["structuredContent"]["metadata"]["total_results"] == 1520000
    assert result["structuredContent"]["results"][0]["engines"] == ["duckduckgo", "brave"]


def test_instance_fallback_down_then_403_then_good():
    with FakeUpstream() as down, FakeUpstream() as forbidden, FakeUpstream() as good:
        down.route("GET", "/search", Reply(status=502))
        forbidden.route("GET", "/search", Reply(status=403, body=b"Forbidden", content_type="text/html"))
        good.route("GET", "/search", Reply.fixture(GENERAL))
        urls = f"{down.url},{forbidden.url},{good.url}"
        config = config_for(good, searxng_urls=urls, backends="searxng", search_cache_ttl=0.0)
        result = search(config, query="attention")
        meta = result["structuredContent"]["metadata"]
        assert meta["instance_used"] == good.url
        assert any("HTTP 502" in n for n in meta["notes"]) and any("JSON output" in n for n in meta["notes"])
        search(config, query="attention again")  # the last good instance goes first next time
        assert good.count("/search") == 2 and down.count("/search") == 1 and forbidden.count("/search") == 1


def test_all_instances_down_gives_seed_002_error_shape():
    with FakeUpstream() as limited, FakeUpstream() as captcha:
        limited.route("GET", "/search", Reply(status=429, headers={"Retry-After": "300"}))
        captcha.route("GET", "/search", Reply.fixture(
            "handmade/searxng/captcha-page.html"))
        config = config_for(limited, searxng_urls=f"{limited.url},{captcha.url}", backends="searxng")
        result = search(config, query="anything")
        assert result["isError"] is True
        data = result["structuredContent"]
        assert data["error_type"] == "no_instances_available"
        assert data["attempted_instances"] == [limited.url, captcha.url] and data["retry_after"] == 300
        text = result["content"][0]["text"]
        assert f"{limited.url}: HTTP 429" in text and f"{captcha.url}: answered text/html" in text
        assert "CAPTCHA" in text


def test_duckduckgo_blocked_then_searxng_answers(ddg):
    captcha = "ddg-blocked/anomaly-captcha-sv-html-rust-programming-language-2026-04.html"
    ddg.route("POST", "/html/", Reply.fixture(captcha))
    ddg.route("POST", "/lite/", Reply(status=202))
    ddg.route("GET", "/search", Reply.fixture(GENERAL))
    config = config_for(ddg, searxng_urls=ddg.url, backends="duckduckgo,searxng")
    result = search(config, query="attention is all you need")
    meta = result["structuredContent"]["metadata"]
    assert meta["backend"] == "searxng"
    assert meta["backends_tried"][0]["backend"] == "duckduckgo" and meta["backends_tried"][0]["status"] == "failed"
    assert "CAPTCHA" in meta["backends_tried"][0]["reason"]
    assert result["content"][0]["text"].endswith("_Source: SearXNG (10 results)_")


def test_pinned_backend_is_used_alone(ddg):
    ddg.route("GET", "/search", Reply.fixture(GENERAL))
    config = config_for(ddg, searxng_urls=ddg.url, backends="duckduckgo,searxng")
    result = search(config, query="rust programming language", backend="searxng")
    assert result["structuredContent"]["metadata"]["backend"] == "searxng" and ddg.count("/html/") == 0


def test_pinning_an_unconfigured_backend_names_the_setting(ddg, config):
    result = search(config, query="x", backend="searxng")
    assert result["isError"] is True and "WEBSEARCH_SEARXNG_URLS" in result["content"][0]["text"]


@pytest.mark.parametrize("category", ["map", "music", "it", "science", "files"])  # news, images, videos: keyless
def test_category_duckduckgo_cannot_serve_needs_searxng(ddg, config, category):
    result = search(config, query="x", category=category)
    text = result["content"][0]["text"]
    assert result["isError"] is True and "WEBSEARCH_SEARXNG_URLS" in text and category in text
    assert ddg.count("/html/") == 0


def test_news_goes_to_searxng_when_configured(ddg):
    ddg.route("GET", "/search", Reply.fixture(NEWS))
    config = config_for(ddg, searxng_urls=ddg.url)
    config = config.with_overrides(backends="duckduckgo,searxng")  # DuckDuckGo's news page is not routed: 404
    result = search(config, query="artificial intelligence", category="news")
    meta = result["structuredContent"]["metadata"]
    assert meta["backend"] == "searxng" and meta["backends_tried"][0]["backend"] == "duckduckgo"
    assert meta["backends_tried"][0]["status"] == "failed" and ddg.count("/ddg/") == 1
    assert result["structuredContent"]["results"][0]["engine"] == "bing news"


@pytest.mark.parametrize("language, region", [("en", "us-en"), ("en-GB", "uk-en"), ("ja", "jp-jp"),
                                              ("de", "de-de"), ("fr-CA", "ca-fr"), ("zh-TW", "tw-tzh"), ("", "wt-wt")])
def test_language_maps_to_a_duckduckgo_region(language, region):
    assert region_for_language(language) == region


def test_language_reaches_duckduckgo_as_region(ddg, config):
    search(config, query="rust", language="ja", max_results=1)
    assert ddg.requests[0].form["kl"] == "jp-jp"
    search(config, query="rust", language="ja", region="de-de", max_results=1)
    assert ddg.requests[1].form["kl"] == "de-de"  # an explicit region wins


def test_repeated_search_is_served_from_the_cache(ddg, config):
    first = search(config, query="rust programming language", max_results=5)
    second = search(config, query="rust programming language", max_results=5)
    assert ddg.count("/html/") == 1
    assert first["structuredContent"]["metadata"]["cached"] is False
    assert second["structuredContent"]["metadata"]["cached"] is True
    assert second["content"] == first["content"]
    search(config, query="rust programming language", max_results=6)  # other parameters: a new search
    assert ddg.count("/html/") == 2


def test_cache_expires(ddg):
    config = config_for(ddg, search_cache_ttl=0.2)
    search(config, query="rust", max_results=1)
    time.sleep(0.3)
    search(config, query="rust", max_results=1)
    assert ddg.count("/html/") == 2


def test_request_slots_are_spaced():
    store = MemoryStore(1024)
    assert store.reserve("ddg", 0.2) == 0.0
    waited = store.reserve("ddg", 0.2)
    assert 0.1 < waited <= 0.2


def test_duckduckgo_requests_queue_at_the_configured_rate(ddg):
    config = config_for(ddg, ddg_min_interval=0.3, search_cache_ttl=0.0)
    started = time.monotonic()
    for n in range(3):
        search(config, query=f"rust {n}", max_results=1)
    assert time.monotonic() - started >= 0.6 and ddg.count("/html/") == 3


def test_retry_after_pauses_the_backend(ddg):
    ddg.route("POST", "/html/", Reply(status=429, headers={"Retry-After": "60"}))
    ddg.route("POST", "/lite/", Reply(status=429, headers={"Retry-After": "60"}))
    ddg.route("GET", "/search", Reply.fixture(GENERAL))
    config = config_for(ddg, searxng_urls=ddg.url, backends="duckduckgo,searxng", search_cache_ttl=0.0)
    search(config, query="first")
    html_calls = ddg.count("/html/")
    result = search(config, query="second")
    assert ddg.count("/html/") == html_calls  # paused: not asked again
    tried = result["structuredContent"]["metadata"]["backends_tried"][0]
    assert tried["status"] == "skipped" and "Retry-After" in tried["reason"]


def test_duckduckgo_block_error_has_seed_002_shape(upstream, config):
    upstream.route("POST", "/html/", Reply(status=202))
    upstream.route("POST", "/lite/", Reply(status=202))
    result = search(config, query="rust")
    assert result["structuredContent"]["error_type"] == "rate_limited_or_captcha"


def test_unknown_backend_in_configuration_is_a_start_up_error():
    from websearch_mcp.config import ConfigError, load_config

    with pytest.raises(ConfigError, match="WEBSEARCH_BACKENDS"):
        load_config({"WEBSEARCH_BACKENDS": "duckduckgo,altavista"})


def test_duckduckgo_is_the_default_backend(ddg, config):
    metadata = search(config, query="rust programming language")["structuredContent"]["metadata"]
    assert metadata["backend"] == "duckduckgo" and metadata["backends_tried"] == [
        {"backend": "duckduckgo", "status": "answered", "reason": ""}]
