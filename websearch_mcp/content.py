"""The content pipeline: a fetched page of any readable type becomes a titled Markdown document."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote, urlsplit

from websearch_mcp.fetch.pages import FetchedPage

_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+")
_MARKDOWN_MARKS = re.compile(r"[#>*_`|\[\]]|\]\([^)]*\)|^\s*[-+]\s", re.MULTILINE)


class Document:
    """A page ready for a model: title, URL, Markdown and metadata."""

    __slots__ = ("fetch_time_ms", "markdown", "metadata", "title", "url")

    def __init__(self, url: str, title: str, markdown: str, metadata: dict[str, Any], fetch_time_ms: float) -> None:
        self.url = url
        self.title = title
        self.markdown = markdown
        self.metadata = metadata
        self.fetch_time_ms = fetch_time_ms

    @property
    def word_count(self) -> int:
        """Words in the Markdown (Markdown marks not counted)."""
        return len(_MARKDOWN_MARKS.sub(" ", self.markdown).split())

    def summary(self, limit: int = 300) -> str:
        """The description, or the first sentences of the text, within `limit` characters."""
        source = self.metadata.get("description") or _plain_start(self.markdown)
        if len(source) <= limit:
            return source
        cut = source[:limit]
        sentences = _SENTENCE.split(cut)
        kept = " ".join(sentences[:-1]) if len(sentences) > 1 else cut.rsplit(" ", 1)[0] + "…"
        return kept.strip()


def _plain_start(markdown: str) -> str:
    lines = [line for line in markdown.split("\n") if line.strip() and not line.startswith(("#", "|", "```"))]
    return " ".join(" ".join(lines[:6]).split())


def _title_from_url(url: str) -> str:
    parts = urlsplit(url)
    tail = unquote(parts.path.rstrip("/").rsplit("/", 1)[-1]) if parts.path.strip("/") else ""
    return tail or parts.netloc


def _json_markdown(text: str) -> str:
    try:
        pretty = json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    except ValueError:
        pretty = text
    return f"```json\n{pretty}\n```"


def _xml_markdown(text: str, url: str) -> tuple[str, str]:
    """RSS and Atom feeds as a list of entries; other XML as a fenced block."""
    import lxml.etree

    try:
        root = lxml.etree.fromstring(text.encode("utf-8"), parser=lxml.etree.XMLParser(
            resolve_entities=False, no_network=True, recover=True, huge_tree=False))
    except lxml.etree.XMLSyntaxError:
        root = None
    if root is None:
        return "", f"```xml\n{text}\n```"
    entries = root.xpath("//*[local-name()='item' or local-name()='entry']")
    if not entries:
        return "", f"```xml\n{text}\n```"
    title = _xml_text(root.xpath("(//*[local-name()='channel' or local-name()='feed']/*[local-name()='title'])[1]"))
    lines = []
    for entry in entries:
        name = _xml_text(entry.xpath("*[local-name()='title']")) or "(untitled)"
        link = _xml_text(entry.xpath("*[local-name()='link']")) or next(
            iter(entry.xpath("*[local-name()='link']/@href")), "")
        date = _xml_text(entry.xpath("*[local-name()='pubDate' or local-name()='updated' or local-name()='published']"))
        summary = _xml_text(entry.xpath("*[local-name()='description' or local-name()='summary']"))
        head = f"- [{name}]({urljoin_safe(url, link)})" if link else f"- {name}"
        lines.append(head + (f" ({date})" if date else "") + (f": {_strip_tags(summary)[:300]}" if summary else ""))
    return title, "\n".join(lines)


def urljoin_safe(base: str, link: str) -> str:
    """A link made absolute against the feed's URL."""
    from urllib.parse import urljoin

    return urljoin(base, link.strip())


def _xml_text(nodes: list[Any]) -> str:
    for node in nodes:
        text = " ".join("".join(node.itertext()).split())
        if text:
            return text
    return ""


def _strip_tags(text: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", text).split())


PDF_TIME_LIMIT = 20.0  # seconds one PDF may take to read, at most


def _pdf(page: FetchedPage, max_pages: int, time_limit: float) -> tuple[str, str, dict[str, Any]]:
    """(title, Markdown, metadata) of a PDF, read in a child process that cannot hang or exhaust this one."""
    from websearch_mcp.pdf.isolated import read_pdf_isolated

    pdf = read_pdf_isolated(page.data, max_pages=max_pages, time_limit=time_limit)
    return pdf.title, pdf.markdown, {**pdf.metadata(), "page_starts": pdf.page_starts}


def to_document(page: FetchedPage, pdf_pages: int = 200, time_limit: float = PDF_TIME_LIMIT) -> Document:
    """Turn a fetched page into Markdown according to its content type (a PDF that cannot be read
    raises a ToolError saying why)."""
    from websearch_mcp.extract import extract_page

    title = ""
    metadata: dict[str, Any] = {}
    if page.kind == "pdf":
        title, markdown, metadata = _pdf(page, pdf_pages, time_limit)
    elif page.kind == "html":
        extracted = extract_page(page.text, page.final_url)
        metadata = extracted.metadata.to_dict()
        title, markdown = extracted.metadata.title, extracted.markdown
        if extracted.shell is not None and extracted.shell.is_shell:
            metadata["shell"] = extracted.shell.describe()
        if extracted.content_source:
            metadata["content_source"] = extracted.content_source
    elif page.kind == "json":
        markdown = _json_markdown(page.text)
    elif page.kind == "xml":
        title, markdown = _xml_markdown(page.text, page.final_url)
    else:
        markdown = page.text.strip()
        if page.kind == "markdown":
            first = next((line for line in markdown.split("\n") if line.startswith("# ")), "")
            title = first[2:].strip()
    return Document(page.final_url, title or _title_from_url(page.final_url), markdown, metadata,
                    page.elapsed_ms)
