"""Retrieval context: pages split into passages, ranked against a query with BM25, packed into a
token budget. Pure functions; the same pages and query always give the same context."""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections import Counter
from typing import Any

_WORD = re.compile(r"\w+", re.UNICODE)
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")  # kana, hanzi, hangul
_CJK_RUN = re.compile(f"{CJK.pattern}+")


def cjk_count(text: str) -> int:
    """How many kana, hanzi and hangul a text holds (counted by runs: half the time of one match each)."""
    return sum(map(len, _CJK_RUN.findall(text)))


_BLOCK_SPLIT = re.compile(r"\n\s*\n")
PASSAGE_WORDS = 120
K1 = 1.2
B = 0.75


class Passage:
    """A run of a page's text with where it came from; `heading` (the titles it sits under, weighted
    by repetition) counts in its ranking, so asking for a section by its title finds that section."""

    __slots__ = ("language", "position", "score", "source", "text", "tokens")

    def __init__(self, source: int, position: int, text: str, language: str = "", heading: str = "") -> None:
        self.source = source
        self.position = position
        self.text = text
        self.language = language
        self.tokens = terms(text, language) + terms(heading, language)
        self.score = 0.0


# The Snowball stemmer for a page's language (its two-letter code), for words in the Latin script;
# Cyrillic and Greek words take their script's language whatever the page says.
STEMMERS = {"en": "english", "de": "german", "fr": "french", "es": "spanish", "it": "italian", "pt": "portuguese",
            "nl": "dutch", "pl": "polish", "ru": "russian", "sv": "swedish", "da": "danish", "no": "norwegian",
            "nb": "norwegian", "fi": "finnish", "cs": "czech", "ro": "romanian", "hu": "hungarian", "tr": "turkish",
            "ca": "catalan", "id": "indonesian", "el": "greek"}
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_GREEK = re.compile(r"[\u0370-\u03ff]")


def terms(text: str, language: str = "") -> list[str]:
    """Lower-cased word terms, stemmed so a word matches its inflections (`limits` finds `limit`); CJK
    runs become overlapping character pairs (they have no spaces)."""
    found: list[str] = []
    latin = STEMMERS.get(language[:2].lower(), "english")
    for word in _WORD.findall(text.lower()):
        if CJK.search(word):
            chars = [c for c in word if CJK.match(c)]
            found.extend(a + b for a, b in itertools.pairwise(chars))
            found.extend(chars if len(chars) == 1 else [])
            rest = CJK.sub(" ", word).split()
            found.extend(rest)
        else:
            found.append(stem(word, latin))
    return found


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str, latin: str = "english") -> str:
    """A word's stem: by the Snowball algorithm of its script's language (Latin-script words by `latin`);
    short words and words with digits stay as they are."""
    if len(word) <= 3 or not word.isalpha():
        return word
    language = "russian" if _CYRILLIC.search(word) else "greek" if _GREEK.search(word) else latin
    stemmer = _stemmer(language)
    return stemmer.stemWord(word) if stemmer is not None else word


@functools.cache
def _stemmer(language: str) -> Any:
    """One Snowball stemmer per language (PyStemmer's C version when it is installed), or None when
    snowballstemmer is missing: words are then matched as they are."""
    try:
        import snowballstemmer
    except ImportError:
        return None
    return snowballstemmer.stemmer(language)


def estimate_tokens(text: str) -> int:
    """A model-agnostic token estimate: about four characters per token, one per CJK character."""
    cjk = cjk_count(text)
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
        count = max(len(block.split()), cjk_count(block) // 2)
        if current and words + count > size and not current[-1].startswith("#"):
            passages.append(Passage(source, len(passages), "\n\n".join(current)))
            current, words = [], 0
        current.append(block)
        words += count
    if current:
        passages.append(Passage(source, len(passages), "\n\n".join(current)))
    return passages


def rank(passages: list[Passage], query: str) -> list[Passage]:
    """Passages by BM25 relevance to the query, best first; ties keep page and passage order. The query
    is stemmed as each passage's language is."""
    by_language: dict[str, list[str]] = {}
    count = len(passages)
    if not count:
        return []
    average = sum(len(p.tokens) for p in passages) / count or 1.0
    frequency = Counter(term for p in passages for term in set(p.tokens))
    for passage in passages:
        if passage.language not in by_language:
            by_language[passage.language] = list(dict.fromkeys(terms(query, passage.language)))
        counts = Counter(passage.tokens)
        length = len(passage.tokens)
        score = 0.0
        for term in by_language[passage.language]:
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
