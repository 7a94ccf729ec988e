"""The worst pages we can build (`make bench`): headings holding long runs of ` #`, spaces or link
syntax, a hundred thousand headings and more, nesting tens of thousands deep, up to about 10 MB. For
each, the CPU time of every reading step (conversion, outline, query passages) at two sizes, and the
ratio between them: a linear step doubles (2.0) when the page doubles, a quadratic one quadruples.
The pages are the hand-made ones of fixtures/handmade/hostile/, scaled."""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "fixtures" / "handmade" / "hostile"))

from hostile_pages import pages  # noqa: E402

from websearch_mcp import sections  # noqa: E402
from websearch_mcp.content import to_document  # noqa: E402
from websearch_mcp.fetch.pages import FetchedPage  # noqa: E402

TARGET = 5e6 if "--quick" not in sys.argv else 1e6  # bytes of the smaller page of each pair


def steps(html: bytes) -> tuple[float, float, float, int]:
    """CPU seconds of conversion, outline and query passages, and the Markdown's size."""
    started = time.process_time()
    text = html.decode()
    document = to_document(FetchedPage("https://example.org/p", "https://example.org/p", "text/html; charset=utf-8",
                                       text, "utf-8", 1, len(html)))
    converted = time.process_time()
    sections.outline(document.markdown)
    outlined = time.process_time()
    sections.best_passages(document.markdown, "answer in time section start", 20_000)
    queried = time.process_time()
    return converted - started, outlined - converted, queried - outlined, len(document.markdown)


def main() -> None:
    print("Worst pages: CPU seconds per step at two sizes (ratio: 2.0 is linear, 4.0 quadratic)")
    print(f"{'page':<24} | {'size':>9} | {'convert':>8} | {'outline':>8} | {'query':>8} | "
          "ratio (convert, outline, query)")
    for name, html in pages().items():
        scale = max(1, round(TARGET / len(html)))
        pair = (pages(scale)[name], pages(2 * scale)[name])
        rows = [steps(page) for page in pair]
        for html, row in zip(pair, rows, strict=True):
            print(f"{name:<24} | {len(html) / 1e6:>7.2f}MB | {row[0]:>8.2f} | {row[1]:>8.2f} | {row[2]:>8.2f} |")
        ratios = [rows[1][i] / rows[0][i] if rows[0][i] > 0.01 else float("nan") for i in range(3)]
        print(f"{'':<24} | {'':>9} | {'':>8} | {'':>8} | {'':>8} | " + ", ".join(f"{r:.1f}" for r in ratios))


if __name__ == "__main__":
    main()
