"""Reading pages in time: fair, deadline-aware connection slots; a quorum and a grace period, after
which late pages keep loading into the cache; leases that lapse when their holder dies."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from tests.conftest import config_for
from tests.fake_upstream import Reply
from tests.helpers import call, exchange, registry_for
from websearch_mcp.fetch.pages import FetchError, LatePage, PageFetcher
from websearch_mcp.fetch.slots import FairSlots
from websearch_mcp.store.lease import LEASE_SECONDS
from websearch_mcp.store.sqlite import SqliteStore

ARTICLE = "handmade/pages/article.html"


def fetcher(upstream, **overrides) -> PageFetcher:
    return PageFetcher(config_for(upstream, allow_private_urls=True, **overrides))


def test_slots_serve_waiters_in_the_order_they_came():
    slots = FairSlots(1)
    assert slots.acquire()
    served: list[int] = []

    def wait_then_note(number: int) -> None:
        slots.acquire()
        served.append(number)
        slots.release()

    threads = []
    for number in range(5):
        thread = threading.Thread(target=wait_then_note, args=(number,))
        thread.start()
        threads.append(thread)
        while slots.waiting < number + 1:
            time.sleep(0.005)
    slots.release()
    for thread in threads:
        thread.join(5)
    assert served == [0, 1, 2, 3, 4]


def test_a_waiter_gives_up_at_its_deadline_and_the_next_goes():
    slots = FairSlots(1)
    assert slots.acquire()
    assert slots.acquire(time.monotonic() + 0.2) is False
    slots.release()
    assert slots.acquire(time.monotonic() + 0.2) is True


def test_waiting_for_a_host_slot_obeys_the_call_deadline(upstream):
    upstream.route("GET", "/stalled", Reply.fixture(ARTICLE, delay=4.0))
    upstream.route("GET", "/instant", Reply.fixture(ARTICLE))
    pages = fetcher(upstream, fetch_per_host=1)
    threading.Thread(target=lambda: pages.fetch(f"{upstream.url}/stalled"), daemon=True).start()
    while upstream.count("/stalled") == 0:
        time.sleep(0.01)
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"deadline passed after 0\.\d s waiting in line for a connection"):
        pages.fetch(f"{upstream.url}/instant", deadline=started + 0.6)
    assert time.monotonic() - started < 1.5 and upstream.count("/instant") == 0


def test_a_retry_pause_does_not_hold_the_host_slot(upstream):
    upstream.route("GET", "/flaky", Reply(status=500), Reply.fixture(ARTICLE))
    upstream.route("GET", "/other", Reply.fixture(ARTICLE))
    pages = fetcher(upstream, fetch_per_host=1, backoff_seconds=2.0)
    flaky = threading.Thread(target=lambda: pages.fetch(f"{upstream.url}/flaky"))
    flaky.start()
    while upstream.count("/flaky") == 0:
        time.sleep(0.01)
    time.sleep(0.1)  # the 500 is in; /flaky now sleeps before its retry
    started = time.monotonic()
    pages.fetch(f"{upstream.url}/other")
    assert time.monotonic() - started < 1.0  # not behind the two-second pause
    flaky.join(10)
    assert upstream.count("/flaky") == 2


def test_after_the_quorum_late_pages_get_a_grace_then_load_into_the_cache(upstream):
    for name in ("a", "b", "c", "d"):
        upstream.route("GET", f"/{name}", Reply.fixture(ARTICLE, delay=0.05))
    upstream.route("GET", "/slow", Reply.fixture(ARTICLE, delay=4.0))
    pages = fetcher(upstream)
    urls = [f"{upstream.url}/{name}" for name in ("a", "b", "slow", "c", "d")]
    started = time.monotonic()
    results = pages.fetch_many(urls, deadline=started + 30)
    elapsed = time.monotonic() - started
    assert elapsed < 3.0  # quorum after ~0.05 s, then a grace of 0.3 s; not the slow page's 4 s
    late = results[2]
    assert isinstance(late, LatePage) and "ask again: it is still being read" in late.message
    assert all(not isinstance(r, Exception) for i, r in enumerate(results) if i != 2)
    arrived = time.monotonic() + 15
    while pages.cache.get("page", urls[2]) is None:  # the late page keeps loading in the background
        assert time.monotonic() < arrived
        time.sleep(0.05)
    again = time.monotonic()
    second = pages.fetch_many([urls[2]], deadline=time.monotonic() + 30)
    assert not isinstance(second[0], Exception) and time.monotonic() - again < 0.5
    assert upstream.count("/slow") == 1  # read once, from the first call's request


def test_asking_again_while_a_page_is_still_loading_joins_that_read(upstream):
    upstream.route("GET", "/slow", Reply.fixture(ARTICLE, delay=1.0))
    pages = fetcher(upstream)
    first = pages.fetch_many([f"{upstream.url}/slow"], max_wait=0.3)
    assert isinstance(first[0], LatePage)
    second = pages.fetch_many([f"{upstream.url}/slow"], max_wait=5)
    assert not isinstance(second[0], Exception) and upstream.count("/slow") == 1


def test_max_wait_seconds_bounds_fetch_content(upstream):
    upstream.route("GET", "/slow", Reply.fixture(ARTICLE, delay=3.0))
    config = config_for(upstream, allow_private_urls=True)
    started = time.monotonic()
    replies = exchange([call("fetch_content", {"urls": [f"{upstream.url}/slow"], "max_wait_seconds": 0.5})],
                       registry=registry_for(config))
    assert time.monotonic() - started < 2.0
    result = next(r for r in replies if r.get("id") == 1)["result"]
    assert result["structuredContent"]["failed"][0]["late"] is True
    assert "ask again: it is still being read" in result["content"][0]["text"]


HOLDER = """
import sys, time
from websearch_mcp.store.lease import KeptLease
from websearch_mcp.store.sqlite import SqliteStore
store = SqliteStore(sys.argv[1], 1 << 20)
assert store.claim("lease:search:q", 3.0)
with KeptLease(store, "lease:search:q"):
    print("held", flush=True)
    time.sleep(600)
"""


def test_a_killed_holder_lets_go_of_its_lease_within_seconds(tmp_path):
    path = str(tmp_path / "shared.db")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, path], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        store = SqliteStore(path, 1 << 20)
        time.sleep(LEASE_SECONDS + 1)  # alive: the heartbeat keeps the lease past its first term
        assert not store.claim("lease:search:q", 3.0)
        holder.kill()
        holder.wait(5)
        killed = time.monotonic()
        while not store.claim("lease:search:q", 3.0):
            assert time.monotonic() - killed < LEASE_SECONDS + 1.5
            time.sleep(0.05)
    finally:
        holder.kill()
