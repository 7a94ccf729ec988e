"""The one HTTP layer against the fake upstream's faults."""

from __future__ import annotations

import time

import pytest

from tests.conftest import config_for
from tests.fake_upstream import Reply
from websearch_mcp.errors import ResponseTooLarge, UpstreamConnectionError, UpstreamHTTPError, UpstreamTimeout
from websearch_mcp.http_client import HttpClient, parse_retry_after


def client(upstream, **overrides) -> HttpClient:
    return HttpClient(config_for(upstream, **overrides))


def test_retries_server_errors_then_succeeds(upstream):
    upstream.route("GET", "/x", Reply(status=502), Reply(status=503), Reply(body=b"ok"))
    response = client(upstream, retries=2).request("GET", f"{upstream.url}/x")
    assert (response.status, response.body) == (200, b"ok") and upstream.count("/x") == 3


def test_gives_up_after_the_retry_budget(upstream):
    upstream.route("GET", "/x", Reply(status=500))
    response = client(upstream, retries=2).request("GET", f"{upstream.url}/x")
    assert response.status == 500 and upstream.count("/x") == 3
    with pytest.raises(UpstreamHTTPError, match="HTTP 500"):
        response.raise_for_status("x")


def test_client_errors_are_not_retried(upstream):
    upstream.route("GET", "/x", Reply(status=404))
    assert client(upstream).request("GET", f"{upstream.url}/x").status == 404
    assert upstream.count("/x") == 1


def test_connection_reset_is_retried(upstream):
    upstream.route("GET", "/x", Reply(fault="reset"), Reply(body=b"fine"))
    assert client(upstream).request("GET", f"{upstream.url}/x").body == b"fine"


def test_persistent_reset_becomes_our_exception(upstream):
    upstream.route("GET", "/x", Reply(fault="reset"))
    with pytest.raises(UpstreamConnectionError, match="could not reach"):
        client(upstream, retries=1).request("GET", f"{upstream.url}/x")
    assert upstream.count("/x") == 2


def test_retry_after_is_honoured_within_the_cap(upstream):
    upstream.route("GET", "/x", Reply(status=429, headers={"Retry-After": "1"}), Reply(body=b"ok"))
    started = time.monotonic()
    response = client(upstream, retry_after_cap=2.0).request("GET", f"{upstream.url}/x")
    assert response.body == b"ok" and time.monotonic() - started >= 0.9


def test_retry_after_beyond_the_cap_is_returned_not_waited(upstream):
    upstream.route("GET", "/x", Reply(status=429, headers={"Retry-After": "120"}))
    started = time.monotonic()
    response = client(upstream, retry_after_cap=2.0).request("GET", f"{upstream.url}/x")
    assert response.status == 429 and response.retry_after() == 120 and time.monotonic() - started < 1


def test_slow_server_times_out(upstream):
    upstream.route("GET", "/x", Reply(delay=1.5, body=b"late"))
    with pytest.raises(UpstreamTimeout, match=r"did not answer within 0\.5 s"):
        client(upstream, timeout=0.5, retries=0).request("GET", f"{upstream.url}/x")


def test_dripping_body_hits_the_total_deadline(upstream):
    upstream.route("GET", "/x", Reply(body=b"y" * 4096, fault="drip", drip_seconds=0.05))
    started = time.monotonic()
    with pytest.raises(UpstreamTimeout):
        client(upstream, timeout=0.5, retries=0).request("GET", f"{upstream.url}/x")
    assert time.monotonic() - started < 1.5  # at the deadline, not once the whole 3.2-second body is in


def test_declared_oversized_body_is_refused(upstream):
    upstream.route("GET", "/x", Reply(body=b"z" * 5000))
    with pytest.raises(ResponseTooLarge, match="5000 bytes"):
        client(upstream, max_response_bytes=4096).request("GET", f"{upstream.url}/x")


def test_streamed_oversized_body_is_cut_off(upstream):
    upstream.route("GET", "/x", Reply(fault="oversize", oversize_bytes=50 * 1024 * 1024))
    started = time.monotonic()
    with pytest.raises(ResponseTooLarge, match="more than"):
        client(upstream, max_response_bytes=1024 * 1024).request("GET", f"{upstream.url}/x")
    assert time.monotonic() - started < 3


def test_truncated_body_is_a_connection_error(upstream):
    upstream.route("GET", "/x", Reply(body=b"a" * 1000, fault="truncate"))
    with pytest.raises(UpstreamConnectionError):
        client(upstream, retries=0).request("GET", f"{upstream.url}/x")


def test_headers_and_user_agent(upstream):
    upstream.route("GET", "/x", Reply(body=b"ok"))
    client(upstream, user_agent="TestAgent/1.0").request("GET", f"{upstream.url}/x")
    assert upstream.requests[0].headers["user-agent"] == "TestAgent/1.0"
    assert "text/html" in upstream.requests[0].headers["accept"]


def test_proxy_from_environment_is_used(upstream, monkeypatch):
    """A proxy named in HTTP_PROXY receives the request (here the fake upstream plays the proxy)."""
    upstream.route("GET", "/x", Reply(body=b"via proxy"))
    monkeypatch.setenv("HTTP_PROXY", upstream.url)
    monkeypatch.delenv("NO_PROXY")
    response = client(upstream).request("GET", "http://proxied.invalid/x")
    assert response.body == b"via proxy"


def test_text_uses_the_declared_charset(upstream):
    upstream.route("GET", "/x", Reply(body="café".encode("latin-1"), content_type="text/plain; charset=ISO-8859-1"))
    assert client(upstream).request("GET", f"{upstream.url}/x").text() == "café"


@pytest.mark.parametrize("value, seconds", [("5", 5.0), ("", None), (None, None), ("soon", None),
                                             ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0)])
def test_parse_retry_after(value, seconds):
    assert parse_retry_after(value) == seconds
