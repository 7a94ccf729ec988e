"""WEBSEARCH_TOOLS: a deployment offers only the tools it names, over stdio, HTTP and the REST facade
alike; an unknown name is a configuration error that names the known ones."""

from __future__ import annotations

import threading

import pytest
import requests

from tests.conftest import config_for, env_for
from tests.helpers import call, request
from tests.test_end_to_end import replies, run
from websearch_mcp.config import ConfigError, validate
from websearch_mcp.transports.http.server import make_http_server

CHOSEN = "fetch_content,web_search"


def test_stdio_lists_and_calls_only_the_chosen_tools(upstream):
    process = run([request("tools/list", id=1), call("instant_answer", {"query": "x"}, id=2)],
                  env={**env_for(upstream), "WEBSEARCH_TOOLS": CHOSEN})
    answered = replies(process)
    assert [t["name"] for t in answered[1]["result"]["tools"]] == ["fetch_content", "web_search"]
    assert answered[2]["error"]["code"] == -32602 and "instant_answer" in answered[2]["error"]["message"]


def test_http_and_rest_offer_only_the_chosen_tools(upstream):
    server = make_http_server(config_for(upstream, tools=CHOSEN), "127.0.0.1", 0)
    threading.Thread(target=server.serve, daemon=True).start()
    base = f"http://127.0.0.1:{server.address[1]}"
    try:
        listed = requests.get(f"{base}/tools", timeout=5).json()["tools"]
        assert [t["name"] for t in listed] == ["fetch_content", "web_search"]
        refused = requests.post(f"{base}/tools/call", json={"name": "search_context", "parameters": {"query": "x"}},
                                timeout=5)
        assert refused.status_code == 400 and "search_context" in refused.text
        mcp = requests.post(f"{base}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
                            headers={"Accept": "application/json, text/event-stream",
                                     "MCP-Protocol-Version": "2025-11-25"}, timeout=5).json()
        assert [t["name"] for t in mcp["result"]["tools"]] == ["fetch_content", "web_search"]
    finally:
        server.close()


def test_an_unknown_tool_name_is_a_configuration_error(upstream):
    with pytest.raises(ConfigError, match="WEBSEARCH_TOOLS names 'web_serch'; known tools: web_search, "):
        validate(config_for(upstream, tools="web_serch"))
    process = run([request("tools/list", id=1)], env={**env_for(upstream), "WEBSEARCH_TOOLS": "web_serch"})
    assert process.returncode != 0 and b"known tools: web_search" in process.stderr and process.stdout == b""


def test_a_tavily_tool_needs_its_key(upstream):
    with pytest.raises(ConfigError, match=r"needs TAVILY_API_KEY$"):
        validate(config_for(upstream, tools="tavily_search"))
