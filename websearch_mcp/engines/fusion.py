"""Reciprocal-rank fusion of several engines' result lists, deduplicated by normalised URL (pure)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from websearch_mcp.engines.base import SearchHit

RRF_K = 60
_TRACKING = ("fbclid", "gclid", "dclid", "msclkid", "yclid", "mc_cid", "mc_eid")


def normalise_url(url: str) -> str:
    """The form two links to the same page share: scheme and host lower-cased, default port, trailing
    slash, fragment and tracking parameters (utm_*, fbclid, gclid, ...) removed."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return url.strip()
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if port and (scheme, port) not in (("http", 80), ("https", 443)):
        host = f"{host}:{port}"
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
             if not k.lower().startswith("utm_") and k.lower() not in _TRACKING]
    return urlunsplit((scheme, host, parts.path.rstrip("/"), urlencode(query), ""))


def fuse(ranked_lists: list[tuple[str, list[SearchHit]]], k: int = RRF_K) -> list[SearchHit]:
    """One list from several (engine name, hits best first): each page scores the sum of 1/(k + rank)
    over the lists that hold it; ties keep the order in which pages were first seen."""
    scores: dict[str, float] = {}
    merged: dict[str, SearchHit] = {}
    for engine, hits in ranked_lists:
        for rank, hit in enumerate(hits, 1):
            key = normalise_url(hit.url)
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
            if key not in merged:
                merged[key] = SearchHit(title=hit.title, url=hit.url, snippet=hit.snippet, engine=engine,
                                        engines=[], published_date=hit.published_date)
            kept = merged[key]
            if engine not in kept.engines:
                kept.engines.append(engine)
            if len(hit.snippet) > len(kept.snippet):
                kept.snippet = hit.snippet  # the fuller description of the same page
    order = sorted(merged, key=lambda key: -scores[key])  # sorted() is stable: first seen wins ties
    for key in order:
        merged[key].score = round(scores[key], 6)
    return [merged[key] for key in order]
