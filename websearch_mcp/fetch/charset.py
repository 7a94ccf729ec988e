"""Decoding a page's bytes: a byte-order mark, the HTTP header's charset, then the document's own
declaration (a meta tag or XML declaration in its first bytes), then detection (charset_normalizer, which
comes with requests). Labels are read the way browsers read them (Shift_JIS as cp932, latin-1 as
cp1252), and a UTF-8 page mislabelled as latin-1 is read as UTF-8."""

from __future__ import annotations

import codecs
import re

_XML_DECLARATION = re.compile(rb"^\s*<\?.*encoding=['\"](.*?)['\"].*\?>")
_META_CHARSET = re.compile(rb"<\s*meta[^>]+charset\s*=\s*[\"']?([^>]*?)[ /;'\">]", re.IGNORECASE)
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))

# WHATWG Encoding Standard: labels that browsers decode with a superset codec.
_ALIASES = {
    "shift_jis": "cp932", "shift-jis": "cp932", "sjis": "cp932", "x-sjis": "cp932", "ms_kanji": "cp932",
    "windows-31j": "cp932", "csshiftjis": "cp932", "euc-jp": "euc_jp", "x-euc-jp": "euc_jp",
    "gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030", "gb_2312-80": "gb18030", "chinese": "gb18030",
    "iso-8859-1": "cp1252", "iso8859-1": "cp1252", "latin1": "cp1252", "latin-1": "cp1252", "l1": "cp1252",
    "us-ascii": "cp1252", "ascii": "cp1252", "windows-1252": "cp1252", "big5": "big5hkscs",
    "euc-kr": "cp949", "ks_c_5601-1987": "cp949", "tis-620": "cp874", "iso-8859-9": "cp1254", "utf8": "utf-8",
}
_WESTERN_GUESSES = frozenset({"cp1250", "iso8859_2", "latin_1", "iso8859_15", "cp1254", "iso8859_9",
                              "mac_roman", "cp850", "cp437"})
_SINGLE_BYTE = frozenset({"cp1252", "latin_1", "iso8859_15", "cp1251", "cp1250", "koi8_r"})


def codec_for(label: str | None) -> str | None:
    """The Python codec for a charset label, or None when the label is unknown."""
    if not label:
        return None
    name = label.strip().strip("\"'").lower()
    name = _ALIASES.get(name, name)
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def header_charset(content_type: str) -> str | None:
    """The charset parameter of a Content-Type header."""
    for part in content_type.split(";")[1:]:
        key, _, value = part.partition("=")
        if key.strip().lower() == "charset":
            return value.strip().strip("\"'") or None
    return None


def declared_charset(body: bytes) -> str | None:
    """The charset a document declares in its first bytes (meta tag or XML declaration)."""
    head = body[:4096]
    found = _XML_DECLARATION.search(head) or _META_CHARSET.search(head)
    if found is None:
        return None
    label = found.group(1).decode("ascii", "replace").strip().lower()
    return label or None


def _strict(body: bytes, codec: str) -> str | None:
    try:
        return body.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return None


def _detect(body: bytes) -> str:
    try:
        from charset_normalizer import from_bytes  # comes with requests
    except ImportError:  # pragma: no cover
        return "cp1252"
    best = from_bytes(body[:200_000]).best()
    codec = (codec_for(best.encoding) if best is not None else None) or "cp1252"
    if codec in _WESTERN_GUESSES and _strict(body, "cp1252") is not None:
        return "cp1252"  # short Western texts are often guessed as a neighbour; windows-1252 is likeliest
    return codec


def _mostly(body: bytes, codec: str) -> str | None:
    """The body decoded as declared with its few invalid bytes replaced, or None when so much of it is
    invalid that the declaration is clearly wrong (a windows-1252 page that says UTF-8): one bad byte
    must not turn a whole UTF-8 page into mojibake. A UTF-8 page with windows-1252 characters pasted
    into it (curly quotes, dashes) gets them back whole, by Beautiful Soup's detwingle."""
    if codec == "utf-8":
        from bs4 import UnicodeDammit

        fixed = _strict(UnicodeDammit.detwingle(body), "utf-8")
        if fixed is not None and _mostly_same(body, fixed):
            return fixed
    text = body.decode(codec, errors="replace")
    bad = text.count("\ufffd")
    decoded = sum(1 for char in text if ord(char) > 0x7F) - bad
    return text if bad <= max(2, decoded // 20) and decoded > bad else None


def _mostly_same(body: bytes, fixed: str) -> bool:
    """Whether detwingling changed only a few characters (a few pasted ones, not a whole other encoding)."""
    text = body.decode("utf-8", errors="replace")
    return text.count("\ufffd") <= max(2, (sum(1 for char in fixed if ord(char) > 0x7F)) // 20)


def decode_page(body: bytes, content_type: str = "") -> tuple[str, str]:
    """(text, codec) of a page: header, then declaration, then detection; never raises."""
    for mark, bom_codec in _BOMS:
        if body.startswith(mark) and not (mark == codecs.BOM_UTF16_LE and body.startswith(codecs.BOM_UTF32_LE)):
            codec = codecs.lookup(bom_codec).name
            return body[len(mark):].decode(codec, errors="replace"), codec
    utf8 = None
    for label in (header_charset(content_type), declared_charset(body)):
        named = codec_for(label)
        if named is None:
            continue
        codec = named
        if codec in _SINGLE_BYTE and any(b > 0x7F for b in body[:65536]):
            utf8 = utf8 if utf8 is not None else _strict(body, "utf-8")
            if utf8 is not None:  # a UTF-8 page mislabelled as latin-1 / windows-1252
                return utf8, "utf-8"
        text = _strict(body, codec) or _mostly(body, codec)
        if text is not None:
            return text, codec
    text = _strict(body, "utf-8")
    if text is not None:
        return text, "utf-8"
    codec = _detect(body)
    return body.decode(codec, errors="replace"), codec
