"""Mojeek (www.mojeek.com/search, GET `q`): results from its own index; it blocks with a CAPTCHA page."""

from __future__ import annotations

import time

from websearch_mcp.engines.base import Outbound, ResultsPage, SearchEngine, SearchHit, SearchQuery
from websearch_mcp.engines.html import first, first_match, has_class, parse, text_of
from websearch_mcp.engines.locale import country_of, language_of

DAYS = {"day": 1, "week": 7, "month": 31, "year": 365}


class Mojeek(SearchEngine):
    """Mojeek's HTML results."""

    no_results_notices = ("No pages found matching", "No results found")
    block_markers = (b"<title>Captcha", b"altcha", b"captcha-wrap")

    def build_request(self, query: SearchQuery, offset: int) -> Outbound:
        """GET ?q= with `s` (1-based offset, sent only past the first page, as the site does), safe
        search, language and region bias, and `since` for a time range."""
        params = {"q": query.text}
        if offset:
            params["s"] = str(offset + 1)
        params["safe"] = "0" if query.safe_search == 0 else "1"
        language, country = language_of(query), country_of(query)
        if language:
            params["lb"] = language
        if country:
            params["arc"] = country
        if query.time_range:
            params["since"] = time.strftime("%Y%m%d", time.gmtime(time.time() - DAYS[query.time_range] * 86400))
        return Outbound(self.config.get("mojeek_url"), params)

    def parse(self, body: bytes) -> ResultsPage:
        """The results of one page; BlockedError for a page without a result list."""
        tree = parse(body)
        items = tree.xpath(f"//ul[{has_class('results-standard')}]/li")
        if not items:
            return self.empty_or_blocked(text_of(first(tree.xpath("//body"))))
        hits = []
        for item in items:
            link = first_match(item, ".//h2/a[@href]", f".//a[{has_class('ob')}]")
            if link is None or not link.get("href", "").startswith(("http://", "https://")):
                continue
            snippet = first(item.xpath(f".//p[{has_class('s')}]"))
            hits.append(SearchHit(title=text_of(link), url=link.get("href", ""), snippet=text_of(snippet)))
        more = bool(tree.xpath(f"//*[{has_class('pagination')}]//a[contains(@href, 's=')]"))
        return ResultsPage(hits, more)
