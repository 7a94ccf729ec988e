"""What every search backend takes and gives: a query, hits, and what else the backend said."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from websearch_mcp.errors import UpstreamError


@dataclass(frozen=True)
class SearchQuery:
    """A search in backend-neutral terms."""

    query: str
    max_results: int = 10
    region: str = "wt-wt"
    language: str = ""
    safe_search: int = 1
    time_range: str = ""
    page: int = 1
    category: str = "general"


@dataclass
class SearchHit:
    """One result."""

    title: str
    url: str
    snippet: str = ""
    engine: str = ""
    engines: list[str] = field(default_factory=list)
    score: float | None = None
    published_date: str | None = None


@dataclass
class BackendOutcome:
    """A backend's answer: its hits and whatever else it reports (answers, instance used, ...)."""

    hits: list[SearchHit]
    extras: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


class BackendUnavailable(UpstreamError):
    """A backend could not answer (blocked, down, misconfigured); the next one may."""

    def __init__(self, message: str, structured: dict[str, Any] | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(message, retry_after=retry_after)
        self.structured = structured
