"""Benchmarks, measured side by side in one run and printed as ratios (`make bench`).

Start-up and protocol: websearch-mcp against bare `python -c pass` and against the same tools
declared with the official MCP SDK (bench/sdk_peer.py). Parsing: each recorded results page.
Network: none but loopback (the parse benchmark reads files; the servers get no tool calls).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

for _name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
    os.environ.pop(_name, None)  # benchmark traffic stays on loopback
os.environ["NO_PROXY"] = "127.0.0.0/8,localhost"
PYTHON = sys.executable
SERVER = [str(Path(PYTHON).parent / "websearch-mcp")]
PEER = [PYTHON, str(ROOT / "bench" / "sdk_peer.py")]
BARE = [PYTHON, "-c", "pass"]
RUNS = int(os.environ.get("BENCH_RUNS", "15"))
PINGS = 2000

INITIALIZE = {"jsonrpc": "2.0", "id": "init", "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "bench", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
LIST = {"jsonrpc": "2.0", "id": "list", "method": "tools/list"}


def lines(*messages: dict) -> bytes:
    return b"".join((json.dumps(m) + "\n").encode() for m in messages)


def environment() -> dict[str, str]:
    """What an MCP client gives a server: a few variables, no PYTHONUNBUFFERED."""
    return {k: os.environ[k] for k in ("HOME", "PATH", "USER", "LANG") if k in os.environ}


def cold_start(command: list[str], payload: bytes) -> tuple[float, int]:
    """Median wall time and peak RSS over RUNS runs."""
    times, peaks = [], []
    for _ in range(RUNS):
        started = time.perf_counter()
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, env=environment())
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(payload)
        process.stdin.close()
        process.stdout.read()
        _, _, usage = os.wait4(process.pid, 0)
        times.append(time.perf_counter() - started)
        peaks.append(usage.ru_maxrss)
        process.returncode = 0
    return statistics.median(times), max(peaks)


def pipelined_pings(command: list[str], close_after: bool) -> tuple[float, int]:
    """Pings per second over one connection, and how many of PINGS were answered."""
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=environment())
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(lines(INITIALIZE, INITIALIZED))
    process.stdin.flush()
    process.stdout.readline()
    pings = b"".join(b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % i for i in range(PINGS))
    answered = 0
    done = threading.Event()

    def read() -> None:
        nonlocal answered
        assert process.stdout is not None
        for line in process.stdout:
            if b'"result"' in line:
                answered += 1
                if answered == PINGS:
                    break
        done.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    started = time.perf_counter()
    process.stdin.write(pings)
    process.stdin.flush()
    if close_after:
        process.stdin.close()
    done.wait(60)
    elapsed = time.perf_counter() - started
    if not close_after:
        process.stdin.close()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
    return PINGS / elapsed, answered


def parse_times() -> list[tuple[str, float]]:
    from websearch_mcp.engines.duckduckgo_pages import parse_html_page, parse_lite_page

    fixtures = ROOT / "fixtures"
    pages = sorted(fixtures.glob("ddg-html/*.html")) + sorted(fixtures.glob("ddg-lite/*.html"))
    rows = []
    for page in pages:
        body = page.read_bytes()
        parse = parse_lite_page if "lite" in page.parts[-2] else parse_html_page
        parse(body)
        samples = []
        for _ in range(50):
            started = time.perf_counter()
            parse(body)
            samples.append(time.perf_counter() - started)
        rows.append((f"{page.parent.name}/{page.name}", statistics.median(samples) * 1000))
    return rows


def parallel_fetch() -> tuple[float, float]:
    """Seconds for one page that takes 300 ms, and for fetch_content of ten such pages on ten hosts
    (127.0.0.1 .. 127.0.0.10, all loopback, served by another process), after a warm-up call."""
    from websearch_mcp.assembly import Assembly
    from websearch_mcp.config import Config
    from websearch_mcp.tools.registry import ToolContext

    hosts_process = subprocess.Popen([PYTHON, str(ROOT / "bench" / "slow_hosts.py")], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
    assert hosts_process.stdout is not None and hosts_process.stdin is not None
    hosts = [hosts_process.stdout.readline().strip() for _ in range(10)]
    server = Assembly(Config(allow_private_urls=True, cache_ttl=0.0, store="memory")).server

    def fetch(urls: list[str]) -> float:
        started = time.perf_counter()
        result = server.run_tool("fetch_content", {"urls": urls}, ToolContext(1))
        assert not result.is_error, result.text
        return time.perf_counter() - started

    try:
        fetch([f"{host}/warm" for host in hosts])
        single = fetch([f"{hosts[0]}/page"])
        many = fetch([f"{host}/page" for host in hosts])
    finally:
        hosts_process.stdin.close()
        hosts_process.wait(10)
    return single, many


def main() -> None:
    handshake = lines(INITIALIZE, INITIALIZED, LIST)
    python = sys.version.split()[0]
    print(f"websearch-mcp benchmarks ({RUNS} runs each, medians; Python {python}, {os.cpu_count()} cores)\n")
    bare_time, bare_rss = cold_start(BARE, b"")
    ours_time, ours_rss = cold_start(SERVER, handshake)
    peer_time, peer_rss = cold_start(PEER, handshake)
    print("cold start (spawn -> initialize -> tools/list answered -> exit)")
    print(f"  python -c pass     {bare_time * 1000:7.1f} ms    1.00x   peak RSS {bare_rss / 1024:5.1f} MiB")
    for name, elapsed, rss in (("websearch-mcp", ours_time, ours_rss), ("MCP SDK peer", peer_time, peer_rss)):
        print(f"  {name:<17}  {elapsed * 1000:7.1f} ms   {elapsed / bare_time:5.2f}x   peak RSS {rss / 1024:5.1f} MiB")
    print("  (targets: <= 2x bare Python, <= 25 MiB)")

    print(f"\n{PINGS} pipelined pings over one connection")
    for name, command in (("websearch-mcp", SERVER), ("MCP SDK peer", PEER)):
        rate, answered = pipelined_pings(command, close_after=False)
        _, at_eof = pipelined_pings(command, close_after=True)
        print(f"  {name:<17}  {rate:9.0f} pings/s ({answered}/{PINGS} answered)   "
              f"with stdin closed after the last: {at_eof}/{PINGS} answered")
    print("  (targets: >= 20,000 pings/s; 2000/2000 answered at EOF)")

    print("\nresults page parse time (median of 50)")
    for name, millis in parse_times():
        print(f"  {millis:6.2f} ms  {name}")
    print("  (target <= 5 ms per page)")

    single, many = parallel_fetch()
    print("\nfetch_content of pages that each take 300 ms to answer (ten fake hosts on loopback)")
    print(f"  1 page              {single * 1000:7.0f} ms")
    print(f"  10 pages            {many * 1000:7.0f} ms   {many / single:4.2f}x the single page   (target < 1.5x)")


if __name__ == "__main__":
    main()
