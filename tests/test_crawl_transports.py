"""map_site and crawl_site through the installed command over stdio, over HTTP (MCP and the REST
facade), and two processes sharing one crawl through one SQLite store."""

from __future__ import annotations

import json
import subprocess
import threading
from collections import Counter

import pytest
import requests

from tests.conftest import client_environment, config_for, env_for, installed_command
from tests.fake_upstream import FIXTURES
from tests.helpers import call, initialize
from tests.site_server import mount_site, robots, site_pages
from tests.store_parts import RedisServer
from tests.test_end_to_end import replies, run
from websearch_mcp.transports.http.server import make_http_server

PAGES = len(site_pages(FIXTURES / "sites" / "httpx"))


@pytest.fixture
def site(upstream):
    mount_site(upstream)
    robots(upstream, f"User-agent: *\nDisallow: /advanced/ssl/\nSitemap: {upstream.url}/sitemap.xml\n")
    return upstream


def test_stdio(site):
    process = run([initialize(), call("map_site", {"url": site.url + "/", "query": "proxies", "limit": 2}, id=1),
                   call("crawl_site", {"url": site.url + "/", "query": "proxies", "max_pages": 4}, id=2),
                   call("crawl_site", {"url": "file:///etc/passwd"}, id=3)],
                  env={**env_for(site), "WEBSEARCH_ALLOW_PRIVATE_URLS": "1"})
    answered = replies(process)
    mapped = answered[1]["result"]
    assert next(u["url"] for u in mapped["structuredContent"]["urls"]) == f"{site.url}/advanced/proxies/"
    assert mapped["content"][0]["text"].startswith(f"2 pages of {site.url}/ from its sitemap")
    crawled = answered[2]["result"]
    assert crawled["structuredContent"]["pages_read"] == 4 and "proxies" in crawled["content"][0]["text"]
    assert answered[3]["result"]["isError"] and "http or https" in answered[3]["result"]["content"][0]["text"]


def test_http_and_rest(site):
    server = make_http_server(config_for(site, allow_private_urls=True), "127.0.0.1", 0)
    threading.Thread(target=server.serve, daemon=True).start()
    base = f"http://127.0.0.1:{server.address[1]}"
    try:
        mcp = requests.post(f"{base}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "map_site", "arguments": {"url": site.url + "/"}}},
            headers={"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"},
            timeout=30).json()
        assert len(mcp["result"]["structuredContent"]["urls"]) == PAGES - 1
        rest = requests.post(f"{base}/tools/call", json={"name": "crawl_site", "parameters": {
            "url": site.url + "/", "max_pages": 3, "max_tokens": 500}}, timeout=30)
        assert rest.status_code == 200, rest.text
        body = rest.json()
        assert body["success"] is True and body["result"]["pages_read"] == 3
        listed = {t["name"] for t in requests.get(f"{base}/tools", timeout=5).json()["tools"]}
        assert {"map_site", "crawl_site"} <= listed
        refused = requests.post(f"{base}/tools/call", json={"name": "map_site", "parameters": {
            "url": site.url + "/", "limit": 0}}, timeout=10)
        assert refused.status_code == 400 and "limit" in refused.text
    finally:
        server.close()


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_two_processes_over_one_store_share_one_crawl(upstream, tmp_path, kind):
    mount_site(upstream, delay=0.3)  # slow enough that more than the bound would be under way without it
    robots(upstream, "", status=404)
    redis = RedisServer(tmp_path) if kind == "redis" else None
    store = redis.url if redis is not None else f"sqlite:///{tmp_path}/store.db"
    try:
        two_processes_crawl(upstream, store)
    finally:
        if redis is not None:
            redis.stop()


def two_processes_crawl(upstream, store: str) -> None:
    env = client_environment({**env_for(upstream), "WEBSEARCH_ALLOW_PRIVATE_URLS": "1", "WEBSEARCH_STORE": store})
    payload = "".join(json.dumps(m) + "\n" for m in (initialize(), call("crawl_site", {
        "url": upstream.url + "/", "max_pages": PAGES, "max_wait_seconds": 20}, id=1))).encode()
    processes = [subprocess.Popen([installed_command()], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, env=env) for _ in range(2)]
    for process in processes:  # both get their call before either answers: they crawl at the same time
        assert process.stdin is not None
        process.stdin.write(payload)
        process.stdin.close()
    outputs = [(p.stdout.read(), p.stderr.read()) for p in processes if p.stdout and p.stderr]
    for process in processes:
        process.wait(60)
    fetched = Counter(s.path for s in upstream.requests if s.path != "/robots.txt")
    assert fetched and max(fetched.values()) == 1, fetched  # every page once, whoever read it
    assert sum(fetched.values()) == PAGES
    assert upstream.max_in_flight <= 2  # WEBSEARCH_CRAWL_PER_HOST, held across the two processes
    print("STDERR", [e.decode()[-3000:] for _, e in outputs])
    for out, err in outputs:
        result = [json.loads(line) for line in out.splitlines()][-1]["result"]
        assert result["structuredContent"]["pages_read"] == PAGES, err.decode()


def test_the_tools_can_be_chosen(site):
    process = run([{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}],
                  env={**env_for(site), "WEBSEARCH_TOOLS": "map_site,crawl_site"})
    assert [t["name"] for t in replies(process)[1]["result"]["tools"]] == ["map_site", "crawl_site"]
