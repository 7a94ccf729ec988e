"""Extraction on recorded pages nobody wrote a ground truth for, read by agreement between extractors.

The pages are the test fixtures of other extractors, scrapers and parsers (bench/devset.py's UNLABELLED
sets: news of some forty countries, older news layouts, blogs, press releases and company pages). No
text is said to be right, so each extractor is judged by the two others: where they agree on a page
(each holds most of the other's 4-token shingles), an extractor that holds little of what both found
has most likely taken the wrong block, a footer, a notice, a list beside the article. That count is
printed for each extractor, beside its speed (pages per CPU second, as bench/extraction.py measures it).

    python bench/agreement.py                   # every set whose snapshot is present
    python bench/agreement.py --sets fundus gne
A page where the two others do not agree gives no verdict. The method is blind to a page all three
get wrong alike, and it cannot tell which of two disagreeing extractors is right.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import devset  # bench/ is not a package: its modules are imported from its folder
import extraction

AGREE = 0.7  # shingle recall, each way, that makes two outputs the same text
FOUND = 0.5  # share of the agreed text an extractor must hold not to stand alone against the two
SHOWN = 200  # characters: agreed outputs shorter than this (a title, an error line) give no verdict
NAMES = ["websearch-mcp", "trafilatura", "readability-lxml"]


def recall(reference: str, output: str) -> float:
    """Share of the reference's 4-token shingles that the output holds."""
    gold = extraction.shingles(reference)
    return sum((gold & extraction.shingles(output)).values()) / max(1, sum(gold.values()))


def agree(first: str, second: str) -> bool:
    return (len(first) >= SHOWN and len(second) >= SHOWN and recall(first, second) >= AGREE
            and recall(second, first) >= AGREE)


def verdict(outputs: dict[str, str], name: str) -> bool | None:
    """None when the two other extractors disagree; else whether this one stands alone against them."""
    first, second = (outputs[other] for other in NAMES if other != name)
    if not agree(first, second):
        return None
    return recall(first, outputs[name]) < FOUND and recall(second, outputs[name]) < FOUND


def report(name: str, pages: list[devset.Page]) -> dict[str, list[int]]:
    """One set's row per extractor: pages judged, pages alone, and its speed; returns the counts."""
    outputs, speed = extraction.run_all(NAMES, pages)
    counts: dict[str, list[int]] = {}
    print(f"\n{name}: {len(pages)} pages")
    for extractor in NAMES:
        verdicts = [verdict({n: outputs[n][i] for n in NAMES}, extractor) for i in range(len(pages))]
        judged = sum(1 for v in verdicts if v is not None)
        alone = [pages[i].id for i, v in enumerate(verdicts) if v]
        counts[extractor] = [judged, len(alone)]
        ratio = speed[extractor] / speed["trafilatura"]
        print(f"  {extractor:17} alone on {len(alone):3d} of {judged:4d} pages the two others agree on; "
              f"{speed[extractor]:6.1f} pages/CPU s ({ratio:.1f}x trafilatura's)")
        for page_id in alone:
            print(f"      {page_id}")
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sets", nargs="+", choices=[d.name for d in devset.UNLABELLED], help="default: every set")
    args = parser.parse_args()
    found, problems = devset.load_available(args.sets, devset.UNLABELLED)
    for problem in problems:
        print(problem, file=sys.stderr)
    if not found:
        return 1
    totals = {name: [0, 0] for name in NAMES}
    for name, pages in found.items():
        for extractor, (judged, alone) in report(name, pages).items():
            totals[extractor][0] += judged
            totals[extractor][1] += alone
    print(f"\nall {sum(len(p) for p in found.values())} pages:")
    for extractor, (judged, alone) in totals.items():
        print(f"  {extractor:17} alone on {alone:3d} of {judged:4d} pages the two others agree on")
    return 0


if __name__ == "__main__":
    sys.exit(main())
