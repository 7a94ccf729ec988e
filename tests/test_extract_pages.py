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


def test_a_button_left_open_does_not_take_the_rest_of_the_page():
    assert_article(markdown_of("button-left-open.html"),
                   ["A sinking fund is money set aside", "buyers of the bond carry less risk",
                    "the monthly amount can be worked out in advance"],
                   ["not financial advice"])


@pytest.mark.parametrize("opening", ['<object data="/intro.swf"><div>', '<dialog class="promo"><div>',
                                     '<label for="q"><div>'])
def test_a_control_or_fallback_left_open_keeps_the_article_inside_it(opening):
    paragraphs = "".join(f"<p>The council met on day {day} and agreed, after a long debate, to keep the pool open "
                         f"through the winter, with shorter hours on weekdays.</p>" for day in range(1, 6))
    html = (f"<html><body><header>{opening}Menu</{opening[1:opening.index(' ')]}></header>"
            f"<article>{paragraphs}</article><footer><p>All rights reserved.</p></footer></body></html>")
    assert_article(html_to_markdown(html), ["The council met on day 1", "The council met on day 5"], [])


def test_a_layout_named_after_its_sidebar_is_not_the_sidebar():
    assert_article(markdown_of("sidebar-grid-layout.html"),
                   ["The harbour board voted on Tuesday", "of which the regional fund has promised half",
                    "if the planning office raises no objection"],
                   ["Parents had waited three winters", "season tickets bought before the end of December",
                    "carries four crew, a stretcher and a pump"])


def test_unclosed_noscript_does_not_take_the_rest_of_the_page():
    assert_article(markdown_of("noscript-unclosed.html"),
                   ["The harbour ferry will leave every twenty minutes", "Season tickets bought before the change",
                    "asked for a shelter at the south pier"],
                   ["All rights reserved", "Most read"])


def test_content_only_in_a_script_template_and_noscript_is_found():
    markdown = markdown_of("script-template-noscript.html")
    assert_article(markdown, ["A dry-stone wall fails from the bottom", "sorting stones into piles by size",
                              "lay a through stone across the full width"],
                   ["Please enable JavaScript", "Field Notes is written by volunteers"])
    assert markdown.count("A dry-stone wall fails from the bottom") == 1


def test_display_none_toolbar_that_wraps_the_article_keeps_it():
    assert_article(markdown_of("hidden-toolbar-wraps-article.html"),
                   ["Im Februar, wenn die Bäume noch kein Laub tragen", "danach die Wasserschosse",
                    "verteilt den Schnitt auf drei Winter", "denn der Baum schottet die Wunde selbst ab"],
                   ["Alle Beiträge 2026", "Januar 2026"])


def test_hidden_menu_that_wraps_main_is_not_furniture():
    assert_article(markdown_of("hidden-nav-wraps-main.html"),
                   ["Planners started from the phone data", "the new one runs six lines",
                    "away from the taxi rank", "on a seventh line"],
                   ["Sam Okafor has covered transport", "Transport"])


def test_overflow_hidden_is_a_layout_class_not_a_hidden_element():
    assert_article(markdown_of("overflow-hidden-class.html"),
                   ["Above about fifteen hundred metres", "Cut the starter to two thirds",
                    "bake five minutes longer with the lid on"],
                   ["Subscribe"])


@pytest.mark.parametrize(("label", "negative"), [
    ("relative overflow-hidden rounded-lg", False), ("hidden md:block w-1/3", False), ("d-none d-lg-block", False),
    ("content-area has-sidebar", False), ("post feature_disablecomments", False), ("hidden", True),
    ("sidebar-widget", True), ("comment-body", True), ("mobile-menu", True),
])
def test_what_class_words_say(label, negative):
    from websearch_mcp.extract.labels import label_kind

    kind = label_kind(label)
    assert (kind.negative or kind.comments) is negative


def test_control_characters_beside_dropped_furniture_never_raise():
    # libxml2 keeps \x0b and \x1b in text nodes; lxml refuses to join such text when an element is dropped
    html = ("<html><body><article><p>A paragraph long enough to be the article, with commas, words and more "
            "words.</p>\x0b<div class='share-tools'>Share</div>\x0bTail text\x1b after</article></body></html>")
    markdown = html_to_markdown(html)
    assert "Share" not in markdown and "Tail text after" in markdown


def test_live_ticker_of_short_entries_beats_the_teaser():
    assert_article(markdown_of("live-ticker.html"),
                   ["Full time. Riverside win it late.", "GOAL! Adeyemi heads in. 2-1.", "Double change for Northgate.",
                    "GOAL! Okoro scores the penalty.", "Kick-off at a sold-out ground."],
                   ["More football", "we switched off at the end"])


def test_recipe_steps_are_kept_beside_the_introduction():
    assert_article(markdown_of("recipe-steps.html"),
                   ["1. Soften the onion and the carrot.", "4. Simmer for twenty minutes.",
                    "6. Season, then add the lemon."],
                   ["Kitchen Table"])


def test_slideshow_captions_are_the_article():
    assert_article(markdown_of("slideshow.html"),
                   ["Reached along a coast path past seal coves", "Moved back from the crumbling chalk edge",
                    "with the tower open to visitors most days"],
                   ["Galleries"])


def test_one_component_per_paragraph_is_taken_whole():
    assert_article(markdown_of("component-per-paragraph.html"),
                   ["A river on a plain never sits still.", "So the loops grow wider each year.",
                    "Farmers lost a field, found a pond."],
                   ["Field Science"])


def test_title_with_a_broken_end_tag_does_not_swallow_the_page():
    assert_article(markdown_of("title-unclosed.html"),
                   ["The president asked the kingdom to raise its oil output", "Officials said no promise was made"],
                   ["titlevalue", "World News"])


def test_a_page_whose_pruned_content_is_empty_still_gives_its_text():
    html = ("<html><body><div id='content' class='hfeed'><p>by Paulo Coelho on July 21, 2012</p><div id='comments'>"
            "<div class='comment-body'><p>Thank you for this, it made my day, and I shared it with my sister, who "
            "loved it too.</p></div><div class='comment-body'><p>Beautiful words, as always, and a good reminder "
            "to slow down and listen more often.</p></div></div></div></body></html>")
    assert html_to_markdown(html).startswith("by Paulo Coelho on July 21, 2012")


def test_indented_share_list_is_measured_by_its_visible_text():
    spaces = "\n" + " " * 40
    share = "".join(f"<li>{spaces}<a href='/s/{n}'>{n}</a>{spaces}</li>" for n in ("Facebook", "Digg", "Email"))
    html = ("<html><body><div class='story-body'><p>" + "Retailers have learnt to sell to us by stealth, and the "
            "shops we trust most are the ones that do it best, " * 3 + f"</p><div id='page-links'><h3>Share this page"
            f"</h3><ul>{share}</ul></div><p>" + "Nobody notices the music, the smell of bread or the width of "
            "the aisles, and that is the point of them all. " * 3 + "</p></div></body></html>")
    assert_article(html_to_markdown(html), ["Retailers have learnt", "Nobody notices the music"],
                   ["Share this page", "Facebook"])


def test_content_the_parser_left_in_head_is_found():
    markdown = markdown_of("content-in-head.html")
    assert_article(markdown, ["The council approved the new cycle bridge", "Work starts in the spring"],
                   ["The Valley Courier"])
    assert "residents.\n\nWork starts" in markdown


def test_unclosed_iframe_does_not_swallow_the_page():
    html = ("<html><body><div id='ad'><iframe src='/ad.html'></div><article><p>The ferry timetable changes on "
            "Monday, with boats every twenty minutes at peak times and a later last crossing on Fridays and "
            "Saturdays.</p><p>Season tickets stay valid, and fares will not rise before the summer, the port "
            "authority said, although it is still negotiating the fuel contract that sets most of its costs.</p>"
            "</article></body></html>")
    assert_article(html_to_markdown(html), ["The ferry timetable changes on Monday", "Season tickets stay valid"],
                   ["</p>"])


def test_a_short_section_of_an_article_split_into_sections_is_kept():
    assert_article(markdown_of("article-in-sections.html"),
                   ["The keepers' logs were never meant to be read", "a hundred and fifty years of small events",
                    "The archive plans to put all of them online"],
                   ["Archive Notes"])


def test_headings_that_link_to_themselves_are_kept():
    paragraph = "<p>" + "The z-score says how far a value lies from the mean, in standard deviations. " * 3 + "</p>"
    html = (f"<html><body><article>{paragraph}<h2 id='part-two'><a href='#part-two'>Finding past anomalies</a></h2>"
            f"{paragraph}<h3><a href='/other-post'>Read our other post</a></h3>{paragraph}</article></body></html>")
    assert_article(html_to_markdown(html), ["## Finding past anomalies"], ["Read our other post"])


def test_escaped_markup_in_noscript_is_not_text():
    markdown = markdown_of("noscript-markup-as-text.html")
    assert_article(markdown, ["公衆無線LANの通信を暗号化", "利用者に知らせる"], ["<div", "<img", "beacon.example.jp"])


def test_a_citation_list_is_never_the_article_but_stays_with_it():
    assert_article(markdown_of("citation-list-outweighs-article.html"),
                   ["A tide mill is a water mill", "several survive in Portugal", "Early tide mills: some problems"],
                   ["Privacy"])


def test_a_one_paragraph_article_beats_a_longer_comment_section():
    assert_article(markdown_of("one-paragraph-and-comments.html"),
                   ["The council voted seven to two"],
                   ["pushchair", "Who pays for the upkeep", "blog7.example.net"])


def test_a_list_without_items_and_a_list_inside_a_list_keep_their_text():
    markdown = markdown_of("list-without-items.html")
    assert_article(markdown,
                   ["**1. Superstorm:** an unusually large", "2. Nomophobia:", "3. Eurogeddon:",
                    "1. Collect every candidate word", "  1. drop the ones seen only once", "  2. drop the brand names",
                    "2. Vote on what is left"],
                   ["Privacy"])


def test_teaser_cards_wrapped_in_links_are_not_the_article():
    assert_article(markdown_of("teaser-cards-in-links.html"),
                   ["made over one winter in a shed", "slowed until it hums"],
                   ["Over forty new tracks", "A decade of summers", "Part one of three"])


def test_a_list_of_sentences_around_links_is_content_and_a_list_of_links_is_not():
    assert_article(markdown_of("linked-changelog-list.html"),
                   ["fixed an issue with revoked permissions", "from the dialogs where we did not need it",
                    "to use the built-in promises"],
                   ["issue 11", "issue 10"])


def test_paragraphs_beside_a_read_more_block_are_kept():
    assert_article(markdown_of("intro-beside-read-more.html"),
                   ["The roadshow took in the chief executives", "left without persuading many",
                    "keep so-called metadata", "before the vote next month"],
                   ["Storm warning", "Most popular"])


def test_text_nested_deeper_than_the_parsers_default_limit_is_kept():
    assert_article(markdown_of("unclosed-font-tags.html"),
                   ["the largest crowd in years", "a single lot of lobsters"],
                   [])
