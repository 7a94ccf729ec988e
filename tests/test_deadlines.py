"""Deadlines that hold from the first byte sent to the last byte read (headers included), and search
requests that obey the address rules on every hop."""

from __future__ import annotations

import time

import pytest

from tests.conftest import config_for
from tests.fake_upstream import Reply
from tests.helpers import call, exchange, registry_for
from websearch_mcp.errors import UpstreamError, UpstreamTimeout
from websearch_mcp.fetch.pages import FetchError, PageFetcher
from websearch_mcp.http_client import HttpClient

TRICKLE = Reply(fault="trickle-headers", drip_seconds=0.2)


def test_trickled_headers_end_at_the_timeout(upstream):
    upstream.route("GET", "/slow", TRICKLE)
    started = time.monotonic()
    with pytest.raises(UpstreamTimeout, match=r"did not answer within 1\.5 s"):
        HttpClient(config_for(upstream, timeout=1.5, retries=0)).request("GET", f"{upstream.url}/slow")
    assert time.monotonic() - started < 3.0  # the socket read timeout alone would never fire


def test_trickled_headers_end_at_the_call_deadline(upstream):
    upstream.route("GET", "/slow", TRICKLE)
    started = time.monotonic()
    with pytest.raises(UpstreamTimeout):
        HttpClient(config_for(upstream, timeout=30.0, retries=3)).request(
            "GET", f"{upstream.url}/slow", deadline=started + 1.0)
    assert time.monotonic() - started < 2.5  # retries included


def test_a_trickling_page_is_a_failed_read_not_an_empty_page(upstream):
    upstream.route("GET", "/slow", TRICKLE)
    fetcher = PageFetcher(config_for(upstream, timeout=1.0, allow_private_urls=True))
    started = time.monotonic()
    with pytest.raises(FetchError, match="did not answer within"):
        fetcher.fetch(f"{upstream.url}/slow")
    assert time.monotonic() - started < 4.0  # one retry of one second, its pause, and margin


def test_web_search_against_a_trickling_engine_answers_within_the_timeout(upstream):
    upstream.route("POST", "/html/", TRICKLE)
    upstream.route("GET", "/lite/", TRICKLE)
    config = config_for(upstream, timeout=1.0, retries=0)
    started = time.monotonic()
    replies = exchange([call("web_search", {"query": "rust"})], registry=registry_for(config))
    elapsed = time.monotonic() - started
    result = next(r for r in replies if r.get("id") == 1)["result"]
    assert result["isError"] is True and "did not answer within" in result["content"][0]["text"]
    assert elapsed < 4.0


def test_the_deadline_does_not_touch_a_pooled_connection_after_its_exchange(upstream):
    upstream.route("GET", "/x", Reply(body=b"one"), Reply(body=b"two"))
    client = HttpClient(config_for(upstream, timeout=0.5))
    assert client.request("GET", f"{upstream.url}/x").body == b"one"
    time.sleep(0.8)  # the first exchange's deadline passes while its connection sits in the pool
    assert client.request("GET", f"{upstream.url}/x").body == b"two"


# -- every hop obeys the address rules ---------------------------------------------------------------

@pytest.mark.parametrize("target", ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/",
                                    "http://127.0.0.1:1/admin", "http://[::1]:8080/"])
def test_an_engine_redirect_to_a_private_address_is_not_followed(upstream, target):
    upstream.route("GET", "/ia/", Reply(status=302, headers={"Location": target}))
    with pytest.raises(UpstreamError, match=r"redirected to .* which is not followed"):
        HttpClient(config_for(upstream, retries=0)).request("GET", f"{upstream.url}/ia/")
    assert upstream.count("/ia/") == 1


def test_a_configured_private_endpoint_may_redirect_to_itself(upstream):
    upstream.route("GET", "/searx", Reply(status=301, headers={"Location": "/searx/"}))
    upstream.route("GET", "/searx/", Reply(body=b"results"))
    response = HttpClient(config_for(upstream)).request("GET", f"{upstream.url}/searx")
    assert response.body == b"results" and response.url == f"{upstream.url}/searx/"


def test_the_private_endpoint_is_not_a_redirect_target_from_elsewhere(upstream):
    # the second fake upstream plays a public engine on another origin; both are loopback here, so
    # the redirect from it back to the first is a redirect to a private address
    from tests.fake_upstream import FakeUpstream

    with FakeUpstream() as other:
        other.route("GET", "/search", Reply(status=302, headers={"Location": f"{upstream.url}/secret"}))
        upstream.route("GET", "/secret", Reply(body=b"internal"))
        with pytest.raises(UpstreamError, match="not followed"):
            HttpClient(config_for(upstream, retries=0)).request("GET", f"{other.url}/search")
    assert upstream.count("/secret") == 0


def test_instant_answer_redirect_to_metadata_is_refused(upstream):
    upstream.route("GET", "/ia/", Reply(status=302, headers={"Location": "http://169.254.169.254/"}))
    replies = exchange([call("instant_answer", {"query": "rust"})], registry=registry_for(config_for(upstream)))
    result = next(r for r in replies if r.get("id") == 1)["result"]
    assert result["isError"] is True and "169.254.169.254" in result["content"][0]["text"]


def test_allow_private_urls_lets_engine_redirects_through(upstream):
    from tests.fake_upstream import FakeUpstream

    with FakeUpstream() as other:
        other.route("GET", "/search", Reply(status=302, headers={"Location": f"{upstream.url}/next"}))
        upstream.route("GET", "/next", Reply(body=b"fine"))
        client = HttpClient(config_for(upstream, allow_private_urls=True))
        assert client.request("GET", f"{other.url}/search").body == b"fine"


def test_a_303_turns_a_post_into_a_get_and_a_307_keeps_it(upstream):
    upstream.route("POST", "/see-other", Reply(status=303, headers={"Location": "/landed"}))
    upstream.route("POST", "/temporary", Reply(status=307, headers={"Location": "/landed"}))
    upstream.route("GET", "/landed", Reply(body=b"got"))
    upstream.route("POST", "/landed", Reply(body=b"posted"))
    client = HttpClient(config_for(upstream))
    assert client.request("POST", f"{upstream.url}/see-other", data={"q": "x"}).body == b"got"
    assert client.request("POST", f"{upstream.url}/temporary", data={"q": "x"}).body == b"posted"
    assert upstream.count("/landed", "GET") == 1 and upstream.count("/landed", "POST") == 1
