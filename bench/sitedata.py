"""The documentation site of the site benchmark: the HTML build of uv's documentation (astral-sh/docs,
folder site/uv), read from a pinned commit of a public snapshot, each file checked against
bench/site-manifest.sha256, and written to a cache folder outside the repository
(WEBSEARCH_BENCH_CACHE, default ~/.cache/websearch-mcp-bench/sites/uv). bench/DATASETS.md says more.

    python bench/sitedata.py                    # build (or check) the cached copy
    python bench/sitedata.py --write-manifest   # record the checksums (after reviewing a new commit)
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from devset import GitSource, MissingSource

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "bench" / "site-manifest.sha256"
CACHE = Path(os.environ.get("WEBSEARCH_BENCH_CACHE", Path.home() / ".cache" / "websearch-mcp-bench")) / "sites"
SOURCE = GitSource("astral-sh/docs", "9106409e59fd00ce2d61e60aee9d234dfca4f85a", "WEBSEARCH_BENCH_UV_DOCS")
PREFIX = "site/uv/"
ORIGIN = "https://docs.astral.sh"  # the sitemap's addresses start with this, then /uv/
QUESTIONS = ROOT / "bench" / "data" / "site-questions.json"


def wanted(path: str) -> bool:
    """The files a reader of the site needs: its pages and its sitemaps (not scripts, styles, images)."""
    name = path.rsplit("/", 1)[-1]
    return name.endswith(".html") or name in ("sitemap.xml", "sitemap.xml.gz")


def load(write_manifest: bool = False) -> Path:
    """The folder of the cached site (built on first use); MissingSource when the snapshot is absent."""
    folder = CACHE / "uv"
    stamp = folder / ".commit"
    if stamp.exists() and stamp.read_text() == SOURCE.commit and not write_manifest:
        return folder
    SOURCE.check()
    paths = {p: b for p, b in SOURCE.files(PREFIX).items() if wanted(p)}
    expected = {} if write_manifest else _manifest()
    sums = {}
    for path, data in SOURCE.read(paths):
        rel = path[len(PREFIX):]
        digest = hashlib.sha256(data).hexdigest()
        if not write_manifest and expected.get(rel) != digest:
            raise SystemExit(f"{path}: sha256 {digest} is not the one in {MANIFEST.name}")
        sums[rel] = digest
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    if write_manifest:
        MANIFEST.write_text("".join(f"{sums[p]}  {p}\n" for p in sorted(sums)))
    elif set(sums) != set(expected):
        raise SystemExit(f"the snapshot's files differ from {MANIFEST.name}")
    stamp.write_text(SOURCE.commit)
    return folder


def _manifest() -> dict[str, str]:
    sums = {}
    for line in MANIFEST.read_text().splitlines():
        digest, _, path = line.partition("  ")
        sums[path] = digest
    return sums


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write-manifest", action="store_true")
    options = parser.parse_args()
    try:
        folder = load(options.write_manifest)
    except MissingSource as err:
        raise SystemExit(str(err)) from None
    pages = sum(1 for _ in folder.rglob("index.html"))
    print(f"{SOURCE.describe()}: {pages} pages in {folder}")


if __name__ == "__main__":
    main()
