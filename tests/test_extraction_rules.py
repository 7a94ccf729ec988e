"""The extraction rules that have no hand-made class page of their own: the second opinion, a
thread's comments read as content, the lead caption inside the body, the page's own data, the
title of a script-built app."""

from __future__ import annotations

import pytest

from websearch_mcp.extract import _doubtful, _second_opinion, extract_page, parse_html
from websearch_mcp.extract.structured import structured_content

ARTICLE = ("<p>The ferry company will add a second crossing each morning from March, after commuters "
           "complained for two winters that the single early boat was always full by the second stop.</p>"
           "<p>A spokesperson said the extra sailing needs no new ship, because the vessel that now waits "
           "in port overnight will run it, and the timetable change costs the operator little.</p>"
           "<p>Passenger groups welcomed the plan but asked for the late evening boat to return as well, "
           "since many shift workers have no way home after ten at night on weekdays.</p>")
DISCLAIMER = ("<p>© 2026 Harbour Herald. All rights reserved. The opinions expressed here are the writers' own, "
              "and we are not responsible for the content of external sites.</p>")


def test_a_footer_is_a_doubtful_first_opinion_and_the_article_wins_the_second():
    # the disclaimer sits in an <article class="content"> (class words and tag favour it), the story in
    # plain blocks: the first opinion takes the disclaimer, which reads like furniture
    footer = ("<article class='content'><p>© 2026 Harbour Herald, all rights reserved, no part may be copied.</p>"
              "<p>The opinions expressed here are the writers' own, and we are not responsible for the content "
              "of external sites.</p></article>")
    html = f"<html><body><div>{ARTICLE}</div>{footer}</body></html>"
    assert _doubtful("© 2026 Harbour Herald, all rights reserved.") and not _doubtful(ARTICLE * 3)
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "all rights reserved" not in markdown


def test_the_second_opinion_keeps_the_first_when_the_rest_is_a_list_of_teasers():
    teasers = "".join(f"<div class='t'><p>Short teaser number {n}, with a comma, and little else.</p></div>"
                      for n in range(20))
    first = "The council approved the budget. " * 4
    html = f"<html><body><div id='a'><p>{first}</p></div><div id='b'>{teasers}</div></body></html>"
    assert _second_opinion(html, None, False, first) == first


COMMENTED = ("<html><head><title>Starter smells of acetone</title></head><body><div class='thread'>"
             "<div class='first-post'>" + ARTICLE + "</div>"
             + "".join(f"<div class='comment'><p>{text}</p></div>" for text in (
                 "An acetone smell means the yeast is hungry: feed it twice a day for a week and it recovers.",
                 "Also leave tap water out overnight first, since chlorine slows the culture down a lot."))
             + "</div></body></html>")


@pytest.mark.parametrize("url, kept", [("https://forum.example.org/threads/acetone.123/", True),
                                       ("https://blog.example.org/2026/11/acetone", False)])
def test_a_thread_page_reads_its_comment_blocks_as_its_posts(url, kept):
    markdown = extract_page(COMMENTED, url).markdown
    assert "second crossing each morning" in markdown
    assert ("yeast is hungry" in markdown) is kept and ("chlorine slows" in markdown) is kept


def _deep_post(text: str) -> str:
    """A post as forum software of today nests it: the text seven levels below the post's own block."""
    return ("<article class='message message--post'><div class='message-inner'><div class='message-cell'>"
            "<div class='message-main'><div class='message-content'><div class='message-userContent'>"
            f"<article class='message-body'><div class='bbWrapper'>{text}</div></article>"
            "</div></div></div></div></div></article>")


DEEP_THREAD = ("<html><body><div class='block-body'>" + "".join(_deep_post(text) for text in (
    "My rye starter smells of acetone after the second feeding, and it barely rises at all now. " * 2,
    "Feed it twice a day for a week, with equal weights of flour and water, and discard half each time; "
    "an acetone smell means the yeast is hungry, nothing worse. Mine did the same in its first month, "
    "and by the third week it doubled in six hours, smelled of yoghurt and made a fine, open loaf. " * 2,
    "Thanks!",
    "Also leave tap water out overnight first, since chlorine slows the culture down a lot.",
    "Warmth helps as well: keep the jar near the oven, at about twenty-six degrees if you can."))
    + "</div></body></html>")


def test_a_thread_whose_posts_nest_deep_gives_every_post_a_short_reply_included():
    markdown = extract_page(DEEP_THREAD, "https://forum.example.org/threads/acetone.3691417/").markdown
    for words in ("smells of acetone", "yeast is hungry", "Thanks!", "chlorine slows", "near the oven"):
        assert words in markdown, markdown


def test_the_lead_caption_inside_the_body_is_kept_as_a_paragraph():
    html = ("<html><body><article class='story'><figure><img src='x.jpg'><figcaption>Commuters board the "
            "early ferry at the north pier in the rain.</figcaption></figure>" + ARTICLE
            + "<figure><img src='y.jpg'><figcaption>A second picture's caption, which is not the lead."
              "</figcaption></figure></article></body></html>")
    markdown = extract_page(html).markdown
    assert "Commuters board the early ferry" in markdown and "second picture" not in markdown


def test_a_script_built_app_takes_its_title_from_its_heading():
    html = f"<html><head><title>React App</title></head><body><h1>Ferry timetable changes</h1>{ARTICLE}</body></html>"
    assert extract_page(html).metadata.title == "Ferry timetable changes"


@pytest.mark.parametrize("json_ld, wanted, source", [
    ('{"@type": "QAPage", "mainEntity": {"@type": "Question", "name": "Why does bread rise?", '
     '"acceptedAnswer": {"text": "Yeast makes carbon dioxide."}, "suggestedAnswer": [{"text": "Heat helps."}]}}',
     ["**Question:** Why does bread rise?", "**Accepted answer:** Yeast makes carbon dioxide.",
      "**Answer:** Heat helps."], "JSON-LD QAPage"),
    ('{"@type": "Product", "name": "Kettle", "description": "A quiet 1.7 litre kettle with a steel body.", '
     '"brand": {"name": "Boil"}, "offers": {"price": "39.90", "priceCurrency": "EUR", '
     '"availability": "https://schema.org/InStock"}, "aggregateRating": {"ratingValue": "4.6", "reviewCount": "212"}}',
     ["A quiet 1.7 litre kettle", "**Brand:** Boil", "**Price:** 39.90 EUR (InStock)", "**Rating:** 4.6 (212 reviews)"],
     "JSON-LD Product"),
    ('{"@type": "Recipe", "description": "Flatbread in ten minutes.", "recipeIngredient": ["flour", "water"], '
     '"recipeInstructions": [{"@type": "HowToSection", "itemListElement": [{"text": "Mix."}, {"text": "Fry."}]}]}',
     ["**Ingredients:**\n- flour\n- water", "**Steps:**\n1. Mix.\n2. Fry."], "JSON-LD Recipe"),
    ('{"@type": "HowTo", "step": [{"text": "Unplug it."}, {"name": "Descale it."}]}',
     ["1. Unplug it.", "2. Descale it."], "JSON-LD HowTo"),
])
def test_the_pages_own_data_is_read(json_ld, wanted, source):
    html = f'<html><head><script type="application/ld+json">{json_ld}</script></head><body></body></html>'
    found = structured_content(parse_html(html))
    assert found is not None and found.source == source
    for text in wanted:
        assert text in found.markdown


def test_a_data_island_of_labels_is_not_content():
    island = "[" + ",".join(['{"labels": ["Home", "News", "Sport", "Weather", "Contact us"], "id": 42}'] * 5) + "]"
    html = (f'<html><body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">{island}'
            "</script></body></html>")
    assert len(island) > 200  # long enough to be looked at: its strings are labels, not prose
    assert structured_content(parse_html(html)) is None


@pytest.mark.parametrize(("label", "comments", "positive"), [
    ("content content--article tonal tonal--tone-comment section-commentisfree", False, True),
    ("content--type-comment", False, False), ("pageBody noComments", False, False),
    ("singlepost nocomments", False, False),
    ("post-wrap isCommentable", False, True), ("commentsList", True, False), ("comment-body", True, True),
    ("tabContent tabContentActive", False, False), ("RichTextArticleBody-body", False, True),
    ("sxolia", True, False), ("komentare-list", True, False),
])
def test_class_words_are_whole_words(label, comments, positive):
    from websearch_mcp.extract.labels import label_kind

    kind = label_kind(label)
    assert (kind.comments, kind.positive) == (comments, positive)


@pytest.mark.parametrize("label", ["below_body", "after_content", "above-article", "pre-content"])
def test_a_place_beside_the_content_is_furniture(label):
    from websearch_mcp.extract.labels import label_kind

    kind = label_kind(label)
    assert kind.negative and not kind.positive


def test_text_is_fit_for_a_model():
    from websearch_mcp.extract import fit_for_model

    assert fit_for_model("Donau\u00adschiff\u00adfahrt") == "Donauschifffahrt"
    assert fit_for_model("Re\u0301gion") == "R\u00e9gion"
    html = ("<html><body><article><p>" + "Enough words to make this the article of the page, and more. " * 3
            + "<ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp></ruby><ruby>字<rt>じ</rt></ruby>を読む。</p>"
            "</article></body></html>")
    assert "漢字を読む。" in extract_page(html).markdown


def test_replies_below_an_article_stay_when_the_page_is_a_thread():
    from tests.fake_upstream import FIXTURES

    html = (FIXTURES / "handmade" / "extraction" / "comments-win.html").read_text()
    blog = extract_page(html, "https://blog.example.com/2026/03/rye-starter").markdown
    thread = extract_page(html, "https://forum.example.org/threads/rye-starter.881/").markdown
    assert "Anna-style starter" not in blog and "rye starter barely rises" in blog
    assert "Anna-style starter" in thread and "Emil-style starter" in thread


def test_a_rule_that_took_the_article_for_furniture_gets_a_second_look():
    # the article's class says "comments" (a page that names its comment-enabled layout so); the text
    # where it is, read without class words, wins over the footer the first opinion chose
    html = ("<html><body><div class='comments-layout'>" + ARTICLE + "</div>"
            "<footer><p>© 2026 Harbour Herald. All rights reserved.</p></footer></body></html>")
    markdown = extract_page(html, "https://news.example.com/2026/11/ferry").markdown
    assert "second crossing each morning" in markdown and "All rights reserved" not in markdown


def test_an_error_pages_message_beats_the_legal_notice_below_it():
    # the notice scores more (longer, with commas) and reads like furniture; the message is one sentence
    sitemap = "".join(f"<li><a href='/s/{n}'>Section number {n} of the site</a></li>" for n in range(30))
    html = ("<html><body><div class='wrap'><div class='message'><p>Sorry, we could not find the page you asked "
            "for. It may have moved.</p></div></div><div class='legal'><p>© 2026 Example Media Group Limited, "
            "registered in England, company number 0000000. All rights reserved, reproduction of any part of this "
            "site, in any form, without permission is prohibited.</p><p>Example Media is not responsible for the "
            "content of external sites, and opinions expressed are the writers' own.</p></div>"
            f"<ul class='sitemap'>{sitemap}</ul></body></html>")
    markdown = extract_page(html, "https://news.example.com/missing").markdown
    assert "could not find the page" in markdown and "All rights reserved" not in markdown


@pytest.mark.parametrize(("title", "comments", "related"), [
    ("Comments (3)", True, False), ("12 Comments", True, False), ("Kommentare", True, False),
    ("Відгуки покупців (4)", True, False), ("评论(5)", True, False), ("Sổ lưu bút", True, False),
    ("Imóveis semelhantes", False, True), ("Related posts", False, True),
    ("Your comments", False, False), ("Comments are closed", False, False),
    ("How to write comments in Python code", False, False),
])
def test_a_title_names_the_comments_or_the_list_below_it(title, comments, related):
    from websearch_mcp.extract.replies import COMMENTS_TITLE, RELATED_TITLE

    assert (bool(COMMENTS_TITLE.match(title)), bool(RELATED_TITLE.match(title))) == (comments, related)
