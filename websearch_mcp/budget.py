"""One budget for a tool's whole answer (its text and its structuredContent as serialized): clients
refuse or cut tool output past about 25,000 tokens, so no answer passes WEBSEARCH_MAX_RESULT_CHARS.

Tools that return several pages share the budget among them fairly (`share`); `fit` is the last
guard for every result, aggregated servers' included: it cuts the longest strings until the answer
fits, and says so.
"""

from __future__ import annotations

from typing import Any

from websearch_mcp import wire

CUT_NOTE = "\n\n[… cut to fit this answer's budget of {budget} characters (WEBSEARCH_MAX_RESULT_CHARS)]"


def share(wanted: list[int], total: int) -> list[int]:
    """Fair shares of `total` among parts that want `wanted` each: every part gets what it wants or an
    equal share, whichever is less, and what small parts leave is shared by the others."""
    shares = [0] * len(wanted)
    left = max(0, total)
    open_parts = sorted(range(len(wanted)), key=lambda i: wanted[i])
    while open_parts:
        equal = left // len(open_parts)
        index = open_parts[0]
        if wanted[index] <= equal:
            shares[index] = wanted[index]
            left -= wanted[index]
            open_parts.pop(0)
            continue
        for index in open_parts:
            shares[index] = equal
        break
    return shares


def size_of(text: str, structured: Any) -> int:
    """An answer's size as a client receives it: the text and the structured content, serialized."""
    return len(wire.dumps(text)) + (len(wire.dumps(structured)) if structured is not None else 0)


def fit(text: str, structured: Any, budget: int) -> tuple[str, Any]:
    """The text and structured content cut, longest strings first, until together they fit `budget`."""
    size = size_of(text, structured)
    if budget <= 0 or size <= budget:
        return text, structured
    note = CUT_NOTE.format(budget=budget)
    for _ in range(8):  # each pass cuts the longest strings by what is still over; escaping makes it approximate
        over = size - budget
        strings = [*_strings(structured), (len(text), ("text",))]
        strings.sort(reverse=True)
        for length, path in strings[:4]:
            keep = max(0, length - over // 2 - len(note) - 64)
            if path == ("text",):
                text = text[:keep] + note
            else:
                structured = _cut_at(structured, path, keep, note)
        size = size_of(text, structured)
        if size <= budget:
            break
    return text, structured


def _strings(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[int, tuple[Any, ...]]]:
    """(length, path) of every string longer than 200 characters inside a JSON value."""
    if isinstance(value, str):
        return [(len(value), path)] if len(value) > 200 else []
    if isinstance(value, dict):
        return [found for key, item in value.items() for found in _strings(item, (*path, key))]
    if isinstance(value, list):
        return [found for index, item in enumerate(value) for found in _strings(item, (*path, index))]
    return []


def _cut_at(value: Any, path: tuple[Any, ...], keep: int, note: str) -> Any:
    """A copy of `value` with the string at `path` cut to `keep` characters and the note added."""
    if not path:
        return value[:keep] + note
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _cut_at(value[head], rest, keep, note)}
    copy = list(value)
    copy[head] = _cut_at(copy[head], rest, keep, note)
    return copy
