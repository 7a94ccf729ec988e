"""How long a model waits for an answer that reads many pages, when some pages are slow (`make bench`).

On loopback: a DuckDuckGo results page (html markup) whose ten results point to ten article pages
that answer in 50-300 ms, except as each case says, in two geometries: each page on a host of its own
(ten loopback addresses), and all ten pages on one host (several pages of one documentation site, or a
search that returns several results from one site). Each call is made by a fresh `websearch-mcp`
process (the installed command, as a client spawns it) with default settings, and timed from the
request written to the answer read; median of BENCH_RUNS (3). The last column is when the healthy
pages alone were all in (measured by fetching them directly in the same harness).

Cases: all healthy; page 2 hangs; pages 2 and 4 trickle (64 bytes a second); pages 2 and 4 send their
headers a byte a second; three take 8 s; every page answers 500. Then, in each geometry, pages 2 and 4
answer after 3 s: fetch_content of the ten URLs, and the same call again 3 s later in the same process
(the late pages from the page cache).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import helpers  # noqa: E402
from tests.fake_upstream import FakeUpstream, Reply  # noqa: E402

SERVER = str(Path(sys.executable).parent / "websearch-mcp")
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
ARTICLE = (ROOT / "fixtures" / "handmade" / "pages" / "article.html").read_bytes()
CASES = {
    "all pages healthy": {},
    "page 2 hangs": {2: Reply(body=ARTICLE, delay=60)},
    "pages 2 and 4 trickle": {2: Reply(body=ARTICLE * 4, fault="drip", drip_seconds=1.0),
                              4: Reply(body=ARTICLE * 4, fault="drip", drip_seconds=1.0)},
    "pages 2, 4 trickle headers": {2: Reply(body=ARTICLE, fault="trickle-headers", drip_seconds=1.0),
                                   4: Reply(body=ARTICLE, fault="trickle-headers", drip_seconds=1.0)},
    "three pages take 8 s": {2: Reply(body=ARTICLE, delay=8), 5: Reply(body=ARTICLE, delay=8),
                             8: Reply(body=ARTICLE, delay=8)},
    "every page answers 500": {n: Reply(status=500) for n in range(10)},
}


def results_page(urls: list[str]) -> bytes:
    rows = "".join(f'<div class="result results_links web-result"><h2 class="result__title"><a class="result__a" '
                   f'href="{url}">Article {n}</a></h2><a class="result__snippet" href="#">About async Rust, '
                   f'part {n}</a></div>' for n, url in enumerate(urls))
    return (f'<html><body class="body--html"><div id="links">{rows}<div class="nav-link"></div></div>'
            f'</body></html>').encode()


def call_line(name: str, arguments: dict) -> bytes:
    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}
    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    return b"".join((json.dumps(m) + "\n").encode() for m in (init, done, request))


def timed_call(env: dict[str, str], name: str, arguments: dict) -> tuple[float, dict]:
    return helpers.timed_call(SERVER, env, name, arguments)


def main() -> None:
    base_env = {k: v for k, v in os.environ.items() if "PROXY" not in k.upper()}
    for geometry in ("ten hosts", "one host"):
        with Site(geometry) as site:
            measure(site, base_env)


class Site:
    """Ten article pages, on ten loopback hosts or all on one, and the engine whose results list them."""

    def __init__(self, geometry: str) -> None:
        self.geometry = geometry
        count = 10 if geometry == "ten hosts" else 1
        self.hosts = [FakeUpstream(f"127.0.0.{n + 1}") for n in range(count)]
        self.engine = FakeUpstream()

    def __enter__(self) -> Site:
        for server in [*self.hosts, self.engine]:
            server.__enter__()
        self.urls = [f"{self.host(n).url}{self.path(n)}" for n in range(10)]
        self.engine.route("POST", "/html/", Reply(body=results_page(self.urls)))
        self.engine.route("GET", "/lite/", Reply(status=500))
        return self

    def __exit__(self, *exc: object) -> None:
        for server in [*self.hosts, self.engine]:
            server.__exit__(None, None, None)

    def host(self, number: int) -> FakeUpstream:
        return self.hosts[number % len(self.hosts)]

    def path(self, number: int) -> str:
        return "/article" if len(self.hosts) > 1 else f"/docs/page-{number}"

    def serve(self, faults: dict[int, Reply]) -> None:
        for number in range(10):
            reply = faults.get(number) or Reply(body=ARTICLE, delay=0.05 + 0.25 * number / 9)
            self.host(number).route("GET", self.path(number), reply)

    def env(self, base_env: dict[str, str], folder: str) -> dict[str, str]:
        return {**base_env, "WEBSEARCH_DDG_HTML_URL": f"{self.engine.url}/html/",
                "WEBSEARCH_DDG_LITE_URL": f"{self.engine.url}/lite/", "WEBSEARCH_BACKENDS": "duckduckgo",
                "WEBSEARCH_ALLOW_PRIVATE_URLS": "1", "WEBSEARCH_DDG_MIN_INTERVAL": "0",
                "WEBSEARCH_SEARCH_CACHE_TTL": "0.01", "WEBSEARCH_CACHE_TTL": "0.01",
                "WEBSEARCH_STORE": f"sqlite:///{folder}/store.db"}


def measure(site: Site, base_env: dict[str, str]) -> None:
    print(f"\nAnswer time with slow pages, {site.geometry} (loopback, fresh process per call, median of {RUNS}; "
          "seconds)")
    print(f"{'case':<28} | {'search_context':>14} | {'web_search+fetch':>16} | {'fetch_content x10':>17} | "
          f"{'healthy pages in':>16}")
    for case, faults in CASES.items():
        site.serve(faults)
        row = []
        with tempfile.TemporaryDirectory() as folder:
            env = site.env(base_env, folder)
            for name, arguments in (("search_context", {"query": "async rust", "max_results": 10}),
                                    ("web_search", {"query": "async rust", "fetch_content": True}),
                                    ("fetch_content", {"urls": site.urls})):
                times = [timed_call(env, name, arguments)[0] for _ in range(RUNS)]
                row.append(statistics.median(times))
        healthy = [u for n, u in enumerate(site.urls) if n not in faults]
        row.append(healthy_time(healthy) if healthy else float("nan"))
        print(f"{case:<28} | {row[0]:>14.2f} | {row[1]:>16.2f} | {row[2]:>17.2f} | {row[3]:>16.2f}")
    late_then_cached(site, base_env)


def healthy_time(urls: list[str]) -> float:
    """When the healthy pages alone are all in, fetched in parallel by plain requests."""
    from concurrent.futures import ThreadPoolExecutor

    import requests

    times = []
    for _ in range(RUNS):
        started = time.monotonic()
        with ThreadPoolExecutor(len(urls)) as pool:
            list(pool.map(lambda u: requests.get(u, timeout=30, proxies={"http": "", "https": ""}).content, urls))
        times.append(time.monotonic() - started)
    return statistics.median(times)


def late_then_cached(site: Site, base_env: dict[str, str]) -> None:
    """Pages 2 and 4 answer after 3 s: fetch_content of the ten URLs, then the same call 3 s later
    in the same process (median of RUNS pairs, each in a fresh process)."""
    site.serve({2: Reply(body=ARTICLE, delay=3.0), 4: Reply(body=ARTICLE, delay=3.0)})
    firsts, seconds, late_first, late_second = [], [], [], []
    for _ in range(RUNS):
        with tempfile.TemporaryDirectory() as folder:
            env = {**site.env(base_env, folder), "WEBSEARCH_CACHE_TTL": "600"}
            server = subprocess.Popen([SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, env=env)
            first = _ask(server, "fetch_content", {"urls": site.urls}, 1)
            time.sleep(3)
            second = _ask(server, "fetch_content", {"urls": site.urls}, 2)
            server.kill()
            server.wait()
        firsts.append(first[0])
        seconds.append(second[0])
        late_first.append(first[1])
        late_second.append(second[1])
    print(f"pages 2 and 4 answer after 3 s, fetch_content x10: first call {statistics.median(firsts):.2f} s "
          f"({max(late_first)} of 10 late); the same call 3 s later {statistics.median(seconds):.2f} s "
          f"({max(late_second)} late)")


def _ask(server: subprocess.Popen, name: str, arguments: dict, number: int) -> tuple[float, int]:
    assert server.stdin is not None and server.stdout is not None
    payload = call_line(name, arguments)
    if number > 1:
        payload = payload.splitlines(keepends=True)[2].replace(b'"id": 1', f'"id": {number}'.encode())
    started = time.monotonic()
    server.stdin.write(payload)
    server.stdin.flush()
    for line in server.stdout:
        message = json.loads(line)
        if message.get("id") == number:
            late = sum(1 for f in message["result"]["structuredContent"].get("failed", []) if f.get("late"))
            return time.monotonic() - started, late
    return float("nan"), -1


if __name__ == "__main__":
    main()
