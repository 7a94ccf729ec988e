"""Bing web search (www.bing.com/search, GET `q`): organic `li.b_algo` results, ads dropped, and
target URLs recovered from Bing's `/ck/a?...&u=a1<base64url>` click-tracking links."""

from __future__ import annotations

import base64
import binascii
import time
from urllib.parse import parse_qs, urlsplit

from websearch_mcp.engines.base import (
    EngineAnswer,
    Outbound,
    ResultsPage,
    SearchEngine,
    SearchHit,
    SearchQuery,
    Turn,
    no_result_list,
)
from websearch_mcp.engines.html import first, first_match, has_class, parse, text_of
from websearch_mcp.engines.locale import country_of, language_of

SAFE_SEARCH = {0: "off", 1: "moderate", 2: "strict"}
TIME_FILTERS = {"day": 'ex1:"ez1"', "week": 'ex1:"ez2"', "month": 'ex1:"ez3"'}
_DAY = 86400


def unwrap_url(href: str) -> str:
    """The target of a `bing.com/ck/a?...&u=a1<base64url>` link; other links unchanged."""
    parts = urlsplit(href)
    if not parts.path.startswith("/ck/a") or "bing." not in parts.netloc:
        return href
    encoded = (parse_qs(parts.query).get("u") or [""])[0]
    if not encoded.startswith("a1"):
        return href
    payload = encoded[2:]
    try:
        return base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return href


def _time_filter(time_range: str, now: float) -> str:
    if time_range == "year":
        today = int(now // _DAY)
        return f'ex1:"ez5_{today - 365}_{today}"'
    return TIME_FILTERS.get(time_range, "")



def market_and_safety(query: SearchQuery) -> dict[str, str]:
    """Bing's safe-search level, and its market (language-COUNTRY) when both are known: the parameters
    every Bing endpoint reads alike."""
    params = {"adlt": SAFE_SEARCH[query.safe_search]}
    language, country = language_of(query), country_of(query)
    if language and country:
        params["mkt"] = f"{language}-{country.upper()}"
    return params

class Bing(SearchEngine):
    """Bing's HTML results."""

    block_markers = (b"/challenge/verify", b"One last step", b'class="captcha"')
    categories = ("general", "news", "images", "videos")

    def search(self, query: SearchQuery, turn: Turn) -> EngineAnswer:
        """Web results, or the news, images or videos search's."""
        if query.category != "general":
            from websearch_mcp.engines.vertical import vertical_engine

            return vertical_engine(self, query.category).search(query, turn)
        return super().search(query, turn)

    def build_request(self, query: SearchQuery, offset: int) -> Outbound:
        """GET ?q= with paging (`first`), market, safe search and time filters."""
        params = {"q": query.text}
        if offset:
            params.update(first=str(offset + 1), FORM="PERE")
        language, country = language_of(query), country_of(query)
        if language:
            params["setlang"] = language
        if country:
            params["cc"] = country
        params.update(market_and_safety(query))
        if query.time_range:
            params["filters"] = _time_filter(query.time_range, time.time())
        return Outbound(self.config.get("bing_url"), params)

    def parse(self, body: bytes) -> ResultsPage:
        """The organic results of one page; BlockedError for a page without a result list."""
        tree = parse(body)
        if first(tree.xpath(f"//ol[@id='b_results']/li[{has_class('b_no')}]")) is not None:
            return ResultsPage()  # "There are no results for ..."
        container = first(tree.xpath("//ol[@id='b_results']"))
        if container is None:
            raise no_result_list(self)
        hits = []
        for item in container.xpath(f"./li[{has_class('b_algo')}][not({has_class('b_ad')})]"):
            link = first(item.xpath(".//h2//a[@href]"))
            if link is None:
                continue
            url = unwrap_url(link.get("href", ""))
            if not url.startswith(("http://", "https://")) or "bing.com/aclick" in url:
                continue
            caption = first_match(item, f".//div[{has_class('b_caption')}]//p", ".//p")
            date = first(item.xpath(f".//span[{has_class('news_dt')}]"))
            snippet = text_of(caption)
            if date is not None and snippet.startswith(text_of(date)):
                snippet = snippet[len(text_of(date)):].lstrip(" ·-")
            hits.append(SearchHit(title=text_of(link), url=url, snippet=snippet,
                                  published_date=text_of(date) or None))
        more = bool(tree.xpath(f"//a[{has_class('sb_pagN')}]"))
        return ResultsPage(hits, more)
