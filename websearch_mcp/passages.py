"""Retrieval context: pages split into passages, ranked against a query with BM25, packed into a
token budget. Pure functions; the same pages and query always give the same context."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter

_WORD = re.compile(r"\w+", re.UNICODE)
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")  # kana, hanzi, hangul
_BLOCK_SPLIT = re.compile(r"\n\s*\n")
PASSAGE_WORDS = 120
K1 = 1.2
B = 0.75


class Passage:
    """A run of a page's text with where it came from."""

    __slots__ = ("position", "score", "source", "text", "tokens")

    def __init__(self, source: int, position: int, text: str) -> None:
        self.source = source
        self.position = position
        self.text = text
        self.tokens = terms(text)
        self.score = 0.0


def terms(text: str) -> list[str]:
    """Lower-cased word terms; CJK runs become overlapping character pairs (they have no spaces)."""
    found: list[str] = []
    for word in _WORD.findall(text.lower()):
        if CJK.search(word):
            chars = [c for c in word if CJK.match(c)]
            found.extend(a + b for a, b in itertools.pairwise(chars))
            found.extend(chars if len(chars) == 1 else [])
            rest = CJK.sub(" ", word).split()
            found.extend(rest)
        else:
            found.append(word)
    return found


def estimate_tokens(text: str) -> int:
    """A model-agnostic token estimate: about four characters per token, one per CJK character."""
    cjk = len(CJK.findall(text))
    return (len(text) - cjk) // 4 + cjk + 1


def split_passages(source: int, markdown: str, size: int = PASSAGE_WORDS) -> list[Passage]:
    """Consecutive blocks of a page joined into passages of about `size` words (headings stay with
    the text under them)."""
    passages: list[Passage] = []
    current: list[str] = []
    words = 0
    for block in (b.strip() for b in _BLOCK_SPLIT.split(markdown)):
        if not block:
            continue
        count = max(len(block.split()), len(CJK.findall(block)) // 2)
        if current and words + count > size and not current[-1].startswith("#"):
            passages.append(Passage(source, len(passages), "\n\n".join(current)))
            current, words = [], 0
        current.append(block)
        words += count
    if current:
        passages.append(Passage(source, len(passages), "\n\n".join(current)))
    return passages


def rank(passages: list[Passage], query: str) -> list[Passage]:
    """Passages by BM25 relevance to the query, best first; ties keep page and passage order."""
    query_terms = list(dict.fromkeys(terms(query)))
    count = len(passages)
    if not count:
        return []
    average = sum(len(p.tokens) for p in passages) / count or 1.0
    frequency = Counter(term for p in passages for term in set(p.tokens))
    for passage in passages:
        counts = Counter(passage.tokens)
        length = len(passage.tokens)
        score = 0.0
        for term in query_terms:
            tf = counts.get(term, 0)
            if not tf:
                continue
            idf = math.log(1 + (count - frequency[term] + 0.5) / (frequency[term] + 0.5))
            score += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average))
        passage.score = score
    return sorted(passages, key=lambda p: (-p.score, p.source, p.position))


def pack(ranked: list[Passage], max_tokens: int) -> list[Passage]:
    """The best passages that fit the budget, back in reading order (page, then position)."""
    chosen: list[Passage] = []
    used = 0
    for passage in ranked:
        cost = estimate_tokens(passage.text) + 4
        if used + cost > max_tokens:
            continue
        chosen.append(passage)
        used += cost
    return sorted(chosen, key=lambda p: (p.source, p.position))
