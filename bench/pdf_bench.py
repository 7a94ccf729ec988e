"""PDF libraries side by side in one run: pypdfium2, pypdf and pdfminer.six (and websearch-mcp's
read_pdf, which is built on pypdfium2), on the same files.

Prints the packages (licence, wheel, installed size with dependencies, import time), the speed per
page (wall and CPU, best of --repeat runs) and text-quality probes: reading order, tables,
ligatures, line-end hyphens, CJK, Arabic, font size and name, encrypted, truncated and image-only
files. No network: files only.

    python bench/pdf_bench.py [--repeat N] [PDF ...]     (default: every PDF under fixtures/pdf)

The comparators are benchmark dependencies only: pip install pypdfium2 pypdf pdfminer.six
"""

from __future__ import annotations

import argparse
import ctypes
import importlib
import importlib.metadata as metadata
import io
import itertools
import logging
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PDFS = ROOT / "fixtures" / "pdf"
SAMPLES = PDFS / "py-pdf-sample-files"
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


class Library:
    """One PDF library: how to get each page's text and each character's size and font name."""

    def __init__(self, name: str, module: str, dist: str) -> None:
        self.name, self.module, self.dist = name, module, dist  # module: what a reader of PDFs imports

    def available(self) -> bool:
        """Whether the library can be imported here."""
        try:
            importlib.import_module(self.module)
        except ImportError:
            return False
        return True

    def texts(self, data: bytes) -> list[str]:
        """The text of every page."""
        raise NotImplementedError

    def chars(self, data: bytes, page: int) -> list[tuple[str, float, str]]:
        """(text, font size, font name) for the characters or runs of one page."""
        raise NotImplementedError


class Pdfium(Library):
    def texts(self, data: bytes) -> list[str]:
        import pypdfium2

        document = pypdfium2.PdfDocument(data)
        try:
            return [document[i].get_textpage().get_text_range() for i in range(len(document))]
        finally:
            document.close()

    def chars(self, data: bytes, page: int) -> list[tuple[str, float, str]]:
        import pypdfium2
        import pypdfium2.raw as raw

        document = pypdfium2.PdfDocument(data)
        textpage = document[page].get_textpage()
        found = []
        for i in range(textpage.count_chars()):
            name = ctypes.create_string_buffer(96)
            raw.FPDFText_GetFontInfo(textpage.raw, i, name, 96, None)
            found.append((chr(raw.FPDFText_GetUnicode(textpage.raw, i)), raw.FPDFText_GetFontSize(textpage.raw, i),
                          f"{name.value.decode('latin-1')} w{raw.FPDFText_GetFontWeight(textpage.raw, i)}"))
        document.close()
        return found


class Pypdf(Library):
    def texts(self, data: bytes) -> list[str]:
        import pypdf

        return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages]

    def chars(self, data: bytes, page: int) -> list[tuple[str, float, str]]:
        import pypdf

        found: list[tuple[str, float, str]] = []

        def visit(text: str, cm: list[float], tm: list[float], font: dict | None, size: float) -> None:
            scale = abs(tm[3] * cm[3]) or 1.0
            found.extend((c, size * scale, str((font or {}).get("/BaseFont", ""))) for c in text)

        pypdf.PdfReader(io.BytesIO(data)).pages[page].extract_text(visitor_text=visit)
        return found


class Pdfminer(Library):
    def texts(self, data: bytes) -> list[str]:
        from pdfminer.high_level import extract_text

        return extract_text(io.BytesIO(data)).split("\x0c")[:-1]

    def chars(self, data: bytes, page: int) -> list[tuple[str, float, str]]:
        from pdfminer.high_level import extract_pages
        from pdfminer.layout import LTChar

        found = []

        def walk(item: object) -> None:
            if isinstance(item, LTChar):
                found.append((item.get_text(), item.size, item.fontname))
            for child in getattr(item, "_objs", []) or []:
                walk(child)

        for layout in extract_pages(io.BytesIO(data), page_numbers=[page]):
            walk(layout)
        return found


class Ours(Library):
    def texts(self, data: bytes) -> list[str]:
        from websearch_mcp.pdf import read_pdf

        pdf = read_pdf(data, time_limit=600)
        ends = [*pdf.page_starts[1:], len(pdf.markdown)]
        return [pdf.markdown[start:end] for start, end in zip(pdf.page_starts, ends, strict=True)]


LIBRARIES = [Pdfium("pypdfium2", "pypdfium2", "pypdfium2"), Pypdf("pypdf", "pypdf", "pypdf"),
             Pdfminer("pdfminer.six", "pdfminer.high_level", "pdfminer.six")]
OURS = Ours("websearch-mcp read_pdf", "websearch_mcp.pdf.pdfium", "pypdfium2")


# packages


def _closure(dist: str, seen: set[str] | None = None) -> set[str]:
    """The distribution and everything it requires (markers evaluated here, extras left out)."""
    from packaging.requirements import Requirement

    seen = set() if seen is None else seen
    name = dist.lower().replace("_", "-")
    if name in seen:
        return seen
    try:
        requires = metadata.distribution(dist).requires or []
    except metadata.PackageNotFoundError:
        return seen
    seen.add(name)
    for spec in requires:
        requirement = Requirement(spec)
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            _closure(requirement.name, seen)
    return seen


def _installed_kib(names: set[str]) -> int:
    total = 0
    for name in names:
        for file in metadata.distribution(name).files or []:
            path = Path(str(file.locate()))
            total += path.stat().st_size if path.is_file() else 0
    return total // 1024


def _wheel(dist: str) -> str:
    wheel = metadata.distribution(dist).read_text("WHEEL") or ""
    tags = [line.split(": ", 1)[1] for line in wheel.splitlines() if line.startswith("Tag:")]
    pure = "Root-Is-Purelib: true" in wheel
    return "pure Python" if pure else f"binary ({tags[0] if tags else '?'})"


def _licence(dist: str) -> str:
    meta = metadata.metadata(dist)
    expression = meta.get("License-Expression")
    if expression:
        return expression
    classifiers = [c.rsplit(" :: ", 1)[1] for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
    return ", ".join(classifiers) or (meta.get("License") or "?").splitlines()[0][:60]


def _import_ms(module: str, runs: int = 5) -> float:
    def best(code: str) -> float:
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
            times.append(time.perf_counter() - started)
        return min(times) * 1000

    return best(f"import {module}") - best("pass")


def package_rows(libraries: list[Library]) -> list[list[str]]:
    """Version, licence, wheel, installed size with dependencies, import time."""
    base = _closure("websearch-mcp")
    rows = [["version"], ["licence"], ["wheel"], ["installed, with dependencies websearch-mcp lacks"],
            ["import time (above bare python)"]]
    for library in libraries:
        extra = _closure(library.dist) - base
        values = [metadata.version(library.dist), _licence(library.dist), _wheel(library.dist),
                  f"{_installed_kib(extra) / 1024:.1f} MiB ({', '.join(sorted(extra))})",
                  f"{_import_ms(library.module):.0f} ms"]
        for row, value in zip(rows, values, strict=True):
            row.append(value)
    return rows


# speed


def _time(library: Library, data: bytes, repeat: int) -> tuple[float, float, int]:
    """Best wall and CPU seconds over `repeat` runs, and the page count."""
    library.texts(data)  # warm: imports, the library's own start-up, the file in memory
    best_wall = best_cpu = float("inf")
    pages = 0
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        pages = len(library.texts(data))
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return best_wall, best_cpu, pages


def speed_rows(libraries: list[Library], files: list[Path], repeat: int) -> list[list[str]]:
    """Milliseconds per page (wall / CPU) for each file, and pages per second over all of them."""
    rows, totals = [], {library.name: [0.0, 0.0] for library in libraries}
    page_total = 0
    for path in files:
        data = path.read_bytes()
        row, pages = [str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)], 0
        for library in libraries:
            try:
                wall, cpu, pages = _time(library, data, repeat)
            except Exception as err:  # a library's own failure is a result here, not a crash
                row.append(f"fails: {type(err).__name__}")
                continue
            totals[library.name][0] += wall
            totals[library.name][1] += cpu
            row.append(f"{wall / max(pages, 1) * 1000:.2f} / {cpu / max(pages, 1) * 1000:.2f}")
        page_total += pages
        rows.append([row[0], str(pages), *row[1:]])
    rates = [f"{page_total / wall:.0f} / {page_total / cpu:.0f}" if wall else "-" for wall, cpu in totals.values()]
    rows.append(["all files: pages per second (wall / CPU)", str(page_total), *rates])
    return rows


# quality


def _joined(texts: list[str]) -> str:
    return " ".join(" ".join(texts).split())


def _column_order(texts: list[str]) -> tuple[bool, str]:
    text = _joined(texts)
    openings = ["Lorem ipsum dolor sit amet, consectetuer", "Nam dui ligula", "Nulla malesuada porttitor",
                "Quisque ullamcorper placerat", "Fusce mauris. Vestibulum", "Suspendisse vel felis",
                "Sed commodo posuere", "egestas. Donec odio elit", "Morbi luctus, wisi", "Suspendisse vitae elit"]
    positions = [text.find(opening) for opening in openings]
    found = [p for p in positions if p >= 0]
    in_order = sum(1 for a, b in itertools.pairwise(found) if a < b) + (1 if found else 0)
    return (len(found) == len(openings) and found == sorted(found)), f"{in_order}/{len(openings)} in order"


def _row_by_row(texts: list[str]) -> tuple[bool, str]:
    text = _joined(texts)
    ok = "begins here and goes on with its second line" in text
    return ok, "left column whole" if ok else "columns interleaved line by line"


def _table(texts: list[str]) -> tuple[bool, str]:
    lines = [" ".join(line.split()) for line in "\n".join(texts).splitlines()]
    ok = any("Austria 8.9 83,879 Vienna German" in line and "Belgium" not in line for line in lines)
    return ok, "each row one line" if ok else "rows split into cells or merged"


def _ligatures(texts: list[str]) -> tuple[bool, str]:
    text = "".join(texts)
    kept = sorted({c for c in text if "\ufb00" <= c <= "\ufb06"})
    return not kept and "filled" in text, f"ligature characters kept: {' '.join(kept)}" if kept else "as letters"


def _hyphen(texts: list[str]) -> tuple[bool | None, str]:
    text = "".join(texts)
    at = text.find("adip")
    return None, repr(text[at:at + 11].replace("\r\n", "\n")) if at >= 0 else "?"  # shown, not judged


def _phrase(phrase: str) -> Callable[[list[str]], tuple[bool, str]]:
    def probe(texts: list[str]) -> tuple[bool, str]:
        text = "".join("".join(texts).split())
        chars = len(CJK.findall(text))
        ok = "".join(phrase.split()) in text
        return ok, (f"{chars} CJK characters" if CJK.search(phrase) else ("found" if ok else repr(text[:24])))

    return probe


def _empty(texts: list[str]) -> tuple[bool, str]:
    chars = len("".join("".join(texts).split()))
    return chars == 0, f"{chars} characters of text"


PROBES: list[tuple[str, str, Callable[[list[str]], tuple[bool | None, str]]]] = [
    ("two columns in content order", "py-pdf-sample-files/multicolumn.pdf", _column_order),
    ("two columns written row by row", "handmade/two-columns-row-by-row.pdf", _row_by_row),
    ("table row on one line", "py-pdf-sample-files/multicolumn.pdf", _table),
    ("ligatures (ﬁ, ﬃ) as letters", "py-pdf-sample-files/multicolumn.pdf", _ligatures),
    ("line-end hyphen adip-/iscing", "py-pdf-sample-files/multicolumn.pdf", _hyphen),
    ("Chinese, horizontal, STSong-Light", "handmade/chinese-stsong.pdf", _phrase("每周人工核对一次读数")),
    ("Japanese, vertical, dvipdfmx 2004", "pdfminer-six/jo.pdf", _phrase("わたくしといふ現象は")),
    ("Arabic word in logical order", "py-pdf-sample-files/habibi.pdf", _phrase("حَبيبي")),
    ("image only: no text", "py-pdf-sample-files/imagemagick-lzw.pdf", _empty),
]


def _failure(library: Library, data: bytes) -> str:
    try:
        texts = library.texts(data)
    except Exception as err:  # what each library raises is the measurement
        return f"raises {type(err).__name__}"
    return f"no error: {len(''.join(texts).split())} words"


def _font_probe(library: Library) -> str:
    if isinstance(library, Ours):
        return "used for headings"
    chars = library.chars((SAMPLES / "pdflatex-outline.pdf").read_bytes(), 1)
    heading = next((c for c in chars if c[0] == "F"), None)
    body = next((c for c in chars if c[0] == "H"), None)
    if heading is None or body is None:
        return "?"
    return f"{heading[1]:.1f} pt {heading[2]} / {body[1]:.1f} pt {body[2]}"


def quality_rows(libraries: list[Library]) -> list[list[str]]:
    """One row per probe: ✓ or ✗ and what each library gave."""
    rows = []
    for title, name, probe in PROBES:
        data = (PDFS / name).read_bytes()
        row = [f"{title} ({Path(name).name})"]
        for library in libraries:
            try:
                ok, detail = probe(library.texts(data))
                row.append(f"{'·' if ok is None else '✓' if ok else '✗'} {detail}")
            except Exception as err:
                row.append(f"{'✓' if probe is _empty else '✗'} raises {type(err).__name__}")
        rows.append(row)
    encrypted = (SAMPLES / "libreoffice-writer-password.pdf").read_bytes()
    whole = (SAMPLES / "multicolumn.pdf").read_bytes()
    rows.append(["encrypted, user password (libreoffice-writer-password.pdf)",
                 *(_failure(library, encrypted) for library in libraries)])
    rows.append(["truncated: first half of multicolumn.pdf", *(_failure(library, whole[:len(whole) // 2])
                                                                for library in libraries)])
    rows.append(["heading / body: size and font (pdflatex-outline.pdf p. 2)", *(_font_probe(lib) for lib in libraries)])
    return rows


def table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|").replace("\n", " ") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def main() -> None:
    """Measure and print the three tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="PDFs to time (default: every PDF under fixtures/pdf)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per file and library; the best counts")
    args = parser.parse_args()
    for name in ("pypdf", "pdfminer"):  # their warnings about odd files would break up the tables
        logging.getLogger(name).setLevel(logging.CRITICAL)
    libraries = [library for library in LIBRARIES if library.available()]
    missing = [library.name for library in LIBRARIES if library not in libraries]
    if missing:
        print(f"not installed, left out: {', '.join(missing)}\n")
    with_ours = [*libraries, OURS] if OURS.available() else libraries
    files = args.files or sorted(path for path in PDFS.rglob("*.pdf") if "password" not in path.name
                                 and "lzw" not in path.name)
    print(f"Python {sys.version.split()[0]}\n")
    print(table(["package", *(library.name for library in libraries)], package_rows(libraries)), "\n")
    names = [library.name for library in with_ours]
    print(table(["file", "pages", *(f"{name} ms/page" for name in names)], speed_rows(with_ours, files, args.repeat)),
          "\n")
    print(table(["probe", *names], quality_rows(with_ours)))


if __name__ == "__main__":
    main()
