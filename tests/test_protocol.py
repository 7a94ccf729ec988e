"""The MCP and JSON-RPC layers in-process, over byte streams: every error code pinned."""

from __future__ import annotations

import json

import pytest

from tests.helpers import MODERN_META, call, exchange, initialize, request
from websearch_mcp import jsonrpc, revisions
from websearch_mcp.config import Config


@pytest.mark.parametrize("cls, code", [
    (jsonrpc.ParseError, -32700), (jsonrpc.InvalidRequest, -32600), (jsonrpc.MethodNotFound, -32601),
    (jsonrpc.InvalidParams, -32602), (jsonrpc.InternalError, -32603), (jsonrpc.ServerError, -32000),
])
def test_error_classes_carry_their_codes(cls, code):
    assert code == cls.CODE
    assert cls().to_dict()["code"] == code


@pytest.mark.parametrize("asked, answered", [
    ("2024-11-05", "2024-11-05"), ("2025-03-26", "2025-03-26"), ("2025-06-18", "2025-06-18"),
    ("2025-11-25", "2025-11-25"), ("1.0.0", "2025-11-25"), ("2026-07-28", "2025-11-25"), (None, "2025-11-25"),
])
def test_initialize_negotiates_a_legacy_revision(asked, answered):
    [reply] = exchange([initialize(asked)])
    result = reply["result"]
    assert result["protocolVersion"] == answered
    assert result["capabilities"] == {"tools": {"listChanged": False}}
    assert result["serverInfo"]["name"] == "websearch-mcp"
    assert ("title" in result["serverInfo"]) == (answered in ("2025-06-18", "2025-11-25"))


def test_seed_initialize_with_unknown_capabilities_is_accepted():
    message = request("initialize", {"protocolVersion": "1.0.0", "clientInfo": {"name": "claude-desktop",
                                     "version": "1.0.0"}, "capabilities": {"x-unknown": {"a": 1}}})
    [reply] = exchange([message])
    assert reply["result"]["protocolVersion"] == "2025-11-25"


@pytest.mark.parametrize("revision, present, absent", [
    ("2024-11-05", {"name", "description", "inputSchema"}, {"annotations", "title", "outputSchema"}),
    ("2025-03-26", {"annotations"}, {"title", "outputSchema"}),
    ("2025-06-18", {"annotations", "title", "outputSchema"}, set()),
    ("2025-11-25", {"annotations", "title", "outputSchema"}, set()),
])
def test_tool_fields_follow_the_negotiated_revision(revision, present, absent):
    _, listing = exchange([initialize(revision), request("tools/list", id=2)])
    echo = next(t for t in listing["result"]["tools"] if t["name"] == "echo")
    assert present <= set(echo)
    assert not absent & set(echo)


@pytest.mark.parametrize("revision, structured", [
    ("2024-11-05", False), ("2025-03-26", False), ("2025-06-18", True), ("2025-11-25", True)])
def test_structured_content_only_where_the_revision_has_it(revision, structured):
    _, reply = exchange([initialize(revision), call("echo", {"text": "hi"})])
    assert reply["result"]["content"] == [{"type": "text", "text": "hi"}]
    assert ("structuredContent" in reply["result"]) == structured


def test_ping_and_notifications():
    replies = exchange([
        request("ping", id=7),
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}},
        {"jsonrpc": "2.0", "method": "notifications/whatever", "params": {}},
        {"jsonrpc": "2.0", "method": "no/such/notification"},
    ])
    assert replies == [{"jsonrpc": "2.0", "id": 7, "result": {}}]


@pytest.mark.parametrize("line, code", [
    (b"{not json\n", -32700),
    (b'{"jsonrpc":"2.0","id":1,"method":"ping"\n', -32700),
    (b"\xff\xfe\n", -32700),
    (b"[1\n", -32700),
    (b"42\n", -32600),
    (b'"ping"\n', -32600),
    (b"null\n", -32600),
    (b'{"id":1,"method":"ping"}\n', -32600),
    (b'{"jsonrpc":"1.0","id":1,"method":"ping"}\n', -32600),
    (b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}\n', -32600),
    (b'{"jsonrpc":"2.0","id":true,"method":"ping"}\n', -32600),
    (b'{"jsonrpc":"2.0","id":null,"method":"ping"}\n', -32600),
    (b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}\n', -32600),
    (b'{"jsonrpc":"2.0","id":1,"method":5}\n', -32600),
    (b'{"jsonrpc":"2.0","id":1}\n', -32600),
    (b'{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}\n', -32600),
    (b"[]\n", -32600),
])
def test_malformed_input_gets_the_right_code(line, code):
    [reply] = exchange([line])
    assert reply["error"]["code"] == code
    assert reply["jsonrpc"] == "2.0"


def test_parse_error_has_null_id():
    [reply] = exchange([b"{oops\n"])
    assert reply["id"] is None and reply["error"]["code"] == -32700


def test_invalid_request_echoes_a_readable_id():
    [reply] = exchange([b'{"jsonrpc":"2.0","id":"abc","method":7}\n'])
    assert reply["id"] == "abc" and reply["error"]["code"] == -32600


@pytest.mark.parametrize("request_id", [0, -1, 2**53, "", "0", "req-1", "ünïcødé"])
def test_ids_are_echoed_unchanged(request_id):
    [reply] = exchange([request("ping", id=request_id)])
    assert reply["id"] == request_id and type(reply["id"]) is type(request_id)


def test_unknown_method():
    [reply] = exchange([request("resources/list", id=3)])
    assert reply["error"]["code"] == -32601 and reply["id"] == 3


@pytest.mark.parametrize("params, message", [
    ({}, "name"),
    ({"name": 5}, "name"),
    ({"name": "echo", "arguments": []}, "arguments"),
    ({"name": "echo", "arguments": "text"}, "arguments"),
    ({"name": "nope"}, "Tool not found: nope"),
])
def test_invalid_tools_call_params(params, message):
    [reply] = exchange([request("tools/call", params, id=4)])
    assert reply["error"]["code"] == -32602
    assert message in reply["error"]["message"]


def test_unknown_tool_message_is_exact():
    [reply] = exchange([call("invalid.tool")])
    assert reply["error"] == {"code": -32602, "message": "Tool not found: invalid.tool"}


def test_internal_error_is_reported_and_the_server_goes_on(capfd):
    replies = {r["id"]: r for r in exchange([call("boom", {}, id=1), request("ping", id=2)])}
    assert replies[1]["error"] == {"code": -32603, "message": "Internal error"}
    assert replies[2] == {"jsonrpc": "2.0", "id": 2, "result": {}}
    err = capfd.readouterr().err
    assert "Traceback" in err and "deliberate failure inside a tool" in err


def test_tool_error_is_an_error_result_not_a_protocol_error():
    [reply] = exchange([call("refuse", {})])
    assert reply["result"] == {"content": [{"type": "text", "text": "the upstream is down; try again later"}],
                               "isError": True}


def test_blank_lines_are_ignored():
    replies = exchange([b"\n", b"   \n", b"\r\n", request("ping", id=1), b"\n"])
    assert replies == [{"jsonrpc": "2.0", "id": 1, "result": {}}]


def test_oversized_line_is_refused_and_reading_goes_on():
    config = Config(max_line_bytes=2048)
    big = {"jsonrpc": "2.0", "id": 41, "method": "tools/call",
           "params": {"name": "echo", "arguments": {"text": "x" * 5000}}}
    replies = exchange([big, request("ping", id=42)], config=config)
    assert replies[0]["id"] == 41 and replies[0]["error"]["code"] == -32600
    assert "2048" in replies[0]["error"]["message"]
    assert replies[1] == {"jsonrpc": "2.0", "id": 42, "result": {}}


def test_oversized_line_without_leading_id_gets_null_id():
    config = Config(max_line_bytes=1024)
    line = json.dumps({"jsonrpc": "2.0", "method": "tools/call", "params": {"x": "y" * 3000}, "id": 5})
    [reply] = exchange([line.encode() + b"\n"], config=config)
    assert reply["id"] is None and reply["error"]["code"] == -32600


def test_line_without_final_newline_at_eof_is_answered():
    [reply] = exchange([b'{"jsonrpc":"2.0","id":9,"method":"ping"}'])
    assert reply == {"jsonrpc": "2.0", "id": 9, "result": {}}


def test_deeply_nested_input_is_a_parse_error():
    replies = exchange([b"[" * 200_000 + b"\n", b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'])
    assert replies[0]["error"]["code"] == -32700 and replies[1]["id"] == 1


def test_lone_surrogates_are_escaped_not_fatal():
    [reply] = exchange([b'{"jsonrpc":"2.0","id":"\\ud800x","method":"ping"}\n'])
    assert reply["id"] == "\ud800x" and reply["result"] == {}


def test_responses_from_the_client_are_ignored():
    assert exchange([{"jsonrpc": "2.0", "id": 5, "result": {}}]) == []


# -- batches --------------------------------------------------------------------------------------

def test_batches_are_answered_in_2025_03_26():
    batch = [request("ping", id=1), {"jsonrpc": "2.0", "method": "notifications/initialized"},
             call("echo", {"text": "a"}, id=2), request("nope", id=3)]
    _, reply = exchange([initialize("2025-03-26"), batch])
    assert isinstance(reply, list)
    by_id = {r["id"]: r for r in reply}
    assert set(by_id) == {1, 2, 3}
    assert by_id[1]["result"] == {} and by_id[2]["result"]["content"][0]["text"] == "a"
    assert by_id[3]["error"]["code"] == -32601


def test_initialize_inside_a_batch_is_refused():
    _, reply = exchange([initialize("2025-03-26"), [initialize("2025-03-26", id=8)]])
    assert reply[0]["id"] == 8 and reply[0]["error"]["code"] == -32600


def test_batch_of_notifications_gets_no_answer():
    replies = exchange([initialize("2025-03-26"), [{"jsonrpc": "2.0", "method": "notifications/initialized"}]])
    assert len(replies) == 1


@pytest.mark.parametrize("revision", [None, "2024-11-05", "2025-06-18", "2025-11-25"])
def test_batches_are_refused_elsewhere_with_each_id_answered(revision):
    lines = ([initialize(revision)] if revision else []) + [[request("ping", id=1), request("ping", id="two")]]
    replies = exchange(lines)[1 if revision else 0:]
    assert {r["id"] for r in replies} == {1, "two"}
    assert all(r["error"]["code"] == -32600 for r in replies)


# -- pagination -----------------------------------------------------------------------------------

def test_tools_list_paginates_with_opaque_cursors():
    names, cursor, pages = [], None, 0
    while True:
        params = {"cursor": cursor} if cursor else {}
        [reply] = exchange([request("tools/list", params)], page_size=1)
        names += [t["name"] for t in reply["result"]["tools"]]
        pages += 1
        cursor = reply["result"].get("nextCursor")
        if cursor is None:
            break
    assert names == ["echo", "boom", "refuse", "gate"] and pages == 4


@pytest.mark.parametrize("cursor", ["garbage!", "dG9vbHM6LTE", "eHl6OjE", 5, "dG9vbHM6OTk"])
def test_bad_cursor_is_invalid_params(cursor):
    [reply] = exchange([request("tools/list", {"cursor": cursor})])
    assert reply["error"]["code"] == -32602


# -- argument validation --------------------------------------------------------------------------

@pytest.mark.parametrize("arguments, expected", [
    ({}, "Invalid argument 'query': is required (required)"),
    ({"query": 5}, "'query': must be a string, got an integer (type)"),
    ({"query": "x", "max_results": 0}, "'max_results': must be at least 1, got 0 (minimum)"),
    ({"query": "x", "max_results": 31}, "'max_results': must be at most 30, got 31 (maximum)"),
    ({"query": "x", "max_results": "five"}, "'max_results': must be an integer, got a string (type)"),
    ({"query": "x", "max_results": 2.5}, "'max_results': must be an integer"),
    ({"query": "x", "max_results": True}, "'max_results': must be an integer, got a boolean"),
    ({"query": "x", "time_range": "decade"}, "'time_range': must be one of"),
    ({"query": "x", "safe_search": 3}, "'safe_search': must be one of 0, 1, 2, got 3 (enum)"),
    ({"query": "x", "region": "USA"}, "'region': must match"),
    ({"query": "x", "colour": "red"}, "'colour': is not a known parameter"),
    ({"query": ""}, "'query': must be at least 1 character long (minLength)"),
    ({"query": "   "}, "'query': must not be empty or blank (minLength)"),
    ({"query": "q" * 500}, "'query': must be at most 499 characters"),
])
def test_argument_violations_are_error_results_naming_parameter_and_rule(arguments, expected, config):
    from tests.helpers import test_registry

    [reply] = exchange([call("web_search", arguments)], registry=test_registry(with_builtin=config))
    assert reply["result"]["isError"] is True
    assert expected in reply["result"]["content"][0]["text"]


# -- stateless era ------------------------------------------------------------------------------

def modern(method: str, params: dict | None = None, id: int = 1, meta: dict | None = None) -> dict:
    body = dict(params or {})
    body["_meta"] = MODERN_META if meta is None else meta
    return request(method, body, id=id)


def test_server_discover():
    [reply] = exchange([modern("server/discover")])
    result = reply["result"]
    assert result["resultType"] == "complete" and result["supportedVersions"] == ["2026-07-28"]
    assert result["capabilities"] == {"tools": {"listChanged": False}}
    assert result["ttlMs"] >= 0 and result["cacheScope"] in ("public", "private")
    assert result["_meta"][revisions.META_SERVER_INFO]["name"] == "websearch-mcp"


def test_modern_tools_list_and_call_carry_result_type_and_cache_fields():
    listing, called = exchange([modern("tools/list"), modern("tools/call", {"name": "echo",
                                                                              "arguments": {"text": "x"}}, id=2)])
    assert listing["result"]["resultType"] == "complete"
    assert {"ttlMs", "cacheScope", "tools"} <= set(listing["result"])
    assert called["result"]["resultType"] == "complete"
    assert called["result"]["structuredContent"] == {"echo": "x"}


def test_legacy_results_have_no_modern_fields():
    _, listing = exchange([initialize(), request("tools/list", id=2)])
    assert not {"resultType", "ttlMs", "cacheScope"} & set(listing["result"])


@pytest.mark.parametrize("meta", [
    {"io.modelcontextprotocol/protocolVersion": "2026-07-28"},
    {"io.modelcontextprotocol/clientCapabilities": {}},
    {"io.modelcontextprotocol/protocolVersion": 2026, "io.modelcontextprotocol/clientCapabilities": {}},
])
def test_missing_or_bad_meta_is_invalid_params(meta):
    [reply] = exchange([modern("tools/list", meta=meta)])
    assert reply["error"]["code"] == -32602


def test_discover_without_meta_is_invalid_params():
    [reply] = exchange([request("server/discover", id=3)])
    assert reply["error"]["code"] == -32602 and reply["id"] == 3


@pytest.mark.parametrize("version", ["1900-01-01", "2025-11-25", "2099-01-01"])
def test_unsupported_modern_version(version):
    meta = {**MODERN_META, "io.modelcontextprotocol/protocolVersion": version}
    [reply] = exchange([modern("server/discover", meta=meta)])
    assert reply["error"]["code"] == -32022
    assert reply["error"]["data"]["requested"] == version
    assert "2026-07-28" in reply["error"]["data"]["supported"]


@pytest.mark.parametrize("method", ["ping", "initialize", "logging/setLevel", "resources/list"])
def test_methods_the_stateless_era_removed_are_not_found(method):
    [reply] = exchange([modern(method)])
    assert reply["error"]["code"] == -32601


def test_both_eras_in_one_process():
    replies = exchange([modern("server/discover", id=1), initialize("2025-06-18", id=2),
                        request("tools/list", id=3), modern("tools/list", id=4)])
    assert replies[1]["result"]["protocolVersion"] == "2025-06-18"
    assert "resultType" not in replies[2]["result"] and replies[3]["result"]["resultType"] == "complete"
