"""Pages built by scripts (`make bench`): the shell detector on the extraction development pages
(ordinary pages wrongly flagged: the goal is none; and the hand-made shells, which must all be
flagged), then the headless browser on a loopback shell: cold render (the browser's start
included), warm render, and the browser's peak memory while it renders ten pages at once."""

from __future__ import annotations

import os
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import devset  # noqa: E402

from tests.fake_upstream import FakeUpstream, Reply  # noqa: E402
from tests.helpers import descendants  # noqa: E402
from websearch_mcp.browser import Browser, find_browser  # noqa: E402
from websearch_mcp.extract import parse_html  # noqa: E402
from websearch_mcp.extract.shell import detect_shell  # noqa: E402
from websearch_mcp.fetch.addresses import AddressGuard  # noqa: E402

SHELLS = ROOT / "fixtures" / "handmade" / "shells"
RUNS = int(os.environ.get("BENCH_RUNS", "5"))


def detector() -> None:
    sets, missing = devset.load_available()
    print("Shell detector on the development pages (ordinary pages, each with human ground truth):")
    total_pages = total_flagged = 0
    started = time.process_time()
    for name, pages in sets.items():
        flagged = []
        for page in pages:
            verdict = detect_shell(parse_html(page.html), page.html)
            if verdict.is_shell:
                flagged.append(f"{page.id} ({verdict.describe()})")
        total_pages += len(pages)
        total_flagged += len(flagged)
        print(f"  {name:<16} {len(pages):>5} pages, {len(flagged)} flagged as shells")
        for line in flagged[:5]:
            print(f"      {line}")
    spent = time.process_time() - started
    print(f"  all sets: {total_flagged} of {total_pages} ordinary pages wrongly flagged "
          f"({spent / max(total_pages, 1) * 1000:.1f} ms CPU a page, parsing included)")
    if missing:
        print(f"  (sets not present: {', '.join(missing)})")
    shells = [path for path in SHELLS.glob("*.html") if "shell" in path.name]
    found = sum(detect_shell(parse_html(p.read_text()), p.read_text()).is_shell for p in shells)
    print(f"  hand-made shells flagged: {found} of {len(shells)}")


def _tree_pss_kib(root: int) -> int:
    """Proportional set size of a process and all its descendants (KiB, from /proc: each shared page
    counted once, split between the processes that share it)."""
    total = 0
    for pid in {root, *descendants(root)}:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def browser() -> None:
    executable = find_browser(os.environ.get("WEBSEARCH_BROWSER", ""))
    if executable is None:
        print("\nBrowser: no Chromium installed (apt-get install chromium); skipped")
        return
    with FakeUpstream() as upstream:
        upstream.route("GET", "/api/article.json", Reply.fixture("handmade/shells/article.json"))
        upstream.route("GET", "/static/js/main.4f2a9c1e.js", Reply(body=b"", content_type="text/javascript"))
        for n in range(10):
            upstream.route("GET", f"/app{n}.html", Reply.fixture("handmade/shells/react-shell.html"))
        url = f"{upstream.url}/app0.html"
        cold, warm = [], []
        for _ in range(RUNS):
            renderer = Browser(executable, AddressGuard(allow_private=True))
            started = time.monotonic()
            renderer.render(url, 10)
            cold.append(time.monotonic() - started)
            for _ in range(3):
                started = time.monotonic()
                renderer.render(url, 10)
                warm.append(time.monotonic() - started)
            renderer.close()
        print(f"\nBrowser ({executable}), a loopback shell that fetches JSON, median of {RUNS}:")
        print(f"  cold render (browser start included): {statistics.median(cold):.2f} s   goal <= 4 s")
        print(f"  warm render:                          {statistics.median(warm):.2f} s   goal <= 1.5 s")
        renderer = Browser(executable, AddressGuard(allow_private=True), concurrency=10)
        renderer.render(url, 10)
        peak = 0
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.is_set():
                if renderer.pid:
                    peak = max(peak, _tree_pss_kib(renderer.pid))
                time.sleep(0.05)

        watcher = threading.Thread(target=sample)
        watcher.start()
        started = time.monotonic()
        with ThreadPoolExecutor(10) as pool:
            list(pool.map(lambda n: renderer.render(f"{upstream.url}/app{n}.html", 10), range(10)))
        elapsed = time.monotonic() - started
        done.set()
        watcher.join()
        renderer.close()
        print(f"  ten pages at once: {elapsed:.2f} s; browser peak memory (PSS of all its processes): "
              f"{peak / 1024:.0f} MiB")


if __name__ == "__main__":
    detector()
    browser()
