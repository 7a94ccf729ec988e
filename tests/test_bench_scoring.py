"""The extraction benchmark scores our Markdown as the text a reader sees: its syntax stripped without
splitting or changing a word (a word-aligning score counts "Post ." against "Post." as a miss and an
extra, so a stray space would lower our figures, not the page's)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "extraction.py"


@pytest.fixture(scope="module")
def strip_markdown():
    spec = importlib.util.spec_from_file_location("extraction_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.strip_markdown


@pytest.mark.parametrize(("markdown", "text"), [
    ("in *The Washington Post*. Then", "in The Washington Post. Then"),
    ("a **bold** word, `code`, ~~gone~~ and _this_", "a bold word, code, gone and this"),
    ("8\\. 4. 2024 is a date", "8. 4. 2024 is a date"),
    ("a \\*star\\* stays", "a *star* stays"),
    ("see [the report](https://example.org/r) now", "see the report now"),
])
def test_marks_go_without_splitting_words(strip_markdown, markdown: str, text: str) -> None:
    assert strip_markdown(markdown) == text


def test_block_marks_leave_the_words_apart(strip_markdown) -> None:
    stripped = strip_markdown("# Title\n\n- one item\n1. first\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |")
    assert stripped.split() == ["Title", "one", "item", "first", "quoted", "a", "b", "1", "2"]
