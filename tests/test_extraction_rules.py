"""The extraction rules that have no hand-made class page of their own: the second opinion, a
thread's comments read as content, the lead caption inside the body, the page's own data, the
title of a script-built app, content spread over many blocks."""

from __future__ import annotations

import pytest

from websearch_mcp.extract import _doubtful, _second_opinion, extract_page, parse_html
from websearch_mcp.extract.labels import kind_of, label_kind
from websearch_mcp.extract.replies import COMMENTS_TITLE
from websearch_mcp.extract.spread import content_area
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
    ("commentOnSelection", False, False),  # a post's "comment on the selected text" feature, around the post
    ("post hentry status-published commented", False, True),  # a post that has comments is the post
    ("entry commentable", False, True), ("commenting-area", True, False), ("commented-list", True, False),
    ("comEnt report-spam-target", True, False), ("cBlock1", True, False), ("cMessage", True, False),  # uCoz's
    ("eMessage", False, True), ("eText", False, True),  # comments, and its entry's text
])
def test_class_words_are_whole_words(label, comments, positive):
    from websearch_mcp.extract.labels import label_kind

    kind = label_kind(label)
    assert (kind.comments, kind.positive) == (comments, positive)


@pytest.mark.parametrize(("label", "negative"), [
    ("node node-article node-promoted", False),  # Drupal's "promoted to the front page"
    ("node-sticky node-promoted", False), ("promo-box", True), ("promotion-banner", True), ("promos", True),
])
def test_a_node_promoted_to_the_front_page_is_no_promotion(label, negative):
    from websearch_mcp.extract.labels import label_kind

    assert label_kind(label).negative is negative


@pytest.mark.parametrize(("label", "negative"), [
    ("elementor-widget elementor-widget-text-editor", False), ("so-panel widget widget_sow-editor", False),
    ("span12 widget-span widget-type-cell dnd-column", False), ("span12 widget-span widget-type-cell", False),
    ("hs_cos_wrapper hs_cos_wrapper_widget hs_cos_wrapper_type_rich_text", False),  # HubSpot's grid and modules
    ("widget widget_text", True), ("sidebar-widget", True),  # a sidebar's boxes
])
def test_a_page_builders_widget_is_its_unit_not_a_sidebars_box(label, negative):
    from websearch_mcp.extract.labels import label_kind

    assert label_kind(label).negative is negative


@pytest.mark.parametrize("label", ["below_body", "after_content", "above-article", "pre-content", "leftsidebar column",
                                   "rightSidebar", "agenda-section", "agenda-item"])
def test_a_place_beside_the_content_is_furniture(label):
    from websearch_mcp.extract.labels import label_kind

    kind = label_kind(label)
    assert kind.negative and not kind.positive


@pytest.mark.parametrize(("label", "comments", "negative"), [
    ("liste-avis", True, False), ("avis-client", True, False), ("recenzii-clienti", True, False),  # reviews
    ("souvisejici", False, True), ("citeste_si", False, True), ("reclama_articol", False, True),  # related, ads
    ("gt-sonda", False, True), ("poll-box", False, True), ("umfrage", False, True),  # a readers' poll
    ("libro-ospiti", True, False), ("livre-dor", True, False), ("ksiega-gosci", True, False),  # a guestbook
    ("tab-pane tab-review", True, False), ("tab-reviews", True, False), ("review-body", False, False),  # a shop's
    ("article-body", False, False),
])
def test_reviews_related_articles_and_ads_are_known_in_more_languages(label, comments, negative):
    from websearch_mcp.extract.labels import label_kind

    kind = label_kind(label)
    assert (kind.comments, kind.negative) == (comments, negative)


@pytest.mark.parametrize(("label", "positive", "negative"), [
    ("contentpaneopen", True, False), ("item-page", True, False), ("itemFullText", True, False),  # the article
    ("moduletable", False, True), ("moduletable_menu", False, True),  # a module beside it
])
def test_joomlas_article_and_modules_are_known_by_their_classes(label, positive, negative):
    from websearch_mcp.extract.labels import label_kind

    kind = label_kind(label)
    assert (kind.positive, kind.negative) == (positive, negative)


def test_a_closing_notice_above_the_photo_credit_is_set_aside():
    # the outlet's registration and reprint rule close the article, with the photo's credit and the
    # author's name below them: the notice goes, the lines below it stay
    paragraphs = "".join(f"<p>Абзац {n}: ремонт набережной идёт по плану, рабочие укрепляют откосы и кладут"
                         f" новый настил вдоль реки.</p>" for n in range(1, 5))
    html = (f"<html><body><div class='news-detail'><h1>Набережная</h1>{paragraphs}"
            "<p>Сетевое издание «Вести» зарегистрировано Роскомнадзором, свидетельство Эл № ФС77-61234. При полном"
            " или частичном использовании материалов ссылка на сайт обязательна.</p>"
            "<div class='author'>Автор: Ирина Кудряшова</div><div class='source'>Фото: пресс-служба города</div>"
            "</div></body></html>")
    markdown = extract_page(html, "https://news.example.ru/news/naberezhnaya/").markdown
    assert "Абзац 4: ремонт набережной" in markdown and "Фото: пресс-служба города" in markdown
    assert "Роскомнадзором" not in markdown and "ссылка на сайт обязательна" not in markdown


@pytest.mark.parametrize(("label", "positive"), [
    ("container d-flex justify-content-between", False), ("topbar bg-dark text-white small", False),
    ("text-center", False), ("text-gray-700 text-lg", False), ("items-center content-center", False),
    ("align-content-start", False),  # how a box lays out or colours its text: no word for the content
    ("article-content", True), ("text", True), ("entry-content clear", True), ("text-block", True),
])
def test_layout_and_colour_utilities_name_no_content(label, positive):
    from websearch_mcp.extract.labels import label_kind

    assert label_kind(label).positive is positive


def test_a_box_under_a_title_line_that_asks_for_money_is_a_note_to_the_reader():
    from websearch_mcp.extract.notices import is_notice_block, opens_as_site_note

    box = parse_html("<div class='support'><p class='title'>Підтримайте незалежну журналістику</p>\n<p>Ми працюємо"
                     " без олігархів і політичних спонсорів. Кожен внесок наших читачів допомагає нам щодня"
                     " розповідати про події у місті.</p><a href='/donate'>Підтримати</a></div>").find(".//div")
    assert is_notice_block(box, opens_as_site_note)


def test_a_notice_served_without_white_space_between_its_blocks_is_still_one():
    # a minified page runs a box's title into its text ("...журналістикуМи працюємо"): the words are read
    # with a space between the blocks
    from websearch_mcp.extract.notices import is_notice_block, opens_as_site_note

    box = parse_html("<div class='support'><p class='title'>Підтримайте незалежну журналістику</p><p>Ми працюємо"
                     " без олігархів і політичних спонсорів. Кожен внесок наших читачів допомагає нам щодня"
                     " розповідати про події у місті.</p><a href='/donate'>Підтримати</a></div>").find(".//div")
    assert is_notice_block(box, opens_as_site_note)


def test_replies_signed_in_a_paragraph_of_their_own_are_the_comments():
    # a reader's name and date in a <p> of their own above the reply's text, in rows of a neutral class:
    # the responses below the story, not more of it
    story = "".join(f"<p>Paragraph {n} of the story: the planning commission approved the brewery in the old fire"
                    f" station, with twenty parking spaces and closing at ten.</p>" for n in range(1, 5))
    replies = "".join(f"<div class='ee-row'><p class='who'><strong>reader{n}</strong> <span>March 18, 2015 at"
                      f" {n}:42 am</span></p><div class='said'><p>Reply {n}: nobody is against a brewery, but Lock"
                      f" Street is full on a Saturday already and there is no room for more cars or for the trucks"
                      f" that bring the grain.</p></div></div>" for n in range(1, 7))
    html = (f"<html><body><div id='col-main'><h1>Brewery approved</h1><div class='body'>{story}</div>"
            f"<div id='rsay'><h3>6 responses so far</h3>{replies}</div></div></body></html>")
    markdown = extract_page(html, "https://news.example.com/news/story/brewery-approved").markdown
    assert "Paragraph 4 of the story" in markdown and "Reply 3: nobody is against" not in markdown


def test_text_is_fit_for_a_model():
    from websearch_mcp.extract import fit_for_model

    assert fit_for_model("Donau\u00adschiff\u00adfahrt") == "Donauschifffahrt"
    assert fit_for_model("Re\u0301gion") == "R\u00e9gion"
    html = ("<html><body><article><p>" + "Enough words to make this the article of the page, and more. " * 3
            + "<ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp></ruby><ruby>字<rt>じ</rt></ruby>を読む。</p>"
            "</article></body></html>")
    assert "漢字を読む。" in extract_page(html).markdown


def test_a_post_whose_class_says_it_has_comments_is_read_as_the_post():
    # a blog network's post: `<article class="post hentry commented">` (it has comments) holds the body; the
    # sidebar's trending blurbs are all that is left when the post is taken for a comment section
    trending = "".join(f"<div class='trending-description'><p>Trending story {n}, a line about it, and a "
                       f"little more about it.</p></div>" for n in range(3))
    html = (f"<html><body><article class='post hentry js_post_item status-published commented'>"
            f"<h1>Ferry timetable</h1><div class='post-content entry-content'>{ARTICLE}</div></article>"
            f"<aside>{trending}</aside></body></html>")
    markdown = extract_page(html, "https://blog.example.org/5659837/ferry-timetable").markdown
    assert "second crossing each morning" in markdown and "late evening boat" in markdown
    assert "Trending story" not in markdown


def _old_reddit_comment(number: int, text: str) -> str:
    return (f"<div class='thing comment' id='thing_t1_{number}'><div class='entry'><p class='tagline'>"
            f"<a href='/user/reader{number}'>reader{number}</a> {number + 3} points 2 months ago</p>"
            f"<form class='usertext warn-on-unload' action='#'><div class='usertext-body md-container'>"
            f"<div class='md'><p>{text}</p></div></div></form></div></div>")


def test_a_threads_posts_in_their_edit_forms_are_its_content():
    # old Reddit puts each comment's text in the form that edits it: forms alike holding the thread's text
    # are its posts, while a comment form with its rules is still furniture
    comments = "".join(_old_reddit_comment(n, text) for n, text in enumerate((
        "An acetone smell means the yeast is hungry: feed it twice a day for a week and it recovers. Keep "
        "the jar somewhere warm while you do, and discard half of it before each feed.",
        "Also leave tap water out overnight first, since chlorine slows the culture down a lot. Filtered "
        "water works too, and so does boiled water once it has cooled to room temperature.",
        "Mine smelled the same after a holiday, and two days of regular feeding fixed it completely. The "
        "smell is harmless, and the bread it makes afterwards tastes the same as before.",
        "If it still smells after a week, start over with rye flour: it carries more wild yeast, and a new "
        "starter made with it is usually lively within five or six days.")))
    rules = "<form class='comment-form'><p>Allowed HTML: a, em, strong and code, checked before posting.</p></form>"
    html = (f"<html><body><div class='content'><div class='commentarea'>{rules}<div class='sitetable nestedlisting'>"
            f"{comments}</div></div></div></body></html>")
    markdown = extract_page(html, "https://www.reddit.com/r/Sourdough/comments/4nle7s/acetone/").markdown
    for text in ("yeast is hungry", "chlorine slows", "two days of regular feeding"):
        assert text in markdown
    assert "Allowed HTML" not in markdown


def _recorded(name: str) -> str:
    import gzip

    from tests.fake_upstream import FIXTURES

    return gzip.decompress((FIXTURES / "recorded" / name).read_bytes()).decode("utf-8")


def test_a_thread_opens_with_its_post_above_the_run_of_replies():
    # old Reddit (a recorded page): the submission's text in a listing of its own, its comments (each
    # classed apart by its id, each in the form that edits it) in the comment area below, the subreddit's
    # rules in the sidebar. The thread is the submission, then its comments; never the sidebar
    html = _recorded("crux-reddit-androidapps.html.gz")
    url = "https://www.reddit.com/r/androidapps/comments/4nle7s/dev_hermit_has_a_new_ad_blocker_50_off_premium/"
    markdown = extract_page(html, url).markdown
    post, reply = "seeing how often Hermit gets recommended here", "You may want to add in your OP what hermit is"
    assert post in markdown and reply in markdown and markdown.index(post) < markdown.index(reply)
    assert "does not support piracy" not in markdown and "search parameters" not in markdown


def test_a_threads_nested_replies_stay_beside_their_action_links():
    # a reply to a reply sits in a block of its own whose links (permalink, save, report, reply, the
    # author's name) outweigh its short text: read as a box of links, it was dropped with its text
    url = "https://www.reddit.com/r/androidapps/comments/4nle7s/dev_hermit_has_a_new_ad_blocker_50_off_premium/"
    markdown = extract_page(_recorded("crux-reddit-androidapps.html.gz"), url).markdown
    for reply in ("Widgets are coming soon, stay tuned!", "Tried submitting, they don't allow promo code deals",
                  "eagerly awaiting the next set"):
        assert reply in markdown
    assert "permalink" not in markdown and "embedsave" not in markdown


def test_blocks_are_alike_by_their_first_class_word_when_the_class_opens_with_a_space():
    # old Reddit writes `class=" thing id-t1_... comment"`: its blocks are alike as things, not as all <div>s
    from websearch_mcp.extract.teasers import card_signature

    thing, other_thing, side = (parse_html(f"<div class='{label}'>x</div>").find(".//div") for label in (
        " thing id-t1_a comment", "thing id-t1_b comment", " side"))
    assert card_signature(thing) == card_signature(other_thing) == "div thing"
    assert card_signature(side) != card_signature(thing)


def test_a_link_posts_thread_takes_no_opening_post_from_the_sidebar():
    # the same thread as a link post (its text taken out): nothing before the comments opens it, and the
    # subreddit's description in the sidebar, before them in the markup, is not taken for it
    import lxml.html

    tree = lxml.html.fromstring(_recorded("crux-reddit-androidapps.html.gz"))
    for text in tree.xpath("//div[@id='thing_t3_4nle7s']//div[contains(@class, 'expando')]"):
        text.getparent().remove(text)
    url = "https://www.reddit.com/r/androidapps/comments/4nle7s/dev_hermit_has_a_new_ad_blocker_50_off_premium/"
    markdown = extract_page(lxml.html.tostring(tree, encoding="unicode"), url).markdown
    assert "You may want to add in your OP what hermit is" in markdown
    assert "does not support piracy" not in markdown and "Submission Rules" not in markdown


def test_a_recorded_post_classed_commented_is_read_as_the_post():
    # Lifehacker's post of 2010 as a blog network served it later: `<article class="post hentry ...
    # commented">`; taken for a comment section, the post lost to its header and the sidebar
    markdown = extract_page(_recorded("crux-lifehacker-rocket-stove.html.gz"),
                            "http://lifehacker.com/5659837/build-a-rocket-stove-to-heat-your-home-with-wood-scraps").markdown
    assert markdown.startswith("If you find yourself with lots of leftover wood")
    assert "make your existing fireplace more efficient" in markdown and "Toggle Conversation tools" not in markdown


def _photo_post(prose: str, photos: int) -> str:
    figures = "".join(
        f"<figure class='image'><img src='/p/{n}.jpg' alt=''><figcaption class='caption'><span>Photo {n}: marchers"
        f" cross the square of district {n} at dusk, their banners lit by the shops still open.</span>"
        f"</figcaption><p class='credit'>Photo by A. Lens</p></figure>" for n in range(1, photos + 1))
    return (f"<html><body><nav><a href='/'>Home</a> <a href='/photo'>Photo</a></nav><main><h1>The march</h1>"
            f"<div class='body'>{prose}{figures}</div></main><footer>© 2014 The Daily</footer></body></html>")


def test_a_photo_posts_captions_are_what_it_says():
    # a gallery: two paragraphs, then captioned photos whose captions hold more text than the prose
    prose = ("<p>The city marched again on Monday, a week before the games begin, against what they cost.</p>"
             "<p>Here are some of the most striking photos from the day.</p>")
    markdown = extract_page(_photo_post(prose, 6), "https://news.example.com/photo/2014/06/the-march").markdown
    assert "against what they cost" in markdown
    for n in (1, 4, 6):
        assert f"Photo {n}: marchers cross the square of district {n}" in markdown
    assert markdown.index("most striking photos") < markdown.index("Photo 1:")


def test_an_articles_photo_captions_stay_out_when_its_prose_holds_more():
    # the same photos in a long article: its prose says more than the captions, which stay furniture
    prose = "".join(f"<p>Paragraph {n} of the report, on what the march asked of the city, and what the city"
                    f" answered, told at length by the people who walked it from the station to the square.</p>"
                    for n in range(1, 13))
    markdown = extract_page(_photo_post(prose, 4), "https://news.example.com/2014/06/the-march").markdown
    assert "Paragraph 12 of the report" in markdown
    assert "marchers cross the square of district 3" not in markdown


def test_a_recorded_photo_post_keeps_its_captions():
    # Slate's photo post of 2014: two paragraphs, then nineteen figures, each caption classed `caption`
    markdown = extract_page(_recorded("newspaper4k-slate-world-cup-protests.html.gz"),
                            "http://www.slate.com/blogs/the_spot/2014/06/10/brazil_world_cup_protests_striking_"
                            "images_of_the_country_s_anti_world_cup.html").markdown
    assert markdown.startswith("The biggest challenge to Brazil")
    for caption in ("Demonstrators from the anarchist group Black Bloc clash with police",
                    "A journalist is taken from a protest on a stretcher"):
        assert caption in markdown


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
    ("Imóveis semelhantes", False, True), ("Related posts", False, True), ("Diğer duyurular", False, True),
    ("More news", False, True), ("Weitere Stellenangebote", False, True), ("Lire aussi :", False, True),
    ("관련기사", False, True), ("Other benefits", False, False), ("More about the project", False, False),
    ("En çok okunan 10 tarif", False, True), ("Most read", False, True), ("Les plus lus", False, True),
    ("Your comments", False, False), ("Comments are closed", False, False),
    ("How to write comments in Python code", False, False),
])
def test_a_title_names_the_comments_or_the_list_below_it(title, comments, related):
    from websearch_mcp.extract.replies import COMMENTS_TITLE, RELATED_TITLE

    assert (bool(COMMENTS_TITLE.match(title)), bool(RELATED_TITLE.match(title))) == (comments, related)


def test_a_post_that_opens_above_a_quoted_press_release_keeps_its_opening():
    # the post's own paragraph sits in its body, the press release it quotes in a box below it whose id
    # says "text" (a class word that favours it) and which holds more text than the post
    release = "".join(f"<p>{text}</p>" for text in (
        "The Analog Four is a four voice analog synthesizer, with two oscillators and two filters per voice.",
        "With sequencer features like parameter locks and variable length per track, compositions are quick "
        "to make, and the effects are new, well crafted, and ready for the stage.",
        "Thanks to the CV and sync outputs, older analog gear can be controlled in detail, and arpeggiators "
        "breathe new life into old equipment of every kind, from drum machines to modular racks.",
        "Live performance features are many: a performance mode gives direct access to chosen parameters, "
        "and patterns change at any step of the sequencer, so improvising on stage is easy."))
    html = ("<html><body><div class='post_content'><h1>Elektron announces a new synthesizer</h1>"
            "<div class='post_body'><p>Elektron makes button-heavy synths and samplers, and it also makes good "
            "teaser videos. Its newest box is a four voice analog synth with an internal step sequencer, several "
            "LFOs and the usual array of filters and effects, and it can drive older pre-MIDI gear too. Keep "
            "your eyes open for its December availability</p>"
            "<div id='pr_box'><div id='pr_box_button'>Show full PR text</div>"
            f"<div id='pr_text'>{release}</div></div></div></div></body></html>")
    markdown = extract_page(html, "https://www.example.com/2012/11/13/synth/").markdown
    assert "button-heavy synths" in markdown and "four voice analog synthesizer" in markdown


def _spoken(number: int, speaker: str, text: str) -> str:
    """One turn of a transcript as a transcript site lays it out: the speaker, the time code, and the words
    in a named anchor (`<a name>`, a place other pages link to, not a link)."""
    return (f"<a class='anchortop' name='{number}'></a><div class='media topic-row'>"
            f"<div class='speaker-label'>{speaker}</div><div class='timecode'>00:0{number}:00 - 00:0{number}:30 "
            f"(30 sec)</div><div class='transcript-text-block'><a name='seq{number}'>{text}</a></div></div>")


TURNS = [("Mayor", "Thank you all for coming. The new timetable starts on Monday, with a second ferry each "
          "morning and an evening boat that runs until eleven at night on weekdays."),
         ("Question", "Will the fares go up, and who pays for the extra sailings the ferry company now runs?"),
         ("Mayor", "The fares stay as they are. The extra sailing uses the vessel that waits in port overnight, "
          "so it costs the operator little, and the regional fund covers the rest of it."),
         ("Question", "What about the shift workers who asked for a later boat on weekends as well?"),
         ("Mayor", "We asked the operator to look at weekends too, and we will report back in the spring, "
          "once a winter of the new timetable has shown how many people use the late boats.")]


def test_a_transcript_whose_words_sit_in_named_anchors_is_the_content():
    # each turn carries a speaker and a time code as a reply carries a name and a date, and its words are
    # in an <a name> without an address: they are the page's own text, not links
    tags = "".join(f"<div class='tag-keyword'>{word}</div>" for word in ("ferry", "timetable", "fares",
                                                                           "shift workers", "regional fund"))
    turns = "".join(_spoken(n, speaker, text) for n, (speaker, text) in enumerate(TURNS, 1))
    html = ("<html><body><div class='row-fluid'><div class='topicheader'><span class='page-header'><h1>Press "
            "conference: the mayor on the new ferry timetable, the fares and the late boats - March 17, 2026</h1>"
            f"</span><div class='header-keywords'>{tags}</div></div></div>"
            f"<div class='row-fluid transcript-main'><div class='col-lg-9'><div id='resultsblock'>{turns}</div>"
            "</div></div></body></html>")
    markdown = extract_page(html, "https://transcripts.example.org/press-conference-ferry-march-17").markdown
    assert "second ferry each morning" in markdown and "report back in the spring" in markdown


def test_a_photo_post_gives_its_title_and_date_not_the_licence_note_beside_it():
    # the post is photos: the only prose on the page is the licence note beside it
    photos = "".join(f"<img src='/photos/summer-{n}.jpg' alt=''>" for n in range(6))
    html = ("<html><head><title>Summertime « The Streethearts</title></head><body>"
            "<div class='top'><h1><a href='https://streethearts.example.com/'>The Streethearts</a></h1></div>"
            "<div class='left-panel'><div class='post hentry'><div class='post-header'>"
            "<div class='post-header-left'><h2><a href='https://streethearts.example.com/2011/07/summertime/'>"
            "Summertime</a></h2></div><div class='post-header-right'>Posted July 26th, 2011<br>Photos by "
            "<a href='/author/eirik/'>Eirik</a> in <a href='/city/oslo/'>Oslo</a></div></div>"
            f"<div class='entry'>{photos}</div></div></div>"
            "<div class='right-panel'><p>All photos are licensed under a Creative Commons Attribution-"
            "NonCommercial-ShareAlike 3.0 Unported license. This means that you may share and remix the photos, as "
            "long as you do it in a non-commercial way, attribute the photographer and link back to us.</p></div>"
            "</body></html>")
    markdown = extract_page(html, "https://streethearts.example.com/2011/07/summertime/").markdown
    assert "Summertime" in markdown and "Posted July 26th, 2011" in markdown
    assert "licensed under" not in markdown and "The Streethearts" not in markdown


def test_a_lead_images_caption_without_a_figure_stays_and_a_later_one_goes():
    # WordPress marks a caption with a class, not <figure>: the first one (the lead image's) is part of
    # the story as a reader sees it, a caption further down is not its prose
    html = ("<html><body><div class='entry-content'><div class='wp-caption alignright'><img src='/a.jpg'>"
            "<p class='wp-caption-text'>The mayor speaks about the new ferry timetable at the harbour office on "
            "Monday morning.</p></div>" + ARTICLE +
            "<div class='wp-caption'><img src='/b.jpg'><p class='wp-caption-text'>The second ferry waits in port "
            "overnight, ready for the early crossing.</p></div></div></body></html>")
    markdown = extract_page(html, "https://news.example.com/2026/11/ferry").markdown
    assert markdown.startswith("The mayor speaks about the new ferry timetable")
    assert "second crossing each morning" in markdown and "ready for the early crossing" not in markdown


def test_a_post_of_one_line_beside_headlines_gives_its_title_and_line():
    # the post is a video and three words; the longest text on the page is another post's headline, in
    # the featured stories
    related = "".join(f"<article class='post'><a class='entry-title' href='/2012/11/{n}/'><span>{title}</span></a>"
                      "</article>" for n, title in enumerate((
                          "Geeky Parents Are Probably More Likely to Have Children Who Code",
                          "Ads for Outdated Products, a Gallery of Things Nobody Buys Any More")))
    html = ("<html><head><title>The Greatest Pizza Commercial of All Time</title></head><body>"
            "<header><h1><a href='https://geeks.example.net/'>Geeks Example</a></h1></header>"
            f"<nav id='featured'><h2>Featured Stories</h2>{related}</nav><div id='content'><article class='post'>"
            "<header class='entry-header'><h1 class='entry-title'>The "
            "Greatest Pizza Commercial of All Time</h1></header><div class='entry-content'><p><iframe "
            "src='https://video.example.com/embed/1'></iframe></p><p>Wow… just wow.</p><p>[<a "
            "href='https://nerd.example.com/pizza'>Via TN</a>]</p></div><footer class='entry-meta'><a href="
            "'/2012/11/12/pizza/'>November 12, 2012</a></footer></article>"
            "</div></body></html>")
    markdown = extract_page(html, "https://geeks.example.net/2012/11/12/pizza/").markdown
    assert "Wow… just wow." in markdown and "Geeky Parents" not in markdown


def test_a_photo_between_two_sections_leaves_its_caption_out():
    # the first figure comes after the story's first paragraph: it illustrates a section, it is not
    # the lead image whose caption a reader takes in with the headline
    paragraphs = ARTICLE.split("</p>")
    html = ("<html><body><article><div class='body'>" + paragraphs[0] + "</p><figure><img src='/b.jpg'>"
            "<figcaption>The harbour office on a winter morning, seen from the quay. Photo: archive</figcaption>"
            "</figure>" + "</p>".join(paragraphs[1:]) + "</div></article></body></html>")
    markdown = extract_page(html, "https://news.example.com/2026/11/ferry").markdown
    assert "second crossing each morning" in markdown and "late evening boat" in markdown
    assert "harbour office on a winter morning" not in markdown


def test_a_brief_above_a_longer_list_of_the_sites_other_notices_keeps_the_brief_alone():
    # the list under its title ("Other announcements") holds more text than the brief: it still goes
    others = "".join(f"<li><a href='/notices/{n}'>{title}</a> {blurb}</li>" for n, (title, blurb) in enumerate((
        ("Summer school enrolment opens", "Enrolment runs until the first of July through the student portal."),
        ("Library summer hours", "In July and August the library opens on weekdays from half past eight."),
        ("Exchange results published", "The lists of selected and reserve students are on the office's page."),
        ("Campus shuttle timetable", "In the summer term the shuttle runs every half hour between the sites."))))
    html = ("<html><body><div class='region-content'><h1>Graduation moves indoors</h1><p>Following the weather "
            "warning, Wednesday's graduation ceremony will be held in the sports hall instead of the stadium. The "
            "time does not change; each graduate may bring two guests.</p><h2>Other announcements</h2>"
            f"<ul class='list'>{others}</ul></div></body></html>")
    markdown = extract_page(html, "https://uni.example.edu/notices/graduation-indoors").markdown
    assert "held in the sports hall" in markdown
    assert "Enrolment runs until" not in markdown and "Other announcements" not in markdown


@pytest.mark.parametrize("title", ["Altre posizioni aperte", "Other open positions", "최근 공지사항",
                                   "Más fotos del día"])
def test_a_list_of_the_sites_other_pages_each_opening_with_a_link_goes_with_its_title(title):
    jobs = "".join(f"<li class='job-item'><a href='/jobs/{n}'>{name}</a><p>{text}</p></li>" for n, (name, text) in
                   enumerate((("Counter sales, Brescia", "Knowledge of tools and fasteners, available on Saturday "
                               "mornings, a driving licence for deliveries to the building sites."),
                              ("Accounts clerk, Bergamo", "Two years in accounts payable, good spreadsheet skills "
                               "and some English for the foreign suppliers."),
                              ("Delivery driver, Lecco", "A category C licence and a clean record; the routes "
                               "start at six and end by early afternoon."))))
    html = ("<html><body><div class='content'><h1>Warehouse worker, Bergamo</h1><div class='rich-text'><p>We are "
            "looking for a warehouse worker with a forklift licence for our logistics hub in Bergamo, on a "
            "permanent contract in two shifts.</p></div>"
            f"<section class='job-list'><h2>{title}</h2><ul>{jobs}</ul></section></div></body></html>")
    markdown = extract_page(html, "https://shop.example.it/jobs/warehouse-bergamo").markdown
    assert "forklift licence" in markdown and "Counter sales" not in markdown and "spreadsheet" not in markdown


@pytest.mark.parametrize(("href", "home"), [
    ("/", True), ("https://streethearts.example.com/", True), ("https://streethearts.example.com", True),
    ("#top", True), ("summertime.html", False), ("/2011/07/summertime/", False),
    ("https://streethearts.example.com/2011/07/summertime/?ref=home", False),
])
def test_a_heading_that_links_to_the_home_page_names_the_site_not_the_post(href, home):
    from websearch_mcp.extract.titled import _to_home_page

    assert _to_home_page(href) is home


@pytest.mark.parametrize("closing", [
    "© 2019 Harbour Herald. All rights reserved. This material may not be published, broadcast, rewritten or "
    "redistributed in any form without the written permission of the publisher.",
    "Bu haberin tüm yayın hakları Harbour Herald’a aittir. Kaynak gösterilmeden kullanılamaz.",
    "Tous droits réservés. Textes et photos sont la propriété de l’auteur, toute reproduction est interdite.",
    "Використання матеріалів дозволяється лише з гіперпосиланням на джерело.",
    "本网站所刊登的各种新闻、信息和各种专题专栏资料，均为本报版权所有。",
])
def test_a_notice_that_closes_the_article_goes(closing):
    html = f"<html><body><div class='story'>{ARTICLE}<div class='rights'><p>{closing}</p></div></div></body></html>"
    markdown = extract_page(html).markdown
    assert "the single early boat" in markdown and "after ten at night" in markdown
    assert closing[:20] not in markdown


def test_a_closing_paragraph_that_names_a_notice_late_stays():
    # the article's own last paragraph, which speaks of rights only after its opening
    last = ("<p>The operator's lawyers have long argued about who may copy the timetable, and whether a "
            "printed copy pinned up in a waiting room counts as publishing it; the new one carries a line "
            "that says all rights reserved, which the passenger groups found odd.</p>")
    markdown = extract_page(f"<html><body><div class='story'>{ARTICLE}{last}</div></body></html>").markdown
    assert "which the passenger groups found odd" in markdown


def test_readers_opinions_beside_a_short_article_are_comments():
    opinions = "".join(f"<div class='wpis'><b>Reader {n}</b><div class='wpis-tresc'>{text}</div></div>" for n, text in (
        (1, "We have come every July for three years with our dumplings and September is harvest time for us."),
        (2, "Two years ago the dough split in the heat before it was even cooked, so September may be better."),
        (3, "What about parking? Last year the field behind the church was mud and nobody could drive out."),
        (4, "The organisers should run a bus from the town, as they did ten years ago, and tell people early."),
    ))
    short = ARTICLE.split("</p>")[0] + "</p>"
    html = (f"<html><body><article class='post'>{short}</article>"
            f"<div class='opinie-czytelnikow'><h3>Opinie czytelników (4)</h3>{opinions}</div></body></html>")
    markdown = extract_page(html).markdown
    assert "the single early boat" in markdown and "dough split" not in markdown


def test_a_chinese_post_that_closes_with_its_reprint_rule_is_no_furniture():
    from websearch_mcp.extract import _is_furniture

    post = ("上週六天氣難得放晴，我和兩位老同學一早搭乘第一班公車到山腳下的登山口，走了一趟久違的古道。" * 4
            + "\n\n本部落格所有文章與照片皆為作者親自撰寫，未經同意請勿轉載全文。")
    assert not _is_furniture(post)  # the notice closes it, past the opening a notice is read in
    assert _is_furniture("未經同意請勿轉載全文或擅自使用照片於任何商業用途。")



BRIEF = ("<p>The ferry company will add a second crossing each morning from March, after commuters complained "
         "for two winters that the single early boat was always full by the second stop.</p>")
SECTIONS = "".join(f"<section><h2>Service {n}</h2><h4>We look after part {n} of your garden, all year.</h4>"
                   f"<small>From {20 + n} dollars a visit.</small></section>" for n in range(16))


def test_a_spread_page_reads_its_area():
    """In one <main>: a short card is what the paragraphs find, and the sections beside it, whose text
    sits in headings and short lines, are read with it."""
    html = f"<html><body><main><div class='hero'>{BRIEF}</div>{SECTIONS}</main></body></html>"
    markdown = extract_page(html, "https://gardens.example.com/").markdown
    assert "second crossing each morning" in markdown and "part 15 of your garden" in markdown


def test_a_page_of_bare_headings_is_no_spread_content():
    """Headings alone (an index, an outline) are not text spread over blocks: what was found stays."""
    headings = "".join(f"<h2>Heading number {n} of many</h2>" for n in range(60))
    html = f"<html><body><main><div class='hero'>{BRIEF}</div>{headings}</main></body></html>"
    markdown = extract_page(html, "https://gardens.example.com/").markdown
    assert "second crossing each morning" in markdown and "Heading number 59" not in markdown


def test_an_old_page_has_no_content_area():
    """A page that marks its menus and sidebars with class words only has no content area: its <body>
    would bring them in. One <main>, or a header, menu or footer in its own tag, makes one."""
    old = f"<html><body><div class='menu'>{SECTIONS}</div><div class='story'>{BRIEF}</div></body></html>"
    assert content_area(parse_html(old)) is None
    marked = old.replace("<div class='menu'>", "<nav>").replace("</div><div class='story'>", "</nav><div>")
    assert content_area(parse_html(marked)) is not None
    assert content_area(parse_html(f"<html><body><main>{BRIEF}</main><main>{BRIEF}</main></body></html>")) is None


def _streamed(frame: str, parts: dict[str, str], moves: str) -> str:
    """A page as React's streaming server sends it: the frame, then each part hidden at the end of the
    body, then the script that moves the parts into place."""
    hidden = "".join(f'<div hidden id="{ident}">{html}</div>' for ident, html in parts.items())
    return f"<html><body>{frame}{hidden}<script>{moves}</script></body></html>"


def test_parts_a_react_server_streams_are_read_where_they_belong():
    """Each part is a small share of the page (no hidden wrapper holds most of it): read as plain HTML,
    they would all be dropped, and the frame's footer would be the page."""
    paragraphs = [p + "</p>" for p in ARTICLE.split("</p>") if p]
    frame = ("<header><a href='/'>Harbour Herald</a></header><main><h1>A second morning ferry</h1>"
             + "".join(f'<!--$?--><template id="B:{n}"></template><p>Loading…</p><!--/$-->' for n in range(3))
             + "</main><footer><p>© 2026 Harbour Herald. All rights reserved.</p><p>Contact the newsroom, "
             "read our policies and find us on the harbour front every morning.</p></footer>")
    more = "<p>" + "Other stories from the coast: the lighthouse, the regatta and the fish market. " * 6 + "</p>"
    html = _streamed(frame + f"<aside>{more}</aside>", {f"S:{n}": p for n, p in enumerate(paragraphs)},
                     '$RC("B:2","S:2");$RC("B:0","S:0");$RC("B:1","S:1")')
    markdown = extract_page(html, "https://herald.example.com/ferry").markdown
    places = [markdown.find(phrase) for phrase in ("second crossing", "needs no new ship", "late evening boat")]
    assert -1 not in places and places == sorted(places), markdown  # all three, in the frame's order
    assert "Loading" not in markdown and "All rights reserved" not in markdown


def test_a_streamed_segment_fills_its_placeholder_and_an_unclosed_boundary_keeps_what_follows():
    from websearch_mcp.extract.streamed import place_streamed_parts

    html = _streamed('<main><template id="P:5"></template><!--$?--><template id="B:1"></template>'
                     "<p id='after'>Kept: no comment closes the boundary.</p></main>",
                     {"S:5": "<p>The segment's text.</p>", "S:1": "<p>The boundary's text.</p>"},
                     '$RS("S:5","P:5");$RC("B:1","S:1")')
    tree = parse_html(html)
    place_streamed_parts(tree)
    main = tree.find(".//main")
    assert [p.text for p in main.iter("p")] == ["The segment's text.", "The boundary's text.",
                                                 "Kept: no comment closes the boundary."]
    assert tree.find(".//div[@hidden]") is None  # the parts' hidden elements are gone


def test_a_streamed_fallback_goes_with_the_fallbacks_inside_it():
    from websearch_mcp.extract.streamed import drop_fallbacks

    inner = '<!--$?--><template id="B:2"></template><p>Inner spinner</p><!--/$-->'
    html = (f'<main><!--$?--><template id="B:1"></template><p>Outer spinner</p>{inner}<!--/$-->'
            '<!--$--><p>Rendered at once</p><!--/$--></main>')
    assert drop_fallbacks(html) == ('<main><!--$?--><template id="B:1"></template><!--/$-->'
                                    '<!--$--><p>Rendered at once</p><!--/$--></main>')


def _cards(links: list[str]) -> str:
    return "".join(f"<p><a href='{link}'><b>Story number {n} of the week</b></a><br>A line about story {n}, "
                   f"short as teasers are.</p>" for n, link in enumerate(links))


def test_a_box_of_linked_titles_each_on_its_own_line_is_a_list_of_other_pages():
    """Cards without headings (a bold linked title, a line break, a line) that link to the site's own
    pages: a "newest stories" box, which loses to the article beside it."""
    newest = f"<div class='boks'><h3>Newest</h3>{_cards([f'/story/{n}' for n in range(8)])}</div>"
    html = f"<html><body><table><tr><td><div id='t'>{ARTICLE}</div></td><td>{newest}</td></tr></table></body></html>"
    markdown = extract_page(html, "https://herald.example.com/ferry").markdown
    assert "second crossing each morning" in markdown and "Story number 3" not in markdown


def test_a_directory_whose_entries_link_each_to_a_site_of_its_own_is_content():
    """The same cards, each linking to another site (clinics, sources): a directory, which stays."""
    from websearch_mcp.extract.teasers import is_teaser_grid

    own = parse_html(f"<html><body><div>{_cards([f'/story/{n}' for n in range(8)])}</div></body></html>")
    directory = parse_html("<html><body><div>" + _cards([f"https://clinic{n}.example.org/" for n in range(8)])
                           + "</div></body></html>")
    assert is_teaser_grid(own.find(".//div")) and not is_teaser_grid(directory.find(".//div"))


@pytest.mark.parametrize(("label", "negative"), [
    ("td-boxed-info reklama-partnera", True), ("td-boxed-info partner", True),  # a partner's advertisement
    ("reklamy", True), ("partnership-story", False),
    ("tve-donate-row", True), ("donations", True), ("donatello-gallery", False),  # a call to give money
])
def test_an_advertisement_is_furniture_in_its_own_words(label, negative):
    from websearch_mcp.extract.labels import label_kind

    assert label_kind(label).negative is negative


@pytest.mark.parametrize("label", ["td-post-sub-title", "entry-subtitle", "article__sub_title"])
def test_a_subtitle_is_a_lead(label):
    from websearch_mcp.extract.labels import LEAD

    assert LEAD.search(label)


def _builder_page(between: str = "") -> str:
    """A page builder's page: the title and a line of introduction in a section of their own, then the
    body's sections (the body is chosen; the introduction has nothing around it)."""
    hero = ("<section class='hero'><h1>A second morning ferry</h1><p>The ferry company answers two winters of "
            f"complaints with a new early crossing.</p></section>{between}")
    body = "".join(f"<section><div><div>{paragraph}</p></div></div></section>"
                   for paragraph in ARTICLE.split("</p>") if paragraph)
    header = "<header><a href='/'>Harbour Herald</a></header>"
    return f"<html><body>{header}{hero}<div class='body'>{body}</div></body></html>"


def test_the_introduction_under_the_title_joins_the_body_below_it():
    markdown = extract_page(_builder_page(), "https://herald.example.com/ferry").markdown
    assert markdown.startswith("The ferry company answers two winters")
    assert "second crossing each morning" in markdown and "late evening boat" in markdown


def test_a_line_with_other_text_between_it_and_the_body_is_no_introduction():
    """A sidebar of other text between the title's line and the body: the line belongs to neither."""
    from websearch_mcp.extract.clean import drop_junk
    from websearch_mcp.extract.intro import intro_before
    from websearch_mcp.extract.main_content import score_paragraphs

    guide = "Our harbour guide lists every berth, every fee and every opening hour. " * 6
    aside = f"<aside><p>{guide}</p></aside>"
    found = []
    for between in ("", aside):
        tree = parse_html(_builder_page(between))
        drop_junk(tree)
        intro = intro_before([tree.find(".//div[@class='body']")], score_paragraphs(tree))
        found.append([paragraph.text[:30] for paragraph in intro])
    assert found == [["The ferry company answers two "], []]


def test_long_entries_that_mention_a_year_are_no_replies():
    """A "best of" page whose entries are long reviews, each mentioning a year somewhere in its text: a
    reply is signed at its opening or close, and a year in the middle of 3,000 characters is no
    signature. The entries are the article, not comments below the short block before them."""
    body = ("The insurer covers trips of up to ninety days, pays for a flight home and answers the phone at "
            "any hour; its claims are settled within a fortnight on average. ")
    entries = "".join(
        f"<li class='entry'><h3>Insurer {n}</h3><p>{body * 12}</p><p>Prices went up by a tenth in 2025 for "
        f"travellers over seventy.</p><p>{body * 12}</p></li>" for n in range(4))
    intro = ("<div class='intro'><h1>The best travel insurance for seniors</h1><p>We compared plans from many "
             "carriers, called each of them, and ranked "
             "them by cover, cost and service for older travellers.</p></div>")
    markdown = extract_page(f"<html><body>{intro}<ul class='entries'>{entries}</ul></body></html>").markdown
    assert "Insurer 3" in markdown and "Prices went up by a tenth" in markdown


def test_a_line_found_on_a_product_page_gives_way_to_its_details():
    """What the paragraphs find is a line (a price, a delivery date: under 25 words), and the page's <main>
    holds about a hundred words of the product's details in short blocks: fewer than the 150 a short
    article beside its page's other text must be outweighed by, more than three times the line."""
    details = "".join(f"<div><h4>Detail {n}</h4><span>Waxed cotton, part {n}.</span></div>"
                      for n in range(20))  # each shorter than a paragraph: the scorer finds only the line
    html = (f"<html><body><nav><a href='/'>Shop</a></nav><main><div class='price'><p>Delivered by Friday, "
            f"free returns within thirty days.</p></div>{details}</main></body></html>")
    markdown = extract_page(html, "https://shop.example.com/jacket").markdown
    assert "Waxed cotton, part 19." in markdown


def test_a_streamed_part_that_holds_its_own_placeholder_is_left_where_it_is():
    """A hostile page whose part would fill a placeholder inside itself (and a part inside another)
    converts without an error."""
    html = _streamed("<main><p>The frame's own paragraph, long enough to be read as the page's text.</p></main>",
                     {"S:0": '<p>A part.</p><template id="B:0"></template>'}, '$RC("B:0","S:0")')
    assert "frame's own paragraph" in extract_page(html).markdown
    inner = '<div hidden id="S:1"><p>The inner part, a sentence.</p></div><template id="B:1"></template>'
    nested = _streamed('<main><template id="B:0"></template></main>', {"S:0": inner},
                       '$RC("B:1","S:0");$RC("B:0","S:1")')
    assert "The inner part, a sentence." in extract_page(nested).markdown


def test_no_introduction_is_looked_for_above_a_body_that_comes_before_the_title():
    from websearch_mcp.extract.clean import drop_junk
    from websearch_mcp.extract.intro import intro_before
    from websearch_mcp.extract.main_content import score_paragraphs

    page = _builder_page()
    body_first = page.replace("<div class='body'>", "<div class='x'>", 1)  # move the body above the title
    start, end = body_first.index("<div class='x'>"), body_first.index("</body>")
    body = body_first[start:end].replace("<div class='x'>", "<div class='body'>", 1)
    tree = parse_html(body_first[:start].replace("<section class='hero'>", body + "<section class='hero'>")
                      + "</body></html>")
    drop_junk(tree)
    assert intro_before([tree.find(".//div[@class='body']")], score_paragraphs(tree)) == []


def test_a_page_of_bare_headings_is_turned_down_before_its_area_is_read():
    """The cheap look says no to an area whose text sits in headings only, however many words they hold."""
    from websearch_mcp.extract.spread import may_spread

    headings = "".join(f"<h2>Heading number {n} of many, with words enough to count</h2>" for n in range(60))
    sections = SECTIONS.replace("<small>", "<p>").replace("</small>", "</p>")
    for inside, expected in ((headings, False), (headings + sections, True)):
        tree = parse_html(f"<html><body><main>{inside}</main></body></html>")
        assert may_spread(tree, "A line.") is expected


NEWS_TOPICS = ("harbour", "library", "tram line", "market hall", "school roof", "river path", "bus depot",
               "swimming pool", "town hall clock", "cycle lane", "museum wing", "allotments")


def _story_cards(author_line: str = "") -> str:
    """A front page's entries: a linked title and a linked teaser each (nothing the paragraphs score),
    the first with its author's job title under it (a line of plain text, the one thing they do)."""
    cards = []
    for n, topic in enumerate(NEWS_TOPICS):
        author = f"<div class='author'><a href='/author/ana'>Ana Lind</a><div>{author_line}</div></div>" if n == 0 \
            and author_line else ""
        cards.append(f"<article class='list-item'><h2><a href='/news/{n}'>Council opens the new {topic} after "
                     f"two years</a></h2><p><a href='/news/{n}'>The {topic} reopened on Monday, and the first "
                     f"visitors came before the doors were open, the mayor said...</a></p>{author}</article>")
    return "".join(cards)


def test_a_page_that_is_a_list_of_other_pages_gives_the_list():
    """A news front page: what the paragraphs find is one entry's author line, and the page's <main> is
    twelve titled entries, nearly all of its text in links. The list is the page's content."""
    cards = _story_cards("Head of Sales and Marketing, The Harbour Group")
    html = (f"<html><body><header><a href='/'>Harbour Herald</a></header><main>{cards}</main>"
            f"<footer><p>© 2026 Harbour Herald</p></footer></body></html>")
    markdown = extract_page(html, "https://herald.example.com/news/").markdown
    assert "Council opens the new harbour" in markdown and "Council opens the new allotments" in markdown
    assert "© 2026" not in markdown


def test_a_short_story_under_its_title_keeps_the_list_beside_it_out():
    """The same entries beside a story of one paragraph under the page's title: the story is the content,
    however much of <main> the list of other stories is."""
    html = (f"<html><body><header><a href='/'>Harbour Herald</a></header><main><h1>A second morning ferry</h1>"
            f"<div class='story'>{BRIEF}</div><div class='more'>{_story_cards()}</div></main></body></html>")
    markdown = extract_page(html, "https://herald.example.com/news/ferry").markdown
    assert "second crossing each morning" in markdown and "Council opens the new" not in markdown


def test_a_line_elsewhere_than_under_the_title_is_no_story():
    """The page has a title of its own, and the first entry comes right under it: an entry (most of its
    text linked) is no story under its title, and the list is still read."""
    cards = _story_cards("Head of Sales and Marketing, The Harbour Group")
    html = f"<html><body><nav><a href='/'>Home</a></nav><main><h1>Latest news</h1>{cards}</main></body></html>"
    markdown = extract_page(html, "https://herald.example.com/news/").markdown
    assert "Council opens the new allotments" in markdown


def _deep_section(n: int, topic: str, paragraphs: int) -> str:
    """One section of a page builder's article: its paragraphs eleven levels below the block that holds
    all the sections (a row, a column, an anchor, three wrappers, a box beside its heading bar)."""
    para = (f"<p>Studies of meditation and {topic} have produced mixed results, and the trials were small, "
            f"short, and hard to compare with one another, the review said.</p>")
    content = f"<div class='content'>{para * paragraphs}<ul><li>A trial of {topic}, with 80 adults.</li></ul></div>"
    inner = (f"<div class='box'><div class='bar'><h2>Meditation and {topic}</h2></div>"
             f"<div class='c4'>{content}</div></div>")
    for name in ("c3", "c2", "c1"):
        inner = f"<div class='{name}'>{inner}</div>"
    return f"<div><div class='row'><div class='col'><div id='section-{n}'>{inner}</div></div></div></div>"


def test_an_article_in_deeply_nested_sections_is_read_whole():
    """Eight sections, the fourth the longest: the block holding them all earns its share of every
    paragraph below it, however deep (here eleven levels), and outscores the longest section."""
    topics = ("sleep", "stress", "blood pressure", "pain", "smoking", "anxiety", "attention", "eating")
    sections = "".join(_deep_section(n, topic, 8 if n == 3 else 5) for n, topic in enumerate(topics))
    html = (f"<html><body><nav><a href='/'>Health</a></nav><main><h1>Meditation: what the science says</h1>"
            f"<div class='sections'>{sections}</div></main></body></html>")
    markdown = extract_page(html, "https://health.example.gov/meditation").markdown
    assert all(f"Meditation and {topic}" in markdown for topic in topics)


CLEANING = ("We start at the top of each room and work down, so that dust falls on what is not yet clean.",
            "Clients ask for greener products every year, and we now use them in most homes we visit.",
            "A checklist for each visit keeps the work the same, whoever of our team comes to your door.",
            "Prices stay clear: you know before the first visit what a month of cleaning will cost you.")


def _builder_module(n: int, heading: str, lengths: tuple[int, ...]) -> str:
    """A page builder's text module (Divi's markup): a heading and paragraphs of about these lengths."""
    paragraphs = "".join("<p>" + " ".join(CLEANING[(n + k) % 4] for k in range(length // 90)) + "</p>"
                         for length in lengths)
    return (f"<div class='et_pb_module et_pb_text et_pb_text_{n}'><div class='et_pb_text_inner'>"
            f"<{heading}>Trend number {n}</{heading}>{paragraphs}</div></div>")


def _builder_row(n: int, *columns: str) -> str:
    cells = "".join(f"<div class='et_pb_column et_pb_column_{n}_{k}'>{cell}</div>" for k, cell in enumerate(columns))
    return f"<div class='et_pb_row et_pb_row_{n}'>{cells}</div>"


def test_an_article_of_builder_modules_in_rows_and_columns_is_read_whole():
    """A company's post written as eight text modules in four rows of one to three columns (a cleaning
    company's blog post from a Divi site, its markup kept, its text our own): the last column holds the
    longest module and one more, too little to climb to; two levels up, the section holds four times
    as much, in modules alike. The section is the article, not the last column."""
    image = "<div class='et_pb_module et_pb_image'><span></span></div>"
    rows = (_builder_row(0, image + _builder_module(0, "h2", (360,)))
            + _builder_row(1, _builder_module(1, "h3", (450,)), _builder_module(2, "h3", (360,)))
            + _builder_row(2, *(_builder_module(n, "h4", (360,)) for n in (3, 4, 5)))
            + _builder_row(3, _builder_module(6, "h4", (360,)) + _builder_module(7, "h4", (360, 360))))
    html = (f"<html><body><header><a href='/'>Clean Homes</a></header><div id='main-content'><h1>The latest "
            f"trends in house cleaning</h1><div class='et_pb_section et_pb_section_0'>{rows}</div></div>"
            f"<footer><p>© 2026 Clean Homes</p></footer></body></html>")
    markdown = extract_page(html, "https://cleanhomes.example.com/blog/trends").markdown
    assert all(f"Trend number {n}" in markdown for n in range(8)) and "© 2026" not in markdown


def test_a_code_examples_commas_are_no_prose():
    """A reference page: six short sections of prose, then recipes in one long code block. The code's
    commas are syntax, not the clauses of prose that readability's tally counts, so the block of code
    does not outscore the page and the module's sections are read with it."""
    code = "\n".join(f"def pairwise_{n}(iterable, size=2, fill=None):\n    return zip(iterable, islice(iterable, 1, "
                     f"None), repeat(fill, size))" for n in range(30))
    parts = "".join(f"<section id='part-{n}'><h2>Function {n}</h2><p>Make an iterator that returns elements from "
                    f"the iterable as long as the predicate is true, part {n}; roughly equivalent to the code below."
                    f"</p></section>" for n in range(6))
    html = (f"<html><body><div class='body'><section id='module'><h1>itertools</h1><p>This module implements a "
            f"number of iterator building blocks inspired by constructs from other languages.</p>{parts}"
            f"<section id='recipes'><h2>Recipes</h2><p>The recipes below show ways to extend the tools.</p>"
            f"<div class='highlight'><pre>{code}</pre></div></section></section></div></body></html>")
    markdown = extract_page(html, "https://docs.example.org/library/itertools.html").markdown
    assert "Function 0" in markdown and "Function 5" in markdown and "pairwise_29" in markdown


@pytest.mark.parametrize("highlighted", ["<span class='hljs-comment'>{}</span>",
                                         "<span class='token comment'>{}</span>", "<span class='c1'>{}</span>"])
def test_a_code_blocks_comments_are_its_own(highlighted):
    """A highlighter wraps a code comment in a span whose class says "comment" (highlight.js, Prism): the
    line is the code's, kept verbatim, not a comment section to prune."""
    line = highlighted.format("# initialize the repository")
    html = (f"<html><body><article><h1>Git</h1><p>Git is a version control system with a wide range of commands, "
            f"and these are the ones I use most often every day.</p><pre><code class='language-bash hljs'>{line}\n"
            f"git init</code></pre><p>That is all there is to it, and the rest you can look up in the manual "
            f"whenever you need it.</p></article></body></html>")
    assert "# initialize the repository\ngit init" in extract_page(html).markdown


def test_a_quotation_in_a_figure_is_read_with_its_source():
    """`<figure><blockquote>` with its `<figcaption>` is a quotation and who said it (a page of reviews
    from a site builder, a speaker's words pulled out of a story), not an image and its caption."""
    quotes = "".join(
        f"<div class='sqs-block quote-block'><figure class='block-animation-none'><blockquote><span>“</span>{words}"
        f"<span>”</span></blockquote><figcaption class='source'>— {name}</figcaption></figure></div>"
        for words, name in (("The classes made yoga accessible to me although I knew nothing about it when I "
                             "started, and two years later I still look forward to every single Monday.", "Abbie Y"),
                            ("A calm, patient teacher who adapts every pose to a stiff neck or a runner's knee, "
                             "and who remembers what each of us is working towards from week to week.", "Tom R")))
    html = (f"<html><body><nav><a href='/'>Home</a> <a href='/classes'>Classes</a></nav><main><h1>Reviews</h1>"
            f"<h2>Reviews of our yoga classes</h2>{quotes}<figure><img src='/studio.jpg'>"
            f"<figcaption>The studio on a winter morning</figcaption></figure></main></body></html>")
    markdown = extract_page(html).markdown
    assert "I still look forward to every single Monday" in markdown and "— Abbie Y" in markdown
    assert "from week to week" in markdown and "— Tom R" in markdown
    assert "winter morning" not in markdown  # an image's caption is still no part of the text


def test_the_main_content_hidden_until_a_script_shows_it_is_read():
    """A shop's lock-down app wraps all of `<main>` in `display:none` until its script has run: the
    reader sees it then, so it is the content; a hidden box beside it (a size guide) is still not."""
    links = "".join(f"<li><a href='/pages/{n}'>{n.title()} and more about our coffee company</a></li>"
                    for n in ("about", "wholesale", "careers", "press", "stores", "contact", "returns", "faq",
                              "shipping", "rewards", "gift cards", "recipes", "brewing", "blog", "events",
                              "accessibility", "privacy", "terms", "sustainability", "subscriptions"))
    html = (f"<html><body><header><a href='/'>Home</a></header><main><div class='easylockdown-content' "
            f"style='display:none;'><h1>Dark Roast Coffee</h1><div class='product__description'>"
            f"<h4>Darker roast for bolder days.</h4><p>Meet the yin to your yang: a bold, smooth dark roast "
            f"brewed from a balanced blend of arabica beans for flavor and robusta for strength.</p><p>Fair "
            f"Trade and organic certified, roasted in small batches every week, and shipped the day after "
            f"roasting.</p></div></div><div style='display:none'><p>Size guide: a twelve-ounce bag makes "
            f"about forty cups.</p></div></main><footer><ul>{links}</ul><p>Sign up for our newsletter to "
            f"hear about new roasts, events and offers before anyone else does, with no spam ever.</p>"
            f"</footer></body></html>")
    markdown = extract_page(html).markdown
    assert "a balanced blend of arabica beans" in markdown and "shipped the day after roasting" in markdown
    assert "Size guide" not in markdown


def test_a_question_longer_than_its_answers_keeps_them():
    """On a Q&A page the answers sit in a block of their own after the question's. When the question is
    the longest post, no post alike stands beside it: the answers below are still the thread's."""
    def post(kind, text):
        return (f"<div class='{kind} js-{kind}'><div class='post-layout'><div class='votecell'>3</div>"
                f"<div class='{kind}cell post-layout--right'><div class='s-prose js-post-body'>{text}</div>"
                f"<div class='user-info'><a href='/users/1/ana'>Ana</a> asked Oct 16, 2023</div></div></div></div>")
    question = post("question", "<p>My virtual machine gets its address from the Windows DHCP server, and the lease "
                    "shows in the console, but no A record is ever created in DNS for it.</p><p>I have enabled "
                    "dynamic updates in the scope's DNS tab, always updating records, and discarding them when the "
                    "lease is deleted, and other machines register themselves without trouble.</p><p>What can be "
                    "missing from the configuration, on the server or on the Ubuntu client?</p>")
    answers = "".join(post("answer", text) for text in (
        "<p>Only Windows clients update DNS by default. Configure nsupdate on the Ubuntu server.</p>",
        "<p>Set DNSStubListener=no in resolved.conf, and the server registered its address at once.</p>"))
    html = (f"<html><body><div id='content'><div id='mainbar'><div id='question-header'><h1>No DNS record for a "
            f"DHCP client</h1></div>{question}<div id='answers'><h2>2 Answers</h2>{answers}</div></div>"
            f"<div id='sidebar'><ul><li><a href='/q/2'>How do I renew a lease?</a></li></ul></div></div></body></html>")
    markdown = extract_page(html, "https://serverfault.com/questions/1146074/no-dns-record").markdown
    assert "no A record is ever created" in markdown
    assert "Configure nsupdate" in markdown and "DNSStubListener=no" in markdown


@pytest.mark.parametrize(("figure", "kept"), [
    ("<figure class='wp-block-table'><table><thead><tr><th>Year</th><th>Crossings a day</th></tr></thead><tbody>"
     "<tr><td>2024</td><td>12</td></tr><tr><td>2025</td><td>14</td></tr></tbody></table></figure>",
     "| 2025 | 14 |"),
    ("<figure class='highlight'><pre><code class='language-python'>def crossings(day):\n    return 14</code></pre>"
     "</figure>", "def crossings(day):\n    return 14"),
    ("<figure class='highlight'><table><tr><td class='gutter'><pre>1</pre></td><td class='code'><pre>"
     "timetable --second-boat</pre></td></tr></table></figure>", "timetable --second-boat"),
])
def test_a_figure_of_text_is_read(figure, kept):
    """WordPress puts every table in a `<figure>`, Jekyll's and Hexo's highlighters every code block: a
    figure of text is the article's, not an image beside it."""
    html = f"<html><body><article><h1>Ferries</h1>{ARTICLE}{figure}{ARTICLE}</article></body></html>"
    assert kept in extract_page(html).markdown


def test_a_documentation_sections_id_is_its_titles_slug_not_a_part():
    """Documentation generators name a section's id after its title and link the title to it: Django's
    `select_related()` section is `id="s-select-related"`, MkDocs' heading `id="related-settings"`. The
    word "related" there names no related-posts box."""
    section = ("<section id='s-select-related'><span id='select-related'></span><h4><code>select_related()</code>"
               "<a class='headerlink' href='#select-related'>¶</a></h4><p>Returns a QuerySet that will follow "
               "foreign-key relationships, selecting additional related-object data when it executes its query, "
               "which is a performance booster.</p><p>The following examples illustrate the difference between "
               "plain lookups and select_related() lookups, in the number of database queries each needs.</p>"
               "</section>")
    heading = ("<h2 id='related-settings'>Related settings<a class='headerlink' href='#related-settings'>¶</a></h2>"
               "<p>Two more settings change how the cache behaves, and both default to the values most sites "
               "need, so you rarely have to set them at all.</p>")
    boxed = ("<div id='related-posts'><h3>Related posts</h3><p>Another post about query sets, and how they are "
             "evaluated lazily, from last year's series on the database layer.</p></div>")
    html = (f"<html><body><main><h1>QuerySet API</h1><section id='s-methods'><h2>Methods</h2><p>This document "
            f"describes the details of the QuerySet API, and builds on the material presented in the model and "
            f"database query guides.</p>{section}{heading}</section>{boxed}</main></body></html>")
    markdown = extract_page(html).markdown
    assert "follow foreign-key relationships" in markdown and "plain lookups and select_related()" in markdown
    assert "Related settings" in markdown and "rarely have to set them" in markdown
    assert "evaluated lazily" not in markdown  # a box the id names, with no link to itself, is still one


TAKES = ("I expect the second half of the year to be calmer than the first, once the elections are over, and "
         "markets to settle with them, although energy prices will stay high through the winter.",
         "Local models will get good enough that most people stop paying for the hosted ones at home, and the "
         "companies selling them will turn to businesses, where the money was all along anyway.",
         "Nothing much will change, and we will all be back here next December guessing again, which is fine, "
         "since the guessing is half the fun and nobody keeps score of who was right.",
         "Rates will come down slowly, house prices will not, and renters in the big cities will feel it most, "
         "as they did this year, unless something changes in how much gets built.",
         "More of the web will sit behind logins, paywalls and apps, and the open, linkable parts of it will "
         "keep shrinking, which worries me more than anything on this list.")


@pytest.mark.parametrize("url", ["https://news.ycombinator.com/item?id=38778098",
                                 "https://old.reddit.com/r/Python/comments/18rq2x1/predictions_for_2024/"])
def test_a_discussion_sites_thread_is_its_comments(url):
    """A Hacker News item or a Reddit post is a thread by its address: the comments below the story are
    the content, not an article's comments to leave out."""
    comments = "".join(
        f"<tr class='athing comtr' id='{n}'><td><table><tr><td class='ind'></td><td class='default'>"
        f"<div class='comhead'><a href='user?id=u{n}'>u{n}</a> <a href='item?id={n}'>on Dec 27, 2023</a> | "
        f"<a href='#{n + 1}'>next</a> <a class='togg' href='javascript:void(0)'>[–]</a></div>"
        f"<div class='comment'><div class='commtext c00'>{text}<p>{TAKES[(n + 1) % len(TAKES)]}</div>"
        f"<div class='reply'><a href='reply?id={n}'>reply</a></div></div></td></tr></table></td></tr>"
        for n, text in enumerate(TAKES * 5))
    html = (f"<html><body><center><table id='hnmain'><tr><td><table class='fatitem'><tr class='athing'>"
            f"<td class='title'><a href='item?id=1'>Ask HN: What are your predictions for 2024?</a></td></tr>"
            f"<tr><td class='subtext'>"
            f"89 points by <a href='user?id=k'>koconder</a> <a href='item?id=1'>on Dec 26, 2023</a> | "
            f"<a href='hide?id=1'>hide</a> | <a href='https://hn.algolia.com/?query=predictions'>past</a> | "
            f"<a href='fave?id=1'>favorite</a> | <a href='item?id=1'>137 comments</a></td></tr><tr><td>"
            f"Economics, geopolitics and technology all look set for a crazy twelve months: what do you think 2024 "
            f"has in store?</td></tr></table><table class='comment-tree'>{comments}</table>"
            f"</td></tr></table></center></body></html>")
    markdown = extract_page(html, url).markdown
    assert "calmer than the first" in markdown and "stop paying for the hosted ones" in markdown
    assert "back here next December" in markdown


def test_a_quotation_built_of_blocks_in_a_figure_is_read():
    """A site's "Embedded quote" is a `<figure>` of `<div>`s, the avatar beside the words: prose outside
    a caption makes a figure text. A shop's tile of another page, one link, stays out."""
    quote = ("<figure aria-label='Embedded quote' class='Quote_component typo-block'><div class='Quote_avatar'>"
             "<img src='/a.png' alt='Pat Reinhart'></div><div class='Quote_body'><p>People are still so focused "
             "on how much organic traffic they are driving, when they should be focused on whether the people who "
             "arrive find what they came for, and on whether they come back the week after.</p><p>Pat Reinhart, "
             "VP of Services</p></div></figure>")
    tile = ("<figure class='product-card'><a href='/t/pegasus-41'>Nike Pegasus 41 GORE-TEX Men's Waterproof Road "
            "Running Shoes, 3 colours, $160, recycled materials, just in this week for the wet season</a></figure>")
    html = f"<html><body><article><h1>Is SEO dead?</h1>{ARTICLE}{quote}{ARTICLE}{tile}</article></body></html>"
    markdown = extract_page(html).markdown
    assert "whether they come back the week after" in markdown
    assert "Pegasus" not in markdown


def test_a_product_block_deferred_by_a_script_is_read_under_a_bare_header():
    """A shop defers its whole product block (`display: none` until its script runs) under a header and
    footer of menus, with hidden menus and carousels beside it: the hidden block holds several times the
    text the page shows, so it is what a reader sees once the page has run."""
    menu = "".join(f"<li><a href='/c/{n}'>{n.title()} supplements and vitamins</a></li>"
                   for n in ("sports", "bath", "beauty", "grocery", "home", "baby", "pets", "herbs"))
    hidden_menu = f"<nav style='display:none'><ul>{menu * 8}</ul></nav>"
    product = ("<div class='product-grouping-wrapper defer-block' style='display: none'><h1>Almond Thins, "
               "Cranberry Almond, 149 g</h1><h2>Product overview</h2><ul><li>Low fat</li><li>No added salt</li>"
               "<li>Baked in small batches</li></ul><p>Our family created these crunchy almond crisps for special "
               "occasions and get-togethers, a lighter version of a grandmother's secret family recipe.</p><p>The "
               "crisps quickly became a requested snack at the office, at school events, on road trips and at "
               "parties, and they go well with cheese, tea or coffee.</p><h2>Ingredients</h2><p>Wheat flour, "
               "cranberries, almonds, sugar, eggs, canola oil, natural flavours and baking soda.</p></div>")
    html = (f"<html><body><header><a href='/'>Shop</a> <a href='/account'>Sign in</a></header>{hidden_menu}"
            f"{product}<div style='display:none'><p>Customers also viewed these products this week.</p></div>"
            f"<footer><a href='/help'>Help</a> <a href='/shipping'>Free shipping over 40 euros</a></footer>"
            f"</body></html>")
    markdown = extract_page(html).markdown
    assert "a grandmother's secret family recipe" in markdown and "Wheat flour, cranberries" in markdown
    assert "Customers also viewed" not in markdown and "supplements and vitamins" not in markdown


def _desk_category(kind: str) -> str:
    """A shop's category: a hero with the page's title and one line, then a grid of desks, each a linked
    name with its price and a note (kind: the page's Open Graph type)."""
    hero = ("<div class='hero'><h1>Standing desks</h1><p>Improve your comfort and focus with the desk our "
            "readers picked nine years running.</p></div>")
    tiles = "".join(f"<div class='tile'><a href='/desks/{n}'><img src='/d{n}.jpg'></a><a href='/desks/{n}'>"
                    f"OakLift standing desk, model {n:02} with two legs</a><p>From ${400 + 25 * n} +</p>"
                    f"<p>Rated 4.{n % 9}</p></div>" for n in range(14))
    head = f"<head><meta property='og:type' content='{kind}'><title>Standing desks</title></head>"
    return (f"<html>{head}<body><header><a href='/'>Desks</a></header><main>{hero}<div class='grid'>{tiles}"
            f"</div></main><footer><a href='/help'>Help</a></footer></body></html>")


def test_a_heros_line_above_a_shops_grid_gives_the_grid():
    """The block under the page's title is a hero's one line; the desks below it (their linked names, and
    prices and notes that outweigh the line several times) are the page, which lists them."""
    markdown = extract_page(_desk_category("website")).markdown
    assert "readers picked nine years running" in markdown
    assert "OakLift standing desk, model 03 with two legs" in markdown and "$650" in markdown


def test_a_brief_under_its_title_stays_alone_on_an_article_page():
    """The same blocks on a page that says it is an article: the text under its title is the brief,
    and the links below it are other pages."""
    markdown = extract_page(_desk_category("article")).markdown
    assert "readers picked nine years running" in markdown and "model 03 with two legs" not in markdown


def _auction(kind: str, shipping_class: str = "shipping") -> str:
    """A marketplace's item page: title, price and condition beside a long shipping box (the block with
    the most text), the item's details and the seller's notes below, a row of other items and a footer."""
    shipping = (f"<div class='{shipping_class}'><p>Shipping: US $15.47 by international post. Shop with confidence "
                "for things you love from sellers worldwide, with tracking and returns included, whatever the "
                "destination.</p><p>Import fees may apply on delivery: customs may charge duties, taxes and "
                "processing fees when the item arrives, and the carrier will ask you to pay them before it "
                "delivers.</p><p>Delivery is estimated between the 14th and the 30th, depending on the service "
                "chosen and on when your payment clears.</p></div>")
    details = ("<div class='specifics'><h2>Item specifics</h2><dl><dt>Condition</dt><dd>Used, folded once</dd>"
               "<dt>Year</dt><dd>1958</dd><dt>Pages</dt><dd>8</dd><dt>Maker</dt><dd>Ford Motor Company</dd>"
               "<dt>Models</dt><dd>P-350, P-500 and P-600</dd><dt>Language</dt><dd>English</dd><dt>Size</dt>"
               "<dd>11 by 8.5 inches</dd><dt>Printed in</dt><dd>Dearborn, Michigan</dd></dl></div>"
               "<div class='notes'><h2>From the seller</h2><p>Original dealer brochure for the parcel delivery "
               "trucks, with colour drawings of each body style.</p></div>")
    others = "".join(f"<li><a href='/itm/{n}'>Vintage truck brochure number {n} of the fifties</a></li>"
                     for n in range(8))
    return (f"<html><head><meta property='og:type' content='{kind}'><title>1958 truck brochure</title></head>"
            f"<body><header><a href='/'>Market</a></header><main><h1>1958 parcel delivery truck brochure</h1>"
            f"<div class='buy'><span>US $18.00</span><span>Buy It Now</span></div>{shipping}{details}"
            f"<ul class='similar'>{others}</ul></main><footer><a href='/help'>Help</a></footer></body></html>")


def test_a_product_page_gives_what_a_buyer_reads():
    """On a page that says it is a product's, the block with the most text (the shipping terms) is one
    part of the product: the page's content area, other items' links set aside, is the product."""
    markdown = extract_page(_auction("product")).markdown
    assert "US $18.00" in markdown and "Import fees may apply" in markdown
    assert "Used, folded once" in markdown and "Original dealer brochure" in markdown
    assert "Vintage truck brochure number 3" not in markdown
    plain = extract_page(_auction("website")).markdown  # a page that does not say so: the block found
    assert "Import fees may apply" in plain and "Original dealer brochure" not in plain


def test_a_products_description_found_is_kept_as_it_is():
    """When the block found on a product's page is the product's description (its class says so), it is
    what the shop writes of the product, and the page's other blocks stay out."""
    markdown = extract_page(_auction("product", shipping_class="product-description")).markdown
    assert "Import fees may apply" in markdown and "Original dealer brochure" not in markdown


def test_a_shops_t_address_is_no_forums_thread():
    """A shop's product address under "/t/" (as a forum's threads are) is a product's page when the page
    says so: its content area is read, not its blocks alike as posts."""
    markdown = extract_page(_auction("product"), "https://shop.example/t/truck-brochure-1958").markdown
    assert "US $18.00" in markdown and "Original dealer brochure" in markdown


def test_a_top_ten_keeps_the_names_its_headings_link_to():
    """A "top ten" whose items' headings are links to the agencies it ranks: the headings name what each
    paragraph describes, and stay; a lone linked heading in an article (a teaser's title) still goes."""
    items = "".join(f"<h2><a href='https://agency{n}.example/'>{n}. Agency number {n}</a></h2><p>The agency "
                    f"number {n} runs campaigns for shops and banks, with a team of {10 * n} people, and it "
                    f"answers every client within a day of the request.</p>" for n in range(1, 8))
    listicle = extract_page(f"<html><body><article><h1>The best agencies</h1>{items}</article></body></html>")
    assert "[1. Agency number 1](https://agency1.example/)" in listicle.markdown
    assert "7. Agency number 7" in listicle.markdown and "a team of 70 people" in listicle.markdown
    teaser = "<h3><a href='/other-story'>Another story from this week</a></h3>"
    article = extract_page(f"<html><body><article>{ARTICLE}{teaser}</article></body></html>")
    assert "second crossing each morning" in article.markdown and "Another story" not in article.markdown


def _grouped_story() -> str:
    """A news page whose body's paragraphs sit in groups alike (as some newspapers' page builders make
    them), each group holding a year, under a header with the title and the publication time."""
    years = (2008, 2011, 2014, 2016)
    groups = "".join(f"<div class='group'><p>Coal output in the basin peaked in {year}, the state survey says, "
                     f"and {n + 2} of its mines have cut shifts since then.</p><p>Gas plants took the "
                     f"contracts the mines lost, and the rail yards that served them now run {n + 1} "
                     f"trains a week.</p><p>Local officials expect the tax base to shrink further.</p></div>"
                     for n, year in enumerate(years))
    return (f"<html><body><header class='ArticleHeader'><a href='/energy/'>Energy</a>"
            f"<h1>The basin's coal stronghold is losing steam, even as the state aims for a revival</h1>"
            "<div>Published Tue, Dec 20 2016 10:32 AM EST Updated Tue, Dec 20 2016 6:29 PM EST</div></header>"
            f"<div class='ArticleBody-articleBody'>{groups}</div></body></html>")


def test_an_articles_body_in_groups_alike_is_no_run_of_replies():
    """Groups alike, each with a year in its text, look like signed replies; inside a block named the
    article's body they are its paragraphs, and the header before them (title and time) is no article
    they are the comments of."""
    page = extract_page(_grouped_story())
    assert "peaked in 2008" in page.markdown and "trains a week" in page.markdown
    assert "Local officials expect" in page.markdown


def _tailwind_story(wrapper: str) -> str:
    """A news page in Tailwind's utility classes: each of the article's paragraphs in a box of its own,
    inside a wrapper whose classes are utilities under variants, and a list of teasers below."""
    story = "".join(f"<div class='my-6'><p class='richtext mx-6'>The school in the river town tried a chatbot "
                    f"in its {n}th grade class, and the pupils argued with it for an hour about a beehive; the "
                    f"teacher says they learned to weigh reasons.</p></div>" for n in range(7, 12))
    teasers = "".join(f"<span class='flex flex-col'>Teaser headline number {n} about the regional parliament, "
                      f"its budget, and the new rules for schools</span>" for n in range(1, 9))
    return (f"<html><body><main><article><h1>A chatbot in the classroom</h1><div class='{wrapper}'>{story}</div>"
            f"</article><div class='content-list'>{teasers}</div></main></body></html>")


def test_a_tailwind_variant_names_no_part_of_the_page():
    """`after:table` styles the wrapper's ::after box; "after" is no place after the content, and the
    article inside that wrapper is still the article."""
    page = extract_page(_tailwind_story("after:table after:clear after:w-full print:desktop:px-6"))
    assert "about a beehive" in page.markdown and "Teaser headline" not in page.markdown
    assert label_kind("after-content").negative and not label_kind("after:table after:clear").negative


def _reference_page() -> str:
    """A module's reference page: an introduction, a section of functions with a highlighted listing
    whose comment spans are long and full of commas (`# accumulate([1,2,3]) → 1, 3, 6`), and a section
    of recipes."""
    def prose(topic: str) -> str:
        return "".join(f"<p>The {topic} part number {n} explains how the iterators of this module combine "
                       f"into fast tools that use little memory.</p>" for n in range(2))
    spans = "\n".join(f"<span class='c1'># accumulate([{n},2,3,4,5], initial={n}) → {n}, {n + 2}, {n + 5}, "
                      f"{n + 9}, {n + 14}</span>" for n in range(15))
    return (f"<html><body><div class='body'><section id='intro'><h1>itertools</h1>{prose('introduction')}"
            f"</section><section id='functions'><h2>Functions</h2>{prose('function')}<div class='highlight'>"
            f"<pre>{spans}</pre></div></section><section id='recipes'><h2>Recipes</h2>{prose('recipe')}"
            f"</section></div></body></html>")


def test_a_code_blocks_highlighted_spans_are_not_paragraphs():
    """A highlighter's spans inside a code block (its comments, its long strings) are the listing's, not
    paragraphs of their own: their commas are syntax, and the listing does not outweigh the prose that
    documents it."""
    page = extract_page(_reference_page()).markdown
    assert "introduction part number 0" in page and "recipe part number 1" in page


def _party_topic_page() -> str:
    """A page builder's topic page: a section of text modules, each in a container and wrappers of its
    own; the first module holds the opening prose, the second a heading and a numbered list of long
    points (the body, most of the text), the last a few links to related topics."""
    opening = "".join(f"<p>Work is a central part of most people's lives, and point {n} of our view is that "
                      f"good work pays fairly. People put energy, time, skill and ideas into it; when it is "
                      f"good, they feel needed and respected, and it secures their families. That is why "
                      f"unemployment and unfair pay are a danger to how our society holds together.</p>"
                      for n in range(3))
    points = "".join(f"<li><strong>Measure {n}: fair wages for everyone.</strong> Companies will have to "
                     f"pay equal wages for equal work, and we want a law on equal pay instead of the toothless one, "
                     f"so that unfair pay between women and men is found and ended. Temporary workers get the "
                     f"same pay as the core staff from the first day, plus a premium for their flexibility, "
                     f"and minimum wages by sector are declared binding sooner, for all firms alike.</li>"
                     for n in range(6))
    module = ("<div class='module--container'><div class='module--inner'><div class='module--text'>{}</div>"
              "</div></div>")
    related = "<a href='/steuern'>Taxes</a><a href='/rente'>Pensions</a>"
    return (f"<html><body><nav><a href='/'>Home</a><a href='/themen'>Topics</a></nav><main><section>"
            f"<header><h1>We fight for good work</h1></header>{module.format(opening)}"
            f"{module.format('<h2>What we plan</h2><ol>' + points + '</ol>')}{module.format(related)}"
            f"</section></main></body></html>")


def test_the_opening_in_a_text_module_of_its_own_joins_the_body_below():
    """The numbered list of long points wins (it holds most of the text), but the article opens in the
    text module before it, three wrappers up: that module is read with it, and the links after are not."""
    page = extract_page(_party_topic_page()).markdown
    assert "point 0 of our view" in page and "point 2 of our view" in page and "Measure 0" in page
    assert "Measure 5: fair wages" in page and "Pensions" not in page


def _old_news_layout() -> str:
    """A news page of 2014: the first paragraphs each in a block of its own, a box of related articles,
    then the block that holds the rest of the story."""
    ordinals = ("first", "second", "third", "fourth")
    opening = "".join(f"<div class='{o}Par'><p>The {o} paragraph says that newly released files show the prime "
                      f"minister tried to delay the new exams, fearing they would lower standards.</p></div>"
                      for o in ordinals)
    related = ("<div class='related-links'><h3>Related Articles</h3><ul>" + "".join(
        f"<li><a href='/news/{n}'>Files reveal what the cabinet feared in year {n}</a></li>"
        for n in range(1986, 1992)) + "</ul></div>")
    body = "<div class='body'>" + "".join(
        f"<p>Paragraph {n} of the body: the papers, released by the National Archives in Kew, record her "
        f"worries, her letters to the education secretary, and the answers of her advisers.</p>"
        for n in range(10)) + "</div>"
    return (f"<html><body><div id='masthead'><a href='/'>Home</a><a href='/news'>News</a></div>"
            f"<div id='mainBodyArea'>{opening}{related}{body}</div></body></html>")


def test_the_first_paragraphs_in_blocks_of_their_own_join_the_body_past_a_box_of_links():
    page = extract_page(_old_news_layout()).markdown
    assert "The first paragraph says" in page and "The fourth paragraph says" in page
    assert "Paragraph 9 of the body" in page and "what the cabinet feared" not in page


@pytest.mark.parametrize("title", ["<h4>Products to go with this story</h4>",
                                   "<div class='summary-header'><h3>Products to go with this story</h3></div>"])
def test_a_titled_list_of_the_shops_products_beside_an_article_is_not_more_of_it(title):
    body = "".join(f"<p>{text}</p>" for text in (
        "When the nights turn cold the skin loses water faster, and a cleanser that strips it leaves it "
        "tight and red by the evening, whatever cream follows it.",
        "Wash with lukewarm water, pat the face dry with a towel, and put on the toner and cream within "
        "three minutes, before the water on the skin has gone.",
        "A mild gel cleanser with a pH near that of the skin, 5.5, is the first thing to change, long "
        "before the moisturiser, and the change shows within a week."))
    cards = "".join(
        f"<li class='record'><div class='box'><div class='thumbnail'><a href='/product/{n}'><img src='/{n}.jpg' "
        f"alt=''></a></div><div class='description'><strong class='name'><a href='/product/detail?no={n}'>"
        f"<span>{name}</span></a></strong><div class='summary'>{desc}</div><ul class='spec'><li><span>{price}"
        "</span></li></ul></div></div></li>"
        for n, name, desc, price in (
            (110, "Calming toner 200 ml",
             "Seventy per cent plant extract soothes reddened skin and keeps the balance of oil and water.", "24.00"),
            (111, "Barrier cream 50 ml",
             "Panthenol and ceramides fill the gaps of a worn skin barrier through a dry winter.", "32.00"),
            (112, "Mineral sunscreen",
             "A light sunscreen that leaves no white cast and suits sensitive skin in every season.", "28.00"),
            (113, "Gel cleanser 150 ml",
             "A low-irritation gel at pH 5.5 that leaves the skin soft and moist after washing.", "19.00")))
    html = ("<html><body><div id='header'><ul class='menu'><li><a href='/toner'>Toners</a></li><li><a "
            "href='/cream'>Creams</a></li><li><a href='/magazine'>Magazine</a></li></ul></div><div id='contents'>"
            f"<div class='read-view'><h3>Why a cold season starts with the cleanser</h3>"
            f"<div class='detail'>{body}</div>"
            f"<div class='relation-product'>{title}<ul class='grid'>{cards}</ul></div>"
            "</div></div><div id='footer'><p>Mellow Skin Ltd, 12 Harbour Road, customer line 0800 123 456</p>"
            "</div></body></html>")
    markdown = extract_page(html, "https://shop.example.org/magazine/read/41").markdown
    assert "a cleanser that strips it" in markdown and "the change shows within a week" in markdown
    assert "Panthenol and ceramides" not in markdown and "leaves no white cast" not in markdown, markdown


def test_a_closing_notice_set_as_a_line_after_a_break_is_set_aside():
    # a blog of line breaks, no paragraphs: its rights line is an inline element after the last break
    lines = "<br><br>".join((
        "We reached Kargopol on the evening bus, three hours from the railway, and walked to the old town "
        "through streets of wooden houses with carved window frames.",
        "In the workshop on October Street a potter showed us how the clay toys are shaped, dried for days "
        "and fired in an ordinary stove before they are painted.",
        "Tomorrow we go on to the villages with the tented churches. To be continued."))
    html = (f"<html><body><div class='header'><a href='/'>Northern road</a></div><article class='entry-content'>"
            f"{lines}<br><br><i>© All photographs and texts in this journal belong to the author. No reprints "
            "without the author's written permission.</i></article><div class='footer'>About this journal</div>"
            "</body></html>")
    markdown = extract_page(html, "https://northern-road.example.org/71502.html").markdown
    assert "carved window frames" in markdown and "To be continued." in markdown
    assert "belong to the author" not in markdown, markdown


def test_readers_opinions_under_a_title_with_a_link_to_add_ones_own_are_the_comments():
    opinions = "".join(
        f"<div class='op'><div class='op-n'><b>{name}</b> ~ IP: 83.21.xxx.xxx ~ {date}</div>"
        f"<div class='op-t'>{text}</div></div>" for name, date, text in (
            ("stała klientka", "24.04.2014 14:20", "Od dwudziestu lat kupuję u tych samych pań warzywa i jajka, "
             "zawsze na Kościuszki, a teraz mam jeździć na drugi koniec miasta z ciężkimi siatkami i czekać "
             "na autobus, który jeździ co pół godziny."),
            ("kupiec", "24.04.2014 15:02", "Nikt nas nie pytał o zdanie, a opłata targowa na nowym placu ma być "
             "wyższa niż dotąd, chociaż klientów będzie mniej, bo nowe miejsce jest daleko od centrum."),
            ("mieszkaniec", "24.04.2014 16:45", "Wreszcie ktoś się za to wziął, bo w dni targowe nie da się "
             "przejechać ulicą Kościuszki, a samochody stoją na chodnikach i na trawnikach pod blokami."),
            ("emeryt", "24.04.2014 18:10", "Autobus co pół godziny to za mało, niech jeździ co kwadrans "
             "przynajmniej rano, kiedy są największe zakupy, bo inaczej starsi ludzie zostaną w domach.")))
    html = ("<html><body><table id='uklad'><tr><td class='lewa'><a href='/'>Start</a><br><a href='/wiadomosci'>"
            "Wiadomości</a></td><td class='srodek'><div class='news'><h1>Targowisko przeniosą na Zamojską</h1>"
            "<div class='news-tresc'>Od czerwca targowisko miejskie ma działać przy ulicy Zamojskiej, na terenie "
            "dawnej bazy PKS.<br><br>Na nowym miejscu powstanie 180 stanowisk, z czego 40 zadaszonych, oraz "
            "parking na 120 aut.</div></div>"
            "<div id='opinie'><div class='opinie-naglowek'>Opinie czytelników (4) &nbsp; <a href='#'>dodaj "
            f"opinię</a></div>{opinions}</div></td></tr></table></body></html>")
    markdown = extract_page(html, "https://ebilgoraj.example.pl/wiadomosci/targowisko.html").markdown
    assert "dawnej bazy PKS" in markdown and "parking na 120 aut" in markdown
    assert "warzywa i jajka" not in markdown and "co kwadrans" not in markdown, markdown



def test_the_sections_of_an_about_page_made_alike_are_all_read():
    def section(kind: str, title: str, paragraphs: tuple[str, ...]) -> str:
        text = "".join(f"<p>{paragraph}</p>" for paragraph in paragraphs)
        return (f"<div class='section {kind} wf-section'><div class='container narrow'><h2 class='heading'>{title}"
                f"</h2><div class='rich-text w-richtext'>{text}</div></div></div>")

    html = ("<html><body><div class='navbar' role='banner'><nav><a href='/'>Home</a> <a href='/about'>About</a> "
            "<a href='/donate'>Donate</a></nav></div>"
            "<div class='section hero wf-section'><div class='container'><h1>No one should grow old alone</h1>"
            "</div></div>"
            + section("plain", "Our story", (
                "It began with a list written by hand and pinned up in the grocer's on the square, where neighbours "
                "signed up to visit an older neighbour once a week, and within months it held forty names.",
                "In 2014 we became a charity and took the visits to three more districts; in 2019 we could hire a "
                "social worker and a full-time coordinator of the volunteers."))
            + "<div class='section stats wf-section'><div class='container'><p>Ten euros a month pays for a month of "
              "daily calls.</p><a href='/donate'>Give</a></div></div>"
            + section("light", "How we work", (
                "Each person has a volunteer of their own, who visits at least once a week and rings on the other "
                "days; the volunteers are trained first and meet the staff every month.",
                "We work with the parish councils, the health centres, the chemists and the shops, because the "
                "chemist or the man at the café is often the first to notice that someone needs help."))
            + "<footer><p>Neighbours of the Old Town, a registered charity</p></footer></body></html>")
    markdown = extract_page(html, "https://neighbours.example.org/about").markdown
    assert "a list written by hand" in markdown and "full-time coordinator" in markdown
    assert "a volunteer of their own" in markdown and "the first to notice" in markdown, markdown


def test_a_call_to_action_inside_the_content_goes_and_cards_with_read_more_buttons_stay():
    story = "".join(f"<p>{text}</p>" for text in (
        "Our practice opened in 1998 in two rooms above the pharmacy on the market square, with one chair, one "
        "nurse and a waiting list that filled the appointment book for half a year.",
        "Today six dentists, two hygienists and a team of nurses care for about four thousand patients, "
        "children and adults, in a building we renovated in 2017 with step-free access."))
    call = ("<div class='inner-box'><h3>New patient? We take our time.</h3><p>For a first visit we plan more time. "
            "Book online or call us during opening hours.</p><a class='elementor-button' href='/book'>Book now</a>"
            "</div>")
    html = (f"<html><body><div class='menu'><a href='/'>Home</a></div><div class='entry-content'>{story}{call}"
            "</div><div class='footer'>Dental practice on the square</div></body></html>")
    markdown = extract_page(html, "https://dental.example.de/about").markdown
    assert "two rooms above the pharmacy" in markdown and "step-free access" in markdown
    assert "we plan more time" not in markdown, markdown

    cards = "".join(
        f"<section class='page-section'><div class='module'><div class='container'><h4>{title}</h4><p>{text}</p>"
        f"<p><a class='button primary-button' href='/news/{n}'>Read more</a></p></div></div>"
        "</section>" for n, (title, text) in enumerate((
            ("Tutoring program seeks to lift reading rates", "At the local level, 115 students benefited from the "
             "tutors over the past year, in 6,312 sessions of reading support."),
            ("Tutors bring reading help to schools across the state", "The program uses one-on-one tutors to "
             "teach children from kindergarten through third grade to read."),
            ("Early learning corps receives a new grant", "The grant will pay for forty more tutors in the "
             "state's early learning centres over the next two years."))))
    html = ("<html><body><div class='menu'><a href='/'>Home</a></div><main><h1>In the news</h1><p>Newspapers, radio "
            "and television have told the story of our tutors and the children they teach, in the towns and the "
            "countryside alike; here are some of the reports of the past year.</p>"
            f"<div class='list'>{cards}</div></main>"
            "<div class='footer'>Reading Corps</div></body></html>")
    markdown = extract_page(html, "https://reading.example.org/about/in-the-news/").markdown
    assert "6,312 sessions" in markdown and "one-on-one tutors" in markdown and "forty more tutors" in markdown


def test_a_box_of_notices_paragraph_after_paragraph_is_neither_the_article_nor_more_of_it():
    notices = "".join(f"<p>{text}</p>" for text in (
        "Regulamin komentowania: komentarze publikowane pod artykułami są prywatnymi opiniami ich autorów i nie "
        "odzwierciedlają stanowiska redakcji. Redakcja zastrzega sobie prawo do usuwania wpisów, które zawierają "
        "treści obraźliwe, wulgarne lub niezgodne z prawem, a także reklamy i linki do innych serwisów, bez "
        "podawania przyczyny, oraz do blokowania kont użytkowników, którzy wielokrotnie łamią te zasady.",
        "Aby dodać komentarz, musisz być zalogowany. Zaloguj się lub załóż bezpłatne konto.",
        "Informacja RODO: Administratorem Twoich danych osobowych jest wydawca serwisu. Dane przetwarzamy w celu "
        "obsługi komentarzy i konta; masz prawo dostępu do nich, ich sprostowania, usunięcia lub ograniczenia "
        "przetwarzania, a także prawo wniesienia skargi do Prezesa Urzędu Ochrony Danych Osobowych."))
    html = ("<html><body><div class='menu'><a href='/'>Start</a></div><div class='article'><h1>Nowe ścieżki "
            "rowerowe</h1><div class='tresc'><p>Rada miasta zatwierdziła budowę dwóch ścieżek rowerowych o łącznej "
            "długości 3,4 kilometra, od ulicy Leśnej do dworca i od Kolejowej do stadionu.</p><p>Prace ruszą w "
            "maju i potrwają do października; wykonawca zbuduje też oświetlenie.</p></div>"
            f"<div class='content-box'>{notices}</div></div><div class='footer'>Gazeta</div></body></html>")
    markdown = extract_page(html, "https://gazeta.example.pl/2017/04/sciezki").markdown
    assert "3,4 kilometra" in markdown and "zbuduje też oświetlenie" in markdown
    assert "Regulamin" not in markdown and "zalogowany" not in markdown and "RODO" not in markdown, markdown


def test_replies_in_blocks_of_their_own_after_a_comments_title_are_the_comments():
    replies = "".join(
        f"<div><p><b>{name}</b> <small>{when}</small></p><p>{text}</p></div>" for name, when, text in (
            ("Jussi K.", "14.10.2022 klo 19.22", "Hieno projekti ja hyvä kirjoitus! Meillä on mökillä samankokoinen "
             "sauna ja 16 kilowatin kiuas, ja kyllä se pakkasella välillä tuntuu vähän vähältä, joten teitte "
             "varmasti oikean ratkaisun, kun otitte isomman."),
            ("Marjatta", "15.10.2022 klo 08.05", "Tuo kattoristikko läpiviennin kohdalla on niin tuttu juttu! Meillä "
             "sama ongelma tuli vastaan, kun vaihdoimme vanhan muuratun piipun teräspiippuun, ja rakennusmies "
             "ratkaisi asian vaihtopalkilla."),
            ("Pekka Laukkanen", "15.10.2022 klo 17.40", "Kysymys kivistä: mitä kiveä käytitte ja kuinka usein "
             "aiotte ne vaihtaa? Meillä on ollut ongelmia halkeilevien kivien kanssa, ja olen kuullut, että "
             "oliviinidiabaasi kestäisi pidempään."),
            ("Mökkihommia", "15.10.2022 klo 21.10", "Pekka, meillä on oliviinidiabaasia, ja kivikauppias neuvoi "
             "latomaan kivet uudelleen aina keväällä, kun mökkikausi alkaa, ja rikkinäiset kivet poistetaan "
             "samalla.")))
    html = ("<html><body><div id='ylä'><a href='/'>Mökkiblogi</a></div><div id='vasen'><h1>Uusi kiuas rantasaunaan"
            "</h1><p>Vanha kiuas oli palvellut kolmekymmentä vuotta, ja tänä syksynä sen aika tuli täyteen: "
            "pohja oli ruostunut puhki.</p><p>Valitsimme 20 kilowatin puukiukaan, jossa on lasiluukku, ja "
            "asensimme sen kahdessa viikonlopussa.</p>"
            f"<h3>Kommentit (4)</h3>{replies}</div><div id='oikea'><p>Arkisto</p></div></body></html>")
    markdown = extract_page(html, "https://mokkiblogi.example.fi/2022/10/kiuas.html").markdown
    assert "pohja oli ruostunut puhki" in markdown and "kahdessa viikonlopussa" in markdown
    assert "kattoristikko" not in markdown and "oliviinidiabaasi" not in markdown, markdown


def test_the_standfirst_in_an_articles_header_stays_when_no_class_names_it():
    first = ("<div class='css-9kq1wz'><p>Da byrådet i 2021 besluttede at bygge broen, var planen, at cyklister kunne "
             "køre direkte fra de nye boligområder til Sydhavnen allerede fra sommeren 2025.</p><p>Nu viser det "
             "sig, at fundamenterne på begge sider af havneløbet skal være langt større end først beregnet, fordi "
             "jorden under kajen er mere blød.</p></div>")
    second = ("<div class='css-9kq1wz'><p>Rådmanden kalder forsinkelsen ærgerlig, men nødvendig, og pengene findes i "
              "anlægsbudgettet for de kommende tre år.</p><p>Oppositionen er mindre tilfreds. Flere byrådsmedlemmer "
              "mener, at kommunen burde have undersøgt jorden grundigere, før projektet blev sendt i udbud.</p><p>"
              "Selve brofagene bygges på et værft i Polen og sejles til Aarhus i ét stykke, når fundamenterne er "
              "klar, efter planen i foråret 2027.</p><p>Broen bliver 160 meter lang og får et separat spor for "
              "gående, så cyklister og fodgængere ikke skal dele plads på de travleste tidspunkter om morgenen.</p>"
              "<p>Indtil broen åbner, kører en gratis færge mellem de to bydele hvert kvarter i dagtimerne, og den "
              "ordning forlænges nu til udgangen af 2027.</p><p>Byrådet skal i juni tage stilling til, om der skal "
              "sættes belysning i rækværket, som arkitekterne har foreslået, eller om broen skal have master.</p>"
              "</div>")
    html = ("<html><body><div class='css-q2x7c1'><a href='/'>Lokalnyt</a><nav><a href='/trafik'>Trafik</a></nav>"
            "</div><main><article class='css-1l0k2mv'><header class='css-kx83pd'><div class='css-6bq1tz'><a "
            "href='/trafik'>Trafik</a><span>Opdateret 19. marts 2024</span></div><h1>Cykelbroen bliver to år "
            "forsinket</h1><p class='css-4h7b2n'>Den planlagte cykel- og gangbro mellem Aarhus Ø og Sydhavnen åbner "
            "først i 2027, efter at prisen er steget med 38 millioner kroner.</p><div class='css-2c8s1qx'><span>Af "
            "Mette Kjær</span></div></header><figure><img src='/bro.jpg' alt=''><figcaption>Sådan skal broen se "
            f"ud.</figcaption></figure>{first}<aside><span>Læs også</span><a href='/byudvikling/sydhavnen'>Sådan "
            "bliver den nye bydel ved Sydhavnen</a></aside><div class='css-u3m1ka'><p>Få Lokalnyt i din indbakke"
            "</p><form><input type='email'><button type='submit'>Tilmeld</button></form></div>"
            f"{second}</article></main></body></html>")
    markdown = extract_page(html, "https://lokalnyt.example.dk/trafik/cykelbro").markdown
    assert "åbner først i 2027" in markdown and "langt større end først beregnet" in markdown, markdown
    assert "sejles til Aarhus i ét stykke" in markdown and "Af Mette Kjær" not in markdown, markdown


def test_a_long_post_whose_newsletter_box_scores_best_is_read_from_the_page_area():
    # SiliconANGLE, 2016: the post is one long <article class="post">; the newsletter box inside it scores
    # best, and the content area read for a short find gives the story (a short post would not spread)
    markdown = extract_page(_recorded("metascraper-siliconangle-circleci-funding.html.gz"),
                            "http://siliconangle.com/blog/2016/05/16/circleci-receives-18-million-in-series-b-"
                            "funding-round-with-scale-venture-partners/").markdown
    assert "announced [that it has secured $18 million in Series B funding]" in markdown
    assert "Founded in 2011, CircleCI offers products and services" in markdown


def test_a_json_ld_body_that_holds_the_article_twice_is_read_once():
    # Corriere della Sera, 2025: the JSON-LD articleBody repeats the whole article, so it is twice as long as
    # the visible one; it is not a fuller body than the page's
    markdown = extract_page(_recorded("fundus-corriere-meloni-mar-a-lago.html.gz"),
                            "https://www.corriere.it/esteri/25_gennaio_05/trump-accoglie-meloni-a-mar-a-lago-"
                            "b8fb8d6c-5c5d-4d6e-8d52-dc0a8d9b9f9c.shtml").markdown
    assert markdown.count("Giorgia Meloni è arrivata a Mar-a-Lago") == 1, markdown[:3000]
    assert "noi diciamo" in markdown


def test_a_sign_in_box_hidden_by_its_class_is_not_read():
    # The Province (Postmedia), 2026: the subscription and sign-in offers sit in the article's group, in
    # boxes a `hidden` class hides until a script shows one
    markdown = extract_page(_recorded("fundus-theprovince-rose-wines.html.gz"),
                            "https://theprovince.com/life/wine-guy-3-rose-and-rose-adjacent-bottles-to-sip-on").markdown
    assert "through rosé-filled wine glasses" in markdown
    assert "RESERVED FOR SUBSCRIBERS" not in markdown and "SIGN IN TO UNLOCK" not in markdown, markdown


def test_items_of_a_list_hidden_until_show_more_and_boxes_shown_from_a_width_are_read():
    questions = "".join(
        f"<div class='faq__item{' hidden' if number > 2 else ''}'><h3>Question {number} about the lease?</h3>"
        f"<p>Answer {number}: the tenant gives notice three months ahead, in writing, and the deposit comes back "
        f"within a month of the keys being returned, less any repairs.</p></div>" for number in range(1, 6))
    html = ("<html><body><nav><a href='/'>Home</a></nav><main><h1>Renting with us</h1>"
            "<p>We let forty flats in the old town, each one furnished, with a year's lease to start with.</p>"
            f"<div class='faq'>{questions}</div>"
            "<div class='hidden md:block'><p>Our office on the market square is open on weekdays, and the caretaker "
            "lives in the building, so a leaking tap is seen to the same day.</p></div>"
            "<div class='paywall hidden'><p>Subscribe to read on: our offers for new readers this month.</p></div>"
            "</main></body></html>")
    markdown = extract_page(html, "https://flats.example.org/renting").markdown
    assert all(f"Answer {number}:" in markdown for number in range(1, 6)), markdown
    assert "the caretaker lives in the building" in markdown, markdown
    assert "Subscribe to read on" not in markdown, markdown


def test_an_embed_placeholder_awaiting_consent_is_not_read():
    paragraphs = "".join(f"<p>Paragraph {n}: the harbour authority counted more container ships this spring than "
                         f"in any spring before, and the new quay is to open in the autumn.</p>" for n in range(1, 5))
    html = ("<html><body><main><article><h1>Der Hafen wächst</h1>" + paragraphs[:len(paragraphs) // 2] +
            "<div class='c-oembed-placeholder'><div class='c-oembed-placeholder__title'>Hier können Sie unsere "
            "Podcasts hören</div><div class='c-oembed-placeholder__description'>Um eingebettete Inhalte anzuzeigen, "
            "ist deine widerrufliche Einwilligung in die Übermittlung und Verarbeitung von personenbezogenen Daten "
            "notwendig.</div></div>" + paragraphs[len(paragraphs) // 2:] + "</article></main></body></html>")
    markdown = extract_page(html, "https://zeitung.example.de/wirtschaft/hafen").markdown
    assert "Paragraph 1:" in markdown and "Paragraph 4:" in markdown, markdown
    assert "eingebettete Inhalte" not in markdown and "Podcasts hören" not in markdown, markdown


def test_an_agencys_subscription_line_after_the_last_paragraph_is_set_aside():
    # an agency's story ends with an inline line after its last paragraph, no block around it: "the news
    # offered to subscribers is published here in summary; contact us to subscribe"
    paragraphs = "".join(f"<p>Paragraf {n}: bakanlık, şarj istasyonu sayısının şubat sonunda on bir bini aştığını ve "
                         f"istasyonların yüzde otuzunun şehirler arası yollarda bulunduğunu açıkladı.</p>"
                         for n in range(1, 5))
    html = ("<html><body><main><h1>Şarj istasyonu sayısı arttı</h1><div class='detay-icerik'><div>" + paragraphs +
            " <span class='detay-foto-editor'><a href='/tr/p/abonelik-talep-formu/1001'>Ajansın web sitesinde, "
            "haber akış sistemi üzerinden abonelere sunulan haberler, özetlenerek yayımlanmaktadır. "
            "<b>Abonelik için lütfen iletişime geçiniz.</b></a></span></div></div></main></body></html>")
    markdown = extract_page(html, "https://haber.example.com.tr/tr/ekonomi/sarj/3529015").markdown
    assert "Paragraf 1:" in markdown and "Paragraf 4:" in markdown, markdown
    assert "abonelere sunulan" not in markdown, markdown


def _agency_page(standfirst: str) -> str:
    body = "".join(f"<p>Paragraf {n}: bakanlık, şarj istasyonlarının yüzde yetmişinin şehir içinde, yüzde otuzunun ise "
                   f"şehirler arası yollarda bulunduğunu açıkladı.</p>" for n in range(1, 5))
    return ("<html><body><main><div class='detay-bg'><div class='detay-baslik'><span class='kategori'>"
            f"<a href='/ekonomi'>Ekonomi</a></span><h1>Şarj istasyonu sayısı 11 bini aştı</h1>{standfirst}"
            "<span class='tarih'>05.04.2025</span></div></div>"
            f"<div class='row detay'><div class='detay-icerik'><h6>Ankara</h6><div>{body}</div></div></div>"
            "<div class='benzer'><h1>Benzer haberler</h1><ul><li><a href='/a'>Elektrikli araç satışları</a></li>"
            "<li><a href='/b'>Yeni otoyol açıldı</a></li></ul></div></main></body></html>")


def test_a_standfirst_set_as_a_subheading_under_the_headline_joins_the_article():
    # an agency's standfirst is an <h4> under the headline, and a second <h1> titles the related stories
    standfirst = ("<h4>Bakan, Türkiye'de şubat ayı sonu itibarıyla 11 bin 37 elektrikli araç şarj istasyonu "
                  "bulunduğunu ve en fazla istasyonun İstanbul'da yer aldığını bildirdi.</h4>")
    markdown = extract_page(_agency_page(standfirst), "https://haber.example.com.tr/tr/ekonomi/sarj/3529015").markdown
    assert markdown.startswith("Bakan, Türkiye'de şubat ayı sonu"), markdown  # a paragraph, not a heading
    assert "Paragraf 1:" in markdown and "Paragraf 4:" in markdown, markdown


def test_a_short_tagline_under_the_sites_name_is_no_standfirst():
    markdown = extract_page(_agency_page("<h2>Türkiye ve dünyadan haberler, her gün doğru ve tarafsız.</h2>"),
                            "https://haber.example.com.tr/tr/ekonomi/sarj/3529015").markdown
    assert "her gün doğru" not in markdown and "Paragraf 1:" in markdown, markdown


def test_a_players_stand_in_that_asks_for_javascript_is_not_read():
    paragraphs = "".join(f"<p>Paragraph {n}: archaeologists used radar images taken from orbit to find the outline "
                         f"of streets and canals under the forest, far from any known settlement.</p>"
                         for n in range(1, 6))
    html = ("<html><body><h1>Hunting lost cities from space</h1><div class='story-body'>"
            "<div id='emp'><div class='warning'><p><strong>Media requires JavaScript and Adobe Flash to play."
            "</strong></p><p>This story contains a piece of media that requires your computer to have Adobe Flash "
            f"and JavaScript enabled.</p></div></div>{paragraphs}</div></body></html>")
    markdown = extract_page(html, "https://www.example.com/future/story/20120717-hunting-lost-cities").markdown
    assert "Paragraph 1:" in markdown and "Paragraph 5:" in markdown, markdown
    assert "JavaScript" not in markdown, markdown


def test_the_articles_opening_paragraphs_beside_a_carousel_of_links_in_one_block_stay():
    # a news site's rich text: the first block holds the opening paragraph and a carousel of job offers (all
    # links), the next block the rest of the article; the carousel goes, the opening stays
    jobs = "".join(f"<li><a href='/jobs/{n}'>IT-Spezialist (m/w/d) Infrastruktur und Netzwerke, Standort {n}</a></li>"
                   for n in range(1, 11))
    rest = [f"<p>Absatz {n}: Zum eigentlichen Akkupack und dessen Leistung wurden keine weiteren Angaben "
            f"gemacht, die reguläre Maschine nutzt zylindrische Zellen.</p>" for n in range(2, 16)]
    html = ("<html><body><h1>Hat der Hersteller genug Akkus gebaut?</h1><article class='go-article'>"
            "<div class='go-richtext'><p>Absatz 1: Der Konzern hat den Prototyp eines Akkupacks für ein Rennmotorrad "
            "vorgestellt und dabei fast keine technischen Daten genannt, auch der Zulieferer äußerte sich nicht zu "
            "weiteren Daten des Akkupacks.</p><div class='go-teaser-block'><span>Neue Angebote bei Jobs</span>"
            f"<ul>{jobs}</ul></div></div><div class='go-richtext'>{''.join(rest[:7])}</div>"
            f"<div class='go-ad'>Anzeige</div><div class='go-richtext'>{''.join(rest[7:])}</div>"
            "</article></body></html>")
    markdown = extract_page(html, "https://news.example.de/news/akkutechnik-2509-199920.html").markdown
    assert "Absatz 1:" in markdown and "Absatz 15:" in markdown, markdown
    assert "IT-Spezialist" not in markdown, markdown


def test_a_live_blogs_updates_under_headlines_of_their_own_are_read_with_its_opening():
    # each update is signed with a time and a reporter's name, as a reply is, but has a headline: they are
    # the live blog's posts, not comments below it
    opening = "".join(f"<p>Opening {n}: the royal couple will struggle to recover from the label, a commentator said, "
                      f"pointing to how public attitudes have changed over the years.</p>" for n in range(1, 6))
    updates = "".join(
        f"<div class='live-events__entry'><div class='live-events__entry-info'><time>{9 + n}:48</time> "
        f"<a href='/journalist/123131/Jon-King' class='live-events__entry-author'>Jon King</a></div>"
        f"<h3 class='live-events__entry-head'>Update {n}: the couple receive another blow in a new survey</h3>"
        f"<div class='live-events__entry-text'><p>Update text {n}: a poll of 1,500 voters found the couple liked by "
        f"fewer than four in ten adults, and disliked by more, the magazine reported.</p></div></div>"
        for n in range(1, 7))
    html = ("<html><body><h1>Royal couple LIVE: the latest</h1><div class='article'><div class='text-description'>"
            f"{opening}</div><div class='live-events'><div class='live-events__entries'>{updates}</div></div>"
            "</div></body></html>")
    markdown = extract_page(html, "https://news.example.co.uk/news/royal/1924698/live").markdown
    assert "Opening 1:" in markdown and "Update text 1:" in markdown and "Update text 6:" in markdown, markdown


def test_a_box_named_after_the_article_and_its_share_buttons_is_the_share_bar():
    # `article-share`: an article word first, the part's own name last; the article's toolbar, not its text
    paragraphs = "".join(f"<p>Absatz {n}: Wer den Tag der Sternenkrieger noch nicht kennt, erfährt hier, welche "
                         f"Sets es an diesem Tag günstiger gibt und wie lange die Aktion läuft.</p>"
                         for n in range(1, 6))
    html = ("<html><body><h1>Rabatte zum Sternenkrieger-Tag</h1><div class='article-body'>"
            "<div class='article-share'><span>Kommentare</span> <span>E-Mail</span> <span>Teilen</span> "
            f"<span>Drucken</span> <span>Feedback</span></div>{paragraphs}</div></body></html>")
    markdown = extract_page(html, "https://www.example.de/kaufberatung/rabatte_id_1.html").markdown
    assert "Absatz 1:" in markdown and "Absatz 5:" in markdown, markdown
    assert "Drucken" not in markdown and "Feedback" not in markdown, markdown


def test_an_accordions_answers_hidden_by_one_class_are_read_and_a_lone_hidden_offer_is_not():
    # each answer sits in its own item beside its question, hidden by the same classes until the reader
    # opens it: three or more alike are the page's collapsed panels, not a box kept out of sight
    items = "".join(
        f"<div class='faq-item'><button class='faq-question'>Question {n}: how long does the build take?</button>"
        f"<div class='faq-answer text-sm hidden'>Answer {n}: a progressive web app of this size takes eight to "
        f"twelve weeks from the first workshop to the release in the stores, testing included.</div></div>"
        for n in range(1, 5))
    html = ("<html><body><main><h1>Progressive web apps</h1><p>We build progressive web apps that load fast on "
            "slow networks, work offline and install like a native app, for shops, banks and public services."
            f"</p><div class='faq'>{items}</div><div class='signin-offer hidden'><p>Create an account or sign in "
            "to continue with your reading experience, and get our newsletter every week.</p></div>"
            "</main></body></html>")
    markdown = extract_page(html, "https://apps.example.com/services/pwa").markdown
    assert all(f"Answer {n}:" in markdown for n in range(1, 5)), markdown
    assert "Create an account" not in markdown, markdown


def test_a_box_shown_only_on_paper_is_hidden_on_screen():
    assert not label_kind("d-none d-lg-block").hidden and label_kind("d-none d-print-block").hidden


def test_a_hidden_copy_of_the_article_is_not_read_twice():
    """A paywall's hidden copy of the article, one block without paragraph breaks, holds too much of the
    page's text to pass for a box kept out of sight: its text is on the page already, so it goes."""
    copy = ARTICLE.replace("<p>", "").replace("</p>", "")
    html = (f"<html><body><article><h1>Ferry</h1>{ARTICLE}</article>"
            f"<div class='o-paywall' style='display:none'>{copy}</div></body></html>")
    markdown = extract_page(html).markdown
    assert markdown.count("second crossing each morning") == 1
    assert "shift workers have no way home" in markdown


def test_a_hidden_block_that_repeats_nothing_shown_and_holds_most_of_the_text_stays():
    html = (f"<html><body><p>Menu</p><div style='display:none'><div>{ARTICLE}</div></div></body></html>")
    assert "second crossing each morning" in extract_page(html).markdown


def test_an_aspnet_id_is_read_by_its_last_part_not_by_its_naming_containers():
    """`ctl00_MainContent_…_DivTags` is the tags box inside the page's main content placeholder: the id
    says "tags", and the placeholders' names say nothing about this box."""
    tags = parse_html("<div class='tags' id='ctl00_MainContent_ArticleDetails15_DivTags'>x</div>").find(".//div")
    body = parse_html("<div id='ctl00_Sidebar_NewsView1_StoryBody'>x</div>").find(".//div")
    assert kind_of(tags).negative and not kind_of(tags).positive
    assert kind_of(body).positive and not kind_of(body).negative


def test_a_box_of_tags_that_is_mostly_indentation_is_no_part_of_the_article():
    """A box holds more than two fifths of the content's characters, but nearly all of them are the white
    space of its indented markup: what decides is the text a reader sees."""
    indent = "\n" + " " * 80
    tags = "".join(f"<div>{indent}<h3>{indent}<a href='/t/{word}'></a>{indent}{word}{indent}</h3>{indent}</div>"
                   for word in ("ferry", "harbour", "timetable", "commuters", "council") * 2)
    html = f"<html><body><div class='story'>{ARTICLE}<div class='tags'>{tags}</div></div></body></html>"
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "timetable" not in markdown.split("shift workers")[1]


def test_the_links_to_the_previous_and_next_article_are_no_part_of_it():
    neighbours = ("<div class='article_details_prev_next'><div class='article_details_next'><span>Next</span>"
                  "<span>Harbour dredging to start in the spring after a year of delays</span></div>"
                  "<div class='article_details_prev'><span>Previous</span>"
                  "<span>New lighthouse keeper appointed for the winter season</span></div></div>")
    html = f"<html><body><div class='article_details_body'>{ARTICLE}{neighbours}</div></body></html>"
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "Harbour dredging" not in markdown


def test_a_caption_followed_by_its_lightboxs_copy_is_read_once():
    caption = "The morning ferry at the second stop, full before seven."
    html = (f"<html><body><article>{ARTICLE}<div class='detail-img'><div class='detail-img__description'>{caption}"
            f"</div><div class='lightbox'><div class='lightbox__description'>{caption}</div></div></div>"
            f"<p>{'The operator will publish the new timetable next week, with the extra crossing marked. ' * 2}</p>"
            "</article></body></html>")
    markdown = extract_page(html).markdown
    assert markdown.count(caption) == 1 and "publish the new timetable" in markdown


def test_a_tag_box_and_related_box_named_in_one_word_are_furniture():
    """`tagbox` and `relatedbroadcast` run their words together, as `relatedposts` does: the box is what
    the first word names (a word inside another, `nocomments`, still says nothing)."""
    assert label_kind("tagbox").negative and label_kind("contentbox relatedbroadcast").negative
    assert label_kind("relatedposts").negative and not label_kind("entry-content").negative
    html = (f"<html><body><div class='article'>{ARTICLE}<div class='contentbox relatedbroadcast'><p>This story on the "
            "radio: Harbour Radio, morning news at seven, every weekday.</p></div><div class='tagbox'><h3>Topics of "
            "this article</h3><h3><a href='/t/ferry'>Ferries</a></h3></div></div></body></html>")
    markdown = extract_page(html).markdown
    assert "shift workers" in markdown and "morning news at seven" not in markdown and "Topics of" not in markdown


@pytest.mark.parametrize("reading_time", ["6 Min. Lesezeit", "4 min read", "Temps de lecture : 3 min", "2min"])
def test_the_time_an_article_takes_to_read_is_no_part_of_it(reading_time):
    html = f"<html><body><article><h1>Ferry</h1><p>{reading_time}</p>{ARTICLE}</article></body></html>"
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and reading_time not in markdown


def test_minutes_inside_a_line_of_the_article_stay():
    html = (f"<html><body><article>{ARTICLE}<p>Crossing time – <b>25 minutes</b><br>Boats a day – 14</p>"
            "</article></body></html>")
    assert "Crossing time – **25 minutes**" in extract_page(html).markdown


def test_fields_of_one_line_set_side_by_side_do_not_run_together():
    """An author, a date and a section side by side as spans with no space between them in the markup are
    read apart; a drop cap stays part of its word, and Chinese runs on as it is written."""
    meta = "<div class='details'><span>Ann Lee</span><span>12 March 2025</span><span>Harbour</span></div>"
    drop_cap = "<p><span class='dropcap'>T</span><span>he ferry runs at seven, the operator said on Monday.</span></p>"
    chinese = "<p><span>渡轮公司</span><span>将在三月增加早班</span>，乘客表示欢迎。</p>"
    html = f"<html><body><article>{meta}{drop_cap}{ARTICLE}{chinese}</article></body></html>"
    markdown = extract_page(html).markdown
    assert "Ann Lee 12 March 2025 Harbour" in markdown
    assert "The ferry runs at seven" in markdown and "渡轮公司将在三月增加早班" in markdown


NOTICE_BRIEF = ("<p>The foundation holds a free eye camp on Friday, 22 March, at the primary school of Char Kukri, "
                "from nine in the morning.</p><p>Doctors from the district hospital will examine every patient, "
                "and glasses are given free.</p><p>Patients chosen for cataract surgery are taken to the city.</p>")
ABOUT_US = ("<p>The Light Path Foundation was founded in 2006 by teachers, doctors and farmers of the river islands, "
            "and since then it has worked in health, education, water and disaster preparedness, with volunteers in "
            "forty villages, two boats, a small clinic and a school.</p><p>All our work is paid for by donors at "
            "home and abroad, by the district council, by our members, and, in the rice season, by the farmers' own "
            "cooperative, which gives a share of every harvest, every year, to the clinic and the school.</p>")


def test_the_brief_in_the_block_after_the_pages_title_wins_over_an_about_box_further_down():
    html = ("<html><head><title>Free eye camp on 22 March | Light Path Foundation</title></head><body><main>"
            "<div class='layout-content'><div class='region region-content'>"
            "<div class='block block-page-title-block'><h1>Free eye camp on 22 March</h1></div>"
            "<div class='block block-system-main-block'><article class='node node--type-notice'>"
            "<div class='node__content'>"
            f"<div class='field field--name-body'>{NOTICE_BRIEF}</div></div></article></div></div>"
            "<div class='region region-content-bottom'><div class='block block-block-content'><h2>Our story</h2>"
            f"<div class='field field--name-body'>{ABOUT_US}</div></div></div></div></main></body></html>")
    markdown = extract_page(html).markdown
    assert "free eye camp on Friday" in markdown and "founded in 2006" not in markdown


def test_only_a_heading_that_opens_or_ends_the_documents_title_names_the_page():
    """A sidebar's "Tags" as the page's one <h1> draws no block to it beyond its own box."""
    from websearch_mcp.extract.main_content import _names_page

    tree = parse_html("<html><head><title>Free eye camp on 22 March | Light Path Foundation</title></head><body>"
                      "<h1>Tags</h1><h2>Free eye camp on 22 March</h2><h3>Light Path Foundation</h3></body></html>")
    assert not _names_page(tree.find(".//h1"))
    assert _names_page(tree.find(".//h2")) and _names_page(tree.find(".//h3"))


@pytest.mark.parametrize("stop", ["।", "؟", "۔"])
def test_a_sentence_ends_with_the_stop_of_its_script(stop):
    from websearch_mcp.extract.text import ends_a_sentence

    assert ends_a_sentence(f"আগামী ২২ মার্চ শুক্রবার চক্ষু পরীক্ষা শিবির হবে{stop}")


def test_an_articles_title_in_an_h2_under_a_sections_h1_draws_the_brief_beside_it():
    """The <h1> names the site's section ("News"); the job notice's title is the <h2> that opens the
    document's title, and the notice under it is the content, not the organisation's about text below."""
    html = ("<html><head><title>Field officer wanted – Light Path Foundation</title>"
            "<meta property='og:type' content='article'></head><body><div class='banner'><h1>News</h1></div>"
            "<main><section class='row'><div class='col'><h2>Field officer wanted</h2>"
            f"<div class='post-content'>{NOTICE_BRIEF}</div></div></section>"
            "<section class='row'><div class='col'><h3>About the Light Path Foundation</h3>"
            f"<div class='text'>{ABOUT_US}</div></div></section></main></body></html>")
    markdown = extract_page(html).markdown
    assert "free eye camp on Friday" in markdown and "founded in 2006" not in markdown
    without_type = html.replace("<meta property='og:type' content='article'>", "")
    assert "founded in 2006" in extract_page(without_type).markdown  # a product's name may be its <h2>


def test_a_brief_of_three_paragraphs_under_its_title_wins_over_a_longer_about_box():
    about = ABOUT_US + ABOUT_US.replace("2006", "2007").replace("The Light Path", "Our")
    html = ("<html><head><title>Free eye camp on 22 March | Light Path Foundation</title></head><body>"
            "<div class='page'><section class='strip'><div class='post'><h1>Free eye camp on 22 March</h1>"
            f"<p class='date'>12 March 2024</p><div class='rich-content'>{NOTICE_BRIEF}</div></div>"
            "</section><section class='strip'><div class='col'><h2>Who we are</h2>"
            f"<div class='rich'>{about}</div></div>"
            "</section></div></body></html>")
    markdown = extract_page(html).markdown
    assert "free eye camp on Friday" in markdown and "founded in 2006" not in markdown


def test_on_an_article_page_the_item_under_the_title_wins_over_the_main_that_holds_the_site_too():
    """A company's <main class="content-area"> holds its news item under the page's title, its service
    cards and its "about us": the main's tag and class words put it first, but the item is the article."""
    cards = "".join(f"<div class='col-md-4 card'><h3>Service {n}</h3><div class='card-text'><p>We plan, supply and "
                    f"fit heat pumps, boilers and ventilation number {n}, for homes, offices and farms alike.</p>"
                    "</div></div>" for n in range(3))
    html = ("<html><head><title>Free eye camp on 22 March | Light Path Foundation</title>"
            "<meta property='og:type' content='article'></head><body><main class='col-md-8 content-area'>"
            "<nav class='breadcrumb'><a href='/'>Home</a></nav><article class='node'><header>"
            "<h1>Free eye camp on 22 March</h1></header><time>12 March 2024</time>"
            f"<div class='news-detail__text'>{NOTICE_BRIEF}</div>"
            f"</article><section class='services'><h2>Our services</h2><div class='row'>{cards}</div></section>"
            f"<section class='about-block'><h2>About us</h2>{ABOUT_US}</section></main></body></html>")
    markdown = extract_page(html).markdown
    assert "free eye camp on Friday" in markdown and "founded in 2006" not in markdown
    assert "heat pumps" not in markdown


def test_a_standfirst_in_a_leadtext_block_between_the_headline_and_a_figure_joins_the_body():
    lead = ("The harbour board approved a second morning crossing on Monday, after two winters of complaints "
            "from commuters on the island.")
    html = ("<html><body><div class='article'><header><h1>Second morning ferry approved</h1></header>"
            f"<div class='article-leadtext leadtext'>{lead}</div><figure><img src='a.jpg'>"
            f"<figcaption>The ferry at the second stop.</figcaption></figure><div class='article-body body'>{ARTICLE}"
            "</div></div></body></html>")
    markdown = extract_page(html).markdown
    assert markdown.index("second morning crossing on Monday") < markdown.index("second crossing each morning")


def test_readers_comments_under_an_arabic_title_with_a_form_after_them_are_comments():
    """`<section class="talk">`: a title "readers' comments", the list of replies (a name and a time, then
    the text), and the form to add one's own; no class word says comments."""
    article = ("<p>The governor inspected the second phase of the Nile corniche works this morning, and asked for "
               "the lighting and the planting to be finished before the summer.</p>"
               "<p>He also asked for green spaces and seats for families along the new walkway, and for the "
               "entrance to stay free for everyone, as the council had promised.</p>")
    replies = "".join(f"<div class='talk-item'><div class='talk-head'><span>Reader {n}</span><span>منذ ساعة</span>"
                      f"</div><div class='talk-text'>Reply number {n}: the corniche has needed this for years, but "
                      "the villages need roads too, and nobody speaks of them.</div></div>" for n in range(10))
    html = (f"<html><body><main><article><h1>Corniche works</h1><div class='body'>{article}</div></article>"
            f"<section class='talk'><h2>تعليقات القراء</h2><div class='talk-list'>{replies}</div>"
            "<div class='talk-form'><textarea></textarea><button>Send</button></div></section></main></body></html>")
    markdown = extract_page(html).markdown
    assert "green spaces and seats" in markdown and "Reply number" not in markdown
    from websearch_mcp.extract.clean import drop_junk

    tree = parse_html(html)
    drop_junk(tree)  # (which marks the sections known by their titles)
    assert "comments" in tree.find(".//section").get("class").split()


def test_a_short_block_beside_the_title_does_not_win_over_a_long_article_elsewhere():
    """The page's title sits over a video and its transcript (short lines, many commas); the story, four
    times as long, is in a section of its own: the transcript is no brief of the page."""
    transcript = "".join(f"<p>Part {n}: yes, well, so, the ship, the crew, the harbour, the pier, the bay, the sea, "
                         "the wind, the rain, the night, the dawn, we said.</p>" for n in range(3))
    story = "".join(f"<p>Paragraph {n} of the story: the harbour board met on Monday and approved the second "
                    "morning crossing after two winters of complaints from commuters on the island, who said "
                    "the single early boat was always full by its second stop.</p>" for n in range(12))
    html = ("<html><head><title>Harbour crossing approved</title></head><body>"
            f"<div class='video'><h1>Harbour crossing approved</h1><div class='transcript'>{transcript}</div></div>"
            f"<div class='wrap'><section class='story-body'>{story}</section></div></body></html>")
    markdown = extract_page(html).markdown
    assert "Paragraph 11 of the story" in markdown


def test_replies_under_a_title_that_names_whose_they_are_are_comments():
    """"Reader reactions (12)" over rows of an avatar, a name, a time, a text and buttons, in divs no class
    word calls comments, under a link to the rules for them."""
    rows = "".join(f"<div class='rx-item'><div class='rx-avatar'><img src='/a.png'></div><div class='rx-main'>"
                   f"<div class='rx-head'><span class='rx-name'>Reader {n}</span> <span class='rx-time'>May 14, "
                   f"2015 9:{10 + n} AM</span></div><div class='rx-text'>Reaction number {n}: every year I go home "
                   "for the fiesta, even if I have to take leave from work for it.</div><div class='rx-tools'>"
                   "<a href='#' class='rx-like'>Like (0)</a> <a href='#' class='rx-reply'>Reply</a></div></div></div>"
                   for n in range(12))
    html = (f"<html><body><div id='story-col'><h1>Procession</h1><div class='story-text'>{ARTICLE}</div>"
            "<div class='reader-reactions'><h3>Reader reactions (12)</h3><p class='rx-policy-link'>"
            f"<a href='/guidelines'>Reader guidelines</a></p>{rows}</div></div></body></html>")
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "Reaction number" not in markdown


RELATED_SUMMARIES = "".join(
    f"<div class='relItem'><a href='/news/article.aspx?id={n}' class='relTitle'>Other story number {n}</a>"
    f"<span class='relSummary'>The summary of other story {n}: the council met again on Monday, and the mayor "
    "said the ballots would be printed on time, whatever the opposition claimed. The printers, the clerks and "
    "the volunteers, he added, were ready for the count.</span></div>"
    for n in range(6))


def test_a_related_box_of_teasers_with_summaries_goes_however_much_text_it_holds():
    """An ASP.NET article panel holds the story and, under a heading that names a topic, not a list, six
    linked titles each with its summary in a span: more text than the story, and still no part of it."""
    html = ("<html><body><div class='colMain'><div id='ctl00_ContentPlaceHolder1_pnlArticle' class='articleBox'>"
            "<h1>Story</h1><div class='artInfo'>17/04/2014 09:12 | By Eleni</div>"
            f"<div id='ctl00_ContentPlaceHolder1_pnlBody' class='artBody'>{ARTICLE}</div>"
            "<div class='artTags'>Tags: <a href='/t/1'>elections</a>, <a href='/t/2'>court</a></div>"
            "<div id='ctl00_ContentPlaceHolder1_pnlRelated' class='relatedNews'><h3>Local elections 2014</h3>"
            f"{RELATED_SUMMARIES}</div></div></div></body></html>")
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "late evening boat" in markdown
    assert "Other story number" not in markdown and "The summary of other story" not in markdown


COMPANY_SECTIONS = (
    "<section class='services-block'><h2>Our services</h2><div class='services-list'>"
    + "".join(f"<div class='service-item'><div class='service-name'><a href='/services/{n}/'>Service {n}</a></div>"
              f"<div class='service-text'>Service {n}: we set up, adapt and support accounting software for shops, "
              "factories and offices, with a visit from an engineer within the day.</div></div>" for n in range(6))
    + "</div></section><section class='about-block'><h2>About the company</h2><p>We have been a partner of the "
    "software's maker since 2006, with thirty-eight certified engineers, and our clients include retail chains, "
    "factories, councils and hundreds of small firms across the region, served from three offices.</p></section>")
WEBINAR = ("<p>We invite accountants and managers of small firms to a free webinar on moving their books to the "
           "cloud, and what to check before they do.</p>"
           "<p>The webinar takes place on 12 March at 11:00 and lasts about an hour and a half; the head of our "
           "implementation team leads it.</p>"
           "<p>To take part, fill in the registration form; we send the link to the stream the day before.</p>")


def test_a_dated_news_item_under_the_pages_title_wins_over_the_sections_of_the_company_beside_it():
    """A company's news item (its title, a line with its date, three paragraphs) and the site's service
    cards and about text in one `content` block: the page does not say it is an article."""
    html = ("<html><head><title>Free webinar on 12 March | Infosoft</title></head><body>"
            "<div class='container content'><div class='news-detail'><h1>Free webinar on 12 March</h1>"
            f"<span class='news-date-time'>02.03.2015</span>{WEBINAR}</div>{COMPANY_SECTIONS}</div></body></html>")
    markdown = extract_page(html).markdown
    assert "free webinar on moving their books" in markdown and "the day before" in markdown
    assert "we set up, adapt and support" not in markdown and "thirty-eight certified" not in markdown


def test_a_dated_header_with_its_standfirst_does_not_part_from_the_body_after_it():
    """The title, a standfirst and a dated byline in the article's header, the body in blocks after it:
    the header alone is no item of its own."""
    header = ("<div class='article-header'><h1>Harbour ferry to resume</h1><p class='standfirst'>Passengers will "
              "once again cross the harbour by boat from the spring, after a community group bought a vessel.</p>"
              "<div class='byline'>By Hannah Coyle · 12 November 2019</div></div>")
    html = ("<html><head><title>Harbour ferry to resume | Herald</title></head><body><div class='article-wrapper'>"
            f"{header}<div class='article-body'>{ARTICLE}</div></div></body></html>")
    markdown = extract_page(html).markdown
    assert "once again cross the harbour" in markdown and "late evening boat" in markdown


def test_a_box_of_further_reading_inside_the_story_is_no_part_of_it():
    """A paper's "延伸阅读" box between the story's two parts: a heading and paragraphs of another text."""
    first = ("<p>经审理查明，该团伙在两年多的时间里，通过多个网络招聘平台和社交软件大量发布虚假兼职信息，"
             "先后骗取全国各地三百多名被害人共计四百余万元。</p>"
             "<p>法院审理认为，各被告人以非法占有为目的，采用虚构事实的方法骗取他人财物，数额特别巨大，"
             "其行为均已构成诈骗罪。</p>")
    box = ("<div class='yanshen'><h4>延伸阅读</h4><p>市公安局反诈中心提醒：凡是冒充网店客服称商品质量有问题、"
           "要求退款理赔的，都是典型的诈骗手法。</p>"
           "<p>去年以来，我市各级公安机关共破获各类电信网络诈骗案件一千二百余起，抓获犯罪嫌疑人六百多名。</p></div>")
    last = ("<div class='article-end'><p>据承办法官介绍，该团伙分工明确，有专人负责发布广告、有专人扮演客服和派单员，"
            "还有专人负责转移赃款。</p><p>法官提醒广大市民，凡是要求先垫付资金的网络兼职都是诈骗，"
            "一旦发现上当受骗，要第一时间保存好聊天记录并及时报警。</p></div>")
    html = (f"<html><body><div class='article'><h1>诈骗团伙九人获刑</h1><div id='ozoom'>{first}</div>{box}{last}"
            "</div></body></html>")
    markdown = extract_page(html).markdown
    assert "该团伙在两年多的时间里" in markdown and "及时报警" in markdown
    assert "反诈中心提醒" not in markdown and "一千二百余起" not in markdown


def test_a_joomla_notice_wins_over_the_layout_table_and_the_module_after_it_stays_out():
    """Joomla 1.5 in a table layout: the page's one table (`id="main-table"`: its menus, the notice, the
    office's boxes and footer), the notice in `contentpaneopen`, and a module of the office's services in
    sentences right after it (`moduletable_sprawy`)."""
    menu = "".join(f"<li><a href='/m/{n}'><span>Menu item number {n}</span></a></li>" for n in range(19))
    services = "".join(
        f"<tr><td class='sprawa-tytul'><a href='/s/{n}'><strong>Sprawa {n}</strong></a></td></tr><tr><td "
        f"class='sprawa-opis'>Service {n}: the application is made in person at the office, room {n}, and "
        "the document is collected after about thirty days, on showing the old one.</td></tr>" for n in range(6))
    module = (f"<div class='moduletable_sprawy'><h3>How to settle a matter</h3><table class='sprawy'>{services}"
              "</table></div>")
    notice = ("<table class='contentpaneopen'><tr><td class='contentheading'>Bulky waste collection</td></tr></table>"
              "<table class='contentpaneopen'><tr><td class='createdate'>Monday, 04 April 2011 10:15</td></tr>"
              f"<tr><td valign='top'>{ARTICLE}</td></tr></table><span class='article_separator'> </span>")
    boxes = ("<div class='moduletable'><h3>The mayor</h3><p>The mayor receives residents with complaints and "
             "requests on Mondays from noon to four, after booking by telephone with the office.</p></div>"
             "<div class='moduletable'><h3>Telephones</h3><ul><li>Office: 00 000 00 00</li><li>Library: 00 000 00 01"
             "</li></ul></div>")
    footer = ("<tr><td colspan='3' id='footer'><p>The office, 8 Main Street. Open on Mondays from 8.00 to 16.00, "
              "from Tuesday to Thursday from 7.30 to 15.30, and on Fridays from 7.30 to 14.30.</p></td></tr>")
    html = ("<html><body><div id='wrapper'><table id='main-table'><tr><td colspan='3' id='header'><h1>Borowice</h1>"
            "<p class='slogan'>The council's official site</p></td></tr><tr><td id='left'>"
            f"<div class='moduletable_menu'><h3>Main menu</h3><ul class='menu'>{menu}</ul></div></td>"
            f"<td id='content'>{notice}{module}</td><td id='right'>{boxes}</td></tr>{footer}</table></div>"
            "</body></html>")
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "late evening boat" in markdown
    assert "the application is made in person" not in markdown and "from Tuesday to Thursday" not in markdown


def test_the_lead_in_a_teaser_block_under_the_title_joins_and_a_read_also_box_goes():
    """Contao's news reader: a kicker and date line, the title, the lead in `<div class="teaser">`, the body
    in text elements, and between them a "Lesen Sie auch" box of two linked titles with a line each."""
    lead = ("<div class='teaser'><p><strong>Vier von fünf Fachbetrieben haben inzwischen mehr Anfragen für "
            "Wärmepumpen im Bestand, als sie in diesem Jahr umsetzen können.</strong></p></div>")
    box = ("<div class='ce_text lesetipp block'><h3>Lesen Sie auch</h3><ul>"
           "<li><a href='/a/1'>Hydraulischer Abgleich: Was die Pflicht bedeutet</a><br><span>Seit dem Herbst gilt "
           "für größere Gebäude eine Frist zur Optimierung, die Innungen rechnen mit Rückfragen.</span></li>"
           "<li><a href='/a/2'>Nachwuchs: Mehr Ausbildungsverträge</a><br><span>Nach Jahren des Rückgangs melden "
           "die Kammern wieder ein leichtes Plus bei den neuen Lehrverträgen.</span></li></ul></div>")
    html = ("<html><body><main id='main'><div class='mod_newsreader block'><div class='layout_full block'>"
            "<p class='info'><span class='kicker'>Umfrage</span> <time>05.10.2023</time></p>"
            f"<h1>Wärmepumpen im Altbau</h1>{lead}<div class='ce_text block'>{ARTICLE}</div>{box}"
            f"<div class='ce_text block'>{ARTICLE.replace('ferry', 'bus')}</div></div></div></main></body></html>")
    markdown = extract_page(html).markdown
    assert "Vier von fünf Fachbetrieben" in markdown and "second crossing each morning" in markdown
    assert "Seit dem Herbst gilt" not in markdown and "Nach Jahren des Rückgangs" not in markdown


def test_a_teaser_block_that_is_a_boxs_only_line_at_the_end_is_no_lead():
    """A box after the article whose one line sits in a teaser block ("Tagesschau reported on this on …")."""
    html = ("<html><body><div class='article'><h1>Title</h1>"
            f"{ARTICLE}<div class='infokasten'><div class='teaser'><p class='teasertext'>Über dieses Thema "
            "berichtete die Sendung am 3. August 2020 um 8 Uhr in ihrer ersten Ausgabe des Tages.</p></div></div>"
            "</div></body></html>")
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "Über dieses Thema" not in markdown


def test_a_block_themes_post_content_is_the_post_whatever_the_template_puts_beside_it():
    """A WordPress block theme's single template: the title group, the post content block (a two-paragraph
    brief), then the site's own offer columns and "about" media-text, all in one <main>."""
    brief = ("<p>From 1 March we take applications for the coming school year, for children aged three to six; "
             "forms are at the office and on this site, and can be sent by e-mail or brought in person.</p>"
             "<p>The open days are on Saturday 9 March from ten to two, when parents can see the rooms and the "
             "garden, meet the teachers and ask about the day's plan, the meals and the fees.</p>")
    offer = "".join(f"<div class='wp-block-column'><h3>Offer {n}</h3><p>Offer number {n}: short daily lessons "
                    "with a native speaker, songs and games, all included in the monthly fee for every group.</p>"
                    "</div>" for n in range(6))
    html = ("<html><head><title>Applications for 2024/2025</title></head><body><div class='wp-site-blocks'>"
            "<main class='wp-block-group'><div class='wp-block-group'><h1 class='wp-block-post-title'>Applications "
            "for 2024/2025</h1><div class='wp-block-post-date'><time>5 February 2024</time></div></div>"
            f"<div class='entry-content wp-block-post-content is-layout-constrained'>{brief}</div>"
            f"<div class='wp-block-group alignwide'><h2>Our offer</h2><div class='wp-block-columns'>{offer}</div></div>"
            "<div class='wp-block-group alignwide'><div class='wp-block-media-text'><div class='wp-block-media-text__"
            "content'><h2>About the kindergarten</h2><p>Sunny Meadow has worked since 2012 in a renovated villa with "
            "a large garden, and cares for ninety children in four groups with twelve teachers.</p></div></div></div>"
            "</main></div></body></html>")
    markdown = extract_page(html).markdown
    assert "we take applications" in markdown and "meet the teachers" in markdown
    assert "Offer number" not in markdown and "renovated villa" not in markdown


def test_a_brief_in_the_section_after_the_titles_wins_over_the_about_section_further_down():
    """Divi: the title in a section of its own, the two-paragraph brief in the next, then the firm's service
    blurbs and its "about us" text (more of it, with more commas) in sections of their own: all at the same
    depth below the builder's frame. The brief is read, without the sections after it."""
    def section(n: int, inner: str) -> str:
        return (f"<div class='et_pb_section et_pb_section_{n}'><div class='et_pb_row'><div class='et_pb_column'>"
                f"{inner}</div></div></div>")

    brief = ("<div class='et_pb_module et_pb_text'><div class='et_pb_text_inner'><p>From Monday 8 January our "
             "office welcomes you at its new address, 48 Meuse Avenue, next to the station.</p><p>The building "
             "has step-free access and parking for clients at the back; the office is closed on 4 and 5 January "
             "for the move, and our numbers stay the same.</p></div></div>")
    blurbs = "".join(f"<div class='et_pb_module et_pb_blurb'><h4>Service {n}</h4><div class='et_pb_blurb_description'>"
                     f"<p>Blurb {n}: we keep your books and file your VAT returns.</p></div></div>" for n in range(3))
    about = ("<div class='et_pb_module et_pb_text'><div class='et_pb_text_inner'><h2>About us</h2><p>Founded in 1991, "
             "the firm has grown from one accountant to fourteen, with certified experts, two offices, a payroll "
             "service, and clients in trade, crafts, farming, care and the liberal professions.</p><p>We believe "
             "in advice close to you, in plain words, at a fixed price, agreed in advance, every year.</p></div></div>")
    html = ("<html><head><title>Our office moves in January | Delvaux</title></head><body><article class='post'>"
            "<div class='entry-content'><div class='et_builder_inner_content'>"
            + section(0, "<div class='et_pb_post_title'><h1>Our office moves in January</h1></div>")
            + section(1, brief) + section(2, blurbs) + section(3, about)
            + "</div></div></article></body></html>")
    markdown = extract_page(html).markdown
    assert "new address, 48 Meuse Avenue" in markdown and "our numbers stay the same" in markdown
    assert "Blurb 0" not in markdown and "Founded in 1991" not in markdown


def test_a_table_of_other_stories_under_a_read_also_row_inside_the_article_goes():
    """An old Greek paper's article cell holds a floating table: its first row "ΔΙΑΒΑΣΤΕ ΕΠΙΣΗΣ" (capitals,
    no accents), each other row a linked title and a summary of another story."""
    rows = "".join(f"<tr><td class='rel-td'><a href='/article.php?id={n}' class='rel-title'>Other story {n}</a>"
                   f"<div class='rel-sum'>Summary {n}: from Monday the afternoon bus to the villages stops running, "
                   "and the council studies a new timetable for the winter months.</div></td></tr>" for n in range(3))
    html = ("<html><body><table class='main'><tr><td class='art_text'>"
            f"{ARTICLE[:ARTICLE.index('</p>') + 4]}<table class='diavaste'><tr><td class='diavaste_title'>ΔΙΑΒΑΣΤΕ "
            f"ΕΠΙΣΗΣ</td></tr>{rows}</table>{ARTICLE[ARTICLE.index('</p>') + 4:]}</td></tr></table></body></html>")
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "late evening boat" in markdown
    assert "Other story" not in markdown and "Summary 0" not in markdown


def test_a_views_block_of_teasers_under_its_title_goes_with_its_more_link():
    """Drupal 7: a "Zobacz też" block after the node, its rows `views-row views-row-1 views-row-odd` (each
    its own classes) in a view beside a "more" link: a list of other pages, however long."""
    rows = "".join(f"<div class='views-row views-row-{n} views-row-{'odd' if n % 2 else 'even'}'>"
                   f"<div class='views-field views-field-title'><span class='field-content'><a href='/w/{n}'>Story "
                   f"{n}</a></span></div><div class='views-field views-field-body'><div class='field-content'>Teaser "
                   f"{n}: this year's pupils did better than last year's in every subject of the exam, the school "
                   "board says, and the best of them scored full marks in mathematics.</div></div></div>"
                   for n in range(1, 6))
    html = (f"<html><body><div class='region-content'><div class='node node-article'>{ARTICLE}</div>"
            "<div id='block-views-zobacz-tez-block' class='block block-views'><h2>Zobacz też</h2><div class='content'>"
            f"<div class='view view-zobacz-tez'><div class='view-content'>{rows}</div><div class='more-link'>"
            "<a href='/wiadomosci'>więcej</a></div></div></div></div></div></body></html>")
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "Teaser 1" not in markdown


def test_a_box_of_further_reading_titled_by_a_div_of_its_own_goes():
    """"延伸阅读" in a `<div class="ys_tit">`, not a heading, over paragraphs of another text."""
    box = ("<div class='yanshen'><div class='ys_tit'>延伸阅读</div><p>延伸阅读：家庭医生签约服务全面推开，"
           "签约居民可享受优先预约专家号、长处方和上门随访等服务。</p><p>本报记者近日走访了多家社区卫生服务中心，发现前来就诊的老年人明显"
           "增多。</p></div>")
    html = (f"<html><body><div class='text_con'><div class='text_c'>{ARTICLE}</div>{box}"
            f"<div class='text_c text_end'>{ARTICLE.replace('ferry', 'bus')}</div></div></body></html>")
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "签约居民" not in markdown


def test_a_news_item_whose_block_opens_with_its_date_under_the_title_stands_without_the_column_beside_it():
    """Bitrix: the title as a child of the centre column, then `news-detail` opening with its date and two
    paragraphs, then the firm's service cards; the "about us" box in the right column beside it."""
    cards = "".join(f"<div class='service-card'><div class='service-name'>Service {n}</div><div class='service-text'>"
                    f"Service {n}: our engineers work out how much insulation your building needs, free of charge, "
                    "from its drawings.</div></div>" for n in range(4))
    html = ("<html><head><title>New warehouse opens — Thermoplast</title></head><body><div class='content-wrap'>"
            "<div class='center-col'><div class='breadcrumbs'><a href='/'>Home</a></div><h1>New warehouse opens</h1>"
            f"<div class='news-detail'><span class='news-date-time'>14.03.2014</span>{ARTICLE}</div>"
            f"<div class='services-block'><div class='block-title'>Our services</div>{cards}</div></div>"
            "<div class='right-col'><div class='about-box'><div class='block-title'>About us</div><p>Thermoplast has "
            "sold insulation since 2004, as the official dealer of the leading makers, and serves over 1,500 "
            "clients, from builders of one house to the largest contractors.</p></div></div></div></body></html>")
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "late evening boat" in markdown
    assert "our engineers work out" not in markdown and "official dealer" not in markdown


def test_the_pages_one_article_with_its_title_is_the_item_without_the_builders_rows_after_it():
    """Avada: `<main>` holds the post's `<article>` (its title and two paragraphs) and, after it in the same
    wrapper, the builder's rows: the centre's classes in content boxes, then its "about" text."""
    boxes = "".join(f"<div class='content-box-column'><h2 class='content-box-heading'>Class {n}</h2><div "
                    f"class='content-container'>Class {n}: lessons for children from six to sixteen, three times "
                    "a week, with an experienced teacher.</div></div>" for n in range(3))
    brief = ARTICLE.split("</p>")[0] + "</p>" + ARTICLE.split("</p>")[1] + "</p>"
    html = ("<html><head><title>Folk festival on 24 September – Culture Centre</title></head><body>"
            "<main id='main' class='clearfix'><div class='fusion-row'><section id='content'>"
            "<article class='post hentry'><h1 class='entry-title'>Folk festival on 24 September</h1>"
            f"<div class='post-content'>{brief}</div></article>"
            f"<div class='fusion-fullwidth'><h2>Our classes</h2><div class='fusion-content-boxes'>{boxes}</div></div>"
            "<div class='fusion-fullwidth'><div class='fusion-text'><h3>About the centre</h3><p>The culture centre was "
            "founded in 1968 and is today the largest cultural institution of the municipality, with a hall of "
            "four hundred seats, a library and studios.</p><p>Its ensembles, choirs and studios take part every year "
            "in regional and national contests, and its doors are open to everyone.</p></div></div>"
            "</section></div></main></body></html>")
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "extra sailing" in markdown
    assert "lessons for children" not in markdown and "founded in 1968" not in markdown


def test_sections_alike_beside_the_one_that_holds_the_article_are_the_shops():
    """Shopify: the blog post's `<article>` in a section, then sections of the same kind with the shop's
    products (each with a line about it) and its "about us" text."""
    products = "".join(f"<li class='grid__item'><div class='card'><h3 class='card__heading'><a href='/products/{n}'>"
                       f"Blend {n}</a></h3><div class='caption'>Blend {n}: strong and fragrant, from farmers of the "
                       "province, roasted every week.</div><span class='price'>₱420.00</span></div></li>"
                       for n in range(4))
    html = ("<html><head><title>A new blend for June – Roastery</title></head><body><main id='MainContent'>"
            "<div id='shopify-section-main' class='shopify-section section'><article class='article-template'>"
            "<header><h1 class='article-template__title'>A new blend for June</h1><time>May 30, 2024</time></header>"
            f"<div class='article-template__content rte' itemprop='articleBody'>{ARTICLE}</div></article></div>"
            "<div id='shopify-section-featured' class='shopify-section section'><h2>Our customers' favourites</h2>"
            f"<ul class='grid product-grid'>{products}</ul></div>"
            "<div id='shopify-section-rich-text' class='shopify-section section'><h2>From the farm to your cup</h2>"
            "<p>The roastery is a small family business that started in 2017. We buy our coffee directly from more "
            "than forty farmers in the province and in the towns around it, and we pay them above the market "
            "price.</p></div></main></body></html>")
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "late evening boat" in markdown
    assert "strong and fragrant" not in markdown and "forty farmers" not in markdown


@pytest.mark.parametrize("title", ["댓글목록", "评论列表 (12)", "コメント一覧", "留言列表"])
def test_a_title_that_names_the_list_of_comments_in_one_word_names_comments(title):
    """Gnuboard's `<h2>댓글목록</h2>` over its comments: the comments' word and "list" in one word."""
    assert COMMENTS_TITLE.match(title)


def test_a_closing_copyright_statement_before_the_editors_name_goes_and_the_name_stays():
    """DedeCMS: the statement in the last paragraph of the content cell, and "(责任编辑：admin)" after it
    as text outside any block."""
    statement = ("<p>【版权声明】本文为本网原创稿件，转载请注明出处及作者，未经本网书面授权，"
                 "任何单位和个人不得转载、摘编、改写或以其他方式使用本文内容。本网转载的文章均注明来源，"
                 "目的在于传递更多信息。</p>")
    html = (f"<html><body><table><tr><td class='content'>{ARTICLE}{statement}\n(责任编辑：admin)</td></tr></table>"
            "</body></html>")
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "late evening boat" in markdown
    assert "版权声明" not in markdown and "责任编辑" in markdown


def test_a_two_paragraph_post_in_the_pages_one_article_wins_over_a_longer_about_section_further_down():
    """Salient: the title and its date in a heading row, the post's two paragraphs in the page's one
    `<article>` in the next row; after the container, the builder's row of rooms and a three-paragraph
    "about us" section that outscores the post."""
    rooms = "".join(f"<div class='nectar-fancy-box'><h3>Room {n}</h3><p>Room {n}: two beds, a small kitchen and a "
                    "courtyard with a pergola on the ground floor.</p></div>" for n in range(3))
    about = "".join(f"<p>About us, part {n}: a small family hotel of fourteen rooms, fifty metres from the beach, "
                    "built by our grandfather in 1974 with stone from the island, and kept by the same family "
                    "since then, with a garden, a terrace and a view of the bay.</p>" for n in range(3))
    brief = ARTICLE.split("</p>")[0] + "</p>" + ARTICLE.split("</p>")[1] + "</p>"
    html = ("<html><head><title>We open on 25 April – White Stone Hotel</title></head><body>"
            "<div class='container-wrap'><div class='container main-content' role='main'>"
            "<div class='row heading-title hentry'><div class='col section-title'><h1 class='entry-title'>We open on "
            "25 April</h1><div id='single-below-header'><span class='meta-date'>8 March 2024</span></div></div></div>"
            "<div class='row'><div class='post-area col'><article class='post'><div class='post-content'>"
            f"<div class='wpb_text_column'>{brief}</div></div></article></div></div></div>"
            f"<div class='wpb_row rooms'>{rooms}</div><div class='wpb_row about-hotel'><div class='wpb_text_column "
            f"about-text'><h2>About us</h2>{about}</div></div></div></body></html>")
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "extra sailing" in markdown
    assert "About us, part" not in markdown and "two beds" not in markdown


def test_a_news_agencys_main_stories_with_their_summaries_lose_to_the_story_above_them():
    """Bitrix: the story in `news-detail`, then "Главное": six items, each a date, a linked title in bold,
    a line break and a summary, with the word "news" in the list's class (which scores it up)."""
    items = "".join(f"<div class='news-item'><span class='news-date-time'>08.07.2015 1{n}:50</span><a href='/news/"
                    f"{n}/'><b>Headline number {n}</b></a><br>Summary {n}: the regional government appointed a new "
                    "minister, who had run a district for six years, after his predecessor resigned over delays, "
                    "the press office said.</div>" for n in range(6))
    html = ("<html><body><div class='site-body__main'><div class='news-detail'><h1>Story</h1><span class='news-date-"
            f"time'>08.07.2015 14:35</span>{ARTICLE}</div><div class='main-news-block'><div class='main-news-block__"
            f"title'>Main stories</div><div class='news-list main-news'>{items}</div></div></div></body></html>")
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "late evening boat" in markdown
    assert "Summary 1" not in markdown and "Headline number" not in markdown


def test_a_paywalls_preview_of_the_first_paragraph_is_the_articles_opening():
    """BLOX (TownNews): the first paragraph in `subscriber-preview`, the rest in `subscriber-only`: a
    subscriber's class words name the article's parts, not a subscription offer."""
    first, rest = ARTICLE.split("</p>", 1)
    html = ("<html><body><div class='asset-content subscriber-premium'><div id='article-body' class='asset-body' "
            f"itemprop='articleBody'><div class='subscriber-preview'>{first}</p></div><div class='subscriber-only "
            f"encrypted-content'>{rest}</div></div></div></body></html>")
    markdown = extract_page(html).markdown
    assert "second crossing each morning" in markdown and "late evening boat" in markdown


def test_a_lead_in_a_table_cell_named_vrezka_joins_the_body_in_the_cell_below():
    """NetCat: the date, the title, the bold lead (`nf_vrezka`, Russian for an inset lead), the photo with
    its caption and the body (two blocks around a "read also" table) each in a row of their own."""
    lead = ("<b>Over 1,800 people have asked doctors for help after tick bites in the region in two weeks, and two "
            "adults have tick-borne encephalitis.</b>")
    first, rest = ARTICLE.split("</p>", 1)
    photo = ("<td class='nf_photo'><img src='/t.jpg'><div class='nf_podpis'>Ticks became active two weeks earlier "
             "than usual this year. Photo from the archive.</div></td>")
    also = ("<table class='chitayte'><tr><td><b>Read also:</b><br><a href='/n/1'>Where to have a tick removed</a>"
            "<br><a href='/n/2'>Parks to be sprayed</a></td></tr></table>")
    html = ("<html><body><table><tr><td id='leftcol'><a href='/'>Home</a></td><td id='centercol'>"
            "<table class='newsfull'><tr><td class='nf_date'>08.05.2012 09:15</td></tr><tr><td><h1>Ticks attack</h1>"
            f"</td></tr><tr><td class='nf_vrezka'>{lead}</td></tr><tr>{photo}</tr><tr><td class='nf_text'>"
            f"<div class='text'>{first}</p></div>{also}<div class='text'>{rest}</div></td></tr>"
            "<tr><td class='nf_author'>Olga</td></tr></table></td></tr></table></body></html>")
    markdown = extract_page(html).markdown
    assert "Over 1,800 people" in markdown and "second crossing each morning" in markdown


def test_a_short_post_under_a_header_with_its_title_and_date_is_not_overruled_by_the_shops_cards():
    """Kadence: the `entry-header` holds the title and a `<time>`, the post's three short paragraphs follow
    in `entry-content`, and after the post come product cards and a longer "about us" block: the short
    post is no doubtful first opinion for a second look to replace."""
    cards = "".join(f"<div class='kt-inside-inner-col'><h3>Bread {n}</h3><p>Bread {n}: a crisp crust and an open "
                    "crumb, a classic that stays fresh for a week in a linen bag, baked with our own "
                    f"sourdough.</p><p class='price'>1 490 Ft</p></div>" for n in range(3))
    post = ("<article class='entry single-entry post hentry'><div class='entry-content-wrap'><header "
            "class='entry-header'><h1 class='entry-title'>We open on Sundays</h1><div class='entry-meta'><time "
            "class='entry-date'>2024. november 25.</time></div></header><div class='entry-content single-content'>"
            "<p>We are glad to say the bakery opens on Sundays from 2 December, every week until Easter.</p><p>On "
            "Sundays we bake from seven until noon, with fresh bread, rolls and cakes.</p><p>Order your Christmas "
            "cake by phone or in the web shop before the 20th.</p></div></div></article>")
    html = ("<html><head><title>We open on Sundays – Sourdough Bakery</title></head><body><div id='inner-wrap' "
            "class='wrap hfeed'><div id='primary' class='content-area'><div class='content-container'><main "
            f"id='main' class='site-main'><div class='content-wrap'>{post}"
            f"<div class='wp-block-kadence-rowlayout'>{cards}</div><div class='about'><h2>About us</h2><p>The "
            "bakery was founded in 2014 by two friends who learned the trade in Vienna, and today it bakes every "
            "night for three shops, two markets and a dozen restaurants of the city.</p><p>Every loaf is made "
            "with natural sourdough, flour from a mill nearby, water and salt, and rests for a day.</p></div>"
            "</div></main></div></div></div></body></html>")
    markdown = extract_page(html).markdown
    assert "opens on Sundays from 2 December" in markdown and "Christmas cake" in markdown
    assert "crisp crust" not in markdown and "two friends" not in markdown
