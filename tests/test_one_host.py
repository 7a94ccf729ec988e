"""Several pages of one site, some of them slow: a stalled request must not hold the rest of its
host's pages hostage, a host still sees a bounded number of requests at once, and a page still in
line for its host is not late (nor announced as being read when it will not be)."""

from __future__ import annotations

import time

from tests.conftest import client_environment, config_for, env_for, installed_command
from tests.fake_upstream import FakeUpstream, Reply
from tests.helpers import timed_call
from websearch_mcp.fetch.pages import LatePage, NotStarted, PageFetcher
from websearch_mcp.fetch.slots import FairSlots, Holding

ARTICLE = "handmade/pages/article.html"


def site(upstream: FakeUpstream, slow: dict[int, Reply]) -> list[str]:
    """Ten pages of one host answering in 50-300 ms, except those in `slow`."""
    for number in range(10):
        upstream.route("GET", f"/docs/{number}", slow.get(number) or Reply.fixture(
            ARTICLE, delay=0.05 + 0.25 * number / 9))
    return [f"{upstream.url}/docs/{number}" for number in range(10)]


def fetcher(upstream, **overrides) -> PageFetcher:
    return PageFetcher(config_for(upstream, allow_private_urls=True, **overrides))


def test_one_hung_page_of_a_host_does_not_hold_its_other_pages(upstream):
    urls = site(upstream, {2: Reply.fixture(ARTICLE, delay=30)})
    started = time.monotonic()
    results = fetcher(upstream).fetch_many(urls, deadline=started + 40)
    elapsed = time.monotonic() - started
    assert elapsed < 1.5
    assert isinstance(results[2], LatePage)
    assert all(not isinstance(r, Exception) for n, r in enumerate(results) if n != 2)


def test_two_trickling_pages_do_not_hold_a_host_that_allows_two_requests(upstream):
    trickle = Reply.fixture(ARTICLE, fault="trickle-headers", drip_seconds=1.0)
    urls = site(upstream, {2: trickle, 4: trickle})
    started = time.monotonic()
    results = fetcher(upstream, fetch_per_host=2).fetch_many(urls, deadline=started + 40)
    elapsed = time.monotonic() - started
    read = [n for n, r in enumerate(results) if not isinstance(r, Exception)]
    assert read == [0, 1, 3, 5, 6, 7, 8, 9]
    assert elapsed < 4.0  # each stalled request steps aside after a second; it used to wait out the timeout
    assert upstream.max_in_flight <= 4  # two at work and at most two stalled beside them


def test_a_host_never_sees_more_than_its_bound_and_as_many_stalled(upstream):
    # Every page answers after 12 s and the call gives up at 6 s: however late a loaded machine sends
    # the second pair (the first pair steps aside after a second), all four overlap on the wire. No
    # request may end on its own while this is looked at (the tests' 5 s timeout would close the first
    # pair while the server still counts them, and a late second pair could then step aside for a third)
    urls = site(upstream, {n: Reply.fixture(ARTICLE, delay=12) for n in range(10)})
    fetcher(upstream, fetch_per_host=2, timeout=20.0).fetch_many(urls, max_wait=6.0)
    asked = [f"/docs/{n}" for n in range(10)]
    settle_until = time.monotonic() + 4.0  # a loaded machine may be slow to send the second pair
    while sum(upstream.count(path) for path in asked) < 4 and time.monotonic() < settle_until:
        time.sleep(0.05)
    time.sleep(0.5)  # and anything past the bound would have gone out by now
    assert upstream.max_in_flight == 4
    assert sum(upstream.count(path) for path in asked) == 4


def test_a_page_still_in_line_is_not_late_and_is_never_requested(upstream):
    urls = site(upstream, {n: Reply.fixture(ARTICLE, delay=6) for n in range(3)})
    results = fetcher(upstream, fetch_per_host=1).fetch_many(urls[:3], max_wait=0.8)
    assert isinstance(results[0], LatePage) and "still being read" in results[0].message
    waiting = [r for r in results[1:] if isinstance(r, NotStarted)]
    assert len(waiting) == 2 and all("ask again to read it" in r.message and "still being read" not in r.message
                                     for r in waiting)
    time.sleep(2.0)  # the first steps aside after a second: the others could have gone by now, but nobody wants them
    assert upstream.count("/docs/1") == upstream.count("/docs/2") == 0


def test_a_page_announced_as_still_being_read_arrives_in_the_cache(upstream):
    urls = site(upstream, {2: Reply.fixture(ARTICLE, delay=3), 4: Reply.fixture(ARTICLE, delay=3)})
    pages = fetcher(upstream)
    started = time.monotonic()
    first = pages.fetch_many(urls, deadline=started + 40)
    assert time.monotonic() - started < 1.5
    assert [n for n, r in enumerate(first) if isinstance(r, LatePage)] == [2, 4]
    time.sleep(3.0)
    again = time.monotonic()
    second = pages.fetch_many(urls, deadline=again + 40)
    assert all(not isinstance(r, Exception) for r in second) and time.monotonic() - again < 0.3
    assert upstream.count("/docs/2") == upstream.count("/docs/4") == 1


def test_a_stalled_holder_steps_aside_only_within_the_stalled_bound():
    slots = FairSlots(1, stalled_capacity=1)
    assert slots.acquire()
    first = Holding(slots)
    first.stall()
    assert slots.in_use == (0, 1) and slots.acquire(time.monotonic() + 0.1)
    second = Holding(slots)
    second.stall()  # the stalled bound is full: it keeps its slot
    assert slots.in_use == (1, 1) and not slots.acquire(time.monotonic() + 0.1)
    first.release()
    first.release()  # once only
    second.release()
    assert slots.in_use == (0, 0)


def _results_page(urls: list[str]) -> bytes:
    rows = "".join(f'<div class="result results_links web-result"><h2 class="result__title"><a class="result__a" '
                   f'href="{url}">Article {n}</a></h2><a class="result__snippet" href="#">About async Rust, '
                   f'part {n}</a></div>' for n, url in enumerate(urls))
    return f'<html><body class="body--html"><div id="links">{rows}</div></body></html>'.encode()


def test_search_context_over_pages_of_one_site_with_stalled_ones(upstream, tmp_path):
    trickle = Reply.fixture(ARTICLE, fault="trickle-headers", drip_seconds=1.0)
    urls = site(upstream, {2: Reply.fixture(ARTICLE, delay=30), 4: trickle, 6: trickle})
    upstream.route("POST", "/html/", Reply(body=_results_page(urls)))
    env = {**env_for(upstream), "WEBSEARCH_ALLOW_PRIVATE_URLS": "1", "WEBSEARCH_FETCH_PER_HOST": "2",
           "WEBSEARCH_STORE": f"sqlite:///{tmp_path}/store.db"}
    elapsed, answer = timed_call(installed_command(), client_environment(env), "search_context",
                                 {"query": "async rust", "max_results": 10})
    structured = answer["result"]["structuredContent"]
    late = sorted(f["url"].rsplit("/", 1)[1] for f in structured["failed"] if f.get("late"))
    assert late == ["2", "4", "6"] and len(structured["failed"]) == 3
    assert elapsed < 5.0  # it took the 15 s timeout before


def test_ten_pages_of_one_site_are_read_side_by_side_and_twenty_within_the_bound(upstream):
    for number in range(20):
        upstream.route("GET", f"/many/{number}", Reply.fixture(ARTICLE, delay=0.3))
    pages = fetcher(upstream, cache_ttl=0.0)
    pages.fetch_many([f"{upstream.url}/many/{n}" for n in range(10)])
    assert upstream.max_in_flight == 10  # as ten pages of ten sites are
    pages.fetch_many([f"{upstream.url}/many/{n}" for n in range(20)])
    assert upstream.max_in_flight == 10  # the default bound, WEBSEARCH_FETCH_PER_HOST
