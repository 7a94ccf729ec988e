"""html_to_markdown: what it keeps, what it drops, and how it writes Markdown."""

from __future__ import annotations

import pytest

from tests.fake_upstream import FIXTURES
from websearch_mcp.extract import extract_page, html_to_markdown

ARTICLE = (FIXTURES / "handmade/pages/article.html").read_text(encoding="utf-8")
URL = "https://blog.example.org/posts/async-rust"

EXPECTED_ARTICLE = """\
Async programming in Rust lets a single thread serve **thousands of connections**, because tasks yield while \
they wait for input or output instead of blocking the thread.

This guide walks through futures, executors and the [Tokio runtime](https://blog.example.org/docs/tokio), with \
examples you can run, and it explains *why* the borrow checker sometimes complains about data held across an \
await point.

## Futures and executors

A future is a value that will be ready later. Nothing happens until an executor polls it, which is why an async \
function that is never awaited does no work at all.

- Futures are lazy: they do nothing until polled.
- Executors drive futures to completion:
  - Tokio is the most widely used executor.
  - async-std and smol are smaller alternatives.
- Wakers tell the executor when to poll again.

## A first example

The smallest useful program starts a runtime and awaits a single task:

```rust
#[tokio::main]
async fn main() {
    let body = reqwest::get("https://example.org").await.unwrap();
    println!("{:?}", body.status());
}
```

> Async is not faster by itself; it lets you wait for many things at once.

### Comparing runtimes

| Runtime | Threads | Best for |
| --- | --- | --- |
| Tokio | Multi-threaded | Network services |
| smol | Configurable | Small binaries |

1. Write the async function.
2. Spawn it on the runtime.
3. Await the join handle.

With these pieces in place, you can build services that stay responsive under load, and you can reason about \
where your program waits."""


def test_article_markdown_exactly():
    assert html_to_markdown(ARTICLE, URL) == EXPECTED_ARTICLE


@pytest.mark.parametrize("dropped", ["cookies", "Accept all", "Home", "Share on", "Related posts", "Pin explained",
                                     "Great article", "Newsletter", "Subscribe", "All rights reserved",
                                     "analytics", "font-family", "Diagram of the executor loop",
                                     "The executor loop, simplified", "By Jane Doe"])
def test_furniture_is_dropped(dropped):
    assert dropped not in html_to_markdown(ARTICLE, URL)


def test_metadata():
    metadata = extract_page(ARTICLE, URL).metadata.to_dict()
    assert metadata == {"title": "Understanding Async Rust", "description": "A practical guide to async "
                        "programming in Rust with Tokio.", "byline": "Jane Doe", "date": "2026-03-14T09:30:00Z",
                        "site_name": "Example Dev Blog", "language": "en"}


def test_links_are_made_absolute_and_scripts_links_kept_as_text():
    html = ("<html><body><article><p>Read <a href='../guide?x=1'>the guide</a> or <a href='#top'>jump</a> or "
            "<a href='javascript:void(0)'>click</a>, a paragraph long enough to be the article body text.</p>"
            "</article></body></html>")
    markdown = html_to_markdown(html, "https://example.org/docs/page")
    assert "[the guide](https://example.org/guide?x=1)" in markdown
    assert " jump " in markdown and " click," in markdown and "javascript" not in markdown


def test_inline_code_and_strikethrough_and_line_breaks():
    html = ("<article><p>Call <code>poll()</code> once, <del>twice</del> never.<br>Then wait for the waker "
            "to fire before you poll the future again, as the contract says.</p></article>")
    markdown = html_to_markdown(html)
    assert "Call `poll()` once, ~~twice~~ never.\nThen wait" in markdown


def test_markdown_characters_at_line_start_are_escaped():
    html = "<article><p># not a heading, just a paragraph that starts with a hash sign and goes on.</p></article>"
    assert html_to_markdown(html).startswith("\\# not a heading")


def test_a_paragraph_opening_with_a_number_and_a_stop_is_escaped_at_the_stop():
    # "8. 4. 2024" (a Czech date) would be read as item 8 of a list; a backslash before the 8 escapes nothing
    html = ("<article><p>8. 4. 2024</p><p>12) A paragraph that opens with a number and a bracket, long enough "
            "to be read.</p></article>")
    markdown = html_to_markdown(html)
    assert markdown.startswith("8\\. 4. 2024") and "\n12\\) A paragraph" in markdown
    assert "\\8" not in markdown and "\\1" not in markdown


def test_layout_table_with_one_column_becomes_paragraphs():
    html = ("<body><table><tr><td><p>First paragraph of an old-fashioned page laid out in a table, long enough.</p>"
            "</td></tr><tr><td><p>Second paragraph of that page, which also has plenty of words in it.</p></td>"
            "</tr></table></body>")
    markdown = html_to_markdown(html)
    assert "|" not in markdown and "First paragraph" in markdown and "Second paragraph" in markdown


@pytest.mark.parametrize("html", ["", "   ", "<html></html>", "not html at all", "<<<>>>", "\x00\x01",
                                  '<?xml version="1.0" encoding="ISO-8859-1"?><html><body><p>x</p></body></html>'])
def test_garbage_never_raises(html):
    assert isinstance(html_to_markdown(html), str)


def test_a_lone_surrogate_costs_one_character_not_the_rest_of_the_page():
    # a str from a careless decoder (`surrogateescape`) can hold one; the parser used to stop at it
    html = "<html><body><p>Caf\udce9 opens at nine, and the kitchen closes at ten every night.</p></body></html>"
    assert html_to_markdown(html) == "Caf? opens at nine, and the kitchen closes at ten every night."


def test_page_without_paragraphs_falls_back_to_the_body():
    assert html_to_markdown("<html><body><div>Just a short note.</div></body></html>") == "Just a short note."


def test_spaces_at_the_edges_of_a_link_stay_outside_it():
    html = ("<article><p>The <a href='/web'>Web site </a>serves readers, and<a href='/mail'> our desk</a> answers "
            "them; write to the newsroom with questions.</p></article>")
    markdown = html_to_markdown(html, "https://example.org/")
    assert "The [Web site](https://example.org/web) serves readers, and [our desk](https://example.org/mail) answers" \
        in markdown


@pytest.mark.parametrize("gap", ["\n", "\t \t", "\r\n  ", "\xa0", " \u2009\n", "\u3000\n", "\x1c\n", "\x0b\n\x0c "])
def test_white_space_inside_a_paragraph_collapses_to_one_space(gap: str) -> None:
    import re

    markdown = html_to_markdown(f"<html><body><article><p>Every{gap}run of{gap}white space in a paragraph becomes "
                                f"one space,{gap}as a browser shows it, and a page has enough text here.</p>"
                                "</article></body></html>")
    words = f"Every{gap}run of{gap}white space in a paragraph becomes one space,{gap}as a browser shows it"
    assert re.sub(r"\s+", " ", words) in markdown


_STORIES = "".join(f"<li><a href='/story-{n}'>Story number {n} that readers liked a great deal this week</a>"
                   f"<p>A line about story {n}, long enough to read as a teaser of its own, with commas.</p></li>"
                   for n in range(8))


def test_a_not_found_page_gives_its_message_not_the_stories_around_it() -> None:
    html = ("<html><head><title>404 / Page Not Found</title></head><body><nav><a href='/'>Home</a></nav>"
            "<div class='wrap'><h1>404 / Page Not Found</h1><p>Sorry, we couldn't locate the page you requested."
            "</p><div class='most-read'><ul>" + _STORIES + "</ul></div></div>"
            "<footer>© 2021 The Daily Example. All rights reserved.</footer></body></html>")
    markdown = html_to_markdown(html, "https://news.example/missing")
    assert "couldn't locate the page you requested" in markdown
    assert "Story number 3" not in markdown


def test_a_parked_domain_gives_its_notice_not_its_footer() -> None:
    html = ("<html><head><title>parked-example.com</title></head><body><div class='main'>"
            "<p>This domain name may be for sale. <a href='/inquire'>Click here to find out more</a></p></div>"
            "<div class='footer'>2021 Copyright. All Rights Reserved. The Sponsored Listings displayed above are "
            "served automatically by a third party, and neither the service provider nor the domain owner "
            "maintain any relationship with the advertisers.</div></body></html>")
    assert "This domain name may be for sale" in html_to_markdown(html)


def test_a_page_titled_by_its_domain_keeps_its_article() -> None:
    article = "".join(f"<p>The old mill by the river is for sale at last, the owners said on {day}, after three years "
                      "of repairs, arguments with the council, and a long winter without a buyer in sight.</p>"
                      for day in ("Monday", "Tuesday", "Friday"))
    html = (f"<html><head><title>riverside-news.example</title></head><body><article>{article}</article>"
            "<footer>© 2021 Riverside News. All rights reserved.</footer></body></html>")
    markdown = html_to_markdown(html)
    assert markdown.count("The old mill by the river is for sale") == 3
