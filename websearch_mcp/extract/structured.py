"""What a page carries as data besides its markup: JSON-LD (schema.org Article, BlogPosting,
NewsArticle, QAPage, Product, Recipe, HowTo, forum posts) and server-rendered data islands
(`__NEXT_DATA__` and other JSON in <script> tags) where they hold the content. Read without running
any script, for pages built by scripts and for pages whose visible article is cut short."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from lxml import etree

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lxml.html import HtmlElement

ARTICLE_TYPES = frozenset({"article", "newsarticle", "blogposting", "report", "techarticle", "scholarlyarticle",
                           "socialmediaposting", "liveblogposting", "analysisnewsarticle", "reportagenewsarticle",
                           "opinionnewsarticle", "discussionforumposting", "posting", "creativework"})
_LD_JSON = etree.XPath("//script[contains(translate(@type, 'LDJSON', 'ldjson'), 'ld+json')]")
_DATA_ISLANDS = etree.XPath("//script[@id='__NEXT_DATA__' or @id='__NUXT_DATA__' or "
                            "(contains(@type, 'json') and not(contains(@type, 'ld+json')))]")
_TAG = re.compile(r"<(p|br|div|li|h[1-6])\b", re.IGNORECASE)
_SPACES = re.compile(r"[ \t\r\f\v]+")
MIN_PROSE = 80  # characters of a string in a data island that reads as prose, not a label
MIN_CONTENT = 200  # characters that make a data island's text worth using


@dataclass
class StructuredContent:
    """Markdown built from a page's own data, and where it came from."""

    markdown: str
    source: str  # e.g. "JSON-LD NewsArticle", "__NEXT_DATA__"
    body_chars: int  # the length of the article body alone (0 when the data had none)


def structured_content(tree: HtmlElement) -> StructuredContent | None:
    """The richest content the page's data holds, or None."""
    found = [c for c in (_from_json_ld(tree), _from_data_islands(tree)) if c is not None]
    return max(found, key=lambda c: len(c.markdown)) if found else None


def json_ld_nodes(tree: HtmlElement) -> list[dict[str, Any]]:
    """The objects of the page's JSON-LD (each script's, and those of an `@graph`), parsed once for the
    readers below."""
    return list(_json_ld_nodes(tree))


def article_body(nodes: list[dict[str, Any]]) -> str:
    """The articleBody (or text) of the page's JSON-LD article (among its objects), if it has one."""
    for node in nodes:
        if _types(node) & ARTICLE_TYPES:
            body = _text(node.get("articleBody") or node.get("text"))
            if body:
                return _said_once(body)
    return ""


REPEAT_OPENING = 80  # characters of a body's opening that, found again further on, start a second copy


def _said_once(body: str) -> str:
    """A body that holds its text twice over (a site's JSON-LD repeats the article): its first copy."""
    opening = body[:REPEAT_OPENING]
    again = body.find(opening, REPEAT_OPENING) if len(opening) == REPEAT_OPENING else -1
    return body[:again].rstrip() if again > 0 else body


PRODUCT_TYPES = frozenset({"product", "productgroup", "productmodel", "individualproduct", "vehicle", "car"})
_OG_KINDS = {"article": "article", "product": "product", "og:product": "product", "product.item": "product",
             "product.group": "product"}


def declared_kind(tree: HtmlElement, nodes: list[dict[str, Any]]) -> str:
    """What the page says it is: "article", "product" (a shop's page of one product or of a category),
    or "" when it says neither. Its Open Graph type is read first, then its JSON-LD objects (an article,
    or a product of its own or in a category's list)."""
    head = tree.find("head")
    for meta in head.iter("meta") if head is not None else ():
        if meta.get("property") == "og:type":
            declared = _OG_KINDS.get((meta.get("content") or "").strip().lower())
            if declared:
                return declared
    if any(_types(node) & ARTICLE_TYPES for node in nodes):
        return "article"
    return "product" if any(_holds_product(node, 0) for node in nodes) else ""


def _holds_product(data: Any, depth: int) -> bool:
    """Whether a JSON-LD value is or holds (a few levels down: a list's items) a product."""
    if depth > 4:
        return False
    if isinstance(data, list):
        return any(_holds_product(item, depth + 1) for item in data)
    if not isinstance(data, dict):
        return False
    if _types(data) & PRODUCT_TYPES:
        return True
    return any(_holds_product(data[key], depth + 1) for key in ("mainEntity", "itemListElement", "item") if key in data)


def _from_json_ld(tree: HtmlElement) -> StructuredContent | None:
    best: StructuredContent | None = None
    for node in _json_ld_nodes(tree):
        types = _types(node)
        made: tuple[str, int] | None = None
        if types & ARTICLE_TYPES:
            made = _article(node)
        elif "qapage" in types or "question" in types:
            made = _question(node.get("mainEntity") if "qapage" in types else node)
        elif "product" in types:
            made = _product(node), 0
        elif "recipe" in types:
            made = _steps(node, "recipeInstructions", ingredients=node.get("recipeIngredient")), 0
        elif "howto" in types:
            made = _steps(node, "step"), 0
        if made and made[0].strip():
            label = next(iter(sorted(t for t in types if t)), "item")
            kind = next((t for t in _raw_types(node) if t.lower() == label), label)
            candidate = StructuredContent(made[0].strip(), f"JSON-LD {kind}", made[1])
            if best is None or len(candidate.markdown) > len(best.markdown):
                best = candidate
    return best


def _article(node: dict[str, Any]) -> tuple[str, int]:
    body = _text(node.get("articleBody") or node.get("text"))
    parts = [p for p in (_text(node.get("alternativeHeadline")), body or _text(node.get("description"))) if p]
    for comment in _as_list(node.get("comment")):
        if isinstance(comment, dict) and _text(comment.get("text")):
            author = _name(comment.get("author"))
            parts.append(f"**{author}:** {_text(comment.get('text'))}" if author else _text(comment.get("text")))
    return "\n\n".join(parts), len(body)


def _question(entity: Any) -> tuple[str, int] | None:
    if not isinstance(entity, dict):
        return None
    parts = [f"**Question:** {_text(entity.get('name'))}"] if _text(entity.get("name")) else []
    if _text(entity.get("text")) and _text(entity.get("text")) != _text(entity.get("name")):
        parts.append(_text(entity.get("text")))
    answers_by_label = (("Accepted answer", entity.get("acceptedAnswer")), ("Answer", entity.get("suggestedAnswer")))
    for label, answers in answers_by_label:
        for answer in _as_list(answers):
            if isinstance(answer, dict) and _text(answer.get("text")):
                parts.append(f"**{label}:** {_text(answer.get('text'))}")
    text = "\n\n".join(parts)
    return text, len(text)


def _product(node: dict[str, Any]) -> str:
    parts = [_text(node.get("description"))]
    brand = _name(node.get("brand"))
    if brand:
        parts.append(f"**Brand:** {brand}")
    for offer in _as_list(node.get("offers"))[:3]:
        if isinstance(offer, dict):
            price = offer.get("price") or offer.get("lowPrice")
            if price:
                availability = str(offer.get("availability", "")).rsplit("/", 1)[-1]
                parts.append(f"**Price:** {price} {offer.get('priceCurrency', '')}".rstrip()
                             + (f" ({availability})" if availability else ""))
    rating = node.get("aggregateRating")
    if isinstance(rating, dict) and rating.get("ratingValue"):
        reviews = rating.get("reviewCount") or rating.get("ratingCount") or "?"
        parts.append(f"**Rating:** {rating.get('ratingValue')} ({reviews} reviews)")
    return "\n\n".join(p for p in parts if p)


def _steps(node: dict[str, Any], key: str, ingredients: Any = None) -> str:
    parts = [_text(node.get("description"))]
    items = [_text(i) for i in _as_list(ingredients) if _text(i)]
    if items:
        parts.append("**Ingredients:**\n" + "\n".join(f"- {i}" for i in items))
    steps = [s for s in _flat_steps(node.get(key)) if s]
    if steps:
        parts.append("**Steps:**\n" + "\n".join(f"{n}. {s}" for n, s in enumerate(steps, 1)))
    return "\n\n".join(p for p in parts if p)


def _flat_steps(value: Any) -> Iterator[str]:
    for item in _as_list(value):
        if isinstance(item, dict):
            if item.get("itemListElement"):
                yield from _flat_steps(item["itemListElement"])
            else:
                yield _text(item.get("text") or item.get("name"))
        else:
            yield _text(item)


def _from_data_islands(tree: HtmlElement) -> StructuredContent | None:
    for script in _DATA_ISLANDS(tree):
        raw = (script.text or "").strip()
        if len(raw) < MIN_CONTENT:
            continue
        try:
            data = json.loads(raw)
        except ValueError:
            continue
        seen: set[str] = set()
        parts = []
        for value in _strings(data):
            text = _text(value) if _TAG.search(value) else " ".join(value.split())
            if len(text) >= MIN_PROSE and text.count(" ") >= 8 and text not in seen and not text.startswith(("{", "[")):
                seen.add(text)
                parts.append(text)
        markdown = "\n\n".join(parts)
        if len(markdown) >= MIN_CONTENT:
            return StructuredContent(markdown, script.get("id") or "JSON data island", len(markdown))
    return None


def _strings(value: Any, depth: int = 0) -> Iterator[str]:
    if depth > 40:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, depth + 1)


def _json_ld_nodes(tree: HtmlElement) -> Iterator[dict[str, Any]]:
    for script in _LD_JSON(tree):
        try:
            data = json.loads(script.text or "", strict=False)
        except ValueError:
            continue
        yield from _nodes(data, 0)


def _nodes(data: Any, depth: int) -> Iterator[dict[str, Any]]:
    if depth > 6:
        return
    if isinstance(data, list):
        for item in data:
            yield from _nodes(item, depth + 1)
    elif isinstance(data, dict):
        yield data
        if "@graph" in data:
            yield from _nodes(data["@graph"], depth + 1)


def _raw_types(node: dict[str, Any]) -> list[str]:
    kind = node.get("@type", [])
    return [str(k).rsplit("/", 1)[-1] for k in (kind if isinstance(kind, list) else [kind])]


def _types(node: dict[str, Any]) -> set[str]:
    return {k.lower() for k in _raw_types(node)}


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _name(value: Any) -> str:
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        return _text(value.get("name"))
    return _text(value)


def _text(value: Any) -> str:
    """Plain text of a JSON-LD value: HTML in it becomes paragraphs, entities are decoded."""
    if isinstance(value, list):
        return "\n\n".join(t for t in (_text(v) for v in value) if t)
    if not isinstance(value, str):
        return ""
    if _TAG.search(value) or "&" in value:
        import lxml.html

        try:
            fragment = lxml.html.fragment_fromstring(value, create_parent="div")
        except (etree.ParserError, ValueError):
            return " ".join(value.split())
        for block in fragment.iter("p", "br", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6"):
            block.tail = "\n\n" + (block.tail or "")
        value = fragment.text_content()
    paragraphs = [_SPACES.sub(" ", p).strip() for p in re.split(r"\n\s*\n|\n", value)]
    return "\n\n".join(p for p in paragraphs if p)
