"""Wikipedia through the MediaWiki API (`action=query&list=search`): it never blocks, so it is the
last resort of the default order. The wiki's language follows the query's."""

from __future__ import annotations

from urllib.parse import quote, urlsplit

from websearch_mcp import wire
from websearch_mcp.engines.base import Outbound, ResultsPage, SearchEngine, SearchHit, SearchQuery
from websearch_mcp.engines.html import strip_tags
from websearch_mcp.engines.locale import language_of
from websearch_mcp.errors import UnexpectedPage

PAGE_SIZE = 10


def article_base(api_url: str) -> str:
    """Where a wiki's articles live, from its API URL (…/w/api.php → …/wiki/)."""
    parts = urlsplit(api_url)
    prefix = parts.path[: -len("/w/api.php")] if parts.path.endswith("/w/api.php") else ""
    return f"{parts.scheme}://{parts.netloc}{prefix}/wiki/"


class Wikipedia(SearchEngine):
    """Full-text search of one Wikipedia."""

    page_size = PAGE_SIZE
    blocked_statuses = (429,)

    def api_url(self, query: SearchQuery) -> str:
        """The API endpoint of the query's language (English when none is asked for)."""
        return self.config.get("wikipedia_url").replace("{lang}", language_of(query) or "en")

    def build_request(self, query: SearchQuery, offset: int) -> Outbound:
        """GET action=query&list=search, paged with `sroffset`."""
        params = {"action": "query", "list": "search", "format": "json", "formatversion": "2",
                  "srsearch": query.query, "srlimit": str(PAGE_SIZE), "sroffset": str(offset),
                  "srprop": "snippet|timestamp", "utf8": "1"}
        return Outbound(self.api_url(query), params, headers={"Accept": "application/json"})

    def parse_for(self, query: SearchQuery, body: bytes) -> ResultsPage:
        """The pages found, linked on the query's wiki."""
        return self.parse(body, article_base(self.api_url(query)))

    def parse(self, body: bytes, articles: str = "https://en.wikipedia.org/wiki/") -> ResultsPage:
        """The pages found; UnexpectedPage for a reply that is not the API's search result."""
        try:
            data = wire.loads(body.decode("utf-8", "replace"))
        except wire.DecodeError as err:
            raise UnexpectedPage(f"Wikipedia sent a reply that is not JSON ({err})", backend=self.name) from None
        found = data.get("query", {}).get("search") if isinstance(data, dict) else None
        if not isinstance(found, list):
            raise UnexpectedPage("Wikipedia's reply holds no search result list", backend=self.name)
        hits = []
        for page in found:
            if not isinstance(page, dict) or not isinstance(page.get("title"), str):
                continue
            title = page["title"]
            date = page.get("timestamp")
            hits.append(SearchHit(title=title, url=articles + quote(title.replace(" ", "_"), safe="/:(),'!*"),
                                  snippet=strip_tags(str(page.get("snippet") or "")),
                                  published_date=date[:10] if isinstance(date, str) else None))
        return ResultsPage(hits, more=isinstance(data.get("continue"), dict))
