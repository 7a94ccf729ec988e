"""The installed `websearch-mcp` command, spawned as MCP clients spawn it, fed JSON lines.

Every response is validated against the official schema of the revision it was sent in.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from typing import Any

import pytest

from tests.conftest import client_environment, env_for, installed_command
from tests.helpers import MODERN_META, call, initialize, request
from tests.schema_check import validate_response

REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]


def run(lines: list[Any], env: dict[str, str] | None = None, args: list[str] | None = None,
        timeout: float = 30) -> subprocess.CompletedProcess[bytes]:
    payload = b"".join(line if isinstance(line, bytes) else (json.dumps(line) + "\n").encode() for line in lines)
    return subprocess.run([installed_command(), *(args or [])], input=payload, capture_output=True,
                          env=client_environment(env), timeout=timeout)


def replies(process: subprocess.CompletedProcess[bytes]) -> dict[Any, dict[str, Any]]:
    lines = process.stdout.decode("utf-8").splitlines()
    decoded = [json.loads(line) for line in lines]  # stdout holds protocol messages and nothing else
    return {message["id"]: message for message in decoded}


@pytest.mark.parametrize("revision", REVISIONS)
def test_handshake_list_and_call_in_each_revision(ddg, revision):
    process = run([initialize(revision, id=0), {"jsonrpc": "2.0", "method": "notifications/initialized"},
                   request("ping", id=1), request("tools/list", id=2),
                   call("web_search", {"query": "rust programming language", "max_results": 3}, id=3),
                   call("instant_answer", {"query": "DuckDuckGo"}, id=4),
                   call("web_search", {"query": "x", "max_results": 99}, id=5),
                   call("nope", {}, id=6), request("bogus/method", id=7)], env=env_for(ddg))
    assert process.returncode == 0
    answered = replies(process)
    assert sorted(answered) == [0, 1, 2, 3, 4, 5, 6, 7]
    methods = {0: "initialize", 1: "ping", 2: "tools/list", 3: "tools/call", 4: "tools/call", 5: "tools/call",
               6: "tools/call", 7: "bogus"}
    for request_id, message in answered.items():
        validate_response(message, revision, methods[request_id])
    assert answered[0]["result"]["protocolVersion"] == revision
    assert [t["name"] for t in answered[2]["result"]["tools"]] == ["web_search", "instant_answer", "fetch_content",
                                                                   "search_context"]
    assert answered[3]["result"]["content"][0]["text"].endswith("_Source: DuckDuckGo (3 results)_")
    assert answered[5]["result"]["isError"] is True
    assert answered[6]["error"]["code"] == -32602 and answered[7]["error"]["code"] == -32601


def test_stateless_era_end_to_end(ddg):
    def modern(method: str, params: dict[str, Any], id: int) -> dict[str, Any]:
        return request(method, {**params, "_meta": MODERN_META}, id=id)

    process = run([modern("server/discover", {}, 1), modern("tools/list", {}, 2),
                   modern("tools/call", {"name": "web_search", "arguments": {"query": "rust programming language"}}, 3),
                   request("tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}, 4),
                   modern("ping", {}, 5)], env=env_for(ddg))
    answered = replies(process)
    for request_id, method in [(1, "server/discover"), (2, "tools/list"), (3, "tools/call"), (4, "x"), (5, "x")]:
        validate_response(answered[request_id], "2026-07-28", method)
    assert answered[3]["result"]["structuredContent"]["metadata"]["results_count"] == 10
    assert answered[4]["error"]["code"] == -32602 and answered[5]["error"]["code"] == -32601


def test_errors_validate_against_the_schema():
    process = run([b"{broken\n", b"[]\n", b'{"jsonrpc":"2.0","id":3,"method":7}\n', request("x", id=4)])
    answered = [json.loads(line) for line in process.stdout.decode().splitlines()]
    assert [m["error"]["code"] for m in answered] == [-32700, -32600, -32600, -32601]
    for message in answered:
        validate_response(message, "2025-11-25", "x")


def test_in_flight_calls_finish_after_stdin_closes(upstream):
    from tests.fake_upstream import Reply

    upstream.route("POST", "/html/", Reply.fixture("ddg-html/rust-programming-language-2026-04.html", delay=0.5))
    lines = [initialize()] + [call("web_search", {"query": "rust", "max_results": 1}, id=i) for i in range(1, 6)]
    process = run(lines, env=env_for(upstream))
    assert process.returncode == 0
    assert sorted(replies(process)) == [0, 1, 2, 3, 4, 5]


def test_sigterm_exits_promptly(upstream):
    from tests.fake_upstream import Reply

    upstream.route("POST", "/html/", Reply(delay=20))
    server = subprocess.Popen([installed_command()], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=client_environment(env_for(upstream)))
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write((json.dumps(call("web_search", {"query": "slow"})) + "\n").encode())
    server.stdin.write((json.dumps(request("ping", id=2)) + "\n").encode())
    server.stdin.flush()
    assert json.loads(server.stdout.readline())["id"] == 2  # answered though unbuffered-ness is not forced
    started = time.monotonic()
    server.send_signal(signal.SIGTERM)
    server.wait(5)
    assert time.monotonic() - started < 2
    server.stdin.close()
    server.stdout.close()
    server.stderr.close()  # type: ignore[union-attr]


def test_logs_go_to_stderr_only(ddg):
    env = {**env_for(ddg), "WEBSEARCH_LOG_LEVEL": "debug"}
    process = run([initialize(), call("web_search", {"query": "rust", "max_results": 1}, id=1)], env=env)
    assert "websearch-mcp" in process.stderr.decode()
    for line in process.stdout.decode().splitlines():
        assert json.loads(line)["jsonrpc"] == "2.0"


def test_bad_configuration_is_a_clear_start_up_error():
    process = run([], env={"WEBSEARCH_TIMEOUT": "soon"})
    assert process.returncode == 2 and b"WEBSEARCH_TIMEOUT" in process.stderr and process.stdout == b""


def test_protocol_path_does_not_import_the_http_stack(tmp_path):
    code = (
        "import io, sys\n"
        "from websearch_mcp.cli import run_stdio\n"
        "from websearch_mcp.config import load_config\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(b'" + json.dumps(initialize()).replace("'", "\\'") + "\\n'"
        " + b'{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\\n'))\n"
        "run_stdio(load_config())\n"
        "heavy = [m for m in ('requests', 'lxml', 'bs4', 'urllib3', 'concurrent.futures', 'logging', 'json', 're', "
        "'threading', 'dataclasses', 'typing', 'argparse', 'sqlite3', 'redis', 'pypdfium2', 'socket', "
        "'websearch_mcp.store.sqlite', 'websearch_mcp.store.redis_server') "
        "if m in sys.modules]\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    cache = tmp_path / "cache"  # the default store lives here; initialize and tools/list must not open it
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop("WEBSEARCH_STORE", None)
    process = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=30, env=env)
    assert b"HEAVY []" in process.stderr, process.stderr.decode()
    assert len(process.stdout.decode().splitlines()) == 2
    assert not cache.exists()


# -- the command line -------------------------------------------------------------------------------

def cli(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([installed_command(), *args], capture_output=True, text=True,
                          env=client_environment(env), timeout=30)


def test_call_prints_markdown(ddg):
    process = cli(["call", "web_search", "query=rust programming language", "max_results=2"], env_for(ddg))
    assert process.returncode == 0
    assert process.stdout.startswith('## Web Search Results for "rust programming language"\n\n### 1. Rust')
    assert process.stdout.rstrip().endswith("_Source: DuckDuckGo (2 results)_")


def test_call_exits_1_when_the_tool_reports_an_error(upstream):
    from tests.fake_upstream import Reply

    upstream.route("POST", "/html/", Reply(status=429))
    upstream.route("POST", "/lite/", Reply(status=429))
    process = cli(["call", "web_search", "query=rust"], env_for(upstream))
    # the error goes to stderr, and nothing to stdout (issue 14: stdout is for the Markdown of a success)
    assert process.returncode == 1 and "rate-limiting" in process.stderr and process.stdout == ""


def test_call_with_json_output_and_numeric_strings(ddg):
    process = cli(["call", "instant_answer", "query=2+2", "--json"], env_for(ddg))
    assert json.loads(process.stdout)["structuredContent"]["answer"] == "2 + 2 = 4"


def test_call_unknown_tool():
    process = cli(["call", "nope"])
    assert process.returncode == 2 and "Tool not found: nope" in process.stderr


def test_help_version_and_module_entry_point():
    assert "call" in cli(["--help"]).stdout
    version = cli(["--version"]).stdout.strip()
    assert version.startswith("websearch-mcp ")
    module = subprocess.run([sys.executable, "-m", "websearch_mcp", "--version"], capture_output=True, text=True)
    assert module.stdout.strip() == version
    assert "web_search" in cli(["tools"]).stdout


def test_fetch_content_through_the_installed_command(upstream):
    from tests.fake_upstream import Reply

    upstream.route("GET", "/post", Reply.fixture("handmade/pages/article.html"))
    url = f"{upstream.url}/post"
    env = {**env_for(upstream), "WEBSEARCH_ALLOW_PRIVATE_URLS": "1"}
    process = run([initialize(), call("fetch_content", {"urls": [url]}, id=1)], env=env)
    answered = replies(process)
    validate_response(answered[1], "2025-11-25", "tools/call")
    assert answered[1]["result"]["content"][0]["text"].startswith(f"## Understanding Async Rust\n**URL:** {url}")
    refused = run([initialize(), call("fetch_content", {"urls": [url]}, id=1)], env=env_for(upstream))
    assert "loopback" in replies(refused)[1]["result"]["content"][0]["text"]


def test_blocked_duckduckgo_is_answered_by_the_next_engine(upstream):
    from tests.test_engines import route_engines

    route_engines(upstream)  # DuckDuckGo answers its CAPTCHA page on both endpoints
    env = {**env_for(upstream), "WEBSEARCH_BACKENDS": ""}  # the default order, as a user gets it
    process = run([initialize(id=0), call("web_search", {"query": "javascript tutorial", "max_results": 3}, id=1)],
                  env=env)
    answered = replies(process)
    assert answered[1]["result"]["content"][0]["text"].endswith("_Source: Bing (3 results)_")
    validate_response(answered[1], "2025-11-25", "tools/call")
    assert [r.path for r in upstream.requests] == ["/html/", "/lite/", "/bing/search"]
