"""How long the first search of a process takes when search engines hang (`make bench`).

On loopback: DuckDuckGo's html and lite endpoints, Bing, Brave and Mojeek replaying recorded result
pages, with the faults each case names. Each call is the first `web_search` of a fresh `websearch-mcp`
process (the installed command, as a client spawns it) with the default engine order and settings,
timed from the request written to the answer read; median of BENCH_RUNS (3), each run with a store of
its own (no cool-down carried over).
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
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
HANG = Reply(delay=60)
TRICKLE = Reply(fault="trickle-headers", drip_seconds=1.0)
CASES = {
    "all engines healthy": {},
    "DuckDuckGo hangs": {"ddg": HANG},
    "DuckDuckGo trickles its headers": {"ddg": TRICKLE},
    "DuckDuckGo and Bing hang": {"ddg": HANG, "bing": HANG},
    "DuckDuckGo hangs, fusion of 2": {"ddg": HANG, "fusion": "2"},
}


def route(upstream: FakeUpstream, faults: dict) -> None:
    engines = ROOT / "fixtures"
    ddg = faults.get("ddg") or Reply(body=(engines / "ddg-html/rust-programming-language-2026-04.html").read_bytes())
    upstream.route("POST", "/html/", ddg)
    upstream.route("POST", "/lite/", faults.get("ddg") or ddg)
    upstream.route("GET", "/bing/search", faults.get("bing") or Reply(
        body=(engines / "engines/bing/bing_javascript-tutorial_http_2026-04-04.html").read_bytes()))
    upstream.route("GET", "/brave/search", Reply(
        body=(engines / "engines/brave/brave_javascript-tutorial_2026-04-04.html").read_bytes()))
    upstream.route("GET", "/mojeek/search", Reply(
        body=(engines / "engines/mojeek/mojeek_javascript-tutorial_2026-04-04.html").read_bytes()))


def first_search(env: dict[str, str]) -> tuple[float, dict]:
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "web_search", "arguments": {"query": "rust programming", "max_results": 5}}}
    process = subprocess.Popen([SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=env)
    assert process.stdin is not None and process.stdout is not None
    started = time.monotonic()
    process.stdin.write((json.dumps(request) + "\n").encode())
    process.stdin.flush()
    answer: dict = {}
    for line in process.stdout:
        answer = json.loads(line)
        if answer.get("id") == 1:
            break
    elapsed = time.monotonic() - started
    process.kill()
    process.wait()
    return elapsed, answer.get("result", {})


def main() -> None:
    base = {k: v for k, v in os.environ.items() if "PROXY" not in k.upper() and not k.startswith("WEBSEARCH_")}
    print(f"First web_search of a process while engines hang (loopback, median of {RUNS}; seconds)")
    with FakeUpstream() as upstream:
        for case, faults in CASES.items():
            route(upstream, faults)
            times, footer = [], ""
            for _ in range(RUNS):
                with tempfile.TemporaryDirectory() as folder:
                    env = {**base, "WEBSEARCH_DDG_HTML_URL": f"{upstream.url}/html/",
                           "WEBSEARCH_DDG_LITE_URL": f"{upstream.url}/lite/",
                           **{f"WEBSEARCH_{e.upper()}_URL": f"{upstream.url}/{e}/search"
                              for e in ("bing", "brave", "mojeek", "yahoo")},
                           "WEBSEARCH_WIKIPEDIA_URL": f"{upstream.url}/wikipedia/search",
                           "WEBSEARCH_STORE": f"sqlite:///{folder}/store.db"}
                    if "fusion" in faults:
                        env["WEBSEARCH_FUSION"] = faults["fusion"]
                    elapsed, result = first_search(env)
                times.append(elapsed)
                text = (result.get("content") or [{}])[0].get("text", "")
                footer = text.rsplit("\n", 1)[-1] if text else "(no answer)"
            print(f"{case:<34} {statistics.median(times):6.2f}   {footer}")


if __name__ == "__main__":
    main()
