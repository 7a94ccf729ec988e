"""Retrieval context for a question: search, read the top pages, split them into passages, rank the
passages against the question, and pack the best into a token budget, with numbered sources."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from websearch_mcp.call_context import ToolContext
from websearch_mcp.engines.base import SearchQuery
from websearch_mcp.engines.fusion import normalise_url
from websearch_mcp.services.pages import PageReader
from websearch_mcp.services.search import SearchService
from websearch_mcp.services.warm_up import warm_up_ranking

if TYPE_CHECKING:
    from websearch_mcp.passages import Passage


@dataclass
class Source:
    """A page the context cites."""

    number: int
    title: str
    url: str
    snippet_only: bool = False  # the page could not be read: only its search snippet is used


@dataclass
class ContextAnswer:
    """The chosen passages (in reading order), their sources, and the pages that failed."""

    passages: list[Passage]
    sources: list[Source]
    failed: list[dict[str, str]] = field(default_factory=list)
    results: int = 0

    def cited(self) -> list[Source]:
        """The sources that at least one chosen passage cites."""
        used = {p.source for p in self.passages}
        return [s for s in self.sources if s.number in used]

    def passage_rows(self) -> list[dict[str, Any]]:
        """The passages as structured output."""
        return [{"source": p.source, "text": p.text, "score": round(p.score, 4)} for p in self.passages]


class ContextService:
    """Builds retrieval context from search results and their pages."""

    def __init__(self, search: SearchService, pages: PageReader) -> None:
        self.search = search
        self.pages = pages

    def build(self, question: str, max_tokens: int, max_results: int, context: ToolContext) -> ContextAnswer:
        """The best passages for the question within the budget."""
        answer = self.search.search(SearchQuery(query=question, max_results=max_results),
                                    deadline=context.deadline, cancelled=context.cancelled.is_set)
        hits = _distinct_pages(answer.hits)
        warm_up_ranking()  # while the pages load, not after
        outcomes = self.pages.read([hit.url for hit in hits], context)
        texts: list[tuple[int, str]] = []
        sources: list[Source] = []
        failed: list[dict[str, str]] = []
        for number, (hit, outcome) in enumerate(zip(hits, outcomes, strict=True), 1):
            document = outcome.document
            readable = document is not None and bool(document.markdown.strip())
            title = (document.title if document is not None else "") or hit.title
            sources.append(Source(number, title, hit.url, snippet_only=not readable))
            if document is None:
                failed.append(outcome.failure())
            texts.append((number, document.markdown if readable and document is not None else hit.snippet))
        from websearch_mcp.services.reading import ranked_passages

        return ContextAnswer(ranked_passages(texts, question, max_tokens), sources, failed, len(hits))


def _distinct_pages(hits: list[Any]) -> list[Any]:
    """The results, each page once (a URL that differs only in tracking parameters, case or a slash
    is the same page)."""
    seen: set[str] = set()
    kept = []
    for hit in hits:
        key = normalise_url(hit.url)
        if key not in seen:
            seen.add(key)
            kept.append(hit)
    return kept
