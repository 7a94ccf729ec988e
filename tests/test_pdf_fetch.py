"""PDFs through fetch_content and search_context, served by the fake upstream: text, headings, page
markers that start_index paging uses, metadata, and a clear per-URL error for each failure."""

from __future__ import annotations

import io
import subprocess
import sys

from tests.conftest import client_environment, config_for, env_for
from tests.fake_upstream import FIXTURES, Reply
from tests.helpers import call, exchange, registry_for

REPORT = FIXTURES / "pdf" / "handmade" / "report-headings-hyphenation.pdf"
ENCRYPTED = FIXTURES / "pdf" / "py-pdf-sample-files" / "libreoffice-writer-password.pdf"


def pdf_reply(path, content_type: str = "application/pdf") -> Reply:
    return Reply(body=path.read_bytes(), content_type=content_type)


def fetch(config, arguments):
    [reply] = [r for r in exchange([call("fetch_content", arguments)], registry=registry_for(config))
               if r.get("id") == 1]
    return reply["result"]


def test_a_pdf_reads_as_markdown_with_headings_and_metadata(upstream):
    upstream.route("GET", "/report.pdf", pdf_reply(REPORT))
    result = fetch(config_for(upstream, allow_private_urls=True), {"urls": [f"{upstream.url}/report.pdf"]})
    text = result["content"][0]["text"]
    assert text.startswith("## Field Notes on River Gauges\n")
    assert "\n## Introduction\n\nRiver gauges record the height of the water" in text
    assert "<!-- page 2 of 3 -->" in text and "a well-known layout" in text  # rejoined, the real hyphen kept
    page = result["structuredContent"]["pages"][0]
    assert page["metadata"]["pages"] == 3 and len(page["metadata"]["page_starts"]) == 3


def test_start_index_at_a_page_start_reads_from_that_page(upstream):
    upstream.route("GET", "/report.pdf", pdf_reply(REPORT))
    config = config_for(upstream, allow_private_urls=True)
    first = fetch(config, {"urls": [f"{upstream.url}/report.pdf"], "max_chars": 300})
    starts = first["structuredContent"]["pages"][0]["metadata"]["page_starts"]
    third = fetch(config, {"urls": [f"{upstream.url}/report.pdf"], "start_index": starts[2], "max_chars": 300})
    assert third["structuredContent"]["pages"][0]["content"].startswith("<!-- page 3 of 3 -->")


def test_a_pdf_sent_as_a_generic_binary_type_is_read_by_its_name(upstream):
    upstream.route("GET", "/files/report.pdf", pdf_reply(REPORT, "application/octet-stream"))
    result = fetch(config_for(upstream, allow_private_urls=True), {"urls": [f"{upstream.url}/files/report.pdf"]})
    assert "## Introduction" in result["content"][0]["text"]


def test_each_unreadable_pdf_is_a_clear_failure_and_the_rest_is_read(upstream):
    upstream.route("GET", "/report.pdf", pdf_reply(REPORT))
    upstream.route("GET", "/locked.pdf", pdf_reply(ENCRYPTED))
    upstream.route("GET", "/cut.pdf", Reply(body=REPORT.read_bytes()[:2000], content_type="application/pdf"))
    upstream.route("GET", "/fake.pdf", Reply(body=b"<html>not a pdf</html>", content_type="application/pdf"))
    urls = [f"{upstream.url}/{name}.pdf" for name in ("report", "locked", "cut", "fake")]
    result = fetch(config_for(upstream, allow_private_urls=True), {"urls": urls})
    assert not result.get("isError")
    failed = {f["url"].rsplit("/", 1)[1]: f["error"] for f in result["structuredContent"]["failed"]}
    assert "encrypted" in failed["locked.pdf"] and "password" in failed["locked.pdf"]
    assert "truncated" in failed["cut.pdf"]
    assert "not a PDF" in failed["fake.pdf"]
    assert "## Failed URLs" in result["content"][0]["text"]


def test_a_pdf_over_its_page_cap_says_what_was_left_out(upstream):
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.append(str(REPORT))
    writer.append(str(REPORT))
    body = io.BytesIO()
    writer.write(body)
    upstream.route("GET", "/long.pdf", Reply(body=body.getvalue(), content_type="application/pdf"))
    config = config_for(upstream, allow_private_urls=True, pdf_max_pages=2)
    result = fetch(config, {"urls": [f"{upstream.url}/long.pdf"]})
    assert "_This PDF has 6 pages; pages 3–6 were not read (at most 2 pages of a PDF are read)._" in \
        result["content"][0]["text"]


def test_a_pdf_over_its_size_cap_is_refused_while_streaming(upstream):
    upstream.route("GET", "/big.pdf", Reply(content_type="application/pdf", fault="oversize", oversize_bytes=3 << 20))
    result = fetch(config_for(upstream, allow_private_urls=True, pdf_max_bytes=1 << 20),
                   {"urls": [f"{upstream.url}/big.pdf"]})
    assert result["isError"] and "cap" in result["structuredContent"]["failed"][0]["error"]


def test_without_the_pdf_extra_the_error_names_it(upstream):
    upstream.route("GET", "/report.pdf", pdf_reply(REPORT))
    code = ("import sys; sys.modules['pypdfium2'] = None; from websearch_mcp.cli import main; "
            "sys.exit(main())")
    env = client_environment({**env_for(upstream), "WEBSEARCH_ALLOW_PRIVATE_URLS": "1"})
    process = subprocess.run([sys.executable, "-c", code, "call", "fetch_content",
                              f"urls={upstream.url}/report.pdf"], capture_output=True, text=True, env=env, timeout=60)
    assert process.returncode == 1
    assert f"add it with: {sys.executable} -m pip install 'pypdfium2>=5.0'" in process.stderr
