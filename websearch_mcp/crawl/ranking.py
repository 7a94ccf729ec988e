"""How well a link or a page matches a query: shared query words in the link's text, its URL, the
heading it sits under and the page it was found on."""

from __future__ import annotations

import re

from websearch_mcp.passages import terms

STOPWORDS = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how", "i", "if",
    "in", "is", "it", "its", "my", "of", "on", "or", "the", "this", "to", "what", "when", "where", "which",
    "who", "why", "with", "you", "your", "use", "using"))
_URL_WORDS = re.compile(r"[a-z0-9]+")


def query_terms(query: str) -> set[str]:
    """The words of a query that carry meaning."""
    words = set(terms(query))
    return (words - STOPWORDS) or words


def share(words: set[str], text: str) -> float:
    """The share of the query words found in the text."""
    if not words or not text:
        return 0.0
    return len(words & set(terms(text))) / len(words)


def url_share(words: set[str], url: str) -> float:
    """The share of the query words found among the URL's path words (a plural or a stem counts)."""
    if not words:
        return 0.0
    path = url.split("://", 1)[-1].partition("/")[2].lower()
    found = set(_URL_WORDS.findall(path))
    hits = sum(1 for w in words if w in found or any(_alike(w, f) for f in found))
    return hits / len(words)


def _alike(word: str, other: str) -> bool:
    """Whether two words share a stem (proxy and proxies, retry and retries): a common start of at
    least four letters that leaves at most three letters of either."""
    common = 0
    for a, b in zip(word, other, strict=False):
        if a != b:
            break
        common += 1
    return common >= 4 and len(word) - common <= 3 and len(other) - common <= 3


def link_score(words: set[str], text: str, url: str, heading: str, page: float) -> float:
    """A link's promise for the query: its text counts most, then its URL, its heading, its page."""
    if not words:
        return 0.0
    return 3 * share(words, text) + 2 * url_share(words, url) + share(words, heading) + 0.5 * page
