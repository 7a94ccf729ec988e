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
SERVER = [str(Path(sys.executable).parent / "websearch-mcp")]
PYTHON = Path(SERVER[0]).read_text().splitlines()[0][2:].split()[0]  # the interpreter its script names
PEER = [PYTHON, str(ROOT / "bench" / "sdk_peer.py")]
BARE = [PYTHON, "-c", "pass"]
RUNS = int(os.environ.get("BENCH_RUNS", "21"))
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


def spawn_once(command: list[str], payload: bytes) -> tuple[float, int]:
    """One run as a client makes it: spawn, write the requests, close stdin, read every reply, wait
    for the process to exit. Wall seconds and peak RSS (KiB)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=environment())
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(payload)
    process.stdin.close()
    process.stdout.read()
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0
    return time.perf_counter() - started, usage.ru_maxrss


def cold_starts(commands: dict[str, tuple[list[str], bytes]]) -> dict[str, tuple[float, int]]:
    """Median wall time and peak RSS of each command over RUNS rounds, the commands taking turns in
    every round (so a slow spell of the machine costs them all alike)."""
    samples: dict[str, list[tuple[float, int]]] = {name: [] for name in commands}
    for _ in range(RUNS):
        for name, (command, payload) in commands.items():
            samples[name].append(spawn_once(command, payload))
    return {name: (statistics.median(t for t, _ in runs), max(r for _, r in runs)) for name, runs in samples.items()}


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


def _parsers() -> list[tuple[Path, object]]:
    """Every recorded results page with the parser that reads it."""
    from websearch_mcp.config import Config
    from websearch_mcp.engines.duckduckgo_pages import parse_html_page, parse_lite_page
    from websearch_mcp.errors import UpstreamError
    from websearch_mcp.services.search import SearchService
    from websearch_mcp.store.memory import MemoryStore

    fixtures = ROOT / "fixtures"
    pairs: list[tuple[Path, object]] = [(p, parse_html_page) for p in sorted(fixtures.glob("ddg-html/*.html"))]
    pairs += [(p, parse_lite_page) for p in sorted(fixtures.glob("ddg-lite/*.html"))]
    service = SearchService(Config(store="memory"), None, MemoryStore(1 << 20))  # type: ignore[arg-type]
    for name in ("bing", "brave", "mojeek", "yahoo", "wikipedia"):
        engine = service.engine(name)
        for page in sorted((fixtures / "engines" / name).glob("*")):
            if page.suffix in (".html", ".json") and engine.block_reason(200, page.read_bytes()) is None:
                try:
                    engine.parse(page.read_bytes())
                except UpstreamError:
                    continue  # a reply that is an error, not a results page
                pairs.append((page, engine.parse))
    return pairs


def parse_times() -> list[tuple[str, float]]:
    rows = []
    for page, parse in _parsers():
        body = page.read_bytes()
        samples = []
        for _ in range(30):
            started = time.perf_counter()
            parse(body)  # type: ignore[operator]
            samples.append(time.perf_counter() - started)
        rows.append((f"{page.parent.name}/{page.name}", statistics.median(samples) * 1000))
    return rows


def blocked_answered(calls: int = 20) -> tuple[int, int, list[str]]:
    """web_search with the default settings while DuckDuckGo blocks (its CAPTCHA page, 202, 403,
    its home page, in turn) and each later engine may block too: how many calls got results, and
    which engine answered. Every upstream is the fake one on loopback, replaying recorded pages."""
    from tests.conftest import engine_urls
    from tests.fake_upstream import FakeUpstream, Reply
    from websearch_mcp.assembly import Assembly
    from websearch_mcp.call_context import ToolContext
    from websearch_mcp.config import Config

    ddg_blocks = [Reply.fixture("ddg-blocked/anomaly-captcha-sv-html-rust-programming-language-2026-04.html"),
                  Reply(status=202), Reply(status=403),
                  Reply.fixture("ddg-blocked/homepage-instead-of-results-html-undated.transcribed.html")]
    engine_pages = {"bing": "engines/bing/bing_javascript-tutorial_http_2026-04-04.html",
                    "brave": "engines/brave/brave_javascript-tutorial_2026-04-04.html",
                    "mojeek": "engines/mojeek/mojeek_javascript-tutorial_2026-04-04.html",
                    "yahoo": "engines/yahoo/yahoo_javascript-tutorial_2026-04-04.html",
                    "wikipedia": "engines/wikipedia/wikipedia_list-search_fv1_caffeine-sleep_2026-07-25.json"}
    engine_blocks = {"bing": Reply.fixture("engines/bing/bing_javascript-tutorial_browser-dom_2026-04-04.html"),
                     "brave": Reply(status=429), "mojeek": Reply.fixture(
                         "engines/mojeek/mojeek_BLOCK-captcha-altcha_latest-ai-news_2026-07-31.html"),
                     "yahoo": Reply.fixture("engines/yahoo/yahoo_BLOCK-zrp-temporary-problems_TRIMMED_"
                                            "2026-10-05.reconstructed.html")}
    answered, by = 0, []
    for n in range(calls):
        with FakeUpstream() as upstream:
            block = ddg_blocks[n % len(ddg_blocks)]
            upstream.route("POST", "/html/", block)
            upstream.route("POST", "/lite/", block)
            also_blocked = list(engine_blocks)[: n % 5]  # call n: DuckDuckGo and the first n % 5 others block
            for name, fixture in engine_pages.items():
                reply = engine_blocks[name] if name in also_blocked else Reply.fixture(fixture)
                upstream.route("GET", f"/{name}/search", reply)
            config = Config(**engine_urls(upstream.url), store="memory", retries=0)
            result = Assembly(config).server.run_tool("web_search", {"query": f"javascript tutorial {n}"},
                                                      ToolContext(1))
            if not result.is_error and result.structured and result.structured["results"]:
                answered += 1
                by.append(result.structured["metadata"]["backend"])
    return answered, calls, by


def parallel_fetch() -> tuple[float, float]:
    """Seconds for one page that takes 300 ms, and for fetch_content of ten such pages on ten hosts
    (127.0.0.1 .. 127.0.0.10, all loopback, served by another process), after a warm-up call."""
    from websearch_mcp.assembly import Assembly
    from websearch_mcp.call_context import ToolContext
    from websearch_mcp.config import Config

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
    results = cold_starts({"python -c pass": (BARE, b""), "websearch-mcp": (SERVER, handshake),
                           "MCP SDK peer": (PEER, handshake)})
    bare_time = results["python -c pass"][0]
    print("cold start as a client sees it: spawn the installed command with a client's environment, "
          "initialize,\ntools/list, close stdin, read every reply, wait for the exit; against `python -c pass` "
          "of the same\ninterpreter (the venv's), taking turns run by run")
    for name, (elapsed, rss) in results.items():
        print(f"  {name:<17}  {elapsed * 1000:7.1f} ms   {elapsed / bare_time:5.2f}x   peak RSS {rss / 1024:5.1f} MiB")
    print("  (targets: <= 1.5x bare Python, <= 25 MiB)")

    print(f"\n{PINGS} pipelined pings over one connection")
    for name, command in (("websearch-mcp", SERVER), ("MCP SDK peer", PEER)):
        rate, answered = pipelined_pings(command, close_after=False)
        _, at_eof = pipelined_pings(command, close_after=True)
        print(f"  {name:<17}  {rate:9.0f} pings/s ({answered}/{PINGS} answered)   "
              f"with stdin closed after the last: {at_eof}/{PINGS} answered")
    print("  (targets: >= 20,000 pings/s; 2000/2000 answered at EOF)")

    print("\nresults page parse time, every recorded results page of every engine (median of 30)")
    times = parse_times()
    for name, millis in times:
        print(f"  {millis:6.2f} ms  {name}")
    print(f"  slowest {max(t for _, t in times):.2f} ms over {len(times)} pages  (target <= 5 ms per page)")

    answered, calls, by = blocked_answered()
    print(f"\nweb_search with default settings while DuckDuckGo blocks (and 0-4 of the next engines too): "
          f"{answered}/{calls} answered")
    print("  answered by: " + ", ".join(f"{name} {by.count(name)}" for name in dict.fromkeys(by)))

    single, many = parallel_fetch()
    print("\nfetch_content of pages that each take 300 ms to answer (ten fake hosts on loopback)")
    print(f"  1 page              {single * 1000:7.0f} ms")
    print(f"  10 pages            {many * 1000:7.0f} ms   {many / single:4.2f}x the single page   (target < 1.5x)")


if __name__ == "__main__":
    main()
