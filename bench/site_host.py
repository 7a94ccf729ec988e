"""Serves a site folder (bench/sitedata.py's copy) under /uv/ on loopback, in a process of its own so
that the server does not compete with the crawler for the interpreter and the arrival times it
records are the requests' own. Prints its base URL; at EOF on stdin prints the requests it saw as
JSON lines ([path, arrival in seconds]) and exits.

    python bench/site_host.py FOLDER 'User-agent: *\\nCrawl-delay: 0.2\\n'
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fake_upstream import FakeUpstream, Reply  # noqa: E402
from tests.site_server import mount_site  # noqa: E402


def main() -> None:
    folder, robots = Path(sys.argv[1]), sys.argv[2].replace("\\n", "\n")
    with FakeUpstream() as upstream:
        mount_site(upstream, folder, "https://docs.astral.sh/uv", prefix="/uv", sitemaps=False)
        upstream.route("GET", "/robots.txt", Reply(body=robots.encode(), content_type="text/plain"))
        print(upstream.url, flush=True)
        sys.stdin.read()
        for seen in upstream.requests:
            print(json.dumps([seen.path, seen.at]))


if __name__ == "__main__":
    main()
