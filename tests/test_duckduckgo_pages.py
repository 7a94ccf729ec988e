"""The DuckDuckGo page parsers on every recorded page (and the hand-made paging pages)."""

from __future__ import annotations

import pytest

from tests.fake_upstream import FIXTURES
from websearch_mcp.engines.duckduckgo_pages import (
    block_reason,
    is_ad_url,
    parse_html_page,
    parse_lite_page,
    unwrap_url,
)


def read(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


@pytest.mark.parametrize("name, count, first_title, first_url", [
    ("ddg-html/rust-programming-language-2026-04.html", 10, "Rust Programming Language", "https://rust-lang.org/"),
    ("ddg-html/rust-programming-2026-04-14.body.html", 10, "Rust Programming Language", "https://rust-lang.org/"),
    ("ddg-html/best-mechanical-keyboard-2026-with-ad.html", 10,
     "The 7 Best Mechanical Keyboards of 2026 - RTINGS.com", "https://www.rtings.com/keyboard/reviews/best/mechanical"),
    ("ddg-html/does-caffeine-affect-sleep-2026-07.dom-serialized.html", 9, "Caffeine and Sleep Problems",
     "https://www.sleepfoundation.org/nutrition/caffeine-and-sleep"),
    ("ddg-html/fragment-links-div-with-ad-truncated-2026-08.html", 4, "Rust Programming Language",
     "https://rust-lang.org/"),
    ("ddg-html/site-grandorder-wiki-chulainn-alter-2020-10.html", 30,
     "Cú Chulainn (Alter) (5-Star Berserker locked... - Grand Order Wiki",
     "https://grandorder.wiki/C%C3%BA_Chulainn_(Alter)"),
    ("handmade/ddg-html-page2-rust-programming-language.html", 10, "Rust result 11 & more",
     "https://example.org/rust/page-two/11?a=1&b=2"),
])
def test_html_pages(name, count, first_title, first_url):
    page = parse_html_page(read(name))
    assert len(page.results) == count
    assert (page.results[0].title, page.results[0].url) == (first_title, first_url)
    assert page.recognised and not page.no_results
    for result in page.results:
        assert result.title and result.url.startswith("http")
        assert not is_ad_url(result.url) and "duckduckgo.com/l/" not in result.url
        assert result.title == " ".join(result.title.split()) and "&amp;" not in result.snippet
    assert len({r.url for r in page.results}) == count


def test_ads_are_dropped():
    page = parse_html_page(read("ddg-html/best-mechanical-keyboard-2026-with-ad.html"))
    assert not any("y.js" in r.url or "bing.com/aclick" in r.url for r in page.results)


def test_entities_and_whitespace_are_cleaned():
    page = parse_html_page(read("handmade/ddg-html-page2-rust-programming-language.html"))
    assert page.results[0].snippet == 'Snippet of result 11: "quoted" text.'


def test_dates_are_kept_when_shown():
    page = parse_html_page(read("ddg-html/best-mechanical-keyboard-2026-with-ad.html"))
    assert page.results[0].date == "2026-03-02"


def test_next_form_echoes_hidden_fields():
    page = parse_html_page(read("ddg-html/rust-programming-language-2026-04.html"))
    assert page.next_form == {"q": "rust programming language", "s": "10", "nextParams": "", "v": "l",
                              "o": "json", "dc": "11", "api": "d.js",
                              "vqd": "4-156284419797958742022477238782088922431", "kl": "wt-wt"}


def test_next_form_is_the_next_button_not_previous():
    page = parse_html_page(read("handmade/ddg-html-page2-rust-programming-language.html"))
    assert page.next_form is not None and page.next_form["s"] == "25"


@pytest.mark.parametrize("name", ["ddg-html/no-results-eof-google-fallback-2025-07.extracted.html",
                                  "handmade/ddg-html-page3-no-more-results.html"])
def test_no_results_pages(name):
    page = parse_html_page(read(name))
    assert page.results == [] and page.no_results and page.recognised and page.next_form is None


def test_lite_page():
    page = parse_lite_page(read("ddg-lite/rust-programming-2026-04-14.body.html"))
    assert len(page.results) == 10
    first = page.results[0]
    assert (first.title, first.url) == ("Rust Programming Language", "https://rust-lang.org/")
    assert first.snippet.startswith("Rust is a fast, reliable, and productive programming language")
    assert all(r.snippet for r in page.results)
    assert page.next_form is not None and page.next_form["s"] and page.next_form["vqd"]


@pytest.mark.parametrize("name, reason", [
    ("ddg-blocked/anomaly-captcha-sv-html-rust-programming-language-2026-04.html", "CAPTCHA"),
    ("ddg-blocked/homepage-instead-of-results-html-undated.transcribed.html", "home page"),
])
def test_block_pages_are_recognised(name, reason):
    assert reason in (block_reason(200, read(name)) or "")
    assert not parse_html_page(read(name)).recognised


@pytest.mark.parametrize("status", [202, 403, 429])
def test_block_statuses(status):
    assert block_reason(status, b"") == f"HTTP {status}"


def test_results_page_is_not_a_block():
    assert block_reason(200, read("ddg-html/rust-programming-language-2026-04.html")) is None


@pytest.mark.parametrize("body", [b"", b"\x00\xff\xfe garbage \x89PNG", b"<html><body>hello</body></html>",
                                  b"<div id='links'>", "<p>日本語</p>".encode("shift_jis")])
def test_garbage_never_raises_and_is_not_mistaken_for_no_results(body):
    for parse in (parse_html_page, parse_lite_page):
        page = parse(body)
        assert page.results == [] and not page.recognised


@pytest.mark.parametrize("href, url", [
    ("//duckduckgo.com/l/?uddg=https%3A%2F%2Frust%2Dlang.org%2F&rut=abc", "https://rust-lang.org/"),
    ("https://duckduckgo.com/l/?uddg=https%3A%2F%2Fa.b%2Fc%3Fd%3D1%26e%3D2", "https://a.b/c?d=1&e=2"),
    ("/l/?uddg=https%3A%2F%2Fx.y%2F", "https://x.y/"),
    ("https://example.com/plain", "https://example.com/plain"),
    (" https://example.com/ws ", "https://example.com/ws"),
])
def test_unwrap_url(href, url):
    assert unwrap_url(href) == url
