"""One minimal hand-made page for each class of extraction failure (fixtures/handmade/extraction,
expectations.json), and 720 pages of those classes in 38 languages and the markup of many kinds of
site (fixtures/handmade/extraction-languages): the article's words come out, the furniture's do not."""

from __future__ import annotations

import json

import pytest

from tests.fake_upstream import FIXTURES
from websearch_mcp.extract import extract_page

FOLDER = FIXTURES / "handmade" / "extraction"
EXPECTED = json.loads((FOLDER / "expectations.json").read_text())
LANGUAGES = FIXTURES / "handmade" / "extraction-languages"
IN_LANGUAGES = json.loads((LANGUAGES / "expectations.json").read_text())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_class_of_page_gives_its_article(name):
    expected = EXPECTED[name]
    markdown = extract_page((FOLDER / name).read_text(), "https://blog.example.com/2026/11/post").markdown
    assert [w for w in expected["wanted"] if w not in markdown] == [], markdown
    assert [w for w in expected["unwanted"] if w in markdown] == [], markdown


def test_a_link_list_to_the_same_site_is_still_navigation():
    html = (FOLDER / "link-post.html").read_text().replace("https://example.", "https://blog.example.com/")
    markdown = extract_page(html, "https://blog.example.com/2026/11/post").markdown
    assert "Async Rust in depth" not in markdown  # the rule keeps links to other sites only


@pytest.mark.parametrize("name", sorted(n for n, e in IN_LANGUAGES.items() if "known_failure" not in e))
def test_each_class_in_many_languages_gives_its_article(name):
    """The pages listed with a known failure are measured by bench/extraction.py, not asserted here."""
    expected = IN_LANGUAGES[name]
    markdown = extract_page((LANGUAGES / name).read_text(), "https://example.org/some/article").markdown
    text = " ".join(markdown.replace("**", "").split())
    assert [w for w in expected["wanted"] if w not in text] == [], markdown
    assert [w for w in expected["unwanted"] if w in text] == [], markdown
