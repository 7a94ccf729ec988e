"""Pure parsers for DuckDuckGo's HTML and lite result pages, and recognisers of block pages.

Every function takes the page's bytes and returns plain data; nothing here does I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websearch_mcp.engines.html import clean_text, has_class, parse

_AD_PREFIXES = ("https://duckduckgo.com/y.js", "http://duckduckgo.com/y.js", "//duckduckgo.com/y.js")
_EOF_PREFIXES = ("http://www.google.com/search", "https://www.google.com/search")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_BLOCK_MARKERS = (b"anomaly-modal", b'id="challenge-form"', b"anomaly.js", b"Unfortunately, bots use DuckDuckGo")
_NO_RESULTS_TEXTS = ("No more results.", "No  results.", "No results.")


@dataclass
class RawResult:
    """One organic result as the page shows it."""

    title: str
    url: str
    snippet: str = ""
    date: str | None = None


@dataclass
class ResultsPage:
    """What one results page holds: its results, the next-page form, and whether it is the end."""

    results: list[RawResult] = field(default_factory=list)
    next_form: dict[str, str] | None = None
    no_results: bool = False
    recognised: bool = True  # False when the page is not a results page at all


def unwrap_url(href: str) -> str:
    """The target of a `//duckduckgo.com/l/?uddg=` redirect link; other links unchanged."""
    href = href.strip()
    if href.startswith("//"):
        href = "https:" + href
    parts = urlsplit(href)
    if parts.path == "/l/" and (parts.netloc.endswith("duckduckgo.com") or not parts.netloc):
        target = parse_qs(parts.query).get("uddg")
        if target and target[0]:
            return target[0]
    return href


def is_ad_url(url: str) -> bool:
    """Whether a (unwrapped) link is DuckDuckGo's ad redirect."""
    return url.startswith(_AD_PREFIXES)


def is_eof_url(url: str) -> bool:
    """Whether a link is the 'EOF' pseudo-result DuckDuckGo shows when nothing matched."""
    return url.startswith(_EOF_PREFIXES)


def block_reason(status: int, body: bytes) -> str | None:
    """Why a reply is DuckDuckGo refusing an automated client, or None when it is not."""
    if status in (202, 403, 429):
        return f"HTTP {status}"
    head = body[:200_000]
    if any(marker in head for marker in _BLOCK_MARKERS):
        return "a CAPTCHA (anomaly) page"
    if b"body--home" in head:
        return "the home page instead of results"
    return None


def _form_fields(form: Any) -> dict[str, str]:
    fields: dict[str, str] = {}
    for element in form.iter("input"):
        name = element.get("name")
        if name and element.get("type", "").lower() not in ("submit", "button", "image"):
            fields[name] = element.get("value", "")
    return fields


def _next_form(tree: Any, xpath: str) -> dict[str, str] | None:
    for form in tree.xpath(xpath):
        buttons = [b.get("value", "") for b in form.iter("input") if b.get("type", "").lower() == "submit"]
        if any("next" in value.lower() for value in buttons):
            return _form_fields(form)
    return None


def _says_no_results(tree: Any) -> bool:
    if tree.xpath(f"//div[{has_class('no-results')}]"):
        return True
    body = tree.find("body")
    text = clean_text(body.text_content()[:50_000]) if body is not None else ""
    return any(marker in text for marker in _NO_RESULTS_TEXTS)


def parse_html_page(body: bytes) -> ResultsPage:
    """Parse a page of html.duckduckgo.com/html/: organic results only, ads dropped."""
    tree = parse(body)
    page = ResultsPage()
    blocks = tree.xpath(f"//div[{has_class('result')}]")
    for block in blocks:
        classes = set((block.get("class") or "").split())
        if "result--ad" in classes:
            continue
        if "result--no-result" in classes:
            page.no_results = True
            continue
        links = block.xpath(f".//a[{has_class('result__a')}]")
        if not links:
            continue
        url = unwrap_url(links[0].get("href", ""))
        if is_eof_url(url):
            page.no_results = True
            continue
        if not url or is_ad_url(url):
            continue
        snippet = block.xpath(f".//*[{has_class('result__snippet')}]")
        date = None
        for span in block.xpath(f".//div[{has_class('result__extras__url')}]/span"):
            found = _DATE.search(span.text_content())
            date = found.group(0) if found else date
        page.results.append(RawResult(
            title=clean_text(links[0].text_content()), url=url,
            snippet=clean_text(snippet[0].text_content()) if snippet else "", date=date))
    page.next_form = _next_form(tree, f"//div[{has_class('nav-link')}]/form")
    if not page.results:
        page.no_results = page.no_results or _says_no_results(tree)
        page.recognised = page.no_results
    return page


def parse_lite_page(body: bytes) -> ResultsPage:
    """Parse a page of lite.duckduckgo.com/lite/: each result spans several table rows."""
    tree = parse(body)
    page = ResultsPage()
    for link in tree.xpath(f"//a[{has_class('result-link')}]"):
        url = unwrap_url(link.get("href", ""))
        row = next(link.iterancestors("tr"), None)
        if is_eof_url(url):
            page.no_results = True
            continue
        if not url or is_ad_url(url) or (row is not None and "sponsored" in (row.get("class") or "")):
            continue
        snippet, date = "", None
        sibling = row.getnext() if row is not None else None
        while sibling is not None and not sibling.xpath(f".//a[{has_class('result-link')}]"):
            cells = sibling.xpath(f".//td[{has_class('result-snippet')}]")
            if cells and not snippet:
                snippet = clean_text(cells[0].text_content())
            stamps = sibling.xpath(f".//span[{has_class('timestamp')}]")
            if stamps:
                found = _DATE.search(stamps[0].text_content())
                date = found.group(0) if found else date
            sibling = sibling.getnext()
        page.results.append(RawResult(title=clean_text(link.text_content()), url=url,
                                      snippet=snippet, date=date))
    page.next_form = _next_form(tree, f"//form[{has_class('next_form')}]")
    if not page.results:
        page.no_results = page.no_results or _says_no_results(tree)
        page.recognised = page.no_results
    return page
