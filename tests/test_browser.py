"""Pages built by scripts, rendered by a real headless Chromium (the system's; .ci/run installs it):
a shell that fetches JSON, a page that never stops loading, pop-ups and downloads, ten shells at
once, and no browser left running after the server exits or is killed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import client_environment, config_for, env_for, installed_command
from tests.fake_upstream import Reply
from tests.helpers import call, descendants, exchange, registry_for
from websearch_mcp.browser import find_browser

pytestmark = pytest.mark.skipif(find_browser() is None, reason="no Chromium installed (apt-get install chromium)")

TIDE_POOLS = "octopus that hides all day"


def serve_shell(upstream) -> None:
    upstream.route("GET", "/index.html", Reply.fixture("handmade/shells/react-shell.html"))
    upstream.route("GET", "/api/article.json", Reply.fixture("handmade/shells/article.json"))
    upstream.route("GET", "/static/js/main.4f2a9c1e.js", Reply(body=b"", content_type="text/javascript"))


def fetch(config, urls, **arguments):
    replies = exchange([call("fetch_content", {"urls": urls, **arguments})], registry=registry_for(config))
    return next(r for r in replies if r.get("id") == 1)["result"]


def test_a_shell_that_fetches_json_is_rendered(upstream):
    serve_shell(upstream)
    result = fetch(config_for(upstream, allow_private_urls=True), [f"{upstream.url}/index.html"])
    page = result["structuredContent"]["pages"][0]
    assert TIDE_POOLS in page["content"] and result["content"][0]["text"].startswith("## Tide Pools After Dark\n")
    assert page["metadata"]["rendered"] is True
    assert page["metadata"]["render_reason"].startswith("shell page: ") and "#root" in page["metadata"]["render_reason"]
    assert upstream.count("/api/article.json") == 1  # the script's request went through the proxy


def test_a_rendered_page_is_read_again_from_the_cache(upstream):
    serve_shell(upstream)
    config = config_for(upstream, allow_private_urls=True)
    for _ in range(2):
        page = fetch(config, [f"{upstream.url}/index.html"])["structuredContent"]["pages"][0]
        assert TIDE_POOLS in page["content"] and page["metadata"]["rendered"] is True
    assert upstream.count("/api/article.json") == 1  # the second read rendered nothing


def test_render_always_and_never(upstream):
    serve_shell(upstream)
    upstream.route("GET", "/plain", Reply.fixture("handmade/pages/article.html"))
    config = config_for(upstream, allow_private_urls=True)
    always = fetch(config, [f"{upstream.url}/plain"], render="always")["structuredContent"]["pages"][0]
    assert always["metadata"]["rendered"] is True and always["metadata"]["render_reason"] == "render=always"
    never = fetch(config, [f"{upstream.url}/index.html"], render="never")
    assert never["isError"] is True and upstream.count("/api/article.json") == 0


def test_a_page_that_never_stops_loading_is_read_when_its_budget_ends(upstream):
    upstream.route("GET", "/forever", Reply(body=b"""<html><head><title>Live</title></head><body><div id="root"></div>
<script>document.getElementById('root').innerHTML = '<p>""" + b"Live scores update every minute here. " * 8 + b"""</p>';
setInterval(function () { fetch('/poll?' + Math.random()); }, 100);</script></body></html>"""))
    upstream.route("GET", "/poll", Reply(body=b"{}", delay=5.0))
    config = config_for(upstream, allow_private_urls=True, render_timeout=2.0)
    started = time.monotonic()
    result = fetch(config, [f"{upstream.url}/forever"])
    assert time.monotonic() - started < 6.0
    page = result["structuredContent"]["pages"][0]
    assert "Live scores update" in page["content"] and "still loading" in page["metadata"]["render_note"]


def test_pop_ups_and_downloads_go_nowhere(upstream, tmp_path):
    upstream.route("GET", "/popups", Reply(body=b"""<html><body><div id="app"></div><script>
window.open('/popup-target'); window.open('/popup-target-2', '_blank');
var link = document.createElement('a'); link.href = '/download.bin'; link.download = 'x.bin'; link.click();
document.getElementById('app').innerHTML = '<p>""" + b"This page tried to open windows and start a download. " * 5
        + b"""</p>';</script></body></html>"""))
    upstream.route("GET", "/download.bin", Reply(body=b"\0" * 1000, content_type="application/octet-stream",
                                                 headers={"Content-Disposition": "attachment; filename=x.bin"}))
    result = fetch(config_for(upstream, allow_private_urls=True), [f"{upstream.url}/popups"], render="always")
    assert "tried to open windows" in result["structuredContent"]["pages"][0]["content"]
    assert upstream.count("/popup-target") == 0 and upstream.count("/popup-target-2") == 0


def test_ten_shells_at_once_share_one_browser(upstream):
    serve_shell(upstream)
    for n in range(10):
        upstream.route("GET", f"/app{n}.html", Reply.fixture("handmade/shells/react-shell.html"))
    # ten tabs at once: with the default four, the last pages wait in line for a tab after their fetch and
    # can miss the grace that follows the quorum on a busy machine (what this checks is the one browser)
    config = config_for(upstream, allow_private_urls=True, render_concurrency=10)
    result = fetch(config, [f"{upstream.url}/app{n}.html" for n in range(10)])
    pages = result["structuredContent"]["pages"]
    assert len(pages) == 10 and all(TIDE_POOLS in p["content"] for p in pages)
    renderer = registry_for.__globals__["_SERVICES"][config].renderer
    assert renderer._browser is not None and renderer._browser.pid is not None


def _browser_processes(root: int) -> set[int]:
    """Chromium processes descending from `root`."""
    return {pid for pid in descendants(root) if _is_chromium(pid)}


def _is_chromium(pid: int) -> bool:
    try:
        return b"websearch-mcp-chromium-" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


@pytest.mark.parametrize("ending", ["eof", "sigkill"])
def test_no_chromium_is_left_when_the_server_ends(upstream, ending):
    serve_shell(upstream)
    env = client_environment({**env_for(upstream), "WEBSEARCH_ALLOW_PRIVATE_URLS": "1"})
    server = subprocess.Popen([installed_command()], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=env)
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write((json.dumps(call("fetch_content", {"urls": [f"{upstream.url}/index.html"]})) + "\n").encode())
    server.stdin.flush()
    answer = json.loads(server.stdout.readline())
    assert TIDE_POOLS in answer["result"]["structuredContent"]["pages"][0]["content"]
    browsers = _browser_processes(server.pid)
    assert browsers, "the render ran in a browser below the server"
    if ending == "eof":
        server.stdin.close()
        server.wait(20)
    else:
        os.kill(server.pid, signal.SIGKILL)
        server.wait(5)
    until = time.monotonic() + 10
    while any(_is_chromium(pid) for pid in browsers):
        assert time.monotonic() < until, f"left running: {[p for p in browsers if _is_chromium(p)]}"
        time.sleep(0.1)
