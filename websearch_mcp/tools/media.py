"""What `web_search` adds for news, images and videos: the site filters' arguments, the extra
fields of each result, the line under each title, and thumbnails as MCP image content."""

from __future__ import annotations

import time

from websearch_mcp.errors import InvalidArguments

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from websearch_mcp.call_context import ToolContext
    from websearch_mcp.engines.base import SearchHit
    from websearch_mcp.services import Services

MAX_THUMBNAILS = 4
THUMBNAIL_MAX_BYTES = 256 * 1024  # one thumbnail, before base64; larger ones are left out
THUMBNAIL_SECONDS = 5.0  # all thumbnails together, within the call's own deadline
IMAGE_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp")
MEDIA_FIELDS = ("source", "image_url", "thumbnail_url", "width", "height", "duration")

SITE_LIST = {"type": "array", "items": {"type": "string"}, "maxItems": 10}
RESULT_PROPERTIES: dict[str, Any] = {
    "source": {"type": "string"}, "image_url": {"type": "string"}, "thumbnail_url": {"type": "string"},
    "width": {"type": "integer"}, "height": {"type": "integer"}, "duration": {"type": "string"},
}


def site_lists(arguments: dict[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The include and exclude lists as bare lower-case hosts; InvalidArguments for one that is not."""
    from websearch_mcp.engines.sites import normalise_domain

    lists = []
    for name in ("include_domains", "exclude_domains"):
        domains = []
        for value in arguments.get(name) or []:
            domain = normalise_domain(value)
            if "." not in domain or " " in domain:
                raise InvalidArguments(f"Invalid argument '{name}': {value!r} is not a domain (example.com)",
                                       parameter=name, rule="format")
            if domain not in domains:
                domains.append(domain)
        lists.append(tuple(domains))
    return lists[0], lists[1]


def media_fields(hit: SearchHit) -> dict[str, Any]:
    """The news, image and video fields a hit has."""
    return {name: getattr(hit, name) for name in MEDIA_FIELDS if getattr(hit, name) not in (None, "")}


def kind_line(result: dict[str, Any], category: str) -> str:
    """The line under a result's title: news its source and date; images their size, the site
    showing them and the file; videos their duration, publisher and date. '' when nothing is known."""
    date = (result.get("published_date") or "")[:10] if category != "general" else ""
    file = ""
    if category == "news":
        parts = [result.get("source"), date]
    elif category == "images":
        size = f"{result['width']}×{result['height']}" if result.get("width") and result.get("height") else ""
        parts = [size, f"on {result['source']}" if result.get("source") else ""]
        file = f"**Image:** {result['image_url']}" if result.get("image_url") else ""  # outside the italics:
        # a URL's underscores would end them
    elif category == "videos":
        parts = [result.get("duration"), result.get("source"), date]
    else:
        return ""
    text = " · ".join(str(p) for p in parts if p)
    return " · ".join(filter(None, (f"_{text}_" if text else "", file)))


def thumbnails(services: Services, results: list[dict[str, Any]], context: ToolContext) -> list[dict[str, Any]]:
    """Up to four thumbnails as MCP image content, read through the guarded page fetcher's client
    (every address checked), each capped in size; the ones that fail are left out."""
    from concurrent.futures import ThreadPoolExecutor

    urls = [r["thumbnail_url"] for r in results if r.get("thumbnail_url")][:MAX_THUMBNAILS]
    if not urls:
        return []
    deadline = time.monotonic() + THUMBNAIL_SECONDS
    if context.deadline is not None:
        deadline = min(deadline, context.deadline)
    with ThreadPoolExecutor(max_workers=len(urls)) as pool:
        images = list(pool.map(lambda url: _thumbnail(services, url, deadline), urls))
    return [image for image in images if image is not None]


def _thumbnail(services: Services, url: str, deadline: float) -> dict[str, Any] | None:
    import base64

    from websearch_mcp import log
    from websearch_mcp.errors import ToolError, UpstreamError
    from websearch_mcp.fetch.addresses import check_url

    try:
        check_url(url)
        response = services.fetcher.client.request("GET", url, max_bytes=THUMBNAIL_MAX_BYTES, retries=0,
                                                   deadline=deadline, headers={"Accept": ", ".join(IMAGE_TYPES)})
    except (ToolError, UpstreamError) as err:
        log.info(f"thumbnail {url}: {getattr(err, 'message', err)}")
        return None
    kind = response.content_type
    if response.status != 200 or kind not in IMAGE_TYPES or not response.body:
        return None
    return {"type": "image", "data": base64.b64encode(response.body).decode("ascii"), "mimeType": kind}
