"""DuckDuckGo's Instant Answer API: one GET, a JSON body, parsed into plain data."""

from __future__ import annotations

import html
import json
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from websearch_mcp.config import Config
from websearch_mcp.errors import UpstreamError
from websearch_mcp.http_client import HttpClient

_ANCHOR = re.compile(r"<a\b[^>]*>(.*?)</a>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")


@dataclass
class Topic:
    """A related topic: its name (the anchor text), its description and link."""

    name: str
    text: str
    url: str
    group: str = ""


@dataclass
class InstantAnswer:
    """The parts of an Instant Answer reply that are worth showing."""

    heading: str = ""
    type: str = ""
    answer: str = ""
    answer_type: str = ""
    abstract: str = ""
    abstract_source: str = ""
    abstract_url: str = ""
    definition: str = ""
    definition_source: str = ""
    definition_url: str = ""
    redirect: str = ""
    infobox: list[dict[str, str]] = field(default_factory=list)
    related_topics: list[Topic] = field(default_factory=list)
    results: list[Topic] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        """Whether there is nothing to show."""
        return not (self.answer or self.abstract or self.definition or self.infobox
                    or self.related_topics or self.redirect)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return asdict(self)


def _plain(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dict):
        inner = value.get("result") or value.get("text") or value.get("value")
        return _plain(inner) if inner is not None else json.dumps(value, ensure_ascii=False)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        return ""
    return " ".join(html.unescape(_TAG.sub(" ", value)).split())


def _topic(item: dict[str, Any], group: str) -> Topic | None:
    text = _plain(item.get("Text"))
    url = item.get("FirstURL") if isinstance(item.get("FirstURL"), str) else ""
    anchor = _ANCHOR.search(item.get("Result") or "") if isinstance(item.get("Result"), str) else None
    name = _plain(anchor.group(1)) if anchor else ""
    if name and text.startswith(name):
        text = text[len(name):].lstrip(" -\u2013\u2014,:")
    if not (name or text):
        return None
    return Topic(name=name, text=text, url=url or "", group=group)


def _topics(items: Any, group: str = "") -> list[Topic]:
    topics: list[Topic] = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        if isinstance(item.get("Topics"), list):  # a disambiguation group {Name, Topics}
            topics.extend(_topics(item["Topics"], _plain(item.get("Name"))))
            continue
        topic = _topic(item, group)
        if topic is not None:
            topics.append(topic)
    return topics


def _infobox(box: Any) -> list[dict[str, str]]:
    entries = box.get("content") if isinstance(box, dict) else None
    rows = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        label, value = _plain(entry.get("label")), entry.get("value")
        if label and isinstance(value, (str, int, float)) and not isinstance(value, bool) and _plain(value):
            rows.append({"label": label, "value": _plain(value)})
    return rows


def parse_instant_answer(body: bytes) -> InstantAnswer:
    """Parse the API's JSON (whatever its Content-Type says); raise UpstreamError if it is not JSON."""
    try:
        data = json.loads(body.decode("utf-8", errors="replace") or "null")
    except ValueError as err:
        raise UpstreamError(f"the Instant Answer API sent a body that is not JSON ({err})") from err
    if not isinstance(data, dict):
        raise UpstreamError("the Instant Answer API sent JSON that is not an object")
    return InstantAnswer(
        heading=_plain(data.get("Heading")), type=_plain(data.get("Type")),
        answer=_plain(data.get("Answer")), answer_type=_plain(data.get("AnswerType")),
        abstract=_plain(data.get("AbstractText")) or _plain(data.get("Abstract")),
        abstract_source=_plain(data.get("AbstractSource")), abstract_url=_plain(data.get("AbstractURL")),
        definition=_plain(data.get("Definition")), definition_source=_plain(data.get("DefinitionSource")),
        definition_url=_plain(data.get("DefinitionURL")), redirect=_plain(data.get("Redirect")),
        infobox=_infobox(data.get("Infobox")), related_topics=_topics(data.get("RelatedTopics")),
        results=_topics(data.get("Results")),
    )


class InstantAnswerApi:
    """Client of api.duckduckgo.com (or whatever WEBSEARCH_DDG_API_URL names)."""

    def __init__(self, config: Config, http: HttpClient) -> None:
        self.config = config
        self.http = http

    def lookup(self, query: str, deadline: float | None = None) -> InstantAnswer:
        """The instant answer for a query (possibly empty)."""
        params = {"q": query, "format": "json", "no_html": "1", "no_redirect": "1", "t": "websearch-mcp"}
        response = self.http.request("GET", self.config.ddg_api_url, params=params, deadline=deadline,
                                     headers={"Accept": "application/json, text/javascript, */*"})
        response.raise_for_status("The DuckDuckGo Instant Answer API")
        return parse_instant_answer(response.body)
