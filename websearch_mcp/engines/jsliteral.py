"""A reader for JavaScript object literals as server-rendered pages embed their data (Brave's
SvelteKit pages): bare keys, `void 0`, `new Date(…)`, single- or double-quoted strings. JSON is a
subset, so JSON reads too. Anything else (a function, a variable) raises ValueError."""

from __future__ import annotations

import re
from typing import Any

_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_SPACE = re.compile(r"\s*")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_CONSTANTS: dict[str, Any] = {"true": True, "false": False, "null": None, "undefined": None,
                              "NaN": None, "Infinity": None}


def read_value(text: str, start: int = 0) -> tuple[Any, int]:
    """The value that starts at `start` (after any whitespace), and the index just after it."""
    return _Reader(text).value(start)


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text

    def skip(self, at: int) -> int:
        match = _SPACE.match(self.text, at)
        return match.end() if match else at

    def value(self, at: int) -> tuple[Any, int]:
        at = self.skip(at)
        char = self.text[at:at + 1]
        if char == "{":
            return self.object(at + 1)
        if char == "[":
            return self.array(at + 1)
        if char in ('"', "'"):
            return self.string(at)
        number = _NUMBER.match(self.text, at)
        if number:
            literal = number.group()
            return (float(literal) if any(c in literal for c in ".eE") else int(literal)), number.end()
        return self.word(at)

    def word(self, at: int) -> tuple[Any, int]:
        name = _NAME.match(self.text, at)
        if not name:
            raise ValueError(f"unexpected {self.text[at:at + 20]!r} at {at}")
        word, end = name.group(), name.end()
        if word in _CONSTANTS:
            return _CONSTANTS[word], end
        if word == "void":  # `void 0`
            _, end = self.value(end)
            return None, end
        if word == "new":  # `new Date(1785607807818)` and the like: the argument stands for it
            constructor = _NAME.match(self.text, self.skip(end))
            if constructor and self.text[constructor.end():constructor.end() + 1] == "(":
                argument, end = self.value(constructor.end() + 1)
                end = self.skip(end)
                if self.text[end:end + 1] == ")":
                    return argument, end + 1
        raise ValueError(f"unsupported expression {word!r} at {at}")

    def string(self, at: int) -> tuple[str, int]:
        quote, i = self.text[at], at + 1
        out: list[str] = []
        while i < len(self.text):
            char = self.text[i]
            if char == quote:
                return "".join(out), i + 1
            if char != "\\":
                out.append(char)
                i += 1
                continue
            code = self.text[i + 1:i + 2]
            if code == "u":
                if self.text[i + 2:i + 3] == "{":
                    close = self.text.index("}", i)
                    out.append(chr(int(self.text[i + 3:close], 16)))
                    i = close + 1
                    continue
                out.append(chr(int(self.text[i + 2:i + 6], 16)))
                i += 6
            elif code == "x":
                out.append(chr(int(self.text[i + 2:i + 4], 16)))
                i += 4
            else:
                out.append(_ESCAPES.get(code, code))
                i += 2
        raise ValueError("unterminated string")

    def key(self, at: int) -> tuple[str, int]:
        char = self.text[at:at + 1]
        if char in ('"', "'"):
            return self.string(at)
        name = _NAME.match(self.text, at) or _NUMBER.match(self.text, at)
        if not name:
            raise ValueError(f"bad key at {at}")
        return name.group(), name.end()

    def object(self, at: int) -> tuple[dict[str, Any], int]:
        result: dict[str, Any] = {}
        at = self.skip(at)
        while self.text[at:at + 1] != "}":
            key, at = self.key(self.skip(at))
            at = self.skip(at)
            if self.text[at:at + 1] != ":":
                raise ValueError(f"expected ':' at {at}")
            result[key], at = self.value(at + 1)
            at = self.skip(at)
            if self.text[at:at + 1] == ",":
                at = self.skip(at + 1)
            elif self.text[at:at + 1] != "}":
                raise ValueError(f"expected ',' or '}}' at {at}")
        return result, at + 1

    def array(self, at: int) -> tuple[list[Any], int]:
        result: list[Any] = []
        at = self.skip(at)
        while self.text[at:at + 1] != "]":
            item, at = self.value(at)
            result.append(item)
            at = self.skip(at)
            if self.text[at:at + 1] == ",":
                at = self.skip(at + 1)
            elif self.text[at:at + 1] != "]":
                raise ValueError(f"expected ',' or ']' at {at}")
        return result, at + 1
