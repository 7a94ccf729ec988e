"""fetch_content's reading options: an outline of a long page, and only the passages that answer a
query, each with the start_index that reads on around it."""

from __future__ import annotations

import pytest

from tests.conftest import config_for
from tests.fake_upstream import Reply
from tests.helpers import call, exchange, registry_for

GUIDE = "handmade/pages/long-guide.html"


def fetch(upstream, **arguments):
    upstream.route("GET", "/guide", Reply.fixture(GUIDE))
    config = config_for(upstream, allow_private_urls=True)
    replies = exchange([call("fetch_content", {"urls": [f"{upstream.url}/guide"], **arguments})],
                       registry=registry_for(config))
    return next(r for r in replies if r.get("id") == 1)["result"]


def test_the_outline_lists_every_heading_with_a_start_index_that_reads_it(upstream):
    result = fetch(upstream, outline=True)
    page = result["structuredContent"]["pages"][0]
    titles = [s["title"] for s in page["outline"]]
    assert titles == ["Installation", "Configuration", "Authentication",
                      "Rotating tokens", "Rate limits", "Troubleshooting"]
    text = result["content"][0]["text"]
    assert "Outline: 6 sections" in text and "  - Rotating tokens (start_index " in text
    assert page["content"] == "" and len(text) < 900  # a long page seen in a few hundred tokens
    auth = next(s for s in page["outline"] if s["title"] == "Authentication")
    part = fetch(upstream, start_index=auth["start_index"], max_chars=auth["chars"])
    content = part["structuredContent"]["pages"][0]["content"]
    assert content.startswith("## Authentication") and "Rotating tokens" in content
    assert "Rate limits" not in content  # the section, and only it


def test_a_query_returns_the_passage_that_answers_first_with_its_heading_path(upstream):
    result = fetch(upstream, query="how long until a revoked token stops working")
    page = result["structuredContent"]["pages"][0]
    best = page["passages"][0]
    assert "revoked token stops working within a minute" in best["text"]
    assert best["heading_path"] == ["Authentication"]
    whole = fetch(upstream, max_chars=200000)["structuredContent"]["pages"][0]["content"]
    assert whole[best["start_index"]:].startswith(best["text"][:40])  # start_index points at it
    text = result["content"][0]["text"]
    assert f"### Authentication (start_index {best['start_index']})" in text


@pytest.mark.parametrize("max_chars", [300, 1200])
def test_query_passages_stay_within_max_chars(upstream, max_chars):
    result = fetch(upstream, query="token rate limit retry", max_chars=max_chars)
    found = result["structuredContent"]["pages"][0]["passages"]
    assert sum(len(p["text"]) for p in found) <= max_chars
    scores = [p["score"] for p in found]
    assert scores == sorted(scores, reverse=True)


def test_a_query_nothing_matches_says_so(upstream):
    result = fetch(upstream, query="zeppelin")
    assert "No passage of this page matches the query" in result["content"][0]["text"]


@pytest.mark.parametrize("title", ["Rate limits", "Troubleshooting", "Installation", "Rotating tokens"])
def test_asking_for_a_section_by_its_title_returns_that_section_first(upstream, title):
    result = fetch(upstream, query=title)
    passages = result["structuredContent"]["pages"][0]["passages"]
    assert passages and passages[0]["heading_path"][-1] == title


def test_words_match_across_their_inflections(upstream):
    passages = fetch(upstream, query="limits")["structuredContent"]["pages"][0]["passages"]
    assert any("When the limit is reached" in p["text"] for p in passages)
    assert passages[0]["heading_path"] == ["Rate limits"]


def test_heading_paths_count_against_max_chars(upstream):
    found = fetch(upstream, query="token rate limit retry", max_chars=600)["structuredContent"]["pages"][0]["passages"]
    assert sum(len(p["text"]) + sum(len(t) + 3 for t in p["heading_path"]) for p in found) <= 600
