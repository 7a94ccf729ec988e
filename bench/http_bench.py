"""HTTP benchmark: requests per second of tools/list and of a cached web_search, on the embedded
server and under gunicorn with two workers, side by side; and the latency HTTP adds over stdio for
the same call. Everything runs on loopback; DuckDuckGo is the fake upstream (bench/slow_hosts.py's
sibling below), so a cached search measures the server, not the network."""

from __future__ import annotations

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
for _name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
    os.environ.pop(_name, None)
os.environ["NO_PROXY"] = "127.0.0.0/8,localhost"

import requests  # noqa: E402

from tests.fake_upstream import FakeUpstream, Reply  # noqa: E402

BIN = Path(sys.executable).parent
REQUESTS = int(os.environ.get("BENCH_HTTP_REQUESTS", "600"))
CLIENTS = 4
LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
SEARCH = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
          "params": {"name": "web_search", "arguments": {"query": "rust programming language", "max_results": 5}}}
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
           "MCP-Protocol-Version": "2025-11-25"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_ready(base: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            requests.get(f"{base}/", timeout=1)
            return
        except requests.ConnectionError:
            time.sleep(0.05)
    raise RuntimeError(f"{base} did not start")


def throughput(base: str, body: dict) -> float:
    """Requests per second with CLIENTS threads, each on its own keep-alive session."""
    def worker(count: int) -> None:
        with requests.Session() as session:
            for _ in range(count):
                reply = session.post(f"{base}/mcp", data=json.dumps(body), headers=HEADERS, timeout=10)
                assert reply.status_code == 200 and "error" not in reply.json(), reply.text[:200]

    for _ in range(20):  # warm-up (and fill each worker's search cache)
        requests.post(f"{base}/mcp", data=json.dumps(body), headers=HEADERS, timeout=10)
    started = time.perf_counter()
    with ThreadPoolExecutor(CLIENTS) as pool:
        list(pool.map(worker, [REQUESTS // CLIENTS] * CLIENTS))
    return REQUESTS / (time.perf_counter() - started)


def http_latency(base: str) -> float:
    samples = []
    with requests.Session() as session:
        for _ in range(60):
            started = time.perf_counter()
            session.post(f"{base}/mcp", data=json.dumps(SEARCH), headers=HEADERS, timeout=10).json()
            samples.append(time.perf_counter() - started)
    return statistics.median(samples[10:])


def stdio_latency(env: dict[str, str]) -> float:
    process = subprocess.Popen([str(BIN / "websearch-mcp")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=env)
    assert process.stdin is not None and process.stdout is not None
    samples = []
    for _ in range(60):
        started = time.perf_counter()
        process.stdin.write((json.dumps(SEARCH) + "\n").encode())
        process.stdin.flush()
        process.stdout.readline()
        samples.append(time.perf_counter() - started)
    process.stdin.close()
    process.wait(10)
    return statistics.median(samples[10:])


def main() -> None:
    with FakeUpstream() as upstream:
        upstream.route("POST", "/html/", Reply.fixture("ddg-html/rust-programming-language-2026-04.html"))
        env = {**os.environ, "WEBSEARCH_DDG_HTML_URL": f"{upstream.url}/html/", "WEBSEARCH_LOG_LEVEL": "warning",
               "WEBSEARCH_DDG_MIN_INTERVAL": "0"}
        servers = {}
        embedded_port, gunicorn_port = free_port(), free_port()
        servers["embedded (threaded)"] = subprocess.Popen(
            [str(BIN / "websearch-mcp"), "--http", f"127.0.0.1:{embedded_port}"], env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        gunicorn = shutil.which("gunicorn", path=str(BIN))
        if gunicorn:
            servers["gunicorn, 2 workers"] = subprocess.Popen(
                [gunicorn, "-w", "2", "-b", f"127.0.0.1:{gunicorn_port}", "websearch_mcp.wsgi:app"], env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        bases = {"embedded (threaded)": f"http://127.0.0.1:{embedded_port}",
                 "gunicorn, 2 workers": f"http://127.0.0.1:{gunicorn_port}"}
        try:
            print(f"HTTP throughput ({REQUESTS} requests, {CLIENTS} client threads, loopback)")
            print(f"  {'server':<22} {'tools/list':>12} {'cached web_search':>19}")
            for name in servers:
                wait_ready(bases[name])
                listed = throughput(bases[name], LIST)
                searched = throughput(bases[name], SEARCH)
                print(f"  {name:<22} {listed:8.0f} req/s {searched:13.0f} req/s")
            over_http = http_latency(bases["embedded (threaded)"])
            over_stdio = stdio_latency(env)
            print("\nlatency of one cached web_search (median of 50)")
            print(f"  stdio                  {over_stdio * 1000:6.2f} ms")
            print(f"  HTTP (embedded)        {over_http * 1000:6.2f} ms   (+{(over_http - over_stdio) * 1000:.2f} ms)")
        finally:
            for process in servers.values():
                process.terminate()
                process.wait(10)


if __name__ == "__main__":
    main()
