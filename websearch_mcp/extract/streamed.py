"""Parts of a page that a React server streams after its shell.

A page rendered by React's streaming server (Next.js and others) sends its frame first, with a
placeholder for each part not ready yet (`<template id="B:0">` after a `<!--$?-->` comment, the
fallback, a loading skeleton, up to `<!--/$-->`), then each part in a hidden `<div hidden id="S:0">`
at the end of the body, moved into place by an inline script (`$RC("B:0","S:0")`; `$RS("S:1","P:1")`
for a segment put in a `<template id="P:1">`). The browser shows the parts where the placeholders
were; read as HTML, they are hidden elements at the foot of the page, and on a landing page they are
all of its text. Here they are moved where the scripts would move them, before anything is dropped,
and the fallbacks they replace are cut from the markup before it is parsed (the parser drops the
comments that bound them).
"""

from __future__ import annotations

import re

from websearch_mcp.extract.main_content import within

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

# $RC(boundary, segment) and $RR(boundary, segment, styles) fill a boundary; $RS(segment, placeholder)
# fills a placeholder. Each names the two ids as string literals.
_MOVES = re.compile(r"""\$R([CRS])\(\s*["']([BPS]:[\w-]+)["']\s*,\s*["']([BPS]:[\w-]+)["']""")


def place_streamed_parts(tree: HtmlElement) -> None:
    """Move each streamed part into its placeholder, in the order the page's scripts do."""
    placeholders = {template.get("id"): template for template in tree.iter("template")
                    if (template.get("id") or "")[:2] in ("B:", "P:")}
    if not placeholders:
        return
    parts = {div.get("id"): div for div in tree.iter("div") if (div.get("id") or "").startswith("S:")}
    for script in tree.iter("script"):
        for kind, first, second in _MOVES.findall(script.text or ""):
            target, part = (second, first) if kind == "S" else (first, second)
            if target in placeholders and part in parts and not within(placeholders[target], parts[part]):
                _fill(placeholders.pop(target), parts.pop(part))


def _fill(placeholder: HtmlElement, part: HtmlElement) -> None:
    """Put the part's content where the placeholder is and remove the part's hidden element."""
    placeholder.tag = "div"
    placeholder.attrib.clear()
    placeholder.text = part.text
    placeholder.extend(list(part))
    parent = part.getparent()
    if parent is not None:
        previous = part.getprevious()
        if part.tail and previous is not None:
            previous.tail = (previous.tail or "") + part.tail
        elif part.tail:
            parent.text = (parent.text or "") + part.tail
        parent.remove(part)


STREAMED_MARK = '<template id="B:'  # a page with streamed boundaries holds this
# A boundary's marks: `<!--$?-->` opens one whose part comes later, `<!--$-->` and `<!--$!-->` others,
# `<!--/$-->` closes the innermost; the placeholder follows its opening mark.
_MARKS = re.compile(r'<!--(\$\?|\$!|\$|/\$)-->|<template id="B:[\w-]*"></template>')


def drop_fallbacks(html: str) -> str:
    """The page less each streamed boundary's fallback (the loading state between its placeholder and
    its closing mark, which the part replaces). Read in the markup, since the parser drops comments."""
    cuts: list[tuple[int, int]] = []
    open_at: list[int] = []  # for each open boundary, where its fallback starts (-1: none to drop)
    last_mark = "", -1
    for mark in _MARKS.finditer(html):
        kind = mark.group(1)
        if kind is None:
            if open_at and last_mark == ("$?", mark.start()):
                open_at[-1] = mark.end()
        elif kind == "/$":
            if open_at and (start := open_at.pop()) >= 0:
                cuts.append((start, mark.start()))
        else:
            open_at.append(-1)
        last_mark = kind or "", mark.end()
    if not cuts:
        return html
    kept, position = [], 0
    for start, end in sorted(cuts):
        if start >= position:  # a fallback inside one already cut goes with it
            kept.append(html[position:start])
            position = end
    kept.append(html[position:])
    return "".join(kept)
