"""Long alternations of phrases made quick to search. Python's regular expressions try every phrase of
`a|b|c|...` in turn at each position of the text; several hundred phrases make a search of a short
paragraph cost a fifth of a millisecond. The same phrases grouped by their first characters
(`co(?:okie|pyright)|...`) and guarded by a lookahead on the characters a phrase can start with are
tried only where one can begin, and match exactly where the flat list matches."""

from __future__ import annotations

_SPECIAL = frozenset("\\()[].^$|*+?{}")
_QUANTIFIERS = frozenset("*+?{")
GROUP_LEVELS = 2  # characters of a shared opening grouped on: a third level makes no search quicker
MIN_GROUPED = 4  # alternatives fewer than this are tried as they are


def split_alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of a pattern (its `|` outside groups and character classes)."""
    parts: list[str] = []
    depth = start = index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 1
        elif char == "[":
            index = _class_end(pattern, index)
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(pattern[start:index])
            start = index + 1
        index += 1
    parts.append(pattern[start:])
    return parts


def _class_end(pattern: str, index: int) -> int:
    """The index of the `]` that closes the character class opening at `index`."""
    index += 1
    if index < len(pattern) and pattern[index] == "^":
        index += 1
    if index < len(pattern) and pattern[index] == "]":
        index += 1  # a `]` first in a class is a member
    while index < len(pattern) and pattern[index] != "]":
        index += 2 if pattern[index] == "\\" else 1
    return index


def _group_end(pattern: str, index: int) -> int:
    """The index of the `)` that closes the group opening at `index`."""
    depth = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 1
        elif char == "[":
            index = _class_end(pattern, index)
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    raise ValueError(f"unbalanced group in {pattern!r}")


def _opens_with_literal(alternative: str) -> bool:
    """Whether an alternative's first character is a plain character that must be there."""
    return bool(alternative) and alternative[0] not in _SPECIAL and not (
        len(alternative) > 1 and alternative[1] in _QUANTIFIERS)


def _expanded(alternative: str) -> list[str]:
    """An alternative that opens with a non-capturing group, `(?:a|b)rest` or `(?:a|b)?rest`, as the
    alternatives it stands for (`arest|brest`, and `rest` when the group is optional), each opened the
    same way until it opens with a plain character; any other alternative as it is."""
    if not alternative.startswith("(?:"):
        return [alternative]
    end = _group_end(alternative, 0)
    after = alternative[end + 1:]
    optional = after.startswith("?") and not after.startswith("??")
    if after[:1] in _QUANTIFIERS and not optional:
        return [alternative]  # repeated (`(?:ab)+`): left as it is
    rest = after[1:] if optional else after
    choices = split_alternatives(alternative[3:end]) + ([""] if optional else [])
    return [expanded for choice in choices for expanded in _expanded(choice + rest)]


def _alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of a pattern, those that open with a group expanded (see _expanded)."""
    return [expanded for alternative in split_alternatives(pattern) for expanded in _expanded(alternative)]


def grouped(pattern: str, levels: int = GROUP_LEVELS) -> str:
    """The alternatives of `pattern` grouped by their first character, `levels` characters deep; it
    matches at the same positions as `pattern`."""
    alternatives = _alternatives(pattern)
    if levels == 0 or len(alternatives) < MIN_GROUPED:
        return "|".join(alternatives)
    by_first: dict[str, list[str]] = {}
    others = []
    for alternative in alternatives:
        if _opens_with_literal(alternative):
            by_first.setdefault(alternative[0], []).append(alternative[1:])
        else:
            others.append(alternative)
    # (a plain first character is itself outside a class: it needs no escape)
    groups = [first + tails[0] if len(tails) == 1 else f"{first}(?:{grouped('|'.join(tails), levels - 1)})"
              for first, tails in by_first.items()]
    return "|".join(groups + others)


def guarded(pattern: str) -> str:
    """`pattern` grouped, and led by a lookahead for the characters its alternatives can open with
    when each opens with a plain one (so that a position where none can start costs one test)."""
    alternatives = _alternatives(pattern)
    body = grouped(pattern)
    if not all(_opens_with_literal(alternative) for alternative in alternatives):
        return f"(?:{body})"
    # (inside the class, `]`, `^` and `-` would mean something else)
    firsts = "".join(sorted({f"\\{first}" if first in "]^-" else first for first in (a[0] for a in alternatives)}))
    return f"(?=[{firsts}])(?:{body})"
