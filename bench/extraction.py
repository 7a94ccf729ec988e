"""Extraction benchmark: quality and speed of websearch-mcp's extractor beside trafilatura and readability-lxml.

Every set of the development set (bench/devset.py builds it from public benchmarks; bench/DATASETS.md
describes them) is scored with its own measure: CleanEval's word alignment (cleaneval.py) for the
CleanEval-format sets, the 4-token-shingle F1 of the scrapinghub evaluate.py for the others. Our
Markdown is scored with its syntax stripped. The extractors take turns page by page (in a rotating
order), and speed is pages per CPU second (time.process_time), the best of EXTRACTION_PASSES passes, of
each extractor's own output as its user gets it (our Markdown, trafilatura's text, readability-lxml's
HTML fragment); making plain text of it for scoring is not timed.

    python bench/extraction.py                          # every set, the three extractors
    python bench/extraction.py --sets readability websearch-mcp trafilatura
Comparators are benchmark dependencies only (`pip install '.[bench]'`).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from difflib import SequenceMatcher
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import devset  # noqa: E402  (bench/ is not a package)

_TOKEN = re.compile(r"\w+", re.UNICODE | re.MULTILINE | re.IGNORECASE | re.DOTALL)
PASSES = int(os.environ.get("EXTRACTION_PASSES", "2"))
Score = tuple[float, float, float]  # per page: shingles (tp, fp, fn) normalised; cleaneval (P, R, F)


# -- scoring ----------------------------------------------------------------------------------------


def shingles(text: str, n: int = 4) -> Counter[tuple[str, ...]]:
    """4-token shingles of a text, as the scrapinghub evaluate.py counts them."""
    tokens = _TOKEN.findall(text or "")
    return Counter(tuple(tokens[i:i + n]) for i in range(max(1, len(tokens) - n + 1)) if tokens[i:i + n])


def page_scores(true: str, pred: str) -> Score:
    """Normalised (tp, fp, fn) of one page."""
    gold, guess = shingles(true), shingles(pred)
    tp = sum((gold & guess).values())
    fp = sum((guess - gold).values())
    fn = sum((gold - guess).values())
    total = tp + fp + fn
    return (tp / total, fp / total, fn / total) if total else (0.0, 0.0, 0.0)


def summarise(scores: list[Score]) -> Score:
    """evaluate.py: precision and recall averaged over pages, and F1 of the two means."""
    def precision(tp: float, fp: float, fn: float) -> float:
        return 1.0 if fp == fn == 0 else 0.0 if tp == fp == 0 else tp / (tp + fp)

    def recall(tp: float, fp: float, fn: float) -> float:
        return 1.0 if fp == fn == 0 else 0.0 if tp == fn == 0 else tp / (tp + fn)

    p = sum(precision(*s) for s in scores if s[0] + s[1] > 0) / max(1, sum(1 for s in scores if s[0] + s[1] > 0))
    r = sum(recall(*s) for s in scores if s[0] + s[2] > 0) / max(1, sum(1 for s in scores if s[0] + s[2] > 0))
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


_CONTROL = re.compile("[\x00-\x1f]+")
_SPACE = re.compile(r"\s+")


def cleaneval_scores(true: str, pred: str) -> Score:
    """cleaneval.py (Stefan Evert, 2008) for one page: whitespace-delimited words of output and gold
    aligned with difflib; (precision, recall, F) of the aligned words. The gold's segment marks
    (<p>, <h>, <l>) are left out, since no extractor here writes them."""
    def words(text: str) -> list[str]:
        return _SPACE.split(_SPACE.sub(" ", _CONTROL.sub(" ", text)))

    text_words, gold_words = words(pred), words(true)
    tp = sum(block.size for block in SequenceMatcher(None, text_words, gold_words).get_matching_blocks())
    precision = tp / max(1, len(text_words))
    recall = tp / max(1, len(gold_words))
    return precision, recall, (2 * precision * recall / (precision + recall) if precision + recall else 0.0)


def summarise_cleaneval(scores: list[Score]) -> Score:
    """cleaneval.py -s: precision, recall and F averaged over pages (macro-averaged)."""
    count = max(1, len(scores))
    return tuple(sum(s[i] for s in scores) / count for i in range(3))  # type: ignore[return-value]


SCORING: dict[str, tuple[str, Callable[[str, str], Score], Callable[[list[Score]], Score]]] = {
    "shingles": ("shingle F1 (scrapinghub evaluate.py)", page_scores, summarise),
    "cleaneval": ("word alignment (cleaneval.py, macro)", cleaneval_scores, summarise_cleaneval),
}

_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_MARKS = re.compile(r"^(?:#{1,6} |> ?|\s*(?:[-*+]|\d+\.) |\|)|\|", re.MULTILINE)
# Emphasis and code marks sit against the words they mark: they go without a space, or "*Post*." would
# read as the two words "Post" and "." (a word-aligning score counts that as a miss and an extra).
_MD_EMPHASIS = re.compile(r"(?<!\\)(?:[*_`]+|~~)")
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~<])")  # "8\. 4. 2024", "\*": the character itself


def strip_markdown(markdown: str) -> str:
    """Markdown syntax removed: link targets, emphasis, heading, list, quote and table marks."""
    text = _MD_LINK.sub(r"\1", markdown)
    text = re.sub(r"^\s*\|?\s*:?-{3,}.*$", "", text, flags=re.MULTILINE)
    return _MD_ESCAPE.sub(r"\1", _MD_EMPHASIS.sub("", _MD_MARKS.sub(" ", text)))


# -- extractors -------------------------------------------------------------------------------------


def ours(html: str, url: str) -> str:
    from websearch_mcp.extract import html_to_markdown

    return html_to_markdown(html, url or None)


def trafilatura_text(html: str, url: str) -> str:
    import trafilatura

    return trafilatura.extract(html, url=url or None, include_comments=False) or ""


def readability_summary(html: str, url: str) -> str:
    import logging

    from readability import Document

    logging.getLogger("readability").setLevel(logging.CRITICAL)  # it logs a traceback for each page it fails on

    return Document(html, url=url or None).summary(html_partial=True)


def html_text(summary: str) -> str:
    import lxml.html

    return lxml.html.fromstring(summary).text_content() if summary.strip() else ""


def all_text(html: str, url: str) -> str:
    import lxml.html

    tree = lxml.html.fromstring(html)
    for element in tree.xpath("//script|//style|//noscript"):
        element.drop_tree()
    return tree.text_content()


def _as_is(text: str) -> str:
    return text


# Each extractor as its user gets it (timed), and the step that makes plain text of that for scoring
# (not timed: websearch-mcp returns Markdown, readability-lxml an HTML fragment, trafilatura text).
EXTRACTORS: dict[str, tuple[Callable[[str, str], str], Callable[[str], str]]] = {
    "websearch-mcp": (ours, strip_markdown), "trafilatura": (trafilatura_text, _as_is),
    "readability-lxml": (readability_summary, html_text), "all-text": (all_text, _as_is),
}
DEFAULT = ["websearch-mcp", "trafilatura", "readability-lxml"]


def _extracted(name: str, html: str, url: str) -> str:
    try:
        return EXTRACTORS[name][0](html, url)
    except Exception as err:  # a comparator that fails on a page scores an empty output there
        print(f"    {name} failed: {type(err).__name__}: {err}", file=sys.stderr)
        return ""


def _safe(name: str, html: str, url: str) -> str:
    """The extractor's output on one page, as plain text."""
    return EXTRACTORS[name][1](_extracted(name, html, url))


def run_all(names: list[str], pages: list[devset.Page]) -> tuple[dict[str, list[str]], dict[str, float]]:
    """Every extractor's outputs as plain text, and its pages per CPU second (best of PASSES passes; the
    time of the extraction alone, not of making plain text of its output for scoring)."""
    extracted: dict[str, list[str]] = {name: [] for name in names}
    best = dict.fromkeys(names, float("inf"))
    for name in names:
        _extracted(name, pages[0].html, pages[0].url)  # warm-up: imports, caches
    for run in range(PASSES):
        spent = dict.fromkeys(names, 0.0)
        for index, page in enumerate(pages):
            shift = index % len(names)
            for name in names[shift:] + names[:shift]:
                started = time.process_time()
                output = _extracted(name, page.html, page.url)
                spent[name] += time.process_time() - started
                if run == 0:
                    extracted[name].append(output)
        for name in names:
            best[name] = min(best[name], spent[name])
    outputs = {name: [EXTRACTORS[name][1](output) for output in extracted[name]] for name in names}
    return outputs, {name: len(pages) / max(best[name], 1e-9) for name in names}


# -- the report -------------------------------------------------------------------------------------


def body_has_words(html: str) -> bool:
    """Whether the page's <body> shows any word at all. A few recorded pages are an error page with
    an empty body beside a ground truth from the real article (dragnet_data R427): nothing can be
    extracted from them, so an empty output there is right."""
    import lxml.html

    try:
        root = lxml.html.document_fromstring(html)
        body = root.body
    except (ValueError, IndexError, lxml.etree.ParserError):
        return bool(_TOKEN.search(html))
    return bool(_TOKEN.search((root if body is None else body).text_content()))


def is_empty(page: devset.Page, text: str) -> bool:
    """An output with no word for a page whose ground truth has some, and whose body has some."""
    return bool(_TOKEN.search(page.truth)) and not _TOKEN.search(text) and body_has_words(page.html)


class Result:
    """One extractor's scores on a group of pages."""

    def __init__(self, scoring: str, pages: list[devset.Page], texts: list[str]) -> None:
        _, score, summary = SCORING[scoring]
        self.count = len(pages)
        self.p, self.r, self.f1 = summary([score(page.truth, text) for page, text in zip(pages, texts, strict=True)])
        self.empty = sum(is_empty(page, text) for page, text in zip(pages, texts, strict=True))
        self.misses = sum(is_whole_miss(page, text) for page, text in zip(pages, texts, strict=True))

    def short(self) -> str:
        return f"{self.p:.3f} {self.r:.3f} {self.f1:.3f} {self.empty:>2} {self.misses:>2}"


WHOLE_MISS = 0.1  # shingle recall below which a page's output holds almost none of its article


def is_whole_miss(page: devset.Page, text: str) -> bool:
    """The wrong block: an output with almost none of the article (shingle recall < 0.1) for a page
    whose ground truth has words and whose body has some."""
    if not _TOKEN.search(page.truth) or not body_has_words(page.html):
        return False
    gold = shingles(page.truth)
    found = sum((gold & shingles(text)).values())
    return found < WHOLE_MISS * max(1, sum(gold.values()))


def _groups(name: str, pages: list[devset.Page]) -> list[tuple[str, list[int]]]:
    """Row labels and page indexes: each page type, then the two halves of the split."""
    groups: dict[str, list[int]] = {}
    for index, page in enumerate(pages):
        groups.setdefault(f"type {page.type or 'other'}", []).append(index)
    ordered = sorted(groups.items(), key=lambda item: -len(item[1]))
    for half in ("dev", "check"):
        ordered.append((f"{half} half", [i for i, page in enumerate(pages) if page.half(name) == half]))
    return [(label, indexes) for label, indexes in ordered if indexes]


def report(name: str, pages: list[devset.Page], scoring: str, names: list[str]) -> dict[str, Result]:
    """Run the extractors on one set and print its table; returns the overall results."""
    dataset = next(d for d in devset.SETS if d.name == name)
    print(f"\n{name}: {len(pages)} pages from {dataset.source.describe()}; scored by {SCORING[scoring][0]}")
    outputs, speeds = run_all(names, pages)
    print(f"  {'extractor':<18} {'precision':>9} {'recall':>7} {'F1':>6} {'empty':>6} {'misses':>7} "
          f"{'pages/CPU-s':>12}")
    results = {}
    for extractor in names:
        result = results[extractor] = Result(scoring, pages, outputs[extractor])
        print(f"  {extractor:<18} {result.p:9.3f} {result.r:7.3f} {result.f1:6.3f} {result.empty:6d} "
              f"{result.misses:7d} {speeds[extractor]:12.1f}")
    print(f"  {'P R F1 empty misses by':<25}" + "".join(f"{extractor:<25}" for extractor in names))
    for label, indexes in _groups(name, pages):
        subset = [pages[i] for i in indexes]
        cells = [Result(scoring, subset, [outputs[e][i] for i in indexes]).short() for e in names]
        print(f"  {label + f' ({len(indexes)})':<25}" + "".join(f"{cell:<25}" for cell in cells))
    _goal(results, speeds)
    return results


def _goal(results: dict[str, Result], speeds: dict[str, float]) -> None:
    if "websearch-mcp" not in results or "trafilatura" not in results:
        return
    ours_, theirs = results["websearch-mcp"], results["trafilatura"]
    checks = [f"F1 {ours_.f1 - theirs.f1:+.3f} against trafilatura", f"recall {ours_.r:.3f} (goal >= 0.93)",
              f"{ours_.empty} empty", f"{speeds['websearch-mcp'] / speeds['trafilatura']:.1f}x trafilatura's speed"]
    met = ours_.f1 >= theirs.f1 and ours_.r >= 0.93 and not ours_.empty
    print(f"  goal {'met' if met else 'NOT met'}: " + ", ".join(checks))


def hand_made_classes(names: list[str]) -> None:
    """Each class of failure's hand-made page (fixtures/handmade/extraction): passed or failed."""
    import json

    folder = ROOT / "fixtures" / "handmade" / "extraction"
    expected = json.loads((folder / "expectations.json").read_text())
    print("\nclasses of failure, one hand-made page each (article words out, furniture words not):")
    print(f"  {'class':<44}" + "".join(f"{name:<18}" for name in names))
    for page, rule in sorted(expected.items()):
        html = (folder / page).read_text()
        cells = []
        for name in names:
            text = _safe(name, html, "https://blog.example.com/2026/11/post")
            ok = all(w in text for w in rule["wanted"]) and not any(w in text for w in rule["unwanted"])
            cells.append("pass" if ok else "FAIL")
        print(f"  {page:<44}" + "".join(f"{cell:<18}" for cell in cells))
    _pages_in_many_languages(names)


def _pages_in_many_languages(names: list[str]) -> None:
    """The same classes on 720 pages in 38 languages (fixtures/handmade/extraction-languages):
    how many each extractor passes, and which ours fails."""
    import json

    folder = ROOT / "fixtures" / "handmade" / "extraction-languages"
    expected = json.loads((folder / "expectations.json").read_text())
    passed = dict.fromkeys(names, 0)
    failed: list[str] = []
    for page, rule in sorted(expected.items()):
        html = (folder / page).read_text()
        for name in names:
            text = " ".join(_safe(name, html, "https://example.org/some/article").replace("**", "").split())
            if all(w in text for w in rule["wanted"]) and not any(w in text for w in rule["unwanted"]):
                passed[name] += 1
            elif name == names[0]:
                failed.append(page)
    languages = len({rule["language"] for rule in expected.values()})
    print(f"\nthe same classes on {len(expected)} pages in {languages} languages: "
          + ", ".join(f"{name} {count}/{len(expected)}" for name, count in passed.items()))
    if failed:
        print(f"  {names[0]} fails: {', '.join(failed)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("extractors", nargs="*", help=f"of {', '.join(EXTRACTORS)} (default: {' '.join(DEFAULT)})")
    parser.add_argument("--sets", nargs="+", choices=[d.name for d in devset.SETS], help="default: every set")
    parser.add_argument("--limit", type=int, help="the first N pages of each set")
    args = parser.parse_args()
    unknown = set(args.extractors) - set(EXTRACTORS)
    if unknown:
        parser.error(f"unknown extractor {', '.join(sorted(unknown))}")
    found, problems = devset.load_available(args.sets)
    for problem in problems:
        print(f"extraction benchmark: set {problem}", file=sys.stderr)
    if not found:
        print("extraction benchmark skipped: no data set is available. The sets are built from public snapshots\n"
              f"found under {devset.SNAPSHOTS} (WEBSEARCH_BENCH_SNAPSHOTS) and the scrapinghub copy in\n"
              f"{devset.SCRAPINGHUB} (EXTRACTION_BENCHMARK); see bench/DATASETS.md.")
        return 0
    names = args.extractors or DEFAULT
    for dataset in devset.SETS:
        if dataset.name in found:
            report(dataset.name, found[dataset.name][:args.limit], dataset.scoring, names)
    hand_made_classes(names)
    return 0


if __name__ == "__main__":
    sys.exit(main())
