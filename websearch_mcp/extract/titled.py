"""A post whose content is not text (photos, a video): the block around its title, its date and
caption, rather than a notice of the page's furniture."""

from __future__ import annotations

from itertools import islice

from websearch_mcp.extract.labels import kind_of
from websearch_mcp.extract.text import text_of, visible_length

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

TITLED_BLOCK = 300  # visible characters: the block around the title grows up to this (a date, a caption)
TITLED_LEVELS = 8  # ... and this many levels above the title at most
TITLE_TEXT = 8  # characters: a shorter heading ("404", "News") names no post
TITLE_CHARS = 300  # characters of the page's title read
TITLE_HEADINGS = 200  # the first headings of the page looked at for the post's title
_TITLE_HEADINGS = ("h1", "h2", "h3")
_OUTSIDE = frozenset({"header", "nav", "aside", "footer"})
_ARTICLE = frozenset({"article", "main"})


def titled_block(tree: HtmlElement, title: str, site_name: str = "", shown: str = "") -> HtmlElement | None:
    """The block around the heading that names the post (a heading whose words the page's <title> holds,
    not the site's name), grown while it stays short; none when the post holds the text shown so far
    (a short post, rightly found)."""
    body = tree.find("body")
    # a page's title and site name are short: a longer one is cut (a page of 100,000 headings and a title
    # of a megabyte stays linear), and only the first headings are looked at
    wanted, site = _words(title[:TITLE_CHARS * 4])[:TITLE_CHARS], _words(site_name[:TITLE_CHARS * 4])[:TITLE_CHARS]
    if body is None or not wanted:
        return None
    headings = islice(body.iter(*_TITLE_HEADINGS), TITLE_HEADINGS)
    heading = next((h for h in headings if _names_the_post(h, wanted, site)), None)
    if heading is None or (shown and shown in _words(text_of(_post_of(heading)))):
        return None
    found, parent = heading, heading.getparent()
    for _ in range(TITLED_LEVELS):
        if (parent is None or parent is body or visible_length(text_of(parent)) > TITLED_BLOCK
                or _holds_page_furniture(parent)):
            break
        found, parent = parent, parent.getparent()
    return found


def _post_of(heading: HtmlElement) -> HtmlElement:
    """The post a title heads: its nearest <article>, or the nearest block whose class names a post."""
    for ancestor in heading.iterancestors():
        if ancestor.tag in _ARTICLE or ancestor.tag == "body" or kind_of(ancestor).positive:
            return ancestor
    return heading


def _holds_page_furniture(element: HtmlElement) -> bool:
    """Whether a block holds a menu, a sidebar, the page's header or footer (an article's own header and
    footer, its title and its date, are the post's), or the comments."""
    for part in element.iter(*_OUTSIDE):
        if part.tag in ("nav", "aside") or not any(a.tag in _ARTICLE for a in part.iterancestors()):
            return True
    return any(kind_of(part).comments and visible_length(text_of(part)) >= COMMENTS_TEXT
               for part in element.iter() if isinstance(part.tag, str))


COMMENTS_TEXT = 40  # visible characters that make a comment section of a block ("0 Comments" is a link)


def _words(text: str) -> str:
    return " ".join(text.split()).lower()


def _names_the_post(heading: HtmlElement, wanted: str, site: str) -> bool:
    """Whether a heading's text is in the <title> and is not the site's name (nor in the page's header,
    menu, sidebar or footer)."""
    text = _words(text_of(heading))
    if len(text) < TITLE_TEXT or text not in wanted or (site and text in site):
        return False
    ancestors = {ancestor.tag for ancestor in heading.iterancestors()}
    outside = _OUTSIDE - {"header"} if ancestors & _ARTICLE else _OUTSIDE  # an article's own <header>
    if ancestors & outside:
        return False
    link = heading.find(".//a")
    return link is None or not _to_home_page(link.get("href") or "")


def _to_home_page(href: str) -> bool:
    """Whether a link goes to a site's home page ("/", "https://example.org/"), as a logo's heading does."""
    address = href.split("#", 1)[0].split("?", 1)[0]
    path = address.split("://", 1)[1].partition("/")[2] if "://" in address else address
    return not path.strip("/")
