"""SearXNG: JSON search on one or more instances, tried in order, the last good one first."""

from __future__ import annotations

import threading
from typing import Any

from websearch_mcp import log
from websearch_mcp.backends.base import BackendOutcome, BackendUnavailable, SearchHit, SearchQuery
from websearch_mcp.config import Config
from websearch_mcp.errors import UpstreamError
from websearch_mcp.http_client import HttpClient, client_for

SAFE_SEARCH = {0: "0", 1: "1", 2: "2"}
_LAST_GOOD: dict[tuple[str, ...], str] = {}  # per instance list: the one that answered last
_LAST_GOOD_LOCK = threading.Lock()


def build_params(query: SearchQuery) -> dict[str, str]:
    """The query string of /search?format=json for a query."""
    params = {"q": query.query, "format": "json", "categories": query.category,
              "safesearch": SAFE_SEARCH[query.safe_search], "pageno": str(query.page)}
    if query.language:
        params["language"] = query.language
    if query.time_range:
        params["time_range"] = query.time_range
    return params


def parse_results(data: Any) -> BackendOutcome:
    """The hits and the extras (answers, infoboxes, suggestions, unresponsive engines) of a reply."""
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise ValueError("the reply is not SearXNG's JSON (no results list)")
    hits = []
    for item in data["results"]:
        if not isinstance(item, dict) or not item.get("url"):
            continue
        engines = [e for e in item.get("engines") or [] if isinstance(e, str)]
        score = item.get("score")
        hits.append(SearchHit(
            title=" ".join(str(item.get("title") or "").split()), url=str(item["url"]),
            snippet=" ".join(str(item.get("content") or "").split()), engine=str(item.get("engine") or ""),
            engines=engines, score=float(score) if isinstance(score, (int, float)) else None,
            published_date=item.get("publishedDate") or None))
    extras: dict[str, Any] = {
        "answers": [_answer_text(a) for a in data.get("answers") or [] if _answer_text(a)],
        "infoboxes": [i for i in data.get("infoboxes") or [] if isinstance(i, dict)],
        "suggestions": [s for s in data.get("suggestions") or [] if isinstance(s, str)],
        "unresponsive_engines": [list(map(str, pair)) for pair in data.get("unresponsive_engines") or []
                                 if isinstance(pair, list)],
    }
    if isinstance(data.get("number_of_results"), int) and data["number_of_results"] > 0:
        extras["total_results"] = data["number_of_results"]
    return BackendOutcome(hits=hits, extras=extras)


def _answer_text(answer: Any) -> str:
    if isinstance(answer, str):
        return answer
    if isinstance(answer, dict):
        return str(answer.get("answer") or answer.get("content") or "")
    return ""


class Searxng:
    """The SearXNG backend over the configured instances."""

    name = "searxng"
    label = "SearXNG"

    def __init__(self, config: Config, http: HttpClient | None = None) -> None:
        self.instances = [u.strip().rstrip("/") for u in config.searxng_urls.split(",") if u.strip()]
        self.http = http or client_for(config)

    def supports(self, query: SearchQuery) -> bool:
        """SearXNG serves every category."""
        return bool(self.instances)

    def _ordered(self) -> list[str]:
        with _LAST_GOOD_LOCK:
            good = _LAST_GOOD.get(tuple(self.instances))
        return [good, *[i for i in self.instances if i != good]] if good in self.instances else list(self.instances)

    def search(self, query: SearchQuery) -> BackendOutcome:
        """Ask the instances in turn; BackendUnavailable (with seed 002's error shape) if none answers."""
        failures: list[tuple[str, str]] = []
        retry_after: float | None = None
        for instance in self._ordered():
            try:
                outcome = self._ask(instance, query)
            except UpstreamError as err:
                log.warning(f"SearXNG instance {instance} failed: {err.message}")
                failures.append((instance, err.message))
                retry_after = max(retry_after or 0, err.retry_after or 0) or retry_after
                continue
            with _LAST_GOOD_LOCK:
                _LAST_GOOD[tuple(self.instances)] = instance
            outcome.extras["instance_used"] = instance
            outcome.notes = [f"{url}: {reason}" for url, reason in failures]
            return outcome
        details = "; ".join(f"{url}: {reason}" for url, reason in failures)
        structured = {"error_type": "no_instances_available",
                      "error_details": "All configured SearXNG instances are unavailable or rate limited",
                      "attempted_instances": [url for url, _ in failures],
                      "retry_after": int(retry_after) if retry_after else None}
        raise BackendUnavailable(f"every SearXNG instance failed ({details})", structured, retry_after)

    def _ask(self, instance: str, query: SearchQuery) -> BackendOutcome:
        response = self.http.request("GET", f"{instance}/search", params=build_params(query),
                                     headers={"Accept": "application/json"}, retries=0)
        if response.status == 403:
            raise UpstreamError("HTTP 403 (JSON output is probably disabled on this instance)",
                                url=instance, status=403)
        if response.status == 429:
            raise UpstreamError("HTTP 429 (rate limited)", url=instance, status=429,
                                retry_after=response.retry_after())
        response.raise_for_status("the instance")
        if "json" not in response.content_type:
            raise UpstreamError(f"answered {response.content_type or 'no content type'} instead of JSON "
                                "(a CAPTCHA or bot check)", url=instance)
        from websearch_mcp import wire

        try:
            return parse_results(wire.loads(response.text()))
        except (wire.DecodeError, ValueError) as err:
            raise UpstreamError(f"sent a reply that is not SearXNG's JSON ({err})", url=instance) from err
