"""Sitemaps (sitemaps.org): URL sets and sitemap indexes, plain or gzip, with lastmod."""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Callable

from websearch_mcp.errors import ToolError

MAX_FILES = 50  # sitemap files read for one site
MAX_UNZIPPED = 50 * 1024 * 1024  # the protocol's limit for one uncompressed sitemap


class SitemapEntry:
    """One URL a sitemap lists."""

    __slots__ = ("lastmod", "url")

    def __init__(self, url: str, lastmod: str = "") -> None:
        self.url = url
        self.lastmod = lastmod


def unpack(body: bytes) -> bytes:
    """The sitemap's XML, gunzipped when it is gzip (whatever its name or type said)."""
    if body[:2] != b"\x1f\x8b":
        return body
    try:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        return inflater.decompress(body, MAX_UNZIPPED)
    except (zlib.error, gzip.BadGzipFile, EOFError):
        return b""


def parse(xml: bytes) -> tuple[list[SitemapEntry], list[str]]:
    """(pages, child sitemaps) of one sitemap file; nothing for what is not a sitemap."""
    from lxml import etree

    pages: list[SitemapEntry] = []
    children: list[str] = []
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=True, huge_tree=False)
    try:
        root = etree.fromstring(xml, parser)
    except etree.XMLSyntaxError:
        return pages, children
    if root is None:
        return pages, children
    kind = etree.QName(root).localname
    for item in root:
        if not isinstance(item.tag, str):
            continue
        fields = {etree.QName(child).localname: (child.text or "").strip() for child in item
                  if isinstance(child.tag, str)}
        loc = fields.get("loc", "")
        if not loc:
            continue
        if kind == "sitemapindex":
            children.append(loc)
        elif kind == "urlset":
            pages.append(SitemapEntry(loc, fields.get("lastmod", "")))
    return pages, children


def read_sitemaps(starts: list[str], fetch: Callable[[str], bytes | None],
                  allowed: Callable[[str], bool]) -> tuple[list[SitemapEntry], int]:
    """Every page the sitemaps (and the indexes among them) list, and how many sitemap files were read.
    `fetch(url)` returns a file's body or None; `allowed(url)` says whether a sitemap may be fetched."""
    queue = list(dict.fromkeys(starts))
    seen = set(queue)
    pages: list[SitemapEntry] = []
    read = 0
    while queue and read < MAX_FILES:
        url = queue.pop(0)
        if not allowed(url):
            continue
        try:
            body = fetch(url)
        except ToolError:
            body = None
        if body is None:
            continue
        read += 1
        found, children = parse(unpack(body))
        pages.extend(found)
        for child in children:
            if child not in seen:
                seen.add(child)
                queue.append(child)
    return pages, read
