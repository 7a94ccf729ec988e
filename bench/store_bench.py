"""The shared store's cost and effect, side by side in one run (`make bench`).

1. A cached web_search answered over stdio, one request at a time, as a client sees it (the time from
   writing the request line to reading the reply line): the per-process memory store against the
   SQLite file and a Redis server (a real redis-server started on a free loopback port).
2. Six server processes asking the same five searches at once: how many requests reached the
   (fake, loopback) DuckDuckGo, and the smallest gap between two of them, with each store.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

for _name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
    os.environ.pop(_name, None)  # benchmark traffic stays on loopback
os.environ["NO_PROXY"] = "127.0.0.0/8,localhost"

from tests.conftest import PAGE_ONE, env_for  # noqa: E402
from tests.fake_upstream import FakeUpstream, Reply  # noqa: E402
from tests.helpers import call, initialize  # noqa: E402
from tests.store_parts import RedisServer, run_together, smallest_gap, spawn  # noqa: E402

CALLS = 200
INTERVAL = 1.0  # DuckDuckGo's default minimum interval


def cached_latencies(env: dict[str, str]) -> list[float]:
    """Milliseconds per cached web_search, one at a time over one stdio connection."""
    process = spawn(env)
    assert process.stdin is not None and process.stdout is not None

    def ask(message: dict) -> dict:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write((json.dumps(message) + "\n").encode())
        process.stdin.flush()
        return json.loads(process.stdout.readline())

    ask(initialize(id=0))
    ask(call("web_search", {"query": "rust programming language"}, id=1))  # fills the cache
    samples = []
    for n in range(CALLS):
        started = time.perf_counter()
        reply = ask(call("web_search", {"query": "rust programming language"}, id=n + 2))
        samples.append((time.perf_counter() - started) * 1000)
        assert reply["result"]["structuredContent"]["metadata"]["cached"], reply
    process.stdin.close()
    process.wait(10)
    return samples


def main() -> None:
    folder = tempfile.mkdtemp(prefix="websearch-store-bench-")
    redis = RedisServer(Path(folder))
    try:
        stores = {"memory": "memory", "sqlite": f"sqlite:///{folder}/store.db", "redis": redis.url}
        print(f"cached web_search over stdio, one at a time ({CALLS} calls each, after one that fills the cache)")
        with FakeUpstream() as upstream:
            upstream.route("POST", "/html/", Reply.fixture(PAGE_ONE))
            baseline = 0.0
            for name, store in stores.items():
                samples = cached_latencies({**env_for(upstream), "WEBSEARCH_STORE": store})
                p50, p95 = statistics.median(samples), statistics.quantiles(samples, n=20)[18]
                baseline = baseline or p50
                print(f"  {name:<7} p50 {p50:5.2f} ms   p95 {p95:5.2f} ms   {p50 / baseline:4.2f}x memory")
        print("  (targets: p50 <= 2 ms with SQLite, <= 3 ms with Redis)")

        print(f"\nsix processes asking the same five searches at once (DuckDuckGo interval {INTERVAL:g} s)")
        for name, store in {"memory": "memory", "sqlite": f"sqlite:///{folder}/six.db",
                            "redis": redis.url}.items():
            with FakeUpstream() as upstream:
                upstream.route("POST", "/html/", Reply.fixture(PAGE_ONE, delay=0.1))
                env = {**env_for(upstream), "WEBSEARCH_STORE": store, "WEBSEARCH_DDG_MIN_INTERVAL": str(INTERVAL)}
                started = time.monotonic()
                run_together(env, [f"rust topic {n}" for n in range(5)], processes=6)
                elapsed = time.monotonic() - started
                gap = smallest_gap(upstream.arrivals("/html/"))
                print(f"  {name:<7} {upstream.count('/html/'):2d} requests reached DuckDuckGo   smallest gap "
                      f"{gap:6.3f} s   all answered in {elapsed:4.1f} s")
        print(f"  (targets with a shared store: 5 requests, smallest gap >= {INTERVAL:g} s)")
    finally:
        redis.stop()


if __name__ == "__main__":
    main()
