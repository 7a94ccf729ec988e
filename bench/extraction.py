"""Extraction benchmark: quality (shingle F1, as the data set's own evaluate.py scores it) and speed.

Runs websearch-mcp's html_to_markdown side by side with trafilatura (include_comments=False),
readability-lxml and an all-text baseline on ../shared/data/extraction-benchmark (or the folder
in EXTRACTION_BENCHMARK). Our Markdown is scored twice: with Markdown syntax stripped, and raw.
Comparators are benchmark dependencies only (`pip install '.[bench]'`).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATA = Path(os.environ.get("EXTRACTION_BENCHMARK", ROOT.parent / "shared" / "data" / "extraction-benchmark"))

_TOKEN = re.compile(r"\w+", re.UNICODE | re.MULTILINE | re.IGNORECASE | re.DOTALL)


def shingles(text: str, n: int = 4) -> Counter[tuple[str, ...]]:
    """4-token shingles of a text, as the benchmark's evaluate.py counts them."""
    tokens = _TOKEN.findall(text or "")
    return Counter(tuple(tokens[i:i + n]) for i in range(max(1, len(tokens) - n + 1)) if tokens[i:i + n])


def page_scores(true: str, pred: str) -> tuple[float, float, float]:
    """Normalised (tp, fp, fn) of one page."""
    gold, guess = shingles(true), shingles(pred)
    tp = sum((gold & guess).values())
    fp = sum((guess - gold).values())
    fn = sum((gold - guess).values())
    total = tp + fp + fn
    return (tp / total, fp / total, fn / total) if total else (0.0, 0.0, 0.0)


def summarise(scores: list[tuple[float, float, float]]) -> tuple[float, float, float]:
    """Precision and recall averaged over pages, and F1 of the two means."""
    def precision(tp: float, fp: float, fn: float) -> float:
        return 1.0 if fp == fn == 0 else 0.0 if tp == fp == 0 else tp / (tp + fp)

    def recall(tp: float, fp: float, fn: float) -> float:
        return 1.0 if fp == fn == 0 else 0.0 if tp == fn == 0 else tp / (tp + fn)

    p = sum(precision(*s) for s in scores if s[0] + s[1] > 0) / max(1, sum(1 for s in scores if s[0] + s[1] > 0))
    r = sum(recall(*s) for s in scores if s[0] + s[2] > 0) / max(1, sum(1 for s in scores if s[0] + s[2] > 0))
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_MARKS = re.compile(r"^(?:#{1,6} |> ?|\s*(?:[-*+]|\d+\.) |\|)|[*_`]+|\|", re.MULTILINE)


def strip_markdown(markdown: str) -> str:
    """Markdown syntax removed: link targets, emphasis, heading, list, quote and table marks."""
    text = _MD_LINK.sub(r"\1", markdown)
    text = re.sub(r"^\s*\|?\s*:?-{3,}.*$", "", text, flags=re.MULTILINE)
    return _MD_MARKS.sub(" ", text)


def load_pages(limit: int | None = None) -> list[tuple[str, str, str, str]]:
    """(id, html, url, gold text) for each page."""
    truth = json.loads((DATA / "ground-truth.json").read_text(encoding="utf-8"))
    pages = []
    for key in sorted(truth)[:limit]:
        html = gzip.decompress((DATA / "html" / f"{key}.html.gz").read_bytes()).decode("utf-8")
        pages.append((key, html, truth[key]["url"], truth[key]["articleBody"]))
    return pages


def ours(html: str, url: str) -> str:
    from websearch_mcp.extract import html_to_markdown

    return html_to_markdown(html, url)


def trafilatura_text(html: str, url: str) -> str:
    import trafilatura

    return trafilatura.extract(html, url=url, include_comments=False) or ""


def readability_text(html: str, url: str) -> str:
    import lxml.html
    from readability import Document

    summary = Document(html, url=url).summary(html_partial=True)
    return lxml.html.fromstring(summary).text_content() if summary.strip() else ""


def all_text(html: str, url: str) -> str:
    import lxml.html

    tree = lxml.html.fromstring(html)
    for element in tree.xpath("//script|//style|//noscript"):
        element.drop_tree()
    return tree.text_content()


EXTRACTORS: dict[str, Callable[[str, str], str]] = {
    "websearch-mcp": ours, "trafilatura": trafilatura_text, "readability-lxml": readability_text,
    "all text": all_text,
}


PASSES = int(os.environ.get("EXTRACTION_PASSES", "2"))


def run_all(names: list[str], pages: list[tuple[str, str, str, str]]) -> tuple[dict[str, list[str]], dict[str, float]]:
    """Every extractor's outputs, and its pages per second. The extractors take turns page by page
    (in a rotating order), so a slow spell of the machine costs them all alike; each extractor's
    time is the best of PASSES passes."""
    outputs: dict[str, list[str]] = {name: [] for name in names}
    best = dict.fromkeys(names, float("inf"))
    for name in names:
        EXTRACTORS[name](pages[0][1], pages[0][2])  # warm-up: imports, caches
    for run in range(PASSES):
        spent = dict.fromkeys(names, 0.0)
        for index, (_, html, url, _) in enumerate(pages):
            shift = index % len(names)
            for name in names[shift:] + names[:shift]:
                started = time.perf_counter()
                text = EXTRACTORS[name](html, url)
                spent[name] += time.perf_counter() - started
                if run == 0:
                    outputs[name].append(text)
        for name in names:
            best[name] = min(best[name], spent[name])
    return outputs, {name: len(pages) / best[name] for name in names}


def main() -> None:
    names = sys.argv[1:] or list(EXTRACTORS)
    pages = load_pages(int(os.environ["EXTRACTION_LIMIT"]) if os.environ.get("EXTRACTION_LIMIT") else None)
    print(f"extraction: {len(pages)} pages from {DATA}")
    print(f"  {'extractor':<28} {'precision':>9} {'recall':>7} {'F1':>6} {'pages/s':>8}")
    all_outputs, speeds = run_all(names, pages)
    for name in names:
        outputs, speed = all_outputs[name], speeds[name]
        variants = [(name, outputs)]
        if name == "websearch-mcp":
            variants = [(f"{name} (Markdown stripped)", [strip_markdown(o) for o in outputs]),
                        (f"{name} (raw Markdown)", outputs)]
        for label, texts in variants:
            p, r, f1 = summarise([page_scores(gold, text) for (_, _, _, gold), text in zip(pages, texts, strict=True)])
            print(f"  {label:<28} {p:9.3f} {r:7.3f} {f1:6.3f} {speed:8.1f}")
    if "websearch-mcp" in speeds and "trafilatura" in speeds:
        print(f"  speed: websearch-mcp is {speeds['websearch-mcp'] / speeds['trafilatura']:.1f}x trafilatura "
              "(target >= 3x, F1 >= trafilatura's)")


if __name__ == "__main__":
    main()
