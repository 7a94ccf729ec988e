"""Recognising a page built by scripts: an empty shell whose content only JavaScript would write.

A shell has little visible text in its body, some script, and at least one of: an empty mount point
(#root, #app, #__next, ...), a <noscript> that asks for JavaScript, or a framework's bootstrap
markers. (Far more script than text alone is not enough: two of the 3,123 development pages are
like that and are not shells.) Measured on the extraction development pages (bench/shell_bench.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

# Visible characters of body text below which a page may be a shell.
SHELL_TEXT = 250
MOUNT_IDS = frozenset({"root", "app", "__next", "__nuxt", "___gatsby", "svelte", "q-app", "react-root", "app-root",
                       "main-app", "application", "react-app", "vue-app", "ember-app", "single-spa-application"})
MOUNT_TAGS = frozenset({"app-root", "my-app", "ion-app"})
_NOSCRIPT_ASKS = re.compile(
    r"(enable|requires?|need|turn on|activate|aktiviere|aktivieren|activer|activez|habilita|abilita|włącz|включите)"
    r"\W+(?:\w+\W+){0,3}?(javascript|js)\b|javascript\W+(is\W+)?(required|disabled|must be enabled|nécessaire|"
    r"erforderlich|deaktiviert)", re.IGNORECASE)
_FRAMEWORK = re.compile(r"/_next/static/|__NEXT_DATA__|window\.__NUXT__|/_nuxt/|__NUXT_DATA__|ng-version|"
                        r"data-reactroot|webpackJsonp|window\.__INITIAL_STATE__|/static/js/main\.[0-9a-f]+\.js|"
                        r"/assets/index-[\w-]+\.js", re.IGNORECASE)
_NON_TEXT = ("script", "style", "noscript", "template")


@dataclass
class ShellVerdict:
    """Whether a page is a shell, and what showed it."""

    is_shell: bool
    text_chars: int  # visible characters (for a page plainly not a shell, those of its first paragraphs)
    reasons: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """The evidence, for a note or the metadata."""
        return ", ".join(self.reasons) if self.reasons else "no sign of a script-built page"


def detect_shell(tree: HtmlElement, html: str) -> ShellVerdict:
    """Judge a parsed page (before scripts are removed from it) and its source."""
    text_chars = _visible_chars(tree)
    if text_chars >= SHELL_TEXT:
        return ShellVerdict(False, text_chars)
    scripts = list(tree.iter("script"))
    if not scripts:
        return ShellVerdict(False, text_chars)
    reasons: list[str] = []
    for element in tree.iter("div", "main", "section", *MOUNT_TAGS):
        ident = (element.get("id") or "").lower()
        if (ident in MOUNT_IDS or element.tag in MOUNT_TAGS) and not element.text_content().strip():
            reasons.append(f"empty mount point {'#' + ident if ident in MOUNT_IDS else '<' + str(element.tag) + '>'}")
            break
    for noscript in tree.iter("noscript"):
        if _NOSCRIPT_ASKS.search(noscript.text_content() or "") or _NOSCRIPT_ASKS.search(noscript.text or ""):
            reasons.append("a <noscript> asks for JavaScript")
            break
    marker = _FRAMEWORK.search(html[:400_000])
    if marker:
        reasons.append(f"framework marker {marker.group(0)!r}")
    if reasons:
        reasons.insert(0, f"{text_chars} characters of visible text")
    return ShellVerdict(bool(reasons), text_chars, reasons)


def _visible_chars(tree: HtmlElement) -> int:
    """Characters (not counting white space) of the body's text outside scripts, styles and the like."""
    body = tree.find("body")
    if body is None:
        return 0
    # most pages show enough text in their first paragraphs: no need to read the whole body, whose
    # scripts can hold far more than its text
    shown = 0
    for paragraph in body.iter("p"):
        if not _inside(paragraph, _NON_TEXT):
            shown += _solid(paragraph.text_content())
            if shown >= SHELL_TEXT:
                return shown
    total = _solid(body.text_content())
    hidden = sum(_solid(e.text_content()) for e in body.iter(*_NON_TEXT) if e.getparent() is not None
                 and not _inside(e, _NON_TEXT))
    return total - hidden


def _solid(text: str) -> int:
    return len(text) - sum(text.count(c) for c in " \n\t\r\xa0")


def _inside(element: HtmlElement, tags: tuple[str, ...]) -> bool:
    parent = element.getparent()
    while parent is not None:
        if parent.tag in tags:
            return True
        parent = parent.getparent()
    return False
