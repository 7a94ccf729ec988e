"""Every request the browser makes obeys fetch_content's address rules: through the guarded proxy,
in a network namespace of the test's own where public-looking and private addresses are told apart."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import installed_command
from tests.fake_upstream import Reply
from websearch_mcp.browser import find_browser
from websearch_mcp.browser.proxy import GuardedProxy
from websearch_mcp.fetch.addresses import AddressGuard

SCENARIO = Path(__file__).resolve().parent / "browser_netns_scenario.py"


def _namespaces_work() -> bool:
    unshare = shutil.which("unshare")
    if unshare is None or shutil.which("ip") is None:
        return False
    return subprocess.run([unshare, "-rn", "ip", "link", "set", "lo", "up"], capture_output=True).returncode == 0


def _ask(proxy: GuardedProxy, raw: bytes) -> bytes:
    host, port = proxy.address.split(":")
    with socket.create_connection((host, int(port)), timeout=5) as client:
        client.sendall(raw)
        data = b""
        while chunk := client.recv(4096):
            data += chunk
        return data


@pytest.mark.parametrize("request_head", [
    b"GET http://127.0.0.1:{port}/secret HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"CONNECT 127.0.0.1:{port} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET http://169.254.169.254/latest/meta-data/ HTTP/1.1\r\nHost: x\r\n\r\n",
    b"CONNECT 10.0.0.1:443 HTTP/1.1\r\n\r\n",
    b"GET http://[::ffff:127.0.0.1]:{port}/secret HTTP/1.1\r\n\r\n",
])
def test_the_proxy_refuses_private_addresses(upstream, request_head):
    upstream.route("GET", "/secret", Reply(body=b"internal data"))
    proxy = GuardedProxy(AddressGuard(allow_private=False))
    try:
        port = upstream.url.rsplit(":", 1)[1]
        answer = _ask(proxy, request_head.replace(b"{port}", port.encode()))
    finally:
        proxy.close()
    assert answer.startswith(b"HTTP/1.1 403") and b"internal data" not in answer
    assert upstream.count("/secret") == 0 and len(proxy.refused) == 1


def test_the_proxy_forwards_what_the_rules_allow(upstream):
    upstream.route("GET", "/page", Reply(body=b"hello through the proxy"))
    proxy = GuardedProxy(AddressGuard(allow_private=True), ports={int(upstream.url.rsplit(":", 1)[1])})
    try:
        answer = _ask(proxy, f"GET {upstream.url}/page HTTP/1.1\r\nHost: x\r\nProxy-Connection: keep-alive\r\n\r\n"
                      .encode())
    finally:
        proxy.close()
    assert answer.startswith(b"HTTP/1.") and answer.endswith(b"hello through the proxy")


@pytest.mark.skipif(find_browser() is None, reason="no Chromium installed (apt-get install chromium)")
@pytest.mark.skipif(not _namespaces_work(), reason="network namespaces are not available here (unshare -rn, ip)")
def test_a_rendered_public_page_reaches_no_private_address():
    done = subprocess.run(["unshare", "-rn", sys.executable, str(SCENARIO), installed_command()],
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    seen = json.loads(done.stdout)
    assert seen["page_requests"] >= 1 and "reaches for private addresses" in seen["pages"][0]["content"]
    assert seen["pages"][0]["metadata"]["rendered"] is True
    assert seen["secret_requests"] == {"127.0.0.1": 0, "10.0.0.1": 0, "169.254.169.254": 0}
    refusals = [line for line in seen["log"] if "browser: refused" in line]
    assert refusals, seen["log"]  # the proxy, not only the browser's own rules, turned them away


@pytest.mark.parametrize("verb", ["GET http://127.0.0.1:{port}/page", "CONNECT 127.0.0.1:{port}"])
def test_the_proxy_reaches_web_ports_and_the_pages_own_only(upstream, verb):
    upstream.route("GET", "/page", Reply(body=b"hello through the proxy"))
    port = upstream.url.rsplit(":", 1)[1]
    proxy = GuardedProxy(AddressGuard(allow_private=True))  # its page is on 80 or 443: not on the upstream's port
    try:
        answer = _ask(proxy, (verb.format(port=port) + " HTTP/1.1\r\nHost: x\r\n\r\n").encode())
    finally:
        proxy.close()
    assert answer.startswith(b"HTTP/1.1 403") and answer.endswith(f"port {port} is not a web port".encode())
    assert upstream.count("/page") == 0 and list(proxy.refused) == [f"127.0.0.1:{port}"]
