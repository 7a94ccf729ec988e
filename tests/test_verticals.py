"""News, images and videos on DuckDuckGo, Bing and Brave: every parser on every recorded answer
(expected values read from the recordings), block pages, requests, and whole searches against the
fake upstream (the token page before DuckDuckGo's JSON, fallback past a block, the site filters)."""

from __future__ import annotations

import pytest

from tests.conftest import config_for
from tests.fake_upstream import FIXTURES, FakeUpstream, Reply
from websearch_mcp.config import Config
from websearch_mcp.engines.base import SearchQuery
from websearch_mcp.engines.duckduckgo_verticals import parse_token
from websearch_mcp.engines.vertical import VerticalEngine, vertical_engine
from websearch_mcp.errors import BlockedError
from websearch_mcp.services.search import SearchService
from websearch_mcp.store.memory import MemoryStore

DDG_BLOCKED = "ddg-blocked/anomaly-captcha-sv-html-rust-programming-language-2026-04.html"
DDG_TOKEN = "engines/duckduckgo/token/ddg_token-page_openai-news_2026-02.html"
DDG_TOKEN_VALUE = "4-254393408312656439380238925294391346055"
BING_WEB_PAGE = "engines/bing/bing_javascript-tutorial_http_2026-04-04.html"
BRAVE_BLOCK = "engines/brave/brave_BLOCK-pow-captcha-challengeSet_http_2026-10.reconstructed.html"


def vertical(name: str, category: str, config: Config | None = None) -> VerticalEngine:
    service = SearchService(config or Config(store="memory"), None, MemoryStore(1 << 20))  # type: ignore[arg-type]
    return vertical_engine(service.engine(name), category)


def recording(name: str, category: str, file: str) -> bytes:
    return (FIXTURES / "engines" / name / category / file).read_bytes()


# -- parsers on recorded answers ------------------------------------------------------------------

# (engine, category, file, hits, {field: value} of the first hit, of the last hit), values as the
# recordings hold them (dates turned to ISO 8601, highlight tags dropped).
PARSED = [
    ("duckduckgo", "news", "ddg_news-js_rust-programming_2026-08.json", 13,
     {"title": "TIOBE Index July 2026: Rust Enters Top 10 as Index Turns 25",
      "url": "https://www.techrepublic.com/article/news-tiobe-july-2026-rust-enters-top-10/",
      "source": "TechRepublic", "published_date": "2026-07-10T14:51:00Z",  # "date":1783695060
      "snippet": "July 2026 TIOBE Index puts Rust in the top 10 for the first time, as Python stays near 19% "
                 "and the programming language ranking marks 25 years."},
     {"title": "Reading Rust for C Programmers", "source": "Electronic Design",
      "url": "https://www.electronicdesign.com/blogs/altembedded/article/21235152/electronic-design-reading-"
             "rust-for-c-programmers", "published_date": "2022-03-11T00:00:00Z"}),
    ("duckduckgo", "images", "ddg_i-js_rust-programming_2026-08.json", 99,
     {"title": "Rust Programming Language", "url": "https://rust-lang.org/",
      "image_url": "https://www.rust-lang.org/static/images/rust-social-wide.jpg",
      "thumbnail_url": "https://tse4.mm.bing.net/th/id/OIP.W8KBrJgmsIlYtn24AhHfSQHaDt?r=0&pid=Api",
      "width": 2048, "height": 1024, "source": "rust-lang.org"},
     {"url": "https://medium.com/@eguefif/rust-book-series-13-functional-features-dd82bf4b3277",
      "image_url": "https://miro.medium.com/v2/resize:fit:1358/0*8Bb_5En1ozLXwivi", "width": 1024, "height": 1024}),
    ("duckduckgo", "images", "ddg_i-js_minecraft_2022-05.json", 100,
     {"title": "Minecraft Earth - How to Craft and Smelt",
      "url": "https://www.gamepur.com/guide/44494-minecraft-earth-how-craft-smelt.html",
      "image_url": "https://www.gamepur.com/files/images/2019-11/minecraft-earth-how-to-craft-and-smelt.jpg",
      "width": 1214, "height": 933},
     {"image_url": "https://scdn.slashgear.com/wp-content/uploads/2019/12/minecraft_realms_plus_main.jpg",
      "width": 1433, "height": 800}),
    ("duckduckgo", "videos", "ddg_v-js_rust-programming_2026-08.json", 57,
     {"title": "Learn Rust Programming - Complete Course 🦀", "url": "https://www.youtube.com/watch?v=BpPEoZW5IiY",
      "duration": "13:59:10", "source": "YouTube", "published_date": "2023-06-08T12:43:32",
      "thumbnail_url": "https://tse2.mm.bing.net/th/id/OVP.X9INETUn2tEG8KJL2Wrl3QHgFo?pid=Api"},
     {"url": "https://www.youtube.com/watch?v=PgBi7VbDMQI", "duration": "8:04:42",
      "published_date": "2024-09-19T16:00:08"}),
    ("bing", "news", "bing_infinitescrollajax_rust-programming_2026-08.html", 4,
     {"title": "Programming languages: Rust just got a big boost from Facebook's Meta",
      "url": "https://www.zdnet.com/article/the-rust-programming-language-just-got-a-big-boost-from-meta/",
      "source": "ZDNet", "published_date": "2022-07-28"},  # aria-label="7/28/2022"
     {"title": "Developers love Rust programming language: Here's why", "source": "ZDNet",
      "url": "https://www.zdnet.com/article/developers-love-rust-programming-language-heres-why/",
      "published_date": "2020-01-21"}),
    ("bing", "images", "bing_images-async_rust-programming_2026-08.html", 35,
     {"title": "RUST PROGRAMMING LANGUAGE", "source": "linkedin.com",
      "image_url": "https://media.licdn.com/dms/image/v2/D5612AQG_VNcB7VI-Cw/article-cover_image-shrink_600_2000/"
                   "article-cover_image-shrink_600_2000/0/1681973828533?e=2147483647&v=beta&"
                   "t=g9s877ixt5AzjxVXsY5WLjDwhHW_V8Jyw5YMpjcO7sA",
      "thumbnail_url": "https://ts3.mm.bing.net/th?id=OIP.L35WRcM4TUkmAAWb72UDcwHaEs&pid=15.1",
      "width": 700, "height": 444},  # "700×444" in the tile, expw=700&exph=444 in its link
     {"url": "https://www.slideshare.net/slideshow/the-rust-programming-language-239114864/239114864",
      "width": 2048, "height": 1152}),
    ("bing", "images", "bing_images-search-page_golang-gopher_2026-04.html", 35,  # 47 tiles, 12 without a page
     {"title": "Golang Gopher Logo PNG (Transparent) SVG AI – Free Download",
      "url": "https://vectorseek.com/vector_logo/golang-gopher-logo-vector/", "source": "vectorseek.com",
      "image_url": "https://vectorseek.com/wp-content/uploads/2023/03/Golang-Gopher-Logo-Vector.jpg",
      "width": 1000, "height": 1000},
     {"url": "https://co.pinterest.com/pin/references--239253798947646364/", "width": 1147, "height": 1180}),
    ("bing", "images", "bing_images-search-page_golang-gopher-year_2026-04.html", 27,
     {"url": "https://cults3d.com/en/3d-model/art/go-golang-gopher-mascots", "width": 1080, "height": 1080},
     {"url": "https://uk.linkedin.com/in/james-m-862207214", "width": 1440, "height": 240}),
    ("bing", "videos", "bing_videos-asyncv2_rust-programming_2026-08.html", 49,
     {"title": "Rust Tutorial for Beginners - Full Course (With Notes and Project Ideas)",
      "url": "https://www.youtube.com/watch?v=qP7LzZqGh30", "duration": "4:01:40", "source": "YouTube",
      "published_date": "2024-04-29", "snippet": "Harkirat Singh · 338.3K views"},
     {"url": "https://www.youtube.com/watch?v=5vivjIU5XpI", "duration": "0:26",
      "published_date": "1 month ago", "snippet": "TechBox · 73 views"}),
    ("brave", "news", "brave_news_rust-programming_2026-08.html", 22,
     {"title": "Rust 101 — Everything you need to know about Rust | by Nishant Aanjaney Jalan | CodeX | Medium",
      "url": "https://medium.com/codex/rust-101-everything-you-need-to-know-about-rust-f3dd0ae99f4c",
      "source": "Medium", "published_date": "2023-02-25"},  # age:"February 25, 2023"
     {"title": "Rust vs Go: 40% Latency Gap in 2026 Benchmarks", "url": "https://tech-insider.org/rust-vs-go-2026/",
      "source": "Tech Insider", "published_date": "2026-03-20"}),
    ("brave", "images", "brave_images_rust-programming_2026-08.html", 200,
     {"title": "The Rust Programming Handbook: An end-to-end guide to mastering Rust fundamentals",
      "url": "https://www.amazon.com/-/es/Rust-Programming-Language-Steve-Klabnik/dp/1593278284",
      "image_url": "https://images-na.ssl-images-amazon.com/images/I/71XIIJHTRpL.jpg",
      "width": 2076, "height": 2560, "source": "amazon.com"},  # properties:{…height:2560,width:2076}
     {"url": "https://www.amazon.com/Rust-Programming-Language-2nd/dp/1718503105",
      "image_url": "https://m.media-amazon.com/images/I/31ALGd9WPwL.jpg", "width": 400, "height": 500}),
    ("brave", "videos", "brave_videos_rust-programming_2026-08.html", 50,
     {"title": "Rust programming language explained | ThePrimeagen and Lex Fridman - YouTube",
      "url": "https://www.youtube.com/watch?v=cA7flwaBiC0", "duration": "04:03", "source": "YouTube",
      "published_date": "2025-03-25T02:00:03"},
     {"url": "https://www.youtube.com/watch?v=M7gk3sosPLs", "duration": "08:33",
      "published_date": "2023-12-28T15:00:18"}),
]


@pytest.mark.parametrize("name, category, file, count, first, last", PARSED)
def test_every_recorded_answer_is_read_exactly(name, category, file, count, first, last):
    page = vertical(name, category).parse(recording(name, category, file))
    assert len(page.hits) == count
    for hit, expected in ((page.hits[0], first), (page.hits[-1], last)):
        assert {key: getattr(hit, key) for key in expected} == expected
    untitled = 4 if (name, category) == ("brave", "images") else 0  # four items of that page have no title
    assert sum(not hit.title for hit in page.hits) == untitled
    for hit in page.hits:
        assert hit.url.startswith(("http://", "https://"))
        assert "<b>" not in hit.title + hit.snippet and "\ue000" not in hit.title
        if category == "images":
            assert hit.image_url and hit.thumbnail_url and hit.image_url != hit.url
        if category == "videos" and name != "bing":
            assert hit.duration and hit.source


def test_news_keep_their_pictures_and_brave_videos_their_thumbnails():
    bing = vertical("bing", "news").parse(recording("bing", "news", "bing_infinitescrollajax_rust-programming_"
                                                                      "2026-08.html")).hits
    assert bing[1].thumbnail_url == ("https://www.bing.com/th?id=ONUT.HQ2a1zd8rg8BoDN-aAXJyw&pid=News&w=234&h=132"
                                     "&c=14&rs=2&qlt=90")  # site-relative in the card
    brave = vertical("brave", "videos").parse(recording("brave", "videos", "brave_videos_rust-programming_"
                                                                           "2026-08.html")).hits
    assert brave[0].thumbnail_url.startswith("https://imgs.search.brave.com/mPOzYNsJfUV6jw2406t5tKzAo02HLIF89")


def test_an_empty_image_answer_is_no_results_not_a_block():
    page = vertical("duckduckgo", "images").parse(
        recording("duckduckgo", "images", "ddg_i-js_NO-RESULTS_minecraft_2022-05.json"))
    assert page.hits == [] and not page.more


@pytest.mark.parametrize("file, token", [
    ("ddg_token-page_openai-news_2026-02.html", DDG_TOKEN_VALUE),
    ("ddg_token-page_openclaw-images_2026-02.html", "4-45350637169757966097240604964900547803"),
    ("ddg_token-page_openclaw-videos_2026-02.html", "4-45350637169757966097240604964900547803"),
    ("ddg_token-page_node_2022-05.html",
     "3-320068370671196460038575011587633753929-199869977846294510399902480995708132308"),
])
def test_the_token_is_read_from_every_recorded_search_page(file, token):
    assert parse_token(recording("duckduckgo", "token", file)) == token


# -- blocks -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("category", ["news", "images", "videos"])
def test_block_pages_are_blocks_never_empty_results(category):
    ddg = vertical("duckduckgo", category)
    anomaly = (FIXTURES / "engines/duckduckgo/ddg_BLOCK-anomalyDetectionBlock_d-js_2023-12.js").read_bytes()
    assert ddg.block_reason(200, anomaly) == "a block page (anomalyDetectionBlock)"
    with pytest.raises(BlockedError):
        ddg.parse(anomaly)
    assert parse_token((FIXTURES / DDG_BLOCKED).read_bytes()) is None
    bing = vertical("bing", category)
    with pytest.raises(BlockedError, match="no result list"):
        bing.parse((FIXTURES / BING_WEB_PAGE).read_bytes())  # a page of another kind: not "no results"
    brave = vertical("brave", category)
    captcha = (FIXTURES / BRAVE_BLOCK).read_bytes()
    assert brave.block_reason(200, captcha) == "a block page (challengeSet)"
    with pytest.raises(BlockedError):
        brave.parse(captcha)
    for engine in (ddg, bing, brave):
        assert engine.block_reason(403, b"") == "HTTP 403" and engine.block_reason(429, b"") == "HTTP 429"


# -- requests ---------------------------------------------------------------------------------------

def test_requests_carry_the_options_each_engine_knows():
    query = SearchQuery("rust", category="news", time_range="week", safe_search=2, language="de-AT",
                        include_domains=("zdnet.com", "bbc.co.uk"), exclude_domains=("medium.com",))
    text = "rust site:zdnet.com OR site:bbc.co.uk -site:medium.com"
    ddg = vertical("duckduckgo", "news").build_request(query, 30, vqd="4-1")
    assert ddg.url == "https://duckduckgo.com/news.js"
    assert ddg.params == {"l": "at-de", "o": "json", "q": text, "vqd": "4-1", "noamp": "1", "p": "1", "df": "w",
                          "s": "30"}
    assert ddg.headers["Referer"] == "https://duckduckgo.com/"
    token = vertical("duckduckgo", "news").token_request(query)
    assert token.url == "https://duckduckgo.com/" and token.params == {"q": text, "ia": "news"}
    bing = vertical("bing", "news").build_request(query, 10)
    assert bing.url == "https://www.bing.com/news/infinitescrollajax"
    assert bing.params == {"q": text, "InfiniteScroll": "1", "first": "11", "SFX": "2", "setlang": "de", "cc": "AT",
                           "qft": 'interval="8"'}
    brave = vertical("brave", "news").build_request(query, 0)
    assert brave.url == "https://search.brave.com/news" and brave.params == {"q": text, "source": "web", "tf": "pw"}
    assert brave.headers["Cookie"] == "safesearch=strict; useLocation=0; country=at"


@pytest.mark.parametrize("name, category, url, time_param", [
    ("duckduckgo", "images", "https://duckduckgo.com/i.js", ("f", "time:Week,,,,")),
    ("duckduckgo", "videos", "https://duckduckgo.com/v.js", ("f", "publishedAfter:w,,,")),
    ("bing", "images", "https://www.bing.com/images/async", ("qft", "+filterui:age-lt10080")),
    ("bing", "videos", "https://www.bing.com/videos/asyncv2", ("qft", "+filterui:videoage-lt10080")),
    ("brave", "images", "https://search.brave.com/images", None),
    ("brave", "videos", "https://search.brave.com/videos", ("tf", "pw")),
])
def test_every_vertical_asks_its_own_endpoint(name, category, url, time_param):
    engine = vertical(name, category)
    request = engine.build_request(SearchQuery("rust", category=category, time_range="week"), 0)
    assert request.url == url and request.params["q"] == "rust"
    if time_param:
        assert request.params[time_param[0]] == time_param[1] and "week" in engine.time_ranges
    else:
        assert "week" not in engine.time_ranges and "tf" not in request.params


def test_endpoints_are_settings():
    config = Config(store="memory", ddg_url="http://127.0.0.1:9/d/", bing_videos_url="http://127.0.0.1:9/bv",
                    brave_images_url="http://127.0.0.1:9/bi")
    assert vertical("duckduckgo", "videos", config).build_request(SearchQuery("x"), 0).url == "http://127.0.0.1:9/d/v.js"
    assert vertical("bing", "videos", config).build_request(SearchQuery("x"), 0).url == "http://127.0.0.1:9/bv"
    assert vertical("brave", "images", config).build_request(SearchQuery("x"), 0).url == "http://127.0.0.1:9/bi"


# -- whole searches against the fake upstream -------------------------------------------------------

def service(upstream: FakeUpstream, **overrides: object) -> SearchService:
    config = config_for(upstream, backends="duckduckgo,bing,brave", **overrides)
    from websearch_mcp.http_client import HttpClient

    return SearchService(config, HttpClient(config), MemoryStore(1 << 20))


def test_duckduckgo_news_sends_the_token_of_its_search_page(upstream):
    upstream.route("GET", "/ddg/", Reply.fixture(DDG_TOKEN))
    upstream.route("GET", "/ddg/news.js", Reply.fixture("engines/duckduckgo/news/ddg_news-js_rust-programming_"
                                                        "2026-08.json"))
    answer = service(upstream).search(SearchQuery("rust programming", category="news", max_results=5))
    assert answer.engines == ["duckduckgo"] and len(answer.hits) == 5
    assert answer.hits[0].source == "TechRepublic"
    token, news = [r for r in upstream.requests]
    assert (token.path, token.query["q"], news.path) == ("/ddg/", "rust programming", "/ddg/news.js")
    assert news.query["vqd"] == DDG_TOKEN_VALUE and news.headers["referer"].endswith("/ddg/")


def test_a_blocked_duckduckgo_hands_news_to_bing_and_rests_for_web_search_too(upstream):
    upstream.route("GET", "/ddg/", Reply.fixture(DDG_BLOCKED))
    upstream.route("GET", "/bing/news", Reply.fixture("engines/bing/news/bing_infinitescrollajax_rust-programming_"
                                                      "2026-08.html"))
    search = service(upstream)
    answer = search.search(SearchQuery("rust programming", category="news"))
    assert answer.engines == ["bing"] and len(answer.hits) == 4
    assert [t["backend"] for t in answer.tried] == ["duckduckgo", "bing"] and "anomaly" in answer.tried[0]["reason"]
    upstream.route("GET", "/bing/search", Reply.fixture(BING_WEB_PAGE))
    web = search.search(SearchQuery("javascript tutorial"))
    assert web.engines == ["bing"] and web.tried[0]["status"] == "skipped"  # one cool-down per engine
    assert upstream.count("/html/") == 0


def test_a_later_page_that_fails_keeps_the_pages_before_it(upstream):
    upstream.route("GET", "/bing/images", Reply.fixture("engines/bing/images/bing_images-async_rust-programming_"
                                                        "2026-08.html"), Reply(status=429))
    answer = service(upstream).search(SearchQuery("rust programming", category="images", max_results=30, page=2),
                                      pinned="bing")
    assert len(answer.hits) == 5 and upstream.count("/bing/images") == 2  # 35 images on page 1
    assert any("page 2" in note and "429" in note for note in answer.notes)


def test_site_filters_are_sent_and_applied(upstream):
    upstream.route("GET", "/brave/videos", Reply.fixture("engines/brave/videos/brave_videos_rust-programming_"
                                                         "2026-08.html"))
    query = SearchQuery("rust programming", category="videos", max_results=50, include_domains=("youtube.com",),
                        exclude_domains=("www.youtube.com",))
    assert service(upstream).search(query, pinned="brave").hits == []  # every video is on www.youtube.com
    assert upstream.requests[0].query["q"] == "rust programming site:youtube.com -site:www.youtube.com"
    kept = service(upstream).search(SearchQuery("rust programming", category="videos", max_results=50,
                                                include_domains=("youtube.com",)), pinned="brave")
    assert len(kept.hits) == 50  # a domain admits its subdomains


def test_a_search_page_without_a_token_is_a_block(upstream):
    upstream.route("GET", "/ddg/", Reply.fixture("ddg-blocked/homepage-instead-of-results-html-undated."
                                                 "transcribed.html"))
    with pytest.raises(Exception) as failed:
        service(upstream).search(SearchQuery("rust", category="images"), pinned="duckduckgo")
    assert "carries no vqd token" in str(failed.value) and upstream.count("/ddg/i.js") == 0


# -- small readers ----------------------------------------------------------------------------------

def test_javascript_object_literals_are_read():
    from websearch_mcp.engines.jsliteral import read_value

    text = "x={a:1,'b':\"two\\u00e9\",c:void 0,d:[true,false,null,-1.5e2],e:new Date(17),$f:{},g:'\\x41'};"
    value, end = read_value(text, 2)
    assert value == {"a": 1, "b": "twoé", "c": None, "d": [True, False, None, -150.0], "e": 17, "$f": {}, "g": "A"}
    assert text[end] == ";"
    with pytest.raises(ValueError):
        read_value("{a:function(){}}")


@pytest.mark.parametrize("url, include, exclude, kept", [
    ("https://news.bbc.co.uk/x", ["bbc.co.uk"], [], True),
    ("https://notbbc.co.uk/x", ["bbc.co.uk"], [], False),
    ("https://www.youtube.com/watch", [], ["youtube.com"], False),
    ("https://youtube.com/watch", ["youtube.com"], ["www.youtube.com"], True),
    ("https://example.org/", [], [], True),
])
def test_a_domain_matches_itself_and_its_subdomains(url, include, exclude, kept):
    from websearch_mcp.engines.sites import allowed

    assert allowed(url, include, exclude) is kept


def test_domains_are_normalised():
    from websearch_mcp.engines.sites import normalise_domain

    assert normalise_domain(" https://WWW.Example.com:8080/path ") == "www.example.com"
    assert normalise_domain("bbc.co.uk/news") == "bbc.co.uk"


def test_searxng_results_carry_their_image_and_video_fields():
    import json

    from websearch_mcp.engines.searxng import parse_results

    images = parse_results(json.loads((FIXTURES / "searxng/search-images-attention-is-all-you-need-2026-08.json")
                                      .read_bytes())).hits
    first = images[0]
    assert (first.url, first.image_url, first.thumbnail_url, first.width, first.height, first.source) == (
        "https://biodagar.com/attention-is-all-you-need-pdf-lecture-de-attention-is-all-you-need/",
        "https://heung-bae-lee.github.io/image/attention_is_all_you_need_01.png",
        "https://ts2.mm.bing.net/th?id=OIP.UVSGcRQrjE6FUkXXf9mp1gHaE-&pid=15.1", 1882, 1264, "biodagar.com")
    assert (images[1].width, images[1].height) == (680, 470)  # written "680x470"
    videos = parse_results(json.loads((FIXTURES / "searxng/search-videos-attention-is-all-you-need-2026-08.json")
                                      .read_bytes())).hits
    assert len(videos) == 48 and videos[0].duration == "36:44" and videos[0].url.endswith("v=XowwKOAWYoQ")
    assert videos[0].thumbnail_url.startswith("https://th.bing.com/th/id/OVP.zC5iXyBlkqksgZca4WUAPAHgFo")


def test_duckduckgo_reads_on_where_its_next_link_points(upstream):
    upstream.route("GET", "/ddg/", Reply.fixture(DDG_TOKEN))
    upstream.route("GET", "/ddg/news.js", Reply.fixture("engines/duckduckgo/news/ddg_news-js_rust-programming_"
                                                        "2026-08.json"))
    answer = service(upstream).search(SearchQuery("rust programming", category="news", max_results=20))
    first, second = [r.query for r in upstream.requests if r.path == "/ddg/news.js"]
    assert "s" not in first and second["s"] == "30"  # `"next":"news.js?…&s=30&…"`, not the 13 read
    assert second["vqd"] == DDG_TOKEN_VALUE and len(answer.hits) == 13  # the same answer again: nothing new
    assert answer.extras["pages_fetched"] == 3  # the token page and two JSON pages


def test_a_time_range_the_engine_cannot_apply_is_said_in_the_notes(upstream):
    upstream.route("GET", "/brave/images", Reply.fixture("engines/brave/images/brave_images_rust-programming_"
                                                         "2026-08.html"))
    answer = service(upstream).search(SearchQuery("rust programming", category="images", time_range="week"),
                                      pinned="brave")
    assert len(answer.hits) == 10 and "tf" not in upstream.requests[0].query
    assert answer.notes == ["Brave images cannot limit results to the last week; they are not filtered by date"]
