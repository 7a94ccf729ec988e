"""Yahoo web search (search.yahoo.com/search, GET `p`): organic results, target URLs unwrapped from
`r.search.yahoo.com/.../RU=<url>/RK=` redirects, titles without the site name and breadcrumb."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

from websearch_mcp.engines.base import Outbound, ResultsPage, SearchEngine, SearchHit, SearchQuery
from websearch_mcp.engines.html import first, has_class, parse, text_of
from websearch_mcp.engines.locale import language_of

SAFE_SEARCH = {0: "p", 1: "i", 2: "r"}  # off, moderate, strict, as the `vm` preference
TIME_RANGES = {"day": "d", "week": "w", "month": "m"}  # Yahoo offers no "past year"


def unwrap_url(href: str) -> str:
    """The target of an `r.search.yahoo.com/.../RU=<url-encoded>/RK=...` link; others unchanged."""
    if "r.search.yahoo.com" not in href or "/RU=" not in href:
        return href
    target = href.split("/RU=", 1)[1]
    for end in ("/RK=", "/RS="):
        target = target.split(end, 1)[0]
    return unquote(target)


def _title(item: Any) -> str:
    """The heading's text: the site name and breadcrumb sit beside it, not in it."""
    heading = first(item.xpath(".//h3"))
    link_in_heading = first(heading.xpath(".//a")) if heading is not None else None
    return text_of(link_in_heading if link_in_heading is not None else heading)


class Yahoo(SearchEngine):
    """Yahoo's HTML results; safe search and language travel in the `sB` preference cookie."""

    no_results_notices = ("We did not find results for",)

    page_size = 7  # Yahoo's pages hold seven to ten results; `b` is a 1-based result offset
    # a consent wall or a "temporary problems" page is a block, like an HTTP 403 or 429
    block_markers = (b"zrp_yst", b"We had temporary problems", b"consent.yahoo.com/v2/collectConsent",
                     b'action="https://guce.yahoo.com')

    def build_request(self, query: SearchQuery, offset: int) -> Outbound:
        """GET ?p= with `b` past the first page and `btf` for a time range."""
        params = {"p": query.text}
        if offset:
            params.update(b=str(offset + 1), pz=str(self.page_size))
        if query.time_range in TIME_RANGES:
            params["btf"] = TIME_RANGES[query.time_range]
        preferences = f"v=1&vm={SAFE_SEARCH[query.safe_search]}&fl=1&pn=10&rw=new&userset=1"
        language = language_of(query)
        if language:
            preferences += f"&vl=lang_{language}"
        return Outbound(self.config.get("yahoo_url"), params, headers={"Cookie": f"sB={preferences}"})

    def parse(self, body: bytes) -> ResultsPage:
        """The organic results of one page (ads are outside `div.algo`); BlockedError when there is
        no result list."""
        tree = parse(body)
        items = tree.xpath(f"//div[{has_class('algo')}]")
        if not items:
            return self.empty_or_blocked(text_of(first(tree.xpath("//body"))))
        hits = []
        for item in items:
            link = first(item.xpath(f".//*[{has_class('compTitle')}]//a[@href]"))
            if link is None:
                continue
            url = unwrap_url(link.get("href", ""))
            if not url.startswith(("http://", "https://")) or "/cbclk" in urlsplit(url).path:
                continue  # an ad's click link
            snippet = first(item.xpath(f".//*[{has_class('compText')}]"))
            hits.append(SearchHit(title=_title(item), url=url, snippet=text_of(snippet)))
        more = bool(tree.xpath(f"//a[{has_class('next')}]"))
        return ResultsPage(hits, more)
