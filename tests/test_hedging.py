"""One engine that hangs must not hold the whole search: when the engine asked has not answered within
the hedge delay, the next is asked beside it and the first good answer is used (through the installed
command, a fresh process per call, as a client spawns it)."""

from __future__ import annotations

from tests.conftest import client_environment, env_for, installed_command
from tests.fake_upstream import Reply
from tests.helpers import timed_call
from websearch_mcp.services.hedging import Latencies

BING_PAGE = "engines/bing/bing_javascript-tutorial_http_2026-04-04.html"
BRAVE_PAGE = "engines/brave/brave_javascript-tutorial_2026-04-04.html"
MOJEEK_PAGE = "engines/mojeek/mojeek_javascript-tutorial_2026-04-04.html"
HANG = Reply(body=b"", delay=30)
TRICKLE = Reply(fault="trickle-headers", drip_seconds=1.0)


def route(upstream, ddg: Reply, bing: Reply | None = None) -> None:
    upstream.route("POST", "/html/", ddg)
    upstream.route("POST", "/lite/", ddg)
    upstream.route("GET", "/bing/search", bing or Reply.fixture(BING_PAGE))
    upstream.route("GET", "/brave/search", Reply.fixture(BRAVE_PAGE))
    upstream.route("GET", "/mojeek/search", Reply.fixture(MOJEEK_PAGE))


def first_search(upstream, tmp_path, **extra: str) -> tuple[float, dict]:
    """One web_search by a fresh process with the default engine order and settings."""
    env = {**env_for(upstream), "WEBSEARCH_BACKENDS": "", "WEBSEARCH_STORE": f"sqlite:///{tmp_path}/store.db",
           **extra}
    elapsed, answer = timed_call(installed_command(), client_environment(env), "web_search",
                                 {"query": "javascript tutorial", "max_results": 5})
    return elapsed, answer["result"]


def statuses(answer: dict) -> list[tuple[str, str]]:
    return [(t["backend"], t["status"]) for t in answer["structuredContent"]["metadata"]["backends_tried"]]


def test_a_hanging_duckduckgo_is_hedged_by_bing(upstream, tmp_path):
    route(upstream, HANG)
    elapsed, answer = first_search(upstream, tmp_path)
    assert not answer.get("isError") and answer["content"][0]["text"].endswith("_Source: Bing (5 results)_")
    assert elapsed < 3.0  # 30 s before: 15 s for each DuckDuckGo endpoint
    assert statuses(answer) == [("duckduckgo", "slow"), ("bing", "answered")]
    assert upstream.count("/bing/search") == 1  # a hedge is one request to the next engine


def test_duckduckgo_trickling_its_headers_is_hedged(upstream, tmp_path):
    route(upstream, TRICKLE)
    elapsed, answer = first_search(upstream, tmp_path)
    assert not answer.get("isError") and elapsed < 3.0
    assert statuses(answer) == [("duckduckgo", "slow"), ("bing", "answered")]


def test_duckduckgo_and_bing_hanging_brave_answers(upstream, tmp_path):
    route(upstream, HANG, bing=HANG)
    elapsed, answer = first_search(upstream, tmp_path)
    assert not answer.get("isError") and answer["content"][0]["text"].endswith("_Source: Brave (5 results)_")
    assert elapsed < 4.5
    assert statuses(answer) == [("duckduckgo", "slow"), ("bing", "slow"), ("brave", "answered")]


def test_the_slow_engine_is_rested_for_the_next_process(upstream, tmp_path):
    route(upstream, HANG)
    first_search(upstream, tmp_path)
    asked = upstream.count("/html/")
    elapsed, answer = first_search(upstream, tmp_path)
    assert elapsed < 1.5 and upstream.count("/html/") == asked  # not asked again while it rests
    tried = answer["structuredContent"]["metadata"]["backends_tried"]
    assert tried[0]["status"] == "skipped" and "had not answered after" in tried[0]["reason"]


def test_with_fusion_a_hanging_engine_is_replaced_by_the_next(upstream, tmp_path):
    route(upstream, HANG)
    elapsed, answer = first_search(upstream, tmp_path, WEBSEARCH_FUSION="2")
    assert not answer.get("isError") and elapsed < 3.0
    assert answer["content"][0]["text"].endswith("_Source: Bing + Brave (5 results)_")
    assert statuses(answer) == [("duckduckgo", "slow"), ("bing", "answered"), ("brave", "answered")]


def test_a_failing_engine_is_replaced_at_once_without_a_hedge_delay(upstream, tmp_path):
    route(upstream, Reply(status=403))
    elapsed, answer = first_search(upstream, tmp_path, WEBSEARCH_HEDGE_DELAY="20")
    assert not answer.get("isError") and elapsed < 1.5
    assert statuses(answer) == [("duckduckgo", "failed"), ("bing", "answered")]


def test_the_hedge_delay_follows_what_an_engine_usually_takes():
    latencies = Latencies()
    assert latencies.hedge_delay("bing", 1.5) == 1.5  # nothing known yet: the configured delay
    for seconds in (0.1, 0.12, 0.08):
        latencies.note("bing", seconds)
    assert latencies.hedge_delay("bing", 1.5) == 1.0  # fast: the floor
    for seconds in (0.45, 0.5, 0.55, 0.5):
        latencies.note("duckduckgo", seconds)
    assert latencies.hedge_delay("duckduckgo", 2.0) == 1.5  # three times its median
    assert latencies.hedge_delay("duckduckgo", 0) == float("inf")  # 0 turns hedging off
