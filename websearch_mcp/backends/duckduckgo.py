"""DuckDuckGo web search: the HTML endpoint first, the lite endpoint when it fails or is blocked.

Pages beyond the first are reached the way a browser does: by submitting the page's own
next-page form with its hidden fields echoed back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from websearch_mcp import log
from websearch_mcp.backends.base import BackendOutcome, SearchHit, SearchQuery
from websearch_mcp.backends.duckduckgo_pages import (
    RawResult,
    ResultsPage,
    block_reason,
    parse_html_page,
    parse_lite_page,
)
from websearch_mcp.config import Config
from websearch_mcp.errors import BlockedError, UnexpectedPage, UpstreamError
from websearch_mcp.http_client import HttpClient, client_for
from websearch_mcp.templates import DDG_BLOCKED, DDG_UNAVAILABLE, DDG_UNRECOGNISED

TIME_RANGES = {"": "", "day": "d", "week": "w", "month": "m", "year": "y"}
SAFE_SEARCH = {0: "-2", 1: "-1", 2: "1"}  # off, moderate, strict, as DuckDuckGo's `kp`


@dataclass(frozen=True)
class SearchRequest:
    """What to search for, in the tool's terms."""

    query: str
    max_results: int = 10
    region: str = "wt-wt"
    safe_search: int = 1
    time_range: str = ""
    page: int = 1


@dataclass
class SearchOutcome:
    """The results of a search and how they were obtained."""

    results: list[RawResult]
    endpoint: str
    pages_fetched: int
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Endpoint:
    """One of DuckDuckGo's result pages: where it lives and how to read it."""

    name: str
    url: str
    parse: Callable[[bytes], ResultsPage]


def first_form(request: SearchRequest) -> dict[str, str]:
    """The form fields of a first search, as DuckDuckGo's own search box sends them."""
    form = {"q": request.query, "b": "", "kl": request.region, "kp": SAFE_SEARCH[request.safe_search]}
    if TIME_RANGES[request.time_range]:
        form["df"] = TIME_RANGES[request.time_range]
    return form


class DuckDuckGo:
    """Web search on DuckDuckGo's HTML endpoint with the lite endpoint as its fallback."""

    def __init__(self, config: Config, http: HttpClient | None = None) -> None:
        self.config = config
        self.http = http or client_for(config)
        self.endpoints = (Endpoint("html", config.ddg_html_url, parse_html_page),
                          Endpoint("lite", config.ddg_lite_url, parse_lite_page))

    def search(self, request: SearchRequest, cancelled: Callable[[], bool] | None = None) -> SearchOutcome:
        """Results for the request; raises BlockedError or UpstreamError when none can be had."""
        failures: list[UpstreamError] = []
        for endpoint in self.endpoints:
            try:
                outcome = self._search_endpoint(endpoint, request, cancelled)
            except UpstreamError as err:
                log.warning(f"DuckDuckGo {endpoint.name} endpoint failed: {err.message}")
                failures.append(err)
                continue
            outcome.notes = [f"{e.url or 'endpoint'}: {e.message}" for e in failures]
            return outcome
        raise self._combined_error(failures)

    @staticmethod
    def _combined_error(failures: list[UpstreamError]) -> UpstreamError:
        details = "; ".join(f"{name}: {err.message}" for name, err in zip(("html", "lite"), failures, strict=False))
        blocked = [e for e in failures if isinstance(e, BlockedError)]
        if blocked:
            retry = max((e.retry_after or 0 for e in blocked), default=0) or None
            return BlockedError(DDG_BLOCKED.format(details=details), retry_after=retry)
        if all(isinstance(e, UnexpectedPage) for e in failures):
            return UpstreamError(DDG_UNRECOGNISED.format(details=details))
        return UpstreamError(DDG_UNAVAILABLE.format(details=details))

    def _search_endpoint(self, endpoint: Endpoint, request: SearchRequest,
                         cancelled: Callable[[], bool] | None) -> SearchOutcome:
        wanted = request.page * request.max_results
        form: dict[str, str] | None = first_form(request)
        results: list[RawResult] = []
        seen: set[str] = set()
        pages = 0
        while form is not None and len(results) < wanted and pages < self.config.max_pages:
            if cancelled is not None and cancelled():
                break
            page = self._fetch_page(endpoint, form)
            pages += 1
            for result in page.results:
                if result.url not in seen:
                    seen.add(result.url)
                    results.append(result)
            form = None if page.no_results else page.next_form
        skip = (request.page - 1) * request.max_results
        return SearchOutcome(results=results[skip:wanted], endpoint=endpoint.name, pages_fetched=pages)

    def _fetch_page(self, endpoint: Endpoint, form: dict[str, str]) -> ResultsPage:
        origin = "{0.scheme}://{0.netloc}/".format(urlsplit(endpoint.url))
        response = self.http.request("POST", endpoint.url, data=form,
                                     headers={"Referer": origin, "Origin": origin.rstrip("/")})
        reason = block_reason(response.status, response.body)
        if reason:
            raise BlockedError(f"DuckDuckGo {endpoint.name} answered with {reason}",
                               url=endpoint.url, status=response.status,
                               retry_after=response.retry_after())
        response.raise_for_status(f"DuckDuckGo {endpoint.name}")
        page = endpoint.parse(response.body)
        if not page.recognised:
            raise UnexpectedPage(f"DuckDuckGo {endpoint.name} sent a page that holds neither "
                                 "results nor an end-of-results marker", url=endpoint.url)
        return page


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


class DuckDuckGoBackend:
    """DuckDuckGo as one backend among several: general web results only."""

    name = "duckduckgo"
    label = "DuckDuckGo"

    def __init__(self, config: Config) -> None:
        self.engine = DuckDuckGo(config)

    def supports(self, query: SearchQuery) -> bool:
        """DuckDuckGo's HTML endpoints serve the general category only."""
        return query.category == "general"

    def search(self, query: SearchQuery, cancelled: Callable[[], bool] | None = None) -> BackendOutcome:
        """Search, mapping the language to a region when no region was chosen."""
        region = query.region if query.region != "wt-wt" or not query.language else region_for_language(query.language)
        request = SearchRequest(query=query.query, max_results=query.max_results, region=region,
                                safe_search=query.safe_search, time_range=query.time_range, page=query.page)
        outcome = self.engine.search(request, cancelled)
        hits = [SearchHit(title=r.title, url=r.url, snippet=r.snippet, engine="duckduckgo",
                          engines=["duckduckgo"], published_date=r.date) for r in outcome.results]
        extras = {"endpoint": outcome.endpoint, "pages_fetched": outcome.pages_fetched, "region": region}
        return BackendOutcome(hits=hits, extras=extras, notes=outcome.notes)
