"""What a crawl answers without a query: each page's Markdown in the order read, within the budget
(with a query, the passages come from services/reading.py, as search_context's do)."""

from __future__ import annotations

from websearch_mcp.passages import estimate_tokens


def pages_in_order(pages: list[tuple[str, str, str]], max_tokens: int) -> tuple[list[tuple[str, str, str]], int]:
    """(url, title, Markdown) of the pages that fit the budget, in order (the last one cut between
    paragraphs when it does not fit whole), and how many did not fit."""
    shown: list[tuple[str, str, str]] = []
    left = max_tokens
    for index, (url, title, markdown) in enumerate(pages):
        cost = estimate_tokens(markdown) + estimate_tokens(url + title) + 4
        if cost <= left:
            shown.append((url, title, markdown))
            left -= cost
            continue
        room = left * 4 - len(url) - len(title) - 40
        if room > 400:
            cut = markdown.rfind("\n\n", 0, room)
            shown.append((url, title, markdown[:cut if cut > room // 2 else room].rstrip() + "\n\n…"))
        return shown, len(pages) - index - (1 if room > 400 else 0)
    return shown, 0
