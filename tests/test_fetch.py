"""Page fetching against the fake upstream: redirects, caps, content types, charsets, cache, limits."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.conftest import config_for
from tests.fake_upstream import FIXTURES, Reply
from websearch_mcp.content import to_document
from websearch_mcp.errors import ToolError
from websearch_mcp.fetch.pages import FetchError, PageFetcher

ARTICLE = "handmade/pages/article.html"


def fetcher(upstream, **overrides) -> PageFetcher:
    return PageFetcher(config_for(upstream, allow_private_urls=True, **overrides))


def page_bytes(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def test_fetches_and_extracts_an_article(upstream):
    upstream.route("GET", "/post", Reply.fixture(ARTICLE))
    document = to_document(fetcher(upstream).fetch(f"{upstream.url}/post"))
    assert document.title == "Understanding Async Rust"
    assert document.markdown.startswith("Async programming in Rust lets a single thread serve **thousands")
    assert f"[Tokio runtime]({upstream.url}/docs/tokio)" in document.markdown
    assert "cookies" not in document.markdown and "Share on" not in document.markdown
    assert "Great article" not in document.markdown and "Subscribe" not in document.markdown
    assert document.metadata["byline"] == "Jane Doe" and document.metadata["language"] == "en"


def test_follows_a_redirect_chain(upstream):
    upstream.route("GET", "/a", Reply(status=301, headers={"Location": "/b"}))
    upstream.route("GET", "/b", Reply(status=302, headers={"Location": f"{upstream.url}/c"}))
    upstream.route("GET", "/c", Reply(status=307, headers={"Location": "d"}))
    upstream.route("GET", "/d", Reply.fixture(ARTICLE))
    page = fetcher(upstream).fetch(f"{upstream.url}/a")
    assert page.final_url == f"{upstream.url}/d" and page.url == f"{upstream.url}/a"


def test_more_than_five_redirects_is_an_error(upstream):
    for hop in range(7):
        upstream.route("GET", f"/r{hop}", Reply(status=302, headers={"Location": f"/r{hop + 1}"}))
    with pytest.raises(FetchError, match="too many redirects"):
        fetcher(upstream).fetch(f"{upstream.url}/r0")
    assert upstream.count("/r6") == 0


def test_slow_page_times_out(upstream):
    upstream.route("GET", "/slow", Reply(delay=2.0, body=b"<p>late</p>"))
    with pytest.raises(FetchError, match=r"did not answer within 0\.5 s"):
        fetcher(upstream, timeout=0.5, retries=0).fetch(f"{upstream.url}/slow")


def test_oversized_page_is_refused_while_streaming(upstream):
    upstream.route("GET", "/big", Reply(fault="oversize", oversize_bytes=20 * 1024 * 1024))
    with pytest.raises(FetchError, match="cap"):
        fetcher(upstream, fetch_max_bytes=1024 * 1024).fetch(f"{upstream.url}/big")


@pytest.mark.parametrize("content_type", ["image/png", "application/octet-stream",
                                          "video/mp4"])
def test_binary_content_is_a_clear_error(upstream, content_type):
    upstream.route("GET", "/file", Reply(body=b"\x89PNG\r\n\x1a\n" + bytes(2000), content_type=content_type))
    with pytest.raises(FetchError, match=f"unsupported content type {content_type}"):
        fetcher(upstream).fetch(f"{upstream.url}/file")


@pytest.mark.parametrize("content_type, kind, expected", [
    ("text/plain; charset=utf-8", "text", "just text"),
    ("text/markdown", "markdown", "# Title"),
    ("application/json", "json", '```json\n{\n  "a": 1\n}\n```'),
    ("application/ld+json", "json", "```json"),
])
def test_other_readable_types(upstream, content_type, kind, expected):
    body = b'{"a": 1}' if "json" in content_type else (b"# Title\n\nbody" if "markdown" in content_type
                                                     else b"just text")
    upstream.route("GET", "/doc", Reply(body=body, content_type=content_type))
    page = fetcher(upstream).fetch(f"{upstream.url}/doc")
    assert page.kind == kind and expected in to_document(page).markdown


def test_rss_feed_becomes_a_list(upstream):
    feed = (b'<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>News</title>'
            b"<item><title>First</title><link>https://example.org/1</link><pubDate>Mon, 02 Mar 2026</pubDate>"
            b"<description>&lt;p&gt;One&lt;/p&gt;</description></item></channel></rss>")
    upstream.route("GET", "/feed", Reply(body=feed, content_type="application/rss+xml"))
    document = to_document(fetcher(upstream).fetch(f"{upstream.url}/feed"))
    assert document.title == "News"
    assert document.markdown == "- [First](https://example.org/1) (Mon, 02 Mar 2026): One"


def test_missing_content_type_is_read_as_html(upstream):
    upstream.route("GET", "/x", Reply(body=page_bytes(ARTICLE), content_type=""))
    assert fetcher(upstream).fetch(f"{upstream.url}/x").kind == "html"


@pytest.mark.parametrize("name, content_type, expected", [
    ("handmade/pages/ja-shift_jis-meta.html", "text/html", "東京は四季がはっきりしている都市で"),
    ("handmade/pages/ja-shift_jis-meta.html", "text/html; charset=Shift_JIS", "梅雨の時期は六月から七月"),
    ("handmade/pages/ja-euc-jp-no-meta.html", "text/html; charset=EUC-JP", "台風は夏の終わりから秋にかけて"),
    ("handmade/pages/ja-euc-jp-no-meta.html", "text/html", "旅行を計画するときは"),
    ("handmade/pages/zh-gbk-no-meta.html", "text/html", "北京是中国的首都"),
    ("handmade/pages/zh-gbk-no-meta.html", "text/html; charset=gb2312", "故宫、天坛和长城"),
    ("handmade/pages/fr-windows-1252-meta.html", "text/html", "Le café « crème » est une boisson"),
    ("handmade/pages/fr-windows-1252-meta.html", "text/html; charset=ISO-8859-1", "d’une crème brûlée"),
    ("handmade/pages/fr-utf-8-no-meta.html", "text/html; charset=ISO-8859-1", "des éclairs, des madeleines"),
])
def test_character_sets(upstream, name, content_type, expected):
    upstream.route("GET", "/page", Reply(body=page_bytes(name), content_type=content_type))
    document = to_document(fetcher(upstream).fetch(f"{upstream.url}/page"))
    assert expected in document.markdown


def test_repeated_fetch_comes_from_the_cache(upstream):
    upstream.route("GET", "/post", Reply.fixture(ARTICLE))
    pages = fetcher(upstream)
    first = pages.fetch(f"{upstream.url}/post")
    again = pages.fetch(f"{upstream.url}/post")  # a copy from the store, which other processes may share
    assert (again.text, again.final_url, again.charset) == (first.text, first.final_url, first.charset)
    assert upstream.count("/post") == 1


def test_cache_is_bounded_by_bytes(upstream):
    upstream.route("GET", "/post", Reply.fixture(ARTICLE))
    pages = fetcher(upstream, store_max_bytes=2048)
    pages.fetch(f"{upstream.url}/post")
    pages.fetch(f"{upstream.url}/post")
    assert upstream.count("/post") == 2 and len(pages.cache) == 0


def test_per_host_limit(upstream):
    upstream.route("GET", "/p", Reply(body=b"<p>slow enough to overlap</p>", delay=0.2))
    pages = fetcher(upstream, fetch_per_host=2, fetch_concurrency=8, cache_ttl=0.0)
    results = pages.fetch_many([f"{upstream.url}/p?{n}" for n in range(6)])
    assert all(not isinstance(r, ToolError) for r in results)
    assert upstream.max_in_flight == 2


def test_fetch_many_keeps_order_and_reports_failures(upstream):
    upstream.route("GET", "/ok", Reply.fixture(ARTICLE))
    upstream.route("GET", "/missing", Reply(status=404))
    done: list[int] = []
    results = fetcher(upstream).fetch_many([f"{upstream.url}/ok", f"{upstream.url}/missing"], on_done=done.append)
    assert not isinstance(results[0], ToolError)
    assert isinstance(results[1], ToolError) and "HTTP 404" in results[1].message
    assert sorted(done) == [1, 2]


def test_concurrent_fetches_share_one_fetcher(upstream):
    upstream.route("GET", "/post", Reply.fixture(ARTICLE))
    pages = fetcher(upstream)
    with ThreadPoolExecutor(4) as pool:
        titles = list(pool.map(lambda _: to_document(pages.fetch(f"{upstream.url}/post")).title, range(8)))
    assert set(titles) == {"Understanding Async Rust"}


@pytest.mark.parametrize("body, header", [
    ("\ufeff<p>Grüße aus Köln, mit einer Tasse Kaffee am Rhein.</p>".encode("utf-8"), "text/html; charset=ISO-8859-1"),
    ("\ufeff<p>Grüße aus Köln, mit einer Tasse Kaffee am Rhein.</p>".encode("utf-16-le"), "text/html"),
    ("\ufeff<p>Grüße aus Köln, mit einer Tasse Kaffee am Rhein.</p>".encode("utf-16-be"), "text/html"),
])
def test_a_byte_order_mark_decides_the_encoding(upstream, body, header):
    upstream.route("GET", "/bom", Reply(body=body, content_type=header))
    page = fetcher(upstream).fetch(f"{upstream.url}/bom")
    assert page.text.startswith("<p>Grüße aus Köln") and "\ufeff" not in page.text


def test_one_invalid_byte_in_a_page_declared_utf8_does_not_turn_it_into_mojibake(upstream):
    body = ("<html><body><p>" + "Café crème brûlée à la française, déjà vu. " * 20 + "</p>").encode() + b"\xff</body>"
    upstream.route("GET", "/cafe", Reply(body=body, content_type="text/html; charset=utf-8"))
    page = fetcher(upstream).fetch(f"{upstream.url}/cafe")
    assert page.charset == "utf-8" and "Café crème" in page.text and "CafÃ" not in page.text


def test_a_page_wrongly_declared_utf8_is_still_guessed(upstream):
    body = ("<html><body><p>" + "Café crème brûlée à la française. " * 20 + "</p></body></html>").encode("cp1252")
    upstream.route("GET", "/cafe", Reply(body=body, content_type="text/html; charset=utf-8"))
    page = fetcher(upstream).fetch(f"{upstream.url}/cafe")
    assert "Café crème" in page.text


def test_windows_1252_quotes_pasted_into_a_utf8_page_come_back_whole(upstream):
    body = ("<html><body><p>" + "Café crème brûlée à la française, déjà vu. " * 20).encode() + \
        b"\x93quoted\x94 \x96 dash</p></body></html>"
    upstream.route("GET", "/quotes", Reply(body=body, content_type="text/html; charset=utf-8"))
    page = fetcher(upstream).fetch(f"{upstream.url}/quotes")
    assert "\u201cquoted\u201d \u2013 dash" in page.text and "Café crème" in page.text and "\ufffd" not in page.text
