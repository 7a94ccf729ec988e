"""Site files (robots.txt, sitemaps) fetched through the page fetcher's guarded client: the address
guard on the first hop and on every redirect, a size cap, the call's deadline."""

from __future__ import annotations

from urllib.parse import urljoin

from websearch_mcp.errors import ToolError
from websearch_mcp.fetch.addresses import check_url
from websearch_mcp.fetch.pages import MAX_REDIRECTS, REDIRECT_STATUSES, PageFetcher

SITE_FILE_MAX_BYTES = 10 * 1024 * 1024  # a sitemap may list 50,000 URLs


class SiteFile:
    """A site file's final status, address and body."""

    __slots__ = ("body", "status", "url")

    def __init__(self, url: str, status: int, body: bytes) -> None:
        self.url = url
        self.status = status
        self.body = body


def get_site_file(fetcher: PageFetcher, url: str, deadline: float | None) -> SiteFile:
    """GET a site file, following redirects with each hop checked; raises ToolError when it cannot be
    reached (refused address, connection failure, timeout)."""
    current = url
    for _ in range(MAX_REDIRECTS + 1):
        _, host, port = check_url(current)
        fetcher.guard.resolve(host, port)
        response = fetcher.client.request("GET", current, follow_redirects=False, retries=0,
                                          max_bytes=SITE_FILE_MAX_BYTES, deadline=deadline)
        location = response.headers.get("Location")
        if response.status in REDIRECT_STATUSES and location:
            current = urljoin(current, location.strip())
            continue
        return SiteFile(current, response.status, response.body)
    raise ToolError(f"{url} redirected more than {MAX_REDIRECTS} times")
