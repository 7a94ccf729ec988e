"""The image and video fields of a SearXNG result (`img_src`, `thumbnail_src`, `resolution`,
`length`, `source`), as SearchHit's media fields."""

from __future__ import annotations

import re
from typing import Any

from websearch_mcp.engines.vertical import number

_SIZE = re.compile(r"(\d+)\s*[x×]\s*(\d+)")


def media_fields(item: dict[str, Any]) -> dict[str, Any]:
    """The media fields one SearXNG result has; missing and empty ones are left out."""
    fields: dict[str, Any] = {}
    if _text(item.get("img_src")).startswith(("http://", "https://")):
        fields["image_url"] = _text(item["img_src"])
    thumbnail = _text(item.get("thumbnail_src")) or _text(item.get("thumbnail"))
    if thumbnail.startswith(("http://", "https://")):
        fields["thumbnail_url"] = thumbnail
    size = _SIZE.search(_text(item.get("resolution")))
    if size:
        fields["width"], fields["height"] = number(size.group(1)), number(size.group(2))
    length = item.get("length")
    if isinstance(length, (int, float)) and not isinstance(length, bool) and length > 0:
        minutes, seconds = divmod(int(length), 60)
        fields["duration"] = f"{minutes // 60}:{minutes % 60:02d}:{seconds:02d}" if minutes >= 60 else \
            f"{minutes}:{seconds:02d}"
    elif _text(length):
        fields["duration"] = _text(length)
    source = _text(item.get("source")) or _text(item.get("author"))
    if source:
        fields["source"] = source
    return fields


def _text(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""
