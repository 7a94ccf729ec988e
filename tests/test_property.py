"""Property: random and mutated lines never kill the loop, and every request read is answered once."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import exchange

TEMPLATES = [
    {"jsonrpc": "2.0", "method": "ping"},
    {"jsonrpc": "2.0", "method": "tools/list"},
    {"jsonrpc": "2.0", "method": "tools/list", "params": {"cursor": "bogus"}},
    {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}}},
    {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "echo", "arguments": {"text": 5}}},
    {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "missing"}},
    {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "boom", "arguments": {}}},
    {"jsonrpc": "2.0", "method": "no/such/method", "params": {}},
    {"jsonrpc": "2.0", "method": "initialize", "params": {"protocolVersion": "2025-03-26"}},
    {"jsonrpc": "2.0", "method": "server/discover", "params": {}},
]

garbage = st.one_of(
    st.binary(max_size=80).map(lambda b: b.replace(b"\n", b" ")),
    st.text(max_size=80).map(lambda t: t.replace("\n", " ").encode("utf-8", "surrogatepass")),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                 lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                             max_size=4),
                 max_leaves=10).map(lambda v: json.dumps(v).encode()),
)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    text = json.dumps({**draw(st.sampled_from(TEMPLATES)), "id": "mutant"})
    position = draw(st.integers(0, len(text)))
    insert = draw(st.text(max_size=3)).replace("\n", "")
    cut = draw(st.integers(0, 3))
    return (text[:position] + insert + text[position + cut:]).encode("utf-8", "surrogatepass")


@st.composite
def sessions(draw: st.DrawFn) -> tuple[list[bytes], list[str]]:
    lines: list[bytes] = []
    expected: list[str] = []
    for index in range(draw(st.integers(1, 25))):
        kind = draw(st.sampled_from(["request", "request", "notification", "garbage", "mutated"]))
        if kind == "request":
            request_id = f"req-{index}"
            expected.append(request_id)
            lines.append(json.dumps({**draw(st.sampled_from(TEMPLATES)), "id": request_id}).encode())
        elif kind == "notification":
            lines.append(json.dumps(draw(st.sampled_from(TEMPLATES))).encode())
        elif kind == "garbage":
            lines.append(draw(garbage))
        else:
            lines.append(draw(mutated()))
    return [line + b"\n" for line in lines], expected


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_every_request_is_answered_exactly_once(session):
    lines, expected = session
    replies = exchange(lines)  # raises if serve() dies or writes a line that is not JSON
    flat = [r for reply in replies for r in (reply if isinstance(reply, list) else [reply])]
    assert all(r.get("jsonrpc") == "2.0" and ("result" in r) != ("error" in r) for r in flat)
    counts = Counter(r["id"] for r in flat if isinstance(r.get("id"), str) and r["id"].startswith("req-"))
    assert counts == Counter(expected)
