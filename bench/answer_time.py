"""How long a model waits for an answer that reads many pages, when some pages are slow (`make bench`).

On loopback: a DuckDuckGo results page (html markup) whose ten results point to ten article pages on
ten loopback hosts that answer in 50-300 ms, except as each case says. Each call is made by a fresh
`websearch-mcp` process (the installed command, as a client spawns it) with default settings, and
timed from the request written to the answer read; median of BENCH_RUNS (5). The last column is when
the healthy pages alone were all in (measured by fetching them directly in the same harness).

Cases: all healthy; one page hangs; two pages trickle one byte a second; three take 8 s; every page
answers 500. A last row asks search_context again 3 s after the one-hang case, to show the straggler
arriving from the page cache (the shared SQLite store).
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

from tests.fake_upstream import FakeUpstream, Reply  # noqa: E402

SERVER = str(Path(sys.executable).parent / "websearch-mcp")
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
ARTICLE = (ROOT / "fixtures" / "handmade" / "pages" / "article.html").read_bytes()
CASES = {
    "all pages healthy": {},
    "one page hangs": {3: Reply(body=ARTICLE, delay=60)},
    "two pages trickle 1 byte/s": {3: Reply(body=ARTICLE * 4, fault="drip", drip_seconds=1.0),
                                   6: Reply(body=ARTICLE * 4, fault="drip", drip_seconds=1.0)},
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
    process = subprocess.Popen([SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=env)
    assert process.stdin is not None and process.stdout is not None
    started = time.monotonic()
    process.stdin.write(call_line(name, arguments))
    process.stdin.flush()
    answer: dict = {}
    for line in process.stdout:
        message = json.loads(line)
        if message.get("id") == 1:
            answer = message
            break
    elapsed = time.monotonic() - started
    process.kill()
    process.wait()
    return elapsed, answer


def main() -> None:
    hosts = [FakeUpstream(f"127.0.0.{n + 1}") for n in range(10)]
    for host in hosts:
        host.__enter__()
    engine = FakeUpstream()
    engine.__enter__()
    urls = [f"{host.url}/article" for host in hosts]
    engine.route("POST", "/html/", Reply(body=results_page(urls)))
    engine.route("GET", "/lite/", Reply(status=500))
    base_env = {k: v for k, v in os.environ.items() if "PROXY" not in k.upper()}
    print(f"Answer time with slow pages (loopback, fresh process per call, median of {RUNS}; seconds)")
    print(f"{'case':<28} | {'search_context':>14} | {'web_search+fetch':>16} | {'fetch_content x10':>17} | "
          f"{'healthy pages in':>16}")
    try:
        for case, faults in CASES.items():
            for number, host in enumerate(hosts):
                reply = faults.get(number) or Reply(body=ARTICLE, delay=0.05 + 0.25 * number / 9)
                host.route("GET", "/article", reply)
            row = []
            with tempfile.TemporaryDirectory() as folder:
                env = {**base_env, "WEBSEARCH_DDG_HTML_URL": f"{engine.url}/html/",
                       "WEBSEARCH_DDG_LITE_URL": f"{engine.url}/lite/", "WEBSEARCH_BACKENDS": "duckduckgo",
                       "WEBSEARCH_ALLOW_PRIVATE_URLS": "1", "WEBSEARCH_DDG_MIN_INTERVAL": "0",
                       "WEBSEARCH_SEARCH_CACHE_TTL": "0.01", "WEBSEARCH_CACHE_TTL": "0.01",
                       "WEBSEARCH_STORE": f"sqlite:///{folder}/store.db"}
                for name, arguments in (("search_context", {"query": "async rust", "max_results": 10}),
                                        ("web_search", {"query": "async rust", "fetch_content": True}),
                                        ("fetch_content", {"urls": urls})):
                    times = [timed_call(env, name, arguments)[0] for _ in range(RUNS)]
                    row.append(statistics.median(times))
            healthy = [u for n, u in enumerate(urls) if n not in faults]
            row.append(healthy_time(healthy) if healthy else float("nan"))
            print(f"{case:<28} | {row[0]:>14.2f} | {row[1]:>16.2f} | {row[2]:>17.2f} | {row[3]:>16.2f}")
        again_row(engine, hosts, urls, base_env)
    finally:
        for host in [*hosts, engine]:
            host.__exit__(None, None, None)


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


def again_row(engine: FakeUpstream, hosts: list[FakeUpstream], urls: list[str], base_env: dict[str, str]) -> None:
    """search_context with one page taking 2 s, then the same call again 3 s later."""
    for number, host in enumerate(hosts):
        host.route("GET", "/article", Reply(body=ARTICLE, delay=2.0 if number == 3 else 0.05))
    with tempfile.TemporaryDirectory() as folder:
        env = {**base_env, "WEBSEARCH_DDG_HTML_URL": f"{engine.url}/html/", "WEBSEARCH_BACKENDS": "duckduckgo",
               "WEBSEARCH_ALLOW_PRIVATE_URLS": "1", "WEBSEARCH_DDG_MIN_INTERVAL": "0",
               "WEBSEARCH_STORE": f"sqlite:///{folder}/store.db"}
        arguments = {"query": "async rust", "max_results": 10}
        server = subprocess.Popen([SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, env=env)  # one process, asked twice
        assert server.stdin is not None and server.stdout is not None
        first = _ask(server, arguments, 1)
        time.sleep(3)
        second = _ask(server, arguments, 2)
        server.kill()
        server.wait()
    print(f"search_context, one page 2 s: first call {first[0]:.2f} s ({first[1]} of 10 pages late); the same "
          f"call 3 s later {second[0]:.2f} s ({second[1]} late)")


def _ask(server: subprocess.Popen, arguments: dict, number: int) -> tuple[float, int]:
    assert server.stdin is not None and server.stdout is not None
    payload = call_line("search_context", arguments)
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
