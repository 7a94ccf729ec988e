"""Main-content extraction on hand-made minimal pages, one for each way real pages went wrong.

Each page (fixtures/handmade/extract/, described in fixtures/PROVENANCE.md) stands for a class of
failures seen on public benchmark pages or named in issue 13; each test names the article text that
must come out and the furniture that must not.
"""

from __future__ import annotations

import pytest

from tests.fake_upstream import FIXTURES
from websearch_mcp.extract import html_to_markdown

PAGES = FIXTURES / "handmade" / "extract"


def markdown_of(name: str) -> str:
    return html_to_markdown((PAGES / name).read_text(encoding="utf-8"), "https://example.org/page")


def assert_article(markdown: str, kept: list[str], dropped: list[str]) -> None:
    missing = [text for text in kept if text not in markdown]
    leaked = [text for text in dropped if text in markdown]
    assert not missing and not leaked, f"missing {missing}, leaked {leaked} in:\n{markdown}"


def test_paragraphs_directly_under_body_are_the_article():
    assert_article(markdown_of("text-under-body.html"),
                   ["The 1911 census was the first", "clerks in London", "falling birth rate",
                    "Some suffragettes refused"],
                   [])


def test_layout_table_without_rows_keeps_its_text():
    assert_article(markdown_of("layout-table-without-rows.html"),
                   ["The first ewe lambed at four", "small paddock with a shelter", "Cold rain is the danger"],
                   ["| ---"])


def test_comments_longer_than_the_article_are_dropped():
    assert_article(markdown_of("long-comments.html"),
                   ["We bought standing desks", "what people wanted was to move"],
                   ["expensive shelf", "treadmill desk", "physiotherapist"])


@pytest.mark.parametrize("html", [
    "<table><tr><td><p>One cell, one paragraph</p></td><td>Second cell</td></tr>"
    "<tr><td><p>Row two</p></td><td>x</td></tr></table>",
])
def test_data_table_with_a_paragraph_per_cell_stays_a_table(html):
    markdown = html_to_markdown(f"<html><body><article>{html}</article></body></html>")
    assert markdown.startswith("| One cell, one paragraph | Second cell |\n| --- | --- |")
