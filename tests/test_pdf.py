"""PDF reading on real and hand-made PDFs: text, headings, paragraphs, hyphenation, paging, metadata,
and each failure (encrypted, image-only, truncated, damaged, too many pages, slow, library missing)."""

from __future__ import annotations

import hashlib
import io
import re
import runpy
import subprocess
import sys
import threading
import zlib
from pathlib import Path

import pytest

from websearch_mcp.errors import ToolError
from websearch_mcp.pdf import (
    PdfDamaged,
    PdfEncrypted,
    PdfError,
    PdfImageOnly,
    PdfNotInstalled,
    PdfText,
    read_pdf,
)
from websearch_mcp.pdf.isolated import PdfTooSlow, read_pdf_isolated
from websearch_mcp.pdf.layout import Line, Styles, breaks_paragraph

ROOT = Path(__file__).resolve().parent.parent
PDFS = ROOT / "fixtures" / "pdf"
REPORT = PDFS / "handmade" / "report-headings-hyphenation.pdf"
SAMPLES = PDFS / "py-pdf-sample-files"


def read(path: Path, **limits: float) -> PdfText:
    return read_pdf(path.read_bytes(), **limits)  # type: ignore[arg-type]


def paragraphs(markdown: str) -> list[str]:
    return [block for block in markdown.split("\n\n") if block]


@pytest.fixture(scope="module")
def report() -> PdfText:
    return read(REPORT)


# text, headings, paragraphs


def test_headings_follow_font_size_and_weight(report: PdfText) -> None:
    headings = [block for block in paragraphs(report.markdown) if block.startswith("#")]
    assert headings == ["# Field Notes on River Gauges", "## Introduction", "## Methods", "### Calibration",
                        "## Results", "## Conclusion"]


def test_paragraphs_are_rejoined_and_split_where_the_layout_says(report: PdfText) -> None:
    blocks = paragraphs(report.markdown)
    intro = blocks.index("## Introduction")
    assert blocks[intro + 1].startswith("River gauges record the height of the water every fifteen minutes. This ")
    assert blocks[intro + 1].endswith("trips up simple readers.")
    assert blocks[intro + 2].startswith("Some gauges stand on bridges")  # a first-line indent starts a paragraph
    assert blocks[intro + 2].endswith("a radar pointed down.")


def test_hyphenation_is_undone_but_real_hyphens_stay(report: PdfText) -> None:
    text = report.markdown
    assert "This example shows" in text and "March and October." in text and "The largest difference" in text
    assert "exam-" not in text and "Octo" + "ber" in text
    assert "why a well-known layout" in text  # split at the line end as `well-`, known whole elsewhere
    assert "A well-known weakness" in text


def test_page_numbers_at_the_foot_are_dropped(report: PdfText) -> None:
    assert not [block for block in paragraphs(report.markdown) if re.fullmatch(r"\d+", block)]


def test_real_two_column_article_reads_column_after_column() -> None:
    text = read(SAMPLES / "multicolumn.pdf").markdown
    openings = ["Lorem ipsum dolor sit amet, consectetuer", "Nam dui ligula, fringilla", "Nulla malesuada porttitor",
                "Quisque ullamcorper placerat", "Suspendisse vitae elit"]
    positions = [text.find(opening) for opening in openings]
    assert -1 not in positions and positions == sorted(positions)
    assert "consectetuer adipiscing elit. Ut purus elit" in text and "adip-" not in text
    assert "two columns filled with Lorem Ipsum text." in text  # the ﬁ ligature as two letters
    assert "\ufb01" not in text and "\ufffe" not in text


def test_real_latex_sections_are_headings_and_contents_entries_are_not() -> None:
    pdf = read(SAMPLES / "pdflatex-outline.pdf")
    blocks = paragraphs(pdf.markdown)
    assert "# 1 Foo" in blocks and "# 9 Baz" in blocks
    assert not [block for block in blocks if re.fullmatch(r"#+ \d \w+ \d", block)]
    assert "Is there a difference between this text" in pdf.markdown  # the ﬀ ligature


def test_chinese_lines_join_without_spaces() -> None:
    pdf = read(PDFS / "handmade" / "chinese-stsong.pdf")
    assert pdf.markdown == ("# 河流水位观测\n\n"
                            "水位计每十五分钟记录一次河水的高度。每周人工核对一次读数，以保证数据可靠。")


# metadata


def test_title_from_metadata_and_author(report: PdfText) -> None:
    google = read(SAMPLES / "google-doc-document.pdf")
    assert google.title == "PDF Example Document"
    assert google.markdown.startswith("# Example document\n\n")
    assert report.author == "Example Hydrology Group"
    assert (report.page_count, report.pages_read) == (3, 3)
    assert report.metadata() == {"author": "Example Hydrology Group", "pages": 3, "pages_read": 3}


def test_title_falls_back_to_the_first_heading(report: PdfText) -> None:
    assert report.title == "Field Notes on River Gauges"  # the Info dictionary has no Title
    assert read(SAMPLES / "multicolumn.pdf").title == "Two-Column Document with Lorem Ipsum"


# paging


def test_page_starts_point_at_each_page_marker(report: PdfText) -> None:
    starts, text = report.page_starts, report.markdown
    assert len(starts) == 3 and starts[0] == 0
    assert text[starts[1]:].startswith("<!-- page 2 of 3 -->\n\n### Calibration")
    assert text[starts[2]:].startswith("<!-- page 3 of 3 -->\n\n## Conclusion")
    assert "Calibration" not in text[:starts[1]] and "Conclusion" not in text[starts[1]:starts[2]]
    assert [report.page_at(offset) for offset in (0, starts[1] - 1, starts[1], starts[2] + 5)] == [1, 1, 2, 3]


def test_an_empty_page_keeps_its_marker() -> None:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    writer.append(PdfReader(REPORT), pages=[0])
    writer.add_blank_page()
    writer.append(PdfReader(REPORT), pages=[1])
    pdf = read_pdf(_bytes(writer))
    assert "<!-- page 2 of 3 -->\n\n<!-- page 3 of 3 -->\n\n### Calibration" in pdf.markdown
    assert pdf.markdown[pdf.page_starts[2]:].startswith("<!-- page 3 of 3 -->")


def test_too_many_pages_reads_the_first_ones_and_says_how_many_were_left_out() -> None:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for _ in range(77):
        writer.append(PdfReader(REPORT))
    pdf = read_pdf(_bytes(writer))
    assert (pdf.page_count, pdf.pages_read, len(pdf.page_starts)) == (231, 200, 200)
    assert pdf.markdown.endswith("_This PDF has 231 pages; pages 201–231 were not read "
                                 "(at most 200 pages of a PDF are read)._")
    assert "<!-- page 200 of 231 -->" in pdf.markdown and "<!-- page 201 of 231 -->" not in pdf.markdown


def test_the_time_limit_stops_between_pages() -> None:
    pdf = read(REPORT, time_limit=0.0)
    assert (pdf.page_count, pdf.pages_read) == (3, 1)
    assert pdf.markdown.endswith("_This PDF has 3 pages; pages 2–3 were not read "
                                 "(reading stopped at the 0-second time limit)._")


# failures


def test_errors_are_tool_errors() -> None:
    for error in (PdfError, PdfNotInstalled, PdfEncrypted, PdfImageOnly, PdfDamaged):
        assert issubclass(error, ToolError)


def test_real_encrypted_pdf() -> None:
    with pytest.raises(PdfEncrypted) as caught:
        read(SAMPLES / "libreoffice-writer-password.pdf")
    assert caught.value.message == ("the PDF is encrypted and cannot be opened without its password, so its text "
                                    "cannot be read; look for another copy of the document, such as an HTML version")


def test_encrypted_with_a_user_password_fails_and_with_an_owner_password_only_reads() -> None:
    from pypdf import PdfReader, PdfWriter

    for user, readable in (("secret", False), ("", True)):
        writer = PdfWriter(clone_from=PdfReader(REPORT))
        writer.encrypt(user_password=user, owner_password="owner", algorithm="RC4-128")
        if readable:
            assert "## Introduction" in read_pdf(_bytes(writer)).markdown
        else:
            with pytest.raises(PdfEncrypted):
                read_pdf(_bytes(writer))


def test_image_only_pdf_says_there_is_no_text_layer() -> None:
    with pytest.raises(PdfImageOnly) as caught:
        read(SAMPLES / "imagemagick-lzw.pdf")
    assert caught.value.message == ("the PDF has no text layer (1 page, images only: a scan or a drawing), and this "
                                    "server does no OCR; look for an HTML or text version of the document")


def test_truncated_pdf() -> None:
    data = (SAMPLES / "multicolumn.pdf").read_bytes()
    with pytest.raises(PdfDamaged) as caught:
        read_pdf(data[:len(data) // 2])
    assert caught.value.message.startswith("the PDF is truncated (it has no end-of-file marker)")


def test_corrupt_pdf() -> None:
    data = b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R >>\nendobj\nnot a cross-reference table\n%%EOF\n"
    with pytest.raises(PdfDamaged) as caught:
        read_pdf(data)
    assert caught.value.message == ("the PDF is damaged and could not be opened (Failed to load document "
                                    "(PDFium: Data format error).); look for another copy of the document")


@pytest.mark.parametrize("body", [b"", b"<!doctype html><title>Not found</title>", b"\x89PNG\r\n\x1a\n" + b"0" * 64])
def test_a_body_that_is_not_a_pdf(body: bytes) -> None:
    with pytest.raises(PdfDamaged) as caught:
        read_pdf(body)
    assert caught.value.message == "the response is not a PDF: it does not begin with %PDF-"


def test_missing_library_names_the_extra() -> None:
    code = ("import sys; sys.modules['pypdfium2'] = None\n"
            "from websearch_mcp.pdf import read_pdf, PdfNotInstalled\n"
            "try:\n    read_pdf(b'%PDF-1.7')\nexcept PdfNotInstalled as err:\n    print(err.message)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    expected = ("PDF support is not installed on this server (its pdf extra; whoever runs the server can add it "
                f"with: {sys.executable} -m pip install 'pypdfium2>=5.0')\n")
    assert done.stdout == expected, done.stderr


def test_the_library_is_imported_only_when_a_pdf_is_read() -> None:
    code = ("import sys, websearch_mcp.pdf, websearch_mcp.content, websearch_mcp.cli\n"
            "print('pypdfium2' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.stdout == "False\n", done.stderr


def test_documents_read_from_several_threads_at_once() -> None:
    data = REPORT.read_bytes()
    expected = read_pdf(data).markdown
    results: list[str] = []
    threads = [threading.Thread(target=lambda: results.append(read_pdf(data).markdown)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 6


# in a child process: limits on time and memory that hold inside a page


def bomb(spaces: int) -> bytes:
    """One page whose content stream inflates to `spaces` bytes (hand-made, after make_handmade.build)."""
    maker = runpy.run_path(str(PDFS / "make_handmade.py"))
    pdf = maker["build"]([[(72, 700, "F1", 12, "Hello")]])
    squeeze = zlib.compressobj(9)
    body = squeeze.compress(b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET\n")
    chunk = b" " * 10_000_000
    body += b"".join(squeeze.compress(chunk) for _ in range(spaces // len(chunk))) + squeeze.flush()
    content = re.search(rb"<< /Length \d+ >>\nstream\n.*?\nendstream", pdf, re.DOTALL)
    assert content is not None
    stream = b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(body), body)
    start = pdf[:content.start()] + stream  # the cross-reference table is rebuilt by the reader
    return start + pdf[content.end():]


def test_isolated_reading_gives_the_same_result(report: PdfText) -> None:
    pdf = read_pdf_isolated(REPORT.read_bytes())
    assert [getattr(pdf, name) for name in PdfText.__slots__] == [getattr(report, name) for name in PdfText.__slots__]


def test_isolated_reading_passes_errors_on() -> None:
    with pytest.raises(PdfEncrypted):
        read_pdf_isolated((SAMPLES / "libreoffice-writer-password.pdf").read_bytes())


def test_a_decompression_bomb_is_stopped_by_the_memory_limit() -> None:
    with pytest.raises(PdfDamaged) as caught:
        read_pdf_isolated(bomb(300_000_000), memory_mb=256)
    assert caught.value.message.startswith("reading the PDF needed more than 256 MiB of memory or crashed the PDF "
                                           "reader (")


def test_a_page_that_takes_too_long_is_stopped_by_the_time_limit() -> None:
    data = bomb(3_000_000_000)  # PDFium spends seconds inside this one page (3 to 6 for a third as much)
    with pytest.raises(PdfTooSlow) as caught:
        read_pdf_isolated(data, time_limit=0.5, memory_mb=None)
    assert caught.value.message.startswith("reading the PDF took longer than the 0.5-second time limit (a single "
                                           "page was still being read)")


# the layout rules on their own


@pytest.mark.parametrize(("first", "second", "word"), [
    ("exam", "ple", "example"), ("Schwarz", "Weiß", "Schwarz-Weiß"), ("COVID", "19", "COVID-19"),
    ("well", "known", "well-known"), ("hand", "made", "handmade")])
def test_a_hyphen_at_a_line_end(first: str, second: str, word: str) -> None:
    styles = Styles([[Line("a well-known name, handmade", 10, False, 72, 300, 700, 700)]])
    assert styles.word(first, second) == word


def test_a_superscript_set_apart_stays_in_its_paragraph() -> None:
    base = Line("the space R", 10, False, 72, 130, 700, 700)
    superscript = Line("n", 7, False, 131, 135, 704, 704)
    assert not breaks_paragraph(base, superscript, edge=400, pitch=12)
    assert breaks_paragraph(base, Line("Next paragraph", 10, False, 72, 160, 688, 688), edge=400, pitch=12)


# fixtures


def test_fixture_checksums_match_the_provenance_notes() -> None:
    notes = (ROOT / "fixtures" / "PROVENANCE.md").read_text(encoding="utf-8")
    listed = dict(re.findall(r"^\| `(pdf/[^`]+\.pdf)` \|.*`([0-9a-f]{64})`", notes, re.MULTILINE))
    on_disk = {str(path.relative_to(ROOT / "fixtures")) for path in PDFS.rglob("*.pdf")}
    assert set(listed) == on_disk
    for name, digest in listed.items():
        assert hashlib.sha256((ROOT / "fixtures" / name).read_bytes()).hexdigest() == digest, name


def test_hand_made_pdfs_are_regenerated_byte_for_byte() -> None:
    maker = runpy.run_path(str(PDFS / "make_handmade.py"))
    for name, make in (("report-headings-hyphenation.pdf", "report"), ("two-columns-row-by-row.pdf",
                                                                        "two_columns_row_by_row"),
                       ("chinese-stsong.pdf", "chinese")):
        assert maker[make]() == (PDFS / "handmade" / name).read_bytes(), name


def _bytes(writer: object) -> bytes:
    out = io.BytesIO()
    writer.write(out)  # type: ignore[attr-defined]
    return out.getvalue()
