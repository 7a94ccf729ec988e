"""Private-address protection in the default configuration: on the first hop and after redirects."""

from __future__ import annotations

import ipaddress

import pytest

from tests.conftest import config_for
from tests.fake_upstream import FIXTURES, Reply
from websearch_mcp.fetch.addresses import AddressGuard, BlockedAddressError, InvalidUrlError, refusal_reason
from websearch_mcp.fetch.pages import PageFetcher

PUBLIC = "93.184.216.34"  # a global address; the test network below dials it on loopback instead

REFUSED_HOSTS = [
    ("127.0.0.1", "loopback"), ("127.8.9.10", "loopback"), ("[::1]", "loopback"), ("localhost", "loopback"),
    ("2130706433", "loopback"), ("0x7f000001", "loopback"),
    ("10.0.0.1", "private"), ("172.16.5.4", "private"), ("192.168.1.1", "private"), ("[fc00::1]", "private"),
    ("169.254.169.254", "link-local"), ("[fe80::1]", "link-local"),
    ("100.64.0.1", "not publicly routable"), ("224.0.0.1", "multicast"), ("[ff02::1]", "multicast"),
    ("240.0.0.1", "reserved"), ("0.0.0.0", "unspecified"), ("[::]", "unspecified"),
    ("[::ffff:127.0.0.1]", "loopback"), ("[::ffff:169.254.169.254]", "link-local"),
    ("[2002:7f00:1::]", "loopback"), ("[64:ff9b::a00:1]", "private"),
]


class FakeNetwork(AddressGuard):
    """The real guard, with name resolution and dialing replaced for names and addresses of the tests."""

    def __init__(self, port: int, names: dict[str, list[str]]) -> None:
        super().__init__(allow_private=False)
        self.port = port
        self.names = names
        self.lookups: dict[str, int] = {}

    def lookup(self, host: str, port: int) -> list[tuple[int, str]]:
        if host not in self.names:
            return super().lookup(host, port)
        answers = self.names[host]
        count = self.lookups.get(host, 0)
        self.lookups[host] = count + 1
        address = answers[min(count, len(answers) - 1)]  # later lookups may answer differently
        return [(0, address)]

    def dial_target(self, address: str, port: int) -> tuple[str, int]:
        return ("127.0.0.1", self.port) if address == PUBLIC else (address, port)


def default_fetcher(upstream, guard: AddressGuard | None = None) -> PageFetcher:
    config = config_for(upstream)  # allow_private_urls stays False: the default
    assert config.allow_private_urls is False
    return PageFetcher(config, guard=guard)


@pytest.mark.parametrize("host, reason", REFUSED_HOSTS)
def test_first_hop_to_a_refused_address(upstream, host, reason):
    upstream.route("GET", "/secret", Reply(body=b"internal data"))
    with pytest.raises(BlockedAddressError, match=reason):
        default_fetcher(upstream).fetch(f"http://{host}:{upstream.url.rsplit(':', 1)[1]}/secret")
    assert upstream.count("/secret") == 0  # nothing was sent


@pytest.mark.parametrize("host, reason", REFUSED_HOSTS)
def test_redirect_to_a_refused_address(upstream, host, reason):
    port = int(upstream.url.rsplit(":", 1)[1])
    upstream.route("GET", "/start", Reply(status=302, headers={"Location": f"http://{host}:{port}/secret"}))
    upstream.route("GET", "/secret", Reply(body=b"internal data"))
    guard = FakeNetwork(port, {"public.test": [PUBLIC]})
    with pytest.raises(BlockedAddressError, match=reason):
        default_fetcher(upstream, guard).fetch(f"http://public.test:{port}/start")
    assert upstream.count("/start") == 1 and upstream.count("/secret") == 0


def test_public_redirect_is_followed_through_the_test_network(upstream):
    port = int(upstream.url.rsplit(":", 1)[1])
    upstream.route("GET", "/start", Reply(status=302, headers={"Location": f"http://other.test:{port}/page"}))
    upstream.route("GET", "/page", Reply.fixture("handmade/pages/article.html"))
    guard = FakeNetwork(port, {"public.test": [PUBLIC], "other.test": [PUBLIC]})
    page = default_fetcher(upstream, guard).fetch(f"http://public.test:{port}/start")
    assert page.final_url == f"http://other.test:{port}/page" and "Async" in page.text


def test_dns_rebinding_between_check_and_connect_is_refused(upstream):
    """The name answers a public address when checked, then a private one: the connection re-checks."""
    port = int(upstream.url.rsplit(":", 1)[1])
    upstream.route("GET", "/page", Reply(body=(FIXTURES / "handmade/pages/article.html").read_bytes()))
    guard = FakeNetwork(port, {"rebind.test": [PUBLIC, "127.0.0.1"]})
    with pytest.raises(BlockedAddressError, match="loopback"):
        default_fetcher(upstream, guard).fetch(f"http://rebind.test:{port}/page")
    assert upstream.count("/page") == 0


def test_allow_private_urls_lifts_the_rule(upstream):
    upstream.route("GET", "/page", Reply(body=b"<p>hello from a trusted network</p>"))
    config = config_for(upstream, allow_private_urls=True)
    assert "trusted" in PageFetcher(config).fetch(f"{upstream.url}/page").text


@pytest.mark.parametrize("url, message", [
    ("ftp://example.org/file", "only http and https"), ("file:///etc/passwd", "only http and https"),
    ("example.org", "only http and https"), ("https:///path", "no host"), ("http://[::1", "not a valid URL"),
    ("javascript:alert(1)", "only http and https"),
])
def test_invalid_urls(upstream, url, message):
    with pytest.raises(InvalidUrlError, match=message):
        default_fetcher(upstream).fetch(url)


@pytest.mark.parametrize("address", ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "93.184.216.34"])
def test_public_addresses_pass(address):
    assert refusal_reason(ipaddress.ip_address(address)) is None


def test_teredo_wrapped_private_address_is_refused():
    # Teredo carries the client's IPv4 inverted in the last 32 bits: here 10.0.0.1
    teredo = ipaddress.IPv6Address("2001:0:4136:e378:8000:63bf:f5ff:fffe")
    assert refusal_reason(teredo) is not None
