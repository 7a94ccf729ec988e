"""Pages built by scripts, without a browser: recognising a shell, reading what the page carries as
data (JSON-LD, __NEXT_DATA__), and a clear note, never a silent success, when nothing is readable."""

from __future__ import annotations

import pytest

from tests.conftest import config_for
from tests.fake_upstream import FIXTURES, Reply
from tests.helpers import call, exchange, registry_for
from websearch_mcp.extract import extract_page, parse_html
from websearch_mcp.extract.shell import detect_shell

SHELLS = FIXTURES / "handmade" / "shells"


def fetch(upstream, page: str, **arguments):
    upstream.route("GET", "/page", Reply.fixture(f"handmade/{page}"))
    config = config_for(upstream, allow_private_urls=True, **arguments.pop("config", {}))
    replies = exchange([call("fetch_content", {"urls": [f"{upstream.url}/page"], **arguments})],
                       registry=registry_for(config))
    return next(r for r in replies if r.get("id") == 1)["result"]


@pytest.mark.parametrize("name, evidence", [
    ("react-shell.html", "empty mount point #root"), ("next-shell.html", "empty mount point #__next"),
    ("jsonld-shell.html", "empty mount point #app")])
def test_shells_are_recognised(name, evidence):
    html = (SHELLS / name).read_text()
    verdict = detect_shell(parse_html(html), html)
    assert verdict.is_shell and evidence in verdict.describe()


@pytest.mark.parametrize("name", ["pages/article.html", "pages/long-guide.html", "shells/teaser-with-jsonld.html"])
def test_ordinary_pages_are_not_shells(name):
    html = (FIXTURES / "handmade" / name).read_text()
    assert not detect_shell(parse_html(html), html).is_shell


def test_next_data_gives_the_content_without_a_browser(upstream):
    result = fetch(upstream, "shells/next-shell.html", config={"browser": "/nonexistent/chromium"})
    page = result["structuredContent"]["pages"][0]
    assert "incremental indexing" in page["content"] and "--dry-run flag" in page["content"]
    assert page["metadata"]["rendered"] is False
    assert page["metadata"]["render_reason"] == "read from the page's own data (__NEXT_DATA__), no browser needed"


def test_json_ld_gives_the_content_of_a_shell(upstream):
    result = fetch(upstream, "shells/jsonld-shell.html", config={"browser": "/nonexistent/chromium"})
    page = result["structuredContent"]["pages"][0]
    assert "U-shaped trough" in page["content"] and "plucking" in page["content"]
    assert page["metadata"]["content_source"] == "JSON-LD NewsArticle"


def test_a_shell_without_data_or_browser_gets_a_note_naming_the_extra(upstream):
    result = fetch(upstream, "shells/react-shell.html", config={"browser": "/nonexistent/chromium"})
    assert result["isError"] is True
    reason = result["structuredContent"]["failed"][0]["error"]
    assert "built by JavaScript (" in reason and "empty mount point #root" in reason
    assert "the browser extra renders such pages" in reason and "WEBSEARCH_BROWSER" in reason
    assert "The page has no readable text" not in result["content"][0]["text"]


def test_render_never_says_so(upstream):
    result = fetch(upstream, "shells/react-shell.html", render="never")
    assert "render is never" in result["structuredContent"]["failed"][0]["error"]


def test_a_json_ld_article_body_completes_a_page_cut_short():
    html = (SHELLS / "teaser-with-jsonld.html").read_text()
    extracted = extract_page(html, "https://example.org/bridges")
    assert "helical strakes" in extracted.markdown and "Subscribe to keep reading" not in extracted.markdown
    assert extracted.content_source.startswith("JSON-LD articleBody")


def test_a_json_ld_body_that_is_another_text_does_not_replace_the_article():
    html = (FIXTURES / "handmade" / "pages" / "article.html").read_text()
    other = ('<script type="application/ld+json">{"@type": "Article", "articleBody": "'
             + "An unrelated text about gardening and tomatoes. " * 60 + '"}</script></head>')
    extracted = extract_page(html.replace("</head>", other, 1))
    assert "tomatoes" not in extracted.markdown and extracted.content_source == ""


def test_render_always_without_a_browser_reads_the_page_and_says_why_it_was_not_rendered(upstream):
    result = fetch(upstream, "pages/article.html", render="always", config={"browser": "/nonexistent/chromium"})
    page = result["structuredContent"]["pages"][0]
    assert "Understanding Async Rust" in result["content"][0]["text"] and page["metadata"]["rendered"] is False
    assert page["metadata"]["render_reason"].startswith("render=always, but no browser: the browser extra")


def test_an_unknown_render_mode_is_a_configuration_error(upstream):
    from websearch_mcp.config import ConfigError, validate

    with pytest.raises(ConfigError, match="WEBSEARCH_RENDER='sometimes': must be one of auto, always, never"):
        validate(config_for(upstream, render="sometimes"))
