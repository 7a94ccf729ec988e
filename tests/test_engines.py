"""The keyless engines: each parser on every recorded page, block pages, requests, failover past a
blocked engine (proven by the fake upstream's request log), cool-downs and rank fusion."""

from __future__ import annotations

import pytest

from tests.conftest import config_for
from tests.fake_upstream import FIXTURES, FakeUpstream, Reply
from tests.helpers import call, exchange, registry_for
from websearch_mcp.config import Config
from websearch_mcp.engines.base import SearchHit, SearchQuery
from websearch_mcp.engines.fusion import fuse, normalise_url
from websearch_mcp.errors import BlockedError, UpstreamError
from websearch_mcp.services.search import SearchService
from websearch_mcp.store.memory import MemoryStore

DDG_BLOCKED = "ddg-blocked/anomaly-captcha-sv-html-rust-programming-language-2026-04.html"
BING_PAGE = "engines/bing/bing_javascript-tutorial_http_2026-04-04.html"
MOJEEK_PAGE = "engines/mojeek/mojeek_javascript-tutorial_2026-04-04.html"
ALL = ("duckduckgo", "bing", "brave", "mojeek", "yahoo", "wikipedia")

# (engine, recorded page, organic results it holds)
RESULT_PAGES = [
    ("bing", "bing_javascript-tutorial_http_2026-04-04.html", 10),
    ("bing", "bing_does-caffeine-affect-sleep_dom-serialized_2026-07-25.html", 10),
    ("bing", "bing_hello_http_2021-05-10.body.html", 9),
    ("bing", "bing_preaching-the-choir_http_2020-07-16.body.html", 10),
    ("brave", "brave_javascript-tutorial_2026-04-04.html", 20),
    ("brave", "brave_tokio-rust-crate-docs_http_TRIMMED_2026-09-28.reconstructed.html", 4),
    ("mojeek", "mojeek_javascript-tutorial_2026-04-04.html", 10),
    ("yahoo", "yahoo_javascript-tutorial_2026-04-04.html", 7),
    ("yahoo", "yahoo_hello_http_2021-05-10.body.html", 9),
    ("yahoo", "yahoo_preaching-the-choir_http_2020-07-16.body.html", 10),
    ("yahoo", "yahoo_this-is-example-bob_http_2021-05-10.body.html", 8),
    ("yahoo", "yahoo_FRAGMENT_rust_http_2026-08-08.html", 3),
    ("yahoo", "yahoo_fragment_single-algo_2026-07-04.html", 1),
    ("yahoo", "yahoo_tokio-rust-crate-docs_http_TRIMMED_2026-09-28.reconstructed.html", 4),
    ("wikipedia", "wikipedia_list-search_fv1_caffeine-sleep_2026-07-25.json", 1),
    ("wikipedia", "android-app_list-search-empty_2017-06-09.json", 0),
]
BLOCK_PAGES = [
    ("bing", "bing_javascript-tutorial_browser-dom_2026-04-04.html"),
    ("brave", "brave_BLOCK-pow-captcha-challengeSet_http_2026-10.reconstructed.html"),
    ("mojeek", "mojeek_BLOCK-captcha-altcha_latest-ai-news_2026-07-31.html"),
    ("mojeek", "mojeek_captcha-altcha_agencia-marketing-lima_2026.html"),
    ("yahoo", "yahoo_BLOCK-zrp-temporary-problems_TRIMMED_2026-10-05.reconstructed.html"),
]


def engine(name: str, config: Config | None = None):
    return SearchService(config or Config(store="memory"), None, MemoryStore(1 << 20)).engine(name)


def page(name: str, file: str) -> bytes:
    return (FIXTURES / "engines" / name / file).read_bytes()


# -- parsers on recorded pages -------------------------------------------------------------------

@pytest.mark.parametrize("name, file, count", RESULT_PAGES)
def test_parser_reads_every_recorded_page(name, file, count):
    body = page(name, file)
    assert engine(name).block_reason(200, body) is None
    hits = engine(name).parse(body).hits
    assert len(hits) == count
    for hit in hits:
        assert hit.url.startswith(("http://", "https://")) and hit.title
        assert "bing.com/ck/a" not in hit.url and "r.search.yahoo.com" not in hit.url  # unwrapped
        assert "&amp;" not in hit.title + hit.snippet and "<" not in hit.title  # entities decoded, no markup
    urls = [h.url for h in hits]
    assert len(urls) == len(set(urls))


def test_bing_redirects_are_unwrapped_to_their_targets():
    hits = engine("bing").parse(page("bing", "bing_does-caffeine-affect-sleep_dom-serialized_2026-07-25.html")).hits
    assert hits[0].url == "https://www.sleepfoundation.org/nutrition/caffeine-and-sleep"
    assert hits[0].title == "Caffeine and Sleep Problems" and hits[0].published_date == "Jul 16, 2025"
    assert hits[0].snippet.startswith("Drinking caffeine too close to bedtime")


def test_bing_ads_are_dropped():
    body = page("bing", "bing_javascript-tutorial_http_2026-04-04.html").replace(
        b'<li class="b_algo"', b'<li class="b_algo b_ad"', 1)  # the first result, marked as Bing marks an ad
    hits = engine("bing").parse(body).hits
    assert len(hits) == 9 and "w3schools.com/Js/" not in hits[0].url


def test_yahoo_redirects_ads_and_titles():
    hits = engine("yahoo").parse(page("yahoo", "yahoo_preaching-the-choir_http_2020-07-16.body.html")).hits
    assert hits[0].url == "https://idioms.thefreedictionary.com/preach+to+the+choir"
    assert all("yahoo.com" not in h.url for h in hits)  # the page's ad (searchCenterBottomAds) is not a result
    single = engine("yahoo").parse(page("yahoo", "yahoo_fragment_single-algo_2026-07-04.html")).hits[0]
    assert single.url == "https://github.com/react/react"
    assert single.title.startswith("GitHub - react/react") and "Github" not in single.title[:7]  # no site name


def test_mojeek_and_brave_titles_and_snippets():
    mojeek = engine("mojeek").parse(page("mojeek", "mojeek_javascript-tutorial_2026-04-04.html")).hits[0]
    assert (mojeek.title, mojeek.url) == ("The Modern JavaScript Tutorial", "https://javascript.info/")
    brave = engine("brave").parse(page("brave", "brave_javascript-tutorial_2026-04-04.html")).hits
    assert brave[0].title == "JavaScript Tutorial" and brave[0].snippet.startswith("JavaScript is easy to learn")
    assert sum(1 for h in brave if h.snippet) >= 19


def test_a_brave_video_result_keeps_its_description():
    video = engine("brave").parse(page("brave", "brave_javascript-tutorial_2026-04-04.html")).hits[4]
    assert video.url == "https://www.geeksforgeeks.org/javascript/javascript-tutorial/"
    assert video.snippet.startswith("HTML adds structure to a web page, CSS styles it, and JavaScript brings it")
    assert "Published" not in video.snippet and all(h.snippet for h in
                                                    engine("brave").parse(page("brave", "brave_javascript-tutorial"
                                                                               "_2026-04-04.html")).hits)


def test_wikipedia_links_articles_on_the_asked_wiki():
    wiki = engine("wikipedia")
    body = page("wikipedia", "wikipedia_list-search_fv1_caffeine-sleep_2026-07-25.json")
    german = wiki.parse_for(SearchQuery("koffein", language="de"), body).hits[0]
    assert german.url == "https://de.wikipedia.org/wiki/Caffeine-induced_sleep_disorder"
    assert german.snippet.startswith("Caffeine-induced sleep disorder was") and "searchmatch" not in german.snippet
    assert german.published_date == "2025-10-01"


@pytest.mark.parametrize("name, file", BLOCK_PAGES)
def test_block_pages_are_blocks_never_empty_results(name, file):
    body = page(name, file)
    assert engine(name).block_reason(200, body) is not None
    with pytest.raises(BlockedError):
        engine(name).parse(body)


@pytest.mark.parametrize("name", ["bing", "brave", "mojeek", "yahoo"])
def test_a_200_page_without_results_is_a_block(name):
    with pytest.raises(BlockedError, match="no result list"):
        engine(name).parse(b"<html><body><p>Please enable JavaScript</p></body></html>")


# Hand-made minimal pages: no recorded "nothing matched" page of these engines was found. Each holds
# the notice the engine prints (Bing's `li.b_no`, Mojeek's and Yahoo's sentences) and no result list.
NO_RESULTS_PAGES = [
    ("bing", b"<html><body><ol id='b_results'><li class='b_no'><h1>There are no results for "
             b"<strong>qxzv</strong></h1></li></ol></body></html>"),
    ("mojeek", b"<html><body><div class='results'><p>No pages found matching: qxzv</p></div></body></html>"),
    ("yahoo", b"<html><body><div id='web'><p>We did not find results for: qxzv.</p></div></body></html>"),
]


@pytest.mark.parametrize("name, body", NO_RESULTS_PAGES)
def test_a_nothing_matched_notice_is_an_empty_result_not_a_block(name, body):
    answer = engine(name).parse(body)
    assert answer.hits == [] and not answer.more


def test_wikipedia_reply_without_results_is_an_error():
    with pytest.raises(UpstreamError):
        engine("wikipedia").parse(page("wikipedia", "android-app_morelike-empty-warning_2017-05-24.json"))


# -- requests ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, query_key", [("bing", "q"), ("brave", "q"), ("mojeek", "q"), ("yahoo", "p"),
                                             ("wikipedia", "srsearch")])
def test_options_map_to_each_engine(name, query_key):
    request = engine(name).build_request(SearchQuery("rust async", page=2, time_range="week", safe_search=2,
                                                     language="de-AT"), offset=10)
    assert request.params[query_key] == "rust async"
    text = repr(request.params) + repr(request.headers)
    expected = {"bing": ["'first': '11'", "'adlt': 'strict'", "ez2", "'mkt': 'de-AT'"],
                "brave": ["'offset': '0'", "'tf': 'pw'", "safesearch=strict", "country=at"],
                "mojeek": ["'s': '11'", "'safe': '1'", "'lb': 'de'", "'arc': 'at'", "'since'"],
                "yahoo": ["'b': '11'", "'btf': 'w'", "vm=r", "vl=lang_de"],
                "wikipedia": ["'sroffset': '10'"]}[name]
    for fragment in expected:
        assert fragment in text
    if name == "wikipedia":
        assert request.url.startswith("https://de.wikipedia.org/")


def search(config, **arguments):
    arguments.setdefault("query", "javascript tutorial")
    [reply] = exchange([call("web_search", arguments)], registry=registry_for(config))
    return reply["result"]


def route_engines(upstream: FakeUpstream) -> None:
    """Every engine answering with one of its recorded pages; DuckDuckGo blocked on both endpoints."""
    upstream.route("POST", "/html/", Reply.fixture(DDG_BLOCKED, status=200))
    upstream.route("POST", "/lite/", Reply.fixture(DDG_BLOCKED, status=200))
    upstream.route("GET", "/bing/search", Reply.fixture(BING_PAGE))
    upstream.route("GET", "/mojeek/search", Reply.fixture(MOJEEK_PAGE))
    upstream.route("GET", "/brave/search", Reply.fixture("engines/brave/brave_javascript-tutorial_2026-04-04.html"))
    upstream.route("GET", "/yahoo/search", Reply.fixture("engines/yahoo/yahoo_javascript-tutorial_2026-04-04.html"))
    upstream.route("GET", "/wikipedia/search", Reply.fixture(
        "engines/wikipedia/wikipedia_list-search_fv1_caffeine-sleep_2026-07-25.json"))


@pytest.mark.parametrize("name, path, key", [("bing", "/bing/search", "q"), ("brave", "/brave/search", "q"),
                                             ("mojeek", "/mojeek/search", "q"), ("yahoo", "/yahoo/search", "p"),
                                             ("wikipedia", "/wikipedia/search", "srsearch")])
def test_every_engine_request_carries_the_query(upstream, name, path, key):
    route_engines(upstream)
    result = search(config_for(upstream, backends=",".join(ALL)), backend=name, query="javascript tutorial")
    assert not result.get("isError"), result["content"][0]["text"]
    seen = [r for r in upstream.requests if r.path == path]
    assert seen and seen[0].query[key] == "javascript tutorial"
    assert "Mozilla/5.0" in seen[0].headers["user-agent"] and seen[0].headers.get("accept-language")


def test_duckduckgo_blocked_next_engine_answers(upstream):
    route_engines(upstream)
    config = config_for(upstream, backends="")  # the default order
    result = search(config)
    assert not result.get("isError")
    text = result["content"][0]["text"]
    assert text.endswith("_Source: Bing (10 results)_")
    metadata = result["structuredContent"]["metadata"]
    assert metadata["backend"] == "bing"
    assert [t["backend"] for t in metadata["backends_tried"]] == ["duckduckgo", "bing"]
    assert metadata["backends_tried"][0]["status"] == "failed" and "CAPTCHA" in metadata["backends_tried"][0]["reason"]
    order = [r.path for r in upstream.requests]
    assert order == ["/html/", "/lite/", "/bing/search"]  # DuckDuckGo twice (both endpoints), then Bing


def test_a_blocked_engine_is_skipped_until_its_cool_down_ends(upstream):
    route_engines(upstream)
    config = config_for(upstream, backends="", search_cache_ttl=0.0)
    search(config, query="first")
    asked = upstream.count("/html/")
    second = search(config, query="second")
    assert upstream.count("/html/") == asked  # not asked again while it cools down
    tried = second["structuredContent"]["metadata"]["backends_tried"][0]
    assert tried["backend"] == "duckduckgo" and tried["status"] == "skipped" and "cooling down" in tried["reason"]


def test_retry_after_sets_the_cool_down(upstream):
    route_engines(upstream)
    upstream.route("GET", "/bing/search", Reply(status=429, headers={"Retry-After": "120"}))
    config = config_for(upstream, backends="bing,mojeek", search_cache_ttl=0.0)
    assert search(config)["structuredContent"]["metadata"]["backend"] == "mojeek"
    store = registry_services(config).store
    until, strikes, reason = store.cooldown("bing")
    import time

    assert 100 < until - time.time() <= 120 and strikes == 1 and "Retry-After" in reason


def registry_services(config):
    from tests.helpers import _SERVICES

    return _SERVICES[config]


def test_every_engine_failing_is_one_clear_error(upstream):
    config = config_for(upstream, backends="bing,mojeek")
    upstream.route("GET", "/bing/search", Reply(status=503))
    upstream.route("GET", "/mojeek/search", Reply.fixture("engines/mojeek/mojeek_BLOCK-captcha-altcha_latest-ai-news_"
                                                          "2026-07-31.html"))
    result = search(config)
    assert result["isError"]
    text = result["content"][0]["text"]
    assert text.startswith("Every search engine failed:\n- bing: ") and "bing" in text and "mojeek" in text
    assert result["structuredContent"]["error_type"] == "rate_limited_or_captcha"
    assert result["structuredContent"]["attempted_instances"] == ["bing", "mojeek"]


# -- fusion ---------------------------------------------------------------------------------------

def test_rank_fusion_order_and_dedupe():
    a = [SearchHit("A", "https://a.example/x/"), SearchHit("B", "https://b.example/"),
         SearchHit("C", "https://c.example/?utm_source=x")]
    b = [SearchHit("B again", "HTTPS://B.example", snippet="longer snippet"), SearchHit("C", "https://c.example/"),
         SearchHit("D", "https://d.example/")]
    fused = fuse([("bing", a), ("mojeek", b)])
    assert [h.url for h in fused] == ["https://b.example/", "https://c.example/?utm_source=x",
                                      "https://a.example/x/", "https://d.example/"]
    assert fused[0].engines == ["bing", "mojeek"] and fused[0].snippet == "longer snippet"
    assert fused[0].score == pytest.approx(1 / 62 + 1 / 61, abs=1e-6)
    assert fused[2].engines == ["bing"]


@pytest.mark.parametrize("url, same", [
    ("https://Example.com/a/?utm_medium=x&id=3#top", "https://example.com/a?id=3"),
    ("http://example.com:80/a?fbclid=1&gclid=2", "http://example.com/a"),
])
def test_url_normalisation(url, same):
    assert normalise_url(url) == normalise_url(same)


def test_fusion_merges_two_engines_through_the_tool(upstream):
    route_engines(upstream)
    config = config_for(upstream, backends="bing,mojeek,yahoo", fusion=2)
    result = search(config)
    text = result["content"][0]["text"]
    assert text.endswith("_Source: Bing + Mojeek (10 results)_")
    results = result["structuredContent"]["results"]
    shared = [r for r in results if r.get("engines") == ["bing", "mojeek"]]
    assert shared and all("score" in r for r in results)
    assert upstream.count("/yahoo/search") == 0  # only the first two were asked
    assert result["structuredContent"]["metadata"]["backend"] == "bing+mojeek"
