"""A recorded documentation site (fixtures/sites/...) served by the fake upstream on loopback: every
file at its path, `dir/` for `dir/index.html`, the sitemaps' absolute addresses moved to the server's."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from tests.fake_upstream import FIXTURES, FakeUpstream, Reply

HTTPX = FIXTURES / "sites" / "httpx"
HTTPX_ORIGIN = "https://www.python-httpx.org"


def site_pages(folder: Path) -> list[str]:
    """The paths of the site's pages (`/`, `/api/`, ...), as the server serves them."""
    paths = []
    for file in sorted(folder.rglob("index.html")):
        rel = file.parent.relative_to(folder).as_posix()
        paths.append("/" if rel == "." else f"/{rel}/")
    return paths


def moved(body: bytes, origin: str, base: str) -> bytes:
    """A sitemap whose addresses under `origin` point at `base` instead."""
    return body.replace(origin.encode(), base.encode())


def mount_site(upstream: FakeUpstream, folder: Path = HTTPX, origin: str = HTTPX_ORIGIN, prefix: str = "",
               delay: float = 0.0, sitemaps: bool = True) -> list[str]:
    """Serve the site under `prefix` (its sitemaps too unless told not to); returns the pages' URLs."""
    base = upstream.url + prefix
    for file in sorted(folder.rglob("*")):
        if not file.is_file():
            continue
        rel = file.relative_to(folder).as_posix()
        data = file.read_bytes()
        if rel.startswith("sitemap"):
            if not sitemaps:
                continue
            if rel.endswith(".gz"):
                reply = Reply(body=gzip.compress(moved(gzip.decompress(data), origin, base), mtime=0),
                              content_type="application/gzip")
            else:
                reply = Reply(body=moved(data, origin, base), content_type="application/xml")
        else:
            reply = Reply(body=data, delay=delay)
        upstream.route("GET", f"{prefix}/{rel}", reply)
        if rel.endswith("index.html"):
            upstream.route("GET", f"{prefix}/{re.sub(r'index.html$', '', rel)}", reply)
    return [base + path for path in site_pages(folder)]


def robots(upstream: FakeUpstream, text: str, status: int = 200) -> None:
    """Serve this robots.txt."""
    upstream.route("GET", "/robots.txt", Reply(status=status, body=text.encode(), content_type="text/plain"))
