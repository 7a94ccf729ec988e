"""Serves a page that takes 300 ms to answer on ten loopback hosts, in a process of its own (so the
fake servers do not compete with the client for the GIL). Prints one base URL a line; stops at EOF."""

from __future__ import annotations

import sys
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fake_upstream import FakeUpstream, Reply  # noqa: E402


def main() -> None:
    page = (ROOT / "fixtures" / "handmade" / "pages" / "article.html").read_bytes()
    with ExitStack() as stack:
        for n in range(1, 11):
            host = stack.enter_context(FakeUpstream(f"127.0.0.{n}"))
            host.route("GET", "/page", Reply(body=page, delay=0.3))
            host.route("GET", "/warm", Reply(body=page))
            print(host.url, flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    main()
