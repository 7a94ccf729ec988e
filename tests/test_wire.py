"""The wire codec agrees with the json module (it drives the same C code without importing json)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from websearch_mcp import wire

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=25,
)


@given(values)
def test_round_trip_and_same_text_as_json(value):
    text = wire.dumps(value)
    assert text == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert wire.dumps(value, ensure_ascii=True) == json.dumps(value, separators=(",", ":"))
    assert wire.loads(text) == value or (isinstance(value, float) and math.isnan(value))


@given(st.text(max_size=40))
def test_accepts_and_rejects_what_json_does(text):
    try:
        expected = json.loads(text)
    except ValueError:
        with pytest.raises(wire.DecodeError):
            wire.loads(text)
        return
    if "NaN" in text or "Infinity" in text:
        return  # wire is strict about these; see below
    assert wire.loads(text) == expected


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"a": -Infinity}', "", " ", "1 2", "{", '"\\x"'])
def test_rejects_non_json(text):
    with pytest.raises(wire.DecodeError):
        wire.loads(text)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), object(), {1j: 1}])
def test_refuses_what_json_cannot_hold(value):
    with pytest.raises((TypeError, ValueError)):
        wire.dumps(value)


def test_whitespace_around_a_value_is_allowed():
    assert wire.loads(' \t{"a": [1, 2]}\r\n') == {"a": [1, 2]}


@pytest.mark.parametrize("text", ["\x85mutant", "a\u2028b", "a\u2029b", "\x85\u2028\u2029"])
def test_encoded_messages_hold_no_line_break_of_any_reader(text):
    from websearch_mcp import jsonrpc

    line = jsonrpc.encode({"jsonrpc": "2.0", "id": text, "result": {"text": text}}).decode("utf-8")
    assert line.endswith("\n") and len(line.splitlines()) == 1  # str.splitlines splits on NEL, LS and PS too
    assert jsonrpc.decode(line.encode()) == {"jsonrpc": "2.0", "id": text, "result": {"text": text}}
