"""One answer no larger than a client takes: every tool's whole result (text and structuredContent
as serialized) stays within WEBSEARCH_MAX_RESULT_CHARS (100,000 by default); the pages of one call
share it fairly, each cut page says where to read on, and the text says once how to get more."""

from __future__ import annotations

import json

from tests.conftest import config_for
from tests.fake_upstream import Reply
from tests.helpers import call, exchange, registry_for
from websearch_mcp.budget import fit, share, size_of


def long_page(number: int, paragraphs: int) -> bytes:
    body = "".join(f"<p>Page {number}, paragraph {n}: " + "the quick brown fox jumps over the lazy dog " * 9
                   + "</p>" for n in range(paragraphs))
    return f"<html><head><title>Long page {number}</title></head><body><article>{body}</article></body></html>".encode()


def fetch_ten(upstream, **overrides):
    for number in range(10):
        upstream.route("GET", f"/long/{number}", Reply(body=long_page(number, 100 if number else 2)))
    config = config_for(upstream, allow_private_urls=True, **overrides)
    urls = [f"{upstream.url}/long/{n}" for n in range(10)]
    replies = exchange([call("fetch_content", {"urls": urls})], registry=registry_for(config))
    return next(r for r in replies if r.get("id") == 1)["result"]


def answer_size(result: dict) -> int:
    return len(json.dumps(result["content"][0]["text"], ensure_ascii=False)) + len(
        json.dumps(result["structuredContent"], ensure_ascii=False, separators=(",", ":")))


def test_ten_long_pages_fit_the_default_budget_fairly(upstream):
    result = fetch_ten(upstream)
    assert answer_size(result) <= 100_000  # 409,916 characters before
    pages = result["structuredContent"]["pages"]
    assert len(pages) == 10 and len(pages[0]["content"]) < 2000  # the short page whole ...
    long_ones = [len(p["content"]) for p in pages[1:]]
    assert max(long_ones) - min(long_ones) < 1500 and min(long_ones) > 3000  # ... the long ones share alike
    assert all(p["next_start_index"] for p in pages[1:])
    text = result["content"][0]["text"]
    assert text.count("WEBSEARCH_MAX_RESULT_CHARS") == 1 and "To read on, call fetch_content with start_index=" in text


def test_the_budget_is_configurable(upstream):
    result = fetch_ten(upstream, max_result_chars=30_000)
    assert answer_size(result) <= 30_000


def test_fair_shares_give_what_small_parts_leave_to_the_others():
    assert share([100, 5000, 5000], 6000) == [100, 2950, 2950]
    assert share([10, 20], 1000) == [10, 20]
    assert sum(share([7000] * 7, 10_000)) <= 10_000


def test_the_last_guard_cuts_the_longest_strings_and_says_so():
    text = "x" * 80_000
    structured = {"pages": [{"content": "y" * 80_000, "title": "t"}], "n": 3}
    cut_text, cut_structured = fit(text, structured, 50_000)
    assert size_of(cut_text, cut_structured) <= 50_000
    assert cut_structured["n"] == 3 and cut_structured["pages"][0]["title"] == "t"
    assert cut_text.endswith("(WEBSEARCH_MAX_RESULT_CHARS)]")
