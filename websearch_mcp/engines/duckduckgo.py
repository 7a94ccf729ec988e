"""DuckDuckGo web search: the HTML endpoint first, the lite endpoint when it fails or is blocked.

Pages beyond the first are reached the way a browser does: by submitting the page's own
next-page form with its hidden fields echoed back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from websearch_mcp import log
from websearch_mcp.engines.base import (
    AllFailed,
    EngineAnswer,
    SearchEngine,
    SearchHit,
    SearchQuery,
    Turn,
    first_answer,
)
from websearch_mcp.engines.duckduckgo_pages import (
    RawResult,
    ResultsPage,
    block_reason,
    parse_html_page,
    parse_lite_page,
)
from websearch_mcp.engines.vertical import VERTICALS, vertical_engine
from websearch_mcp.errors import BlockedError, UnexpectedPage, UpstreamConnectionError, UpstreamError
from websearch_mcp.templates import DDG_BLOCKED, DDG_UNAVAILABLE, DDG_UNRECOGNISED

TIME_RANGES = {"": "", "day": "d", "week": "w", "month": "m", "year": "y"}
SAFE_SEARCH = {0: "-2", 1: "-1", 2: "1"}  # off, moderate, strict, as DuckDuckGo's `kp`


@dataclass(frozen=True)
class Endpoint:
    """One of DuckDuckGo's result pages: where it lives and how to read it."""

    name: str
    url: str
    parse: Callable[[bytes], ResultsPage]


def first_form(query: SearchQuery, region: str) -> dict[str, str]:
    """The form fields of a first search, as DuckDuckGo's own search box sends them."""
    form = {"q": query.text, "b": "", "kl": region, "kp": SAFE_SEARCH[query.safe_search]}
    if TIME_RANGES[query.time_range]:
        form["df"] = TIME_RANGES[query.time_range]
    return form


# DuckDuckGo's `kl` is country-language; a language alone maps to its main country, and a few
# regions are spelled DuckDuckGo's own way (jp-jp, kr-kr, uk-en, ct-ca, no-no, tw-tzh).
_LANGUAGE_COUNTRY = {"en": "us", "ja": "jp", "zh": "cn", "ko": "kr", "sv": "se", "da": "dk", "el": "gr",
                     "cs": "cz", "uk": "ua", "he": "il", "vi": "vn", "et": "ee", "sl": "si", "ca": "ct",
                     "ms": "my", "hi": "in", "fa": "ir", "ar": "xa", "nb": "no", "no": "no", "pt": "pt"}
_COUNTRY_SPELLING = {"gb": "uk"}
_OWN_SPELLING = {"ja": "jp-jp", "ko": "kr-kr", "nb": "no-no", "no": "no-no"}
_TRADITIONAL = {"tw": "tw-tzh", "hk": "hk-tzh"}


def region_for_language(language: str) -> str:
    """DuckDuckGo's region code for an ISO 639-1 language, optionally with a country (en, en-GB)."""
    if not language:
        return "wt-wt"
    code, _, country = language.partition("-")
    code, country = code.lower(), country.lower()
    if code == "zh" and country in _TRADITIONAL:
        return _TRADITIONAL[country]
    if code in _OWN_SPELLING and country in ("", _LANGUAGE_COUNTRY[code]):
        return _OWN_SPELLING[code]
    country = _COUNTRY_SPELLING.get(country, country) or _LANGUAGE_COUNTRY.get(code, code)
    return f"{country}-{code}"


class DuckDuckGo(SearchEngine):
    """Web search on DuckDuckGo's HTML endpoint with the lite endpoint as its fallback."""

    categories = ("general", *VERTICALS)

    @property
    def endpoints(self) -> list[Endpoint]:
        """The result pages to try, in order."""
        return [Endpoint("html", self.config.get("ddg_html_url"), parse_html_page),
                Endpoint("lite", self.config.get("ddg_lite_url"), parse_lite_page)]

    def search(self, query: SearchQuery, turn: Turn) -> EngineAnswer:
        """Results from the first endpoint that answers; the language picks a region when none was given."""
        if query.category in VERTICALS:
            return vertical_engine(self, query.category).search(query, turn)
        region = query.region if query.region != "wt-wt" or not query.language else region_for_language(query.language)
        try:
            (hits, endpoint, pages), failures = first_answer(
                self.endpoints, lambda endpoint: self._search_endpoint(endpoint, query, region, turn))
        except AllFailed as failed:
            raise self._combined_error([err for _, err in failed.failures]) from None
        for endpoint_failed, err in failures:
            log.warning(f"DuckDuckGo {endpoint_failed.name} endpoint failed: {err}")
        notes = [f"{getattr(err, 'url', '') or 'endpoint'}: {getattr(err, 'message', err)}" for _, err in failures]
        extras = {"endpoint": endpoint, "pages_fetched": pages, "region": region}
        return EngineAnswer(hits=hits, extras=extras, notes=notes)

    @staticmethod
    def _combined_error(failures: list[Exception]) -> UpstreamError:
        upstream = [e for e in failures if isinstance(e, UpstreamError)]
        details = "; ".join(f"{name}: {err.message}" for name, err in zip(("html", "lite"), upstream, strict=False))
        blocked = [e for e in upstream if isinstance(e, BlockedError)]
        if blocked:
            retry = max((e.retry_after or 0 for e in blocked), default=0) or None
            return BlockedError(DDG_BLOCKED.format(details=details), retry_after=retry, backend="duckduckgo")
        if upstream and all(isinstance(e, UnexpectedPage) for e in upstream):
            return UpstreamError(DDG_UNRECOGNISED.format(details=details), backend="duckduckgo")
        offline = bool(upstream) and all(isinstance(e, UpstreamConnectionError) and not e.transient for e in upstream)
        return UpstreamConnectionError(DDG_UNAVAILABLE.format(details=details), backend="duckduckgo",
                                       transient=not offline)

    def _search_endpoint(self, endpoint: Endpoint, query: SearchQuery, region: str,
                         turn: Turn) -> tuple[list[SearchHit], str, int]:
        form: dict[str, str] | None = first_form(query, region)
        results: list[RawResult] = []
        seen: set[str] = set()
        pages = 0
        while form is not None and len(results) < query.wanted and pages < self.config.max_pages:
            if turn.cancelled():
                break
            page = self._fetch_page(endpoint, form, turn)
            pages += 1
            for result in page.results:
                if result.url not in seen:
                    seen.add(result.url)
                    results.append(result)
            form = None if page.no_results else page.next_form
        hits = [SearchHit(title=r.title, url=r.url, snippet=r.snippet, engine=self.name, engines=[self.name],
                          published_date=r.date) for r in results[query.offset:query.wanted]]
        return hits, endpoint.name, pages

    def _fetch_page(self, endpoint: Endpoint, form: dict[str, str], turn: Turn) -> ResultsPage:
        origin = "{0.scheme}://{0.netloc}/".format(urlsplit(endpoint.url))
        turn.wait(self.name)
        response = self.http.request("POST", endpoint.url, data=form, deadline=turn.deadline,
                                     headers={"Referer": origin, "Origin": origin.rstrip("/")})
        reason = block_reason(response.status, response.body)
        if reason:
            raise BlockedError(f"DuckDuckGo {endpoint.name} answered with {reason}",
                               url=endpoint.url, status=response.status,
                               retry_after=response.retry_after(), backend=self.name)
        response.raise_for_status(f"DuckDuckGo {endpoint.name}")
        page = endpoint.parse(response.body)
        if not page.recognised:
            raise UnexpectedPage(f"DuckDuckGo {endpoint.name} sent a page that holds neither "
                                 "results nor an end-of-results marker", url=endpoint.url, backend=self.name)
        return page
