"""The Tavily tools against a fake Tavily API: exact Japanese outputs, errors, retries, logs."""

from __future__ import annotations

import json

import pytest

from tests.conftest import config_for
from tests.fake_upstream import FIXTURES, Reply
from tests.helpers import call, exchange, registry_for, request

SEARCH = "tavily/search-answer-images-what-is-semantic-kernel.json"


@pytest.fixture
def tavily(upstream):
    return config_for(upstream, tavily_api_key="tvly-test-key", tavily_url=upstream.url)


def use(config, name, arguments):
    [reply] = exchange([call(name, arguments)], registry=registry_for(config))
    return reply["result"]


def recorded(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def test_tools_are_listed_only_with_a_key(upstream, tavily):
    def names(config):
        [reply] = exchange([request("tools/list")], registry=registry_for(config))
        return [t["name"] for t in reply["result"]["tools"]]

    assert "tavily_search" not in names(config_for(upstream))
    assert names(tavily)[-3:] == ["tavily_search", "tavily_extract", "tavily_context"]


def test_search_output_is_exact(upstream, tavily):
    upstream.route("POST", "/search", Reply.fixture(SEARCH))
    result = use(tavily, "tavily_search", {"query": "What is the Semantic Kernel?", "max_results": 5})
    results = recorded(SEARCH)["results"]
    expected = "## 検索結果: What is the Semantic Kernel?\n\n" + "\n\n".join(
        f"### {n}. {r['title']}\nURL: {r['url']}\nスコア: {r['score']:.2f}\n{r['content']}"
        for n, r in enumerate(results, 1))
    assert result["content"][0]["text"] == expected
    [seen] = upstream.requests
    assert seen.headers["authorization"] == "Bearer tvly-test-key"


def test_search_sends_the_parameters(upstream, tavily):
    upstream.route("POST", "/search", Reply.fixture(SEARCH))
    use(tavily, "tavily_search", {"query": "q", "search_depth": "advanced", "max_results": 3})
    assert upstream.requests[0].headers["content-type"] == "application/json"
    sent = json.loads(upstream.requests[0].body)
    assert (sent["query"], sent["search_depth"], sent["max_results"]) == ("q", "advanced", 3)


def test_search_without_results(upstream, tavily):
    upstream.route("POST", "/search", Reply.json({"query": "none", "results": [], "response_time": 0.1}))
    result = use(tavily, "tavily_search", {"query": "none"})
    assert result["content"][0]["text"] == "## 検索結果: none\n\n検索結果が見つかりませんでした。"


@pytest.mark.parametrize("status, error_type", [(401, "AUTH_ERROR"), (432, "USAGE_LIMIT_ERROR"),
                                                (433, "USAGE_LIMIT_ERROR")])
def test_api_errors_have_the_seed_format(upstream, tavily, status, error_type):
    upstream.route("POST", "/search", Reply.fixture(f"handmade/tavily/error-{status}.json", status=status))
    result = use(tavily, "tavily_search", {"query": "q"})
    message = recorded(f"handmade/tavily/error-{status}.json")["detail"]["error"]
    assert result["isError"] is True
    assert result["content"][0]["text"] == f"Tavily API エラー: {message}\nエラータイプ: {error_type}"


def test_rate_limit_is_retried_then_reported(upstream, tavily):
    upstream.route("POST", "/search", Reply.fixture("handmade/tavily/error-429.json", status=429))
    result = use(tavily, "tavily_search", {"query": "q"})
    assert result["content"][0]["text"].endswith("\nエラータイプ: RATE_LIMIT_ERROR")
    assert upstream.count("/search") == 3  # the first try and two retries


def test_rate_limit_then_success(upstream, tavily):
    upstream.route("POST", "/search", Reply.fixture("handmade/tavily/error-429.json", status=429,
                                                     headers={"Retry-After": "0"}), Reply.fixture(SEARCH))
    result = use(tavily, "tavily_search", {"query": "What is the Semantic Kernel?"})
    assert "isError" not in result and upstream.count("/search") == 2


@pytest.mark.parametrize("query, message", [("", "query は空にできません"), ("   ", "query は空にできません"),
                                            ("x" * 1001, "query は最大1000文字です（1001文字）")])
def test_query_validation(upstream, tavily, query, message):
    result = use(tavily, "tavily_search", {"query": query})
    assert result["content"][0]["text"] == f"Tavily API エラー: {message}\nエラータイプ: VALIDATION_ERROR"
    assert upstream.count("/search") == 0


def test_extract_output_with_failures(upstream, tavily):
    upstream.route("POST", "/extract", Reply.fixture("handmade/tavily/extract-two-urls-one-failed.json"))
    urls = ["https://example.org/article", "https://example.org/missing", "example.org/no-scheme",
            "https://example.org/article", "https:///no-host"]
    result = use(tavily, "tavily_extract", {"urls": urls})
    assert result["content"][0]["text"] == (
        "## コンテンツ抽出結果\n\n"
        "### URL: https://example.org/article\nExample article.\n\nIt has two paragraphs of extracted text.\n\n"
        "---\n\n"
        "## 失敗したURL\n"
        "- example.org/no-scheme: URLは http:// または https:// で始まる必要があります\n"
        "- https:///no-host: URLにホスト名がありません\n"
        "- https://example.org/missing: Failed to fetch url")
    assert json.loads(upstream.requests[0].body) == {"urls": ["https://example.org/article",
                                                              "https://example.org/missing"]}


def test_extract_all_succeeded(upstream, tavily):
    upstream.route("POST", "/extract", Reply.json({"results": [{"url": "https://a.example/", "raw_content": "A"}],
                                                   "failed_results": [], "response_time": 0.1}))
    result = use(tavily, "tavily_extract", {"urls": ["https://a.example/"]})
    assert result["content"][0]["text"] == "## コンテンツ抽出結果\n\n### URL: https://a.example/\nA"


def test_extract_all_invalid_does_not_call_the_api(upstream, tavily):
    result = use(tavily, "tavily_extract", {"urls": ["ftp://x.example/"]})
    assert result["content"][0]["text"] == (
        "## コンテンツ抽出結果\n\nすべてのURLからコンテンツを抽出できませんでした。\n\n"
        "## 失敗したURL\n- ftp://x.example/: URLは http:// または https:// で始まる必要があります")
    assert upstream.count("/extract") == 0


TOO_MANY = [f"https://e.example/{n}" for n in range(21)]


@pytest.mark.parametrize("urls, message", [([], "urls には1件以上のURLが必要です"),
                                           (TOO_MANY, "urls は最大20件です（21件）")])
def test_extract_validation(upstream, tavily, urls, message):
    result = use(tavily, "tavily_extract", {"urls": urls})
    assert result["content"][0]["text"] == f"Tavily API エラー: {message}\nエラータイプ: VALIDATION_ERROR"


def test_context_packs_like_tavilys_client(upstream, tavily):
    upstream.route("POST", "/search", Reply.fixture(SEARCH))
    full = use(tavily, "tavily_context", {"query": "What is the Semantic Kernel?"})
    text = full["content"][0]["text"]
    assert text.startswith("## RAG用検索コンテキスト: What is the Semantic Kernel?\n\n")
    items = json.loads(text.split("\n\n", 1)[1])
    assert [i["url"] for i in items] == [r["url"] for r in recorded(SEARCH)["results"]]
    assert set(items[0]) == {"url", "content"}
    small = use(tavily, "tavily_context", {"query": "What is the Semantic Kernel?", "max_tokens": 500})
    kept = json.loads(small["content"][0]["text"].split("\n\n", 1)[1])
    assert 0 < len(kept) < len(items) and kept == items[:len(kept)]


def test_log_lines_with_elapsed_time(upstream, tavily, capfd):
    upstream.route("POST", "/search", Reply.fixture(SEARCH))
    use(tavily, "tavily_search", {"query": "What is the Semantic Kernel?"})
    upstream.route("POST", "/search", Reply.fixture("handmade/tavily/error-401.json", status=401))
    use(tavily, "tavily_search", {"query": "again"})
    err = capfd.readouterr().err
    assert 'tool tavily_search start {"query":"What is the Semantic Kernel?"}' in err
    assert "tool tavily_search success " in err and "tool tavily_search failed " in err
    assert err.count("ms\n") >= 2
