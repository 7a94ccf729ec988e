"""JSON for the wire, on the C accelerator `_json` that the json module itself uses.

`import json` costs about 8 ms at start-up (json.decoder imports re, which imports enum), and MCP
clients spawn this server often. The same C scanner and encoder are driven here directly, with
strict settings (no NaN or Infinity). Where `_json` is missing (other Pythons) the json module
is used instead. Error paths may import json lazily; the normal path never does.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

try:
    import _json
except ImportError:  # pragma: no cover - CPython always has it
    _json = None  # type: ignore[assignment]

_WHITESPACE = " \t\n\r"


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _refuse_type(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# Python refuses to turn more than 4,300 digits into an int (a guard against slow conversions), yet
# such a number is valid JSON, and a client may use one as a request id. Such a number is kept as
# its digits behind a marker (a str) and written back as the same number.
_BIG = "\ufdd0\ufdd1bigint:"
_BIG_DIGITS = 4000


class BigInt(str):
    """A JSON integer too long for Python's int conversion, kept as its digits."""


def _parse_int(text: str) -> int | BigInt:
    if len(text) <= _BIG_DIGITS:
        return int(text)
    return BigInt(_BIG + text)


class _ScannerSettings:
    """The attributes `_json.make_scanner` reads from a json.JSONDecoder."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = staticmethod(_parse_int)
    parse_constant = staticmethod(_refuse_constant)
    memo: ClassVar[dict[str, Any]] = {}


class DecodeError(ValueError):
    """The text is not one JSON value."""


if _json is not None:
    _scan = _json.make_scanner(_ScannerSettings())  # type: ignore[arg-type]
    _compact = _json.make_encoder(None, _refuse_type, _json.encode_basestring, None, ":", ",",
                                  False, False, False)
    _ascii = _json.make_encoder(None, _refuse_type, _json.encode_basestring_ascii, None, ":", ",",
                                False, False, False)


def _loads_with_json(text: str) -> Any:
    import json

    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_int=_parse_int)
    except (ValueError, RecursionError) as err:
        raise DecodeError(str(err)) from err


def loads(text: str) -> Any:
    """Parse exactly one JSON value (surrounded by whitespace at most); raise DecodeError."""
    if _json is None:
        return _loads_with_json(text)
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration as stop:
        raise DecodeError(f"Expecting value at character {stop.value}") from None
    except (ValueError, RecursionError) as err:
        raise DecodeError(str(err)) from err
    except SystemError:
        # The C scanner reports syntax errors with json.decoder's exception type, which it can
        # fail to load while json is not yet imported: let json itself say what is wrong.
        return _loads_with_json(text)
    if text[end:].strip(_WHITESPACE):
        raise DecodeError(f"Extra data at character {end}")
    return value


def dumps(value: Any, ensure_ascii: bool = False) -> str:
    """Compact JSON text (no spaces); TypeError or ValueError for what JSON cannot hold."""
    if _json is None:
        import json

        text = json.dumps(value, ensure_ascii=ensure_ascii, separators=(",", ":"), allow_nan=False)
    elif isinstance(value, str):
        text = (_json.encode_basestring_ascii if ensure_ascii else _json.encode_basestring)(value)
    else:
        text = "".join((_ascii if ensure_ascii else _compact)(value, 0))
    if "bigint:" in text:
        text = _restore_big_ints(text)
    return text


def _restore_big_ints(text: str) -> str:
    """Big integers written back as numbers, not as the strings that carried them."""
    import re

    return re.sub(r'"(?:\ufdd0\ufdd1|\\ufdd0\\ufdd1)bigint:(-?\d+)"', r"\1", text)
