"""The language and country a query asks for, from its `language` or its DuckDuckGo-style region."""

from __future__ import annotations

from websearch_mcp.engines.base import SearchQuery

# DuckDuckGo spells some regions its own way: uk-en is Great Britain, jp-jp Japanese, tw-tzh Chinese.
_REGION_LANGUAGE = {"jp": "ja", "kr": "ko", "tzh": "zh", "ct": "ca", "se": "sv", "dk": "da", "gr": "el",
                    "cz": "cs", "ua": "uk", "il": "he", "vn": "vi", "ee": "et", "si": "sl", "no": "nb"}
_REGION_COUNTRY = {"uk": "gb", "wt": "", "xa": "", "xl": "", "ct": "es"}


def language_of(query: SearchQuery) -> str:
    """The ISO 639-1 language asked for ('' when any)."""
    if query.language:
        return query.language.split("-")[0].lower()
    if query.region and query.region != "wt-wt" and "-" in query.region:
        code = query.region.split("-", 1)[1]
        return _REGION_LANGUAGE.get(code, code)
    return ""


def country_of(query: SearchQuery) -> str:
    """The ISO 3166 country asked for, lower-case ('' when any)."""
    if query.language and "-" in query.language:
        return query.language.split("-")[1].lower()
    if query.region and query.region != "wt-wt" and "-" in query.region:
        code = query.region.split("-", 1)[0]
        return _REGION_COUNTRY.get(code, code)
    return ""
