"""Run inside a network and mount namespace of the test's own (`unshare -rmn`): no DNS at all, and a
proxy on a private address (10.0.0.5) that knows docs.example.test and other.example.test. This
machine's own hosts file names intranet.example.test (10.0.0.1). The installed `websearch-mcp` reads
pages through the proxy; the browser's guarded proxy forwards to it too. Prints what each server saw,
as JSON."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fake_upstream import FakeUpstream, Reply
from tests.forward_proxy import ForwardProxy

PAGE = (b"<html><head><title>Proxied guide</title></head><body><article><h1>Proxied guide</h1><p>"
        + b"This page was read through the proxy, which resolved its name. " * 8 + b"</p></article></body></html>")


def main() -> None:
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    for address in ("10.0.0.1", "10.0.0.5", "169.254.169.254"):
        subprocess.run(["ip", "addr", "add", f"{address}/32", "dev", "lo"], check=True)
    hosts = Path(tempfile.mkdtemp()) / "hosts"
    hosts.write_text(Path("/etc/hosts").read_text() + "\n10.0.0.1 intranet.example.test\n")
    subprocess.run(["mount", "--bind", str(hosts), "/etc/hosts"], check=True)

    site = FakeUpstream("127.0.0.1").__enter__()
    internal = FakeUpstream("10.0.0.1").__enter__()
    metadata = FakeUpstream("169.254.169.254").__enter__()
    for server in (site, internal, metadata):
        server.route("GET", "/secret", Reply(body=b"internal data"))
    site.route("GET", "/page", Reply(body=PAGE))
    site.route("GET", "/to-metadata", Reply(status=302, headers={"Location": f"{metadata.url}/secret"}))
    site.route("GET", "/to-other", Reply(status=302, headers={"Location": "http://other.example.test/page"}))
    site_port = int(site.url.rsplit(":", 1)[1])
    names = {"docs.example.test": ("127.0.0.1", site_port), "other.example.test": ("127.0.0.1", site_port)}
    with ForwardProxy("10.0.0.5", names) as proxy:
        urls = ["http://docs.example.test/page", f"{internal.url}/secret", f"http://localhost:{site_port}/secret",
                f"http://intranet.example.test:{internal.url.rsplit(':', 1)[1]}/secret", f"{metadata.url}/secret",
                "http://docs.example.test/to-metadata", "https://docs.example.test/tls"]
        env = {k: v for k, v in os.environ.items() if "PROXY" not in k.upper() and not k.startswith("WEBSEARCH_")}
        env.update({"WEBSEARCH_STORE": "memory", "HTTP_PROXY": proxy.url, "HTTPS_PROXY": proxy.url,
                    "WEBSEARCH_RENDER": "never"})
        proxied = fetch(sys.argv[1], urls, env)
        # the page behind two hops through the proxy is read in a call of its own: among eight pages, a
        # busy machine could make it the late one that an answer goes out without (by design)
        redirected = fetch(sys.argv[1], ["http://docs.example.test/to-other"], env)
        for part in ("pages", "failed"):
            proxied[part] = proxied.get(part, []) + redirected.get(part, [])
        seen_by_proxy = list(proxy.seen)
        direct = fetch(sys.argv[1], ["http://docs.example.test/page"], {**env, "NO_PROXY": "docs.example.test"})
        os.environ.update({"HTTP_PROXY": proxy.url, "HTTPS_PROXY": proxy.url})
        browser_proxy = through_browser_proxy(internal.url)
        print(json.dumps({
            "proxied": proxied, "seen_by_proxy": seen_by_proxy, "direct": direct,
            "browser_proxy": browser_proxy, "browser_seen_by_proxy": proxy.seen[len(seen_by_proxy):],
            "secret_requests": {"site": site.count("/secret"), "internal": internal.count("/secret"),
                                "metadata": metadata.count("/secret")},
        }))


def fetch(command: str, urls: list[str], env: dict[str, str]) -> dict:
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "fetch_content", "arguments": {"urls": urls, "max_chars": 2000}}}
    done = subprocess.run([command], input=(json.dumps(request) + "\n").encode(), capture_output=True, env=env,
                          timeout=60)
    return json.loads(done.stdout.decode().splitlines()[0])["result"]["structuredContent"]


def through_browser_proxy(internal: str) -> dict[str, str]:
    """What the browser's guarded proxy answers for a proxied page and for a private one."""
    from websearch_mcp.browser.proxy import GuardedProxy
    from websearch_mcp.fetch.addresses import AddressGuard

    guarded = GuardedProxy(AddressGuard())
    host, port = guarded.address.split(":")
    answers = {}
    for name, target in (("page", "http://docs.example.test/page"), ("private", f"{internal}/secret"),
                         ("intranet", "http://intranet.example.test/secret")):
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nProxy-Connection: keep-alive\r\n\r\n".encode())
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        answers[name] = data.decode("latin-1")
    guarded.close()
    return answers


if __name__ == "__main__":
    main()
