"""A post whose content is not text (photos, a video): the block around its title, its date and
caption, rather than a notice of the page's furniture."""

from __future__ import annotations

from websearch_mcp.extract.text import linked_length, text_of, visible_length

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

TITLED_BLOCK = 300  # visible characters: the block around the title grows up to this (a date, a caption)
_TITLE_HEADINGS = ("h1", "h2", "h3")
_OUTSIDE = frozenset({"header", "nav", "aside", "footer"})


def titled_block(tree: HtmlElement, title: str, site_name: str = "") -> HtmlElement | None:
    """The block around the heading that names the post (a heading whose words the page's <title> holds,
    not the site's name), grown while it stays short."""
    body = tree.find("body")
    wanted, site = _words(title), _words(site_name)
    if body is None or not wanted:
        return None
    heading = next((h for h in body.iter(*_TITLE_HEADINGS) if _names_the_post(h, wanted, site)), None)
    if heading is None:
        return None
    own, own_linked = visible_length(text_of(heading)), linked_length(heading)
    found, parent = heading, heading.getparent()
    while parent is not None and parent is not body:
        size = visible_length(text_of(parent))
        beside = size - own  # the title is a link to the post, often: what is beside it counts
        if size > TITLED_BLOCK or (beside and (linked_length(parent) - own_linked) / beside >= 0.5):
            break
        found, parent = parent, parent.getparent()
    return found


def _words(text: str) -> str:
    return " ".join(text.split()).lower()


def _names_the_post(heading: HtmlElement, wanted: str, site: str) -> bool:
    """Whether a heading's text is in the <title> and is not the site's name (nor in the page's header,
    menu, sidebar or footer)."""
    text = _words(text_of(heading))
    if len(text) < 3 or text not in wanted or (site and text in site):
        return False
    if any(a.tag in _OUTSIDE for a in heading.iterancestors()):
        return False
    link = heading.find(".//a")
    return link is None or (link.get("href") or "").rstrip("/").count("/") > 2  # not a link to the home page
