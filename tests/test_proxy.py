"""Behind a proxy that does the DNS, with no DNS on this machine (a network namespace of the test's
own): pages are read through the proxy, while literal private or loopback addresses, localhost and
names that resolve here to private addresses are refused before the proxy sees them, on every redirect
too. The browser's guarded proxy forwards to the same proxy."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import installed_command

SCENARIO = Path(__file__).resolve().parent / "proxy_netns_scenario.py"


def _namespaces_work() -> bool:
    unshare = shutil.which("unshare")
    if unshare is None or shutil.which("ip") is None:
        return False
    return subprocess.run([unshare, "-rmn", "ip", "link", "set", "lo", "up"], capture_output=True).returncode == 0


@pytest.fixture(scope="module")
def seen() -> dict:
    if not _namespaces_work():
        pytest.skip("network and mount namespaces are not available here (unshare -rmn, ip)")
    done = subprocess.run(["unshare", "-rmn", sys.executable, str(SCENARIO), installed_command()],
                          capture_output=True, timeout=180)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    return json.loads(done.stdout)


def _failure(result: dict, url_part: str) -> str:
    return next(f["error"] for f in result["failed"] if url_part in f["url"])


def test_a_name_this_machine_cannot_resolve_is_read_through_the_proxy(seen):
    pages = {p["url"]: p for p in seen["proxied"]["pages"]}
    assert "read through the proxy" in pages["http://docs.example.test/page"]["content"]
    assert "GET http://docs.example.test/page" in seen["seen_by_proxy"]


def test_private_addresses_are_refused_before_the_proxy_sees_them(seen):
    proxied = seen["proxied"]
    for part, said in (("10.0.0.1", "private-network address"), ("localhost", "loopback address"),
                       ("intranet.example.test", "resolves to 10.0.0.1"), ("169.254.169.254", "link-local")):
        assert said in _failure(proxied, part), part
    assert not any(host in line for line in seen["seen_by_proxy"]
                   for host in ("10.0.0.1", "localhost", "intranet", "169.254"))
    assert seen["secret_requests"] == {"site": 0, "internal": 0, "metadata": 0}


def test_every_redirect_is_checked_behind_the_proxy(seen):
    proxied = seen["proxied"]
    assert "link-local" in _failure(proxied, "/to-metadata")
    pages = {p["url"]: p for p in proxied["pages"]}
    assert "read through the proxy" in pages["http://docs.example.test/to-other"]["content"]
    assert "GET http://other.example.test/page" in seen["seen_by_proxy"]


def test_https_goes_to_the_proxy_as_a_connect(seen):
    assert "CONNECT docs.example.test:443" in seen["seen_by_proxy"]


def test_no_proxy_sends_the_name_to_the_local_resolver(seen):
    error = _failure(seen["direct"], "docs.example.test")
    assert "could not resolve the host name docs.example.test" in error


def test_the_browser_proxy_forwards_to_the_same_proxy(seen):
    answers = seen["browser_proxy"]
    assert answers["page"].startswith("HTTP/1.") and "read through the proxy" in answers["page"]
    assert answers["private"].startswith("HTTP/1.1 403") and answers["intranet"].startswith("HTTP/1.1 403")
    assert seen["browser_seen_by_proxy"] == ["GET http://docs.example.test/page"]
