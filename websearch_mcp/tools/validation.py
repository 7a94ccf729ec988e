"""Checks tool arguments against the tool's input schema (the subset of JSON Schema tools use).

Covers type, required, enum, minimum, maximum, exclusiveMinimum/Maximum, minLength, maxLength,
pattern, items, minItems, maxItems and unknown properties; fills in defaults.
"""

from __future__ import annotations

from websearch_mcp import wire
from websearch_mcp.errors import InvalidArguments

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_TYPE_NAMES = {
    "string": "a string", "integer": "an integer", "number": "a number",
    "boolean": "a boolean", "array": "an array", "object": "an object", "null": "null",
}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _matches_type(value: Any, expected: str) -> bool:
    actual = _json_type(value)
    if expected == "number":
        return actual in ("integer", "number")
    if expected == "integer" and actual == "number":
        return float(value).is_integer()
    return actual == expected


_patterns: dict[str, Any] = {}


def _compiled(pattern: str) -> Any:
    """The compiled pattern (re is imported on first use: it costs start-up time)."""
    if pattern not in _patterns:
        import re

        _patterns[pattern] = re.compile(pattern)
    return _patterns[pattern]


def _show(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else '"' + value + '"'
    return text if len(text) <= 60 else text[:57] + "..."


def _count(number: int, noun: str) -> str:
    """'1 item', '3 items'."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _fail(path: str, rule: str, detail: str) -> InvalidArguments:
    return InvalidArguments(f"Invalid argument '{path}': {detail} ({rule})", parameter=path, rule=rule)


def _from_string(value: str, options: list[Any], schema: dict[str, Any]) -> Any:
    """What a client that sends every argument as a string meant: a string holding exactly the JSON of
    the number, boolean or array the schema expects (or a bare URL for a list of URLs); None otherwise."""
    if "string" in options:
        return None
    text = value.strip()
    try:
        decoded = wire.loads(text)
    except ValueError:
        decoded = None
        items = schema.get("items")
        if "array" in options and isinstance(items, dict) and items.get("type") == "string" and text and \
                not text.startswith("[") and text.lower().startswith(("http://", "https://")):
            return [text]
    if decoded is None or isinstance(decoded, (str, dict)):
        return None
    return decoded if any(_matches_type(decoded, option) for option in options) else None


def _check_type(value: Any, schema: dict[str, Any], path: str) -> Any:
    expected = schema.get("type")
    if expected is None:
        return value
    options = expected if isinstance(expected, list) else [expected]
    if isinstance(value, str):
        meant = _from_string(value, options, schema)
        if meant is not None:
            value = meant
    for option in options:
        if _matches_type(value, option):
            if option == "integer" and isinstance(value, float):
                return int(value)
            return value
    wanted = " or ".join(_TYPE_NAMES.get(str(o), str(o)) for o in options)
    raise _fail(path, "type", f"must be {wanted}, got {_TYPE_NAMES.get(_json_type(value), 'a value')}")


def _check_bounds(value: Any, schema: dict[str, Any], path: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return
    if "minimum" in schema and value < schema["minimum"]:
        raise _fail(path, "minimum", f"must be at least {schema['minimum']}, got {value}")
    if "maximum" in schema and value > schema["maximum"]:
        raise _fail(path, "maximum", f"must be at most {schema['maximum']}, got {value}")
    if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
        raise _fail(path, "exclusiveMinimum", f"must be greater than {schema['exclusiveMinimum']}")
    if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
        raise _fail(path, "exclusiveMaximum", f"must be less than {schema['exclusiveMaximum']}")


def _check_string(value: Any, schema: dict[str, Any], path: str) -> None:
    if not isinstance(value, str):
        return
    if "minLength" in schema and len(value) < schema["minLength"]:
        raise _fail(path, "minLength", f"must be at least {_count(schema['minLength'], 'character')} long")
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        raise _fail(path, "maxLength",
                    f"must be at most {_count(schema['maxLength'], 'character')} long, got {len(value)}")
    if "pattern" in schema and not _compiled(schema["pattern"]).search(value):
        raise _fail(path, "pattern", f"must match {schema['pattern']}, got {_show(value)}")


def _check_array(value: Any, schema: dict[str, Any], path: str) -> Any:
    if not isinstance(value, list):
        return value
    if "minItems" in schema and len(value) < schema["minItems"]:
        raise _fail(path, "minItems", f"must have at least {_count(schema['minItems'], 'item')}")
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        raise _fail(path, "maxItems", f"must have at most {_count(schema['maxItems'], 'item')}, got {len(value)}")
    items = schema.get("items")
    if isinstance(items, dict):
        return [_check_value(item, items, f"{path}[{i}]") for i, item in enumerate(value)]
    return value


def _check_value(value: Any, schema: dict[str, Any], path: str) -> Any:
    value = _check_type(value, schema, path)
    if "enum" in schema and value not in schema["enum"]:
        allowed = ", ".join(_show(v) for v in schema["enum"])
        raise _fail(path, "enum", f"must be one of {allowed}, got {_show(value)}")
    if "const" in schema and value != schema["const"]:
        raise _fail(path, "const", f"must be {_show(schema['const'])}")
    _check_bounds(value, schema, path)
    _check_string(value, schema, path)
    value = _check_array(value, schema, path)
    if isinstance(value, dict) and schema.get("type") == "object":
        value = _check_object(value, schema, path + ".")
    return value


def _check_object(arguments: dict[str, Any], schema: dict[str, Any], prefix: str) -> dict[str, Any]:
    properties: dict[str, Any] = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in arguments:
            raise _fail(prefix + name, "required", "is required")
    if schema.get("additionalProperties") is False:
        unknown = sorted(set(arguments) - set(properties))
        if unknown:
            known = ", ".join(properties) or "none"
            raise _fail(prefix + unknown[0], "additionalProperties",
                        f"is not a known parameter (known: {known})")
    checked: dict[str, Any] = {}
    for name, value in arguments.items():
        sub = properties.get(name)
        checked[name] = _check_value(value, sub, prefix + name) if isinstance(sub, dict) else value
    for name, sub in properties.items():
        if name not in checked and isinstance(sub, dict) and "default" in sub:
            checked[name] = _fresh(sub["default"])
    return checked


def _fresh(default: Any) -> Any:
    """A copy of a default that the handler may change without changing the schema."""
    return wire.loads(wire.dumps(default)) if isinstance(default, (dict, list)) else default


def _check_unicode(value: Any, path: str) -> None:
    """Refuse text that is not valid Unicode (a lone surrogate such as \\ud800 can be written in JSON
    but cannot be sent anywhere), in names and values at any depth."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as err:
            raise _fail(path or "arguments", "unicode", f"is not valid Unicode text: it holds a lone surrogate "
                        f"(\\u{ord(value[err.start]):04x}) at character {err.start}") from None
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_unicode(item, f"{path}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_unicode(key, path)
            _check_unicode(item, f"{path}.{key}" if path else key)


MAX_QUERY_CHARS = 499  # DuckDuckGo refuses longer queries; every tool that searches keeps to it
QUERY_LIMITS = {"minLength": 1, "maxLength": MAX_QUERY_CHARS}  # declared in each searching tool's schema


def check_search_query(query: str) -> None:
    """The one set of rules for what a searching tool sends to the engines: not blank, not too long."""
    if not query.strip():
        raise InvalidArguments("Invalid argument 'query': must not be empty or blank (minLength)", parameter="query",
                               rule="minLength")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidArguments(f"Invalid argument 'query': must be at most {MAX_QUERY_CHARS} characters, "
                               f"got {len(query)} (maxLength; DuckDuckGo refuses longer queries)",
                               parameter="query", rule="maxLength")


def validate_arguments(arguments: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """Return the arguments with defaults applied; raise InvalidArguments naming parameter and rule."""
    _check_unicode(arguments, "")
    return _check_object(arguments, schema, "")
