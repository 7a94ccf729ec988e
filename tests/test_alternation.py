"""Long phrase lists grouped for speed match exactly where the plain list matches."""

from __future__ import annotations

import re
from pathlib import Path

import lxml.html
import pytest

from websearch_mcp.extract import notices
from websearch_mcp.extract.alternation import grouped, guarded, split_alternatives

HANDMADE = Path(__file__).resolve().parent.parent / "fixtures" / "handmade"


def test_alternatives_are_split_at_the_top_level_only():
    assert split_alternatives(r"a(?:b|c)|[|x]d|e\|f|g") == ["a(?:b|c)", "[|x]d", r"e\|f", "g"]
    assert split_alternatives(r"[]|]x|y") == ["[]|]x", "y"]


@pytest.mark.parametrize("pattern", [
    r"cookie|copyright|comment rules|comments are closed",
    r"(?:we|this site) uses? cookies|(?:les )?photos restent|c?ookie jar|cat|car|cab|c+d",
    r"(?:扫描|扫).{0,6}二维码|版权所有|版權所有|(?:cookie|クッキー)を(?:使用|利用)|如需转载",
    r"a|ab|abc|abd|b[xy]z|\d+ years old|(?:x|y)+z",
])
def test_a_grouped_list_matches_where_the_plain_list_does(pattern):
    plain = re.compile(rf"\b(?:{pattern})\b")
    faster = [re.compile(rf"\b{guarded(pattern)}\b"), re.compile(rf"\b(?:{grouped(pattern)})\b")]
    texts = ["we use cookies here", "this site uses cookies", "the photos restent", "photos restent",
             "ookie jar", "a cookie jar", "cab car cat", "cccd", "本文版权所有", "扫一扫二维码",
             "このサイトはクッキーを使用", "ab abc abd abe", "bxz byz bzz", "12 years old", "xyxz",
             "nothing here", "", "comment rules apply"]
    for text in texts:
        expected = plain.search(text)
        for pattern_ in faster:
            found = pattern_.search(text)
            assert (found is None) == (expected is None), (pattern, text)
            assert found is None or expected is None or found.start() == expected.start()


def test_a_list_of_plain_phrases_is_led_by_the_characters_they_open_with():
    assert guarded("cookie|copyright|banner").startswith("(?=[bc])")
    assert not guarded(r"\d+ cookies|cookie").startswith("(?=")  # an alternative that opens with a class


def _lines_of_the_handmade_pages() -> list[str]:
    lines = []
    for path in sorted(HANDMADE.rglob("*.html")):
        text = lxml.html.fromstring(path.read_bytes()).text_content().lower()
        lines += [" ".join(line.split())[:200] for line in text.splitlines() if len(line.strip()) > 10]
    return lines[::3]  # a third of them (the plain lists are slow to search): still thousands of notices


def test_the_notice_patterns_match_every_hand_made_line_as_the_plain_lists_do():
    words = f"{notices._NOTICE_ONLY}|{notices._SITE_NOTE}"
    plain = {
        notices.NOTICE_ONLY: re.compile(rf"©|\b(?:{words})\b|{notices._NOTICE_CJK}"),
        notices.NOTICE_WORDS: re.compile(rf"\b(?:{words})\b|{notices._NOTICE_CJK}"),
        notices.SITE_NOTE: re.compile(rf"\b(?:{notices._SITE_NOTE})\b|{notices._SITE_NOTE_CJK}"),
        notices.NOTICE: re.compile(rf"©|\b(?:{words}|{notices._NOTICE_LIKELY})\b|{notices._NOTICE_CJK}|^\s*name:",
                                   re.MULTILINE),
    }
    lines = _lines_of_the_handmade_pages()
    assert len(lines) > 5_000
    matched = dict.fromkeys(plain, 0)
    for line in lines:
        for fast, slow in plain.items():
            expected, found = slow.search(line), fast.search(line)
            assert (found is None) == (expected is None), line
            assert found is None or expected is None or found.start() == expected.start(), line
            matched[fast] += found is not None
    assert all(count > 100 for count in matched.values())  # the lines hold notices of every kind
