"""SearXNG: JSON search on one or more instances, tried in order, the last good one first."""

from __future__ import annotations

from typing import Any

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
from websearch_mcp.engines.searxng_media import media_fields
from websearch_mcp.errors import SearchFailed, UpstreamError

SAFE_SEARCH = {0: "0", 1: "1", 2: "2"}
LAST_GOOD = "searxng.last_good:"  # + the instance list: the one that answered last


def build_params(query: SearchQuery) -> dict[str, str]:
    """The query string of /search?format=json for a query."""
    params = {"q": query.text, "format": "json", "categories": query.category,
              "safesearch": SAFE_SEARCH[query.safe_search], "pageno": str(query.page)}
    if query.language:
        params["language"] = query.language
    if query.time_range:
        params["time_range"] = query.time_range
    return params


def parse_results(data: Any) -> EngineAnswer:
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
            published_date=item.get("publishedDate") or None, **media_fields(item)))
    extras: dict[str, Any] = {
        "answers": [_answer_text(a) for a in data.get("answers") or [] if _answer_text(a)],
        "infoboxes": [i for i in data.get("infoboxes") or [] if isinstance(i, dict)],
        "suggestions": [s for s in data.get("suggestions") or [] if isinstance(s, str)],
        "unresponsive_engines": [list(map(str, pair)) for pair in data.get("unresponsive_engines") or []
                                 if isinstance(pair, list)],
    }
    if isinstance(data.get("number_of_results"), int) and data["number_of_results"] > 0:
        extras["total_results"] = data["number_of_results"]
    return EngineAnswer(hits=hits, extras=extras)


def _answer_text(answer: Any) -> str:
    if isinstance(answer, str):
        return answer
    if isinstance(answer, dict):
        return str(answer.get("answer") or answer.get("content") or "")
    return ""


class Searxng(SearchEngine):
    """The SearXNG engine over the configured instances."""

    categories = ("general", "images", "videos", "news", "map", "music", "it", "science", "files")

    @property
    def instances(self) -> list[str]:
        """The configured instance base URLs."""
        return [u.strip().rstrip("/") for u in self.config.get("searxng_urls").split(",") if u.strip()]

    def supports(self, query: SearchQuery) -> bool:
        """SearXNG serves every category, once an instance is configured."""
        return bool(self.instances)

    def _ordered(self) -> list[str]:
        instances = self.instances
        good = self.store.get_value(LAST_GOOD + ",".join(instances))
        return [good, *[i for i in instances if i != good]] if good in instances else instances

    def search(self, query: SearchQuery, turn: Turn) -> EngineAnswer:
        """Ask the instances in turn; SearchFailed (with seed 002's error shape) if none answers."""
        try:
            (instance, answer), failures = first_answer(self._ordered(),
                                                        lambda instance: (instance, self._ask(instance, query, turn)))
        except AllFailed as failed:
            raise self._no_instance([(str(i), e) for i, e in failed.failures]) from None
        self.store.set_value(LAST_GOOD + ",".join(self.instances), instance)
        answer.extras["instance_used"] = instance
        answer.notes = [f"{url}: {getattr(err, 'message', err)}" for url, err in failures]
        return answer

    @staticmethod
    def _no_instance(failures: list[tuple[str, Exception]]) -> SearchFailed:
        for url, err in failures:
            log.warning(f"SearXNG instance {url} failed: {getattr(err, 'message', err)}")
        details = "; ".join(f"{url}: {getattr(err, 'message', err)}" for url, err in failures)
        retry_after = max((getattr(err, "retry_after", None) or 0 for _, err in failures), default=0) or None
        return SearchFailed(f"every SearXNG instance failed ({details})", error_type="no_instances_available",
                            details="All configured SearXNG instances are unavailable or rate limited",
                            attempted_instances=[url for url, _ in failures], retry_after=retry_after)

    def _ask(self, instance: str, query: SearchQuery, turn: Turn) -> EngineAnswer:
        turn.wait(self.name)
        response = self.http.request("GET", f"{instance}/search", params=build_params(query),
                                     headers={"Accept": "application/json"}, retries=0, deadline=turn.deadline)
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
