"""The installed `websearch-mcp` command, spawned as MCP clients spawn it, fed JSON lines.

Every response is validated against the official schema of the revision it was sent in.
"""

from __future__ import annotations

import json
import os
import shutil
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
                                                                   "search_context", "map_site", "crawl_site"]
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


def test_the_installed_script_imports_nothing_heavy_before_serving():
    """The console script as the README's install makes it (a current pip's template, which does not
    import `re`), then initialize and tools/list: no module off the protocol path is imported."""
    env = client_environment({"PYTHONPROFILEIMPORTTIME": "1"})
    payload = (json.dumps(initialize()) + "\n" + json.dumps(request("tools/list", id=2)) + "\n").encode()
    process = subprocess.run([installed_command()], input=payload, capture_output=True, env=env, timeout=30)
    imported = {line.rsplit("|", 1)[1].strip() for line in process.stderr.decode().splitlines()
                if line.startswith("import time:") and "|" in line}
    assert len(process.stdout.splitlines()) == 2
    heavy = imported & {"re", "requests", "lxml", "json", "threading", "argparse", "sqlite3", "socket"}
    assert not heavy, heavy


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


# -- first use, as a newcomer meets it ------------------------------------------------------------

def test_an_unusable_log_level_names_its_variable():
    process = run([], env={"WEBSEARCH_LOG_LEVEL": "verbose"})
    assert process.returncode == 2 and process.stdout == b""
    assert b"WEBSEARCH_LOG_LEVEL='verbose'" in process.stderr and b"Traceback" not in process.stderr


def test_call_suggests_name_equals_value():
    process = cli(["call", "web_search", "rust"])
    assert process.returncode == 2 and "did you mean query=rust?" in process.stderr and process.stdout == ""


def test_call_takes_a_single_url_for_an_array_and_flags_after_the_tool(upstream):
    from tests.fake_upstream import Reply

    upstream.route("GET", "/post", Reply.fixture("handmade/pages/article.html"))
    env = {**env_for(upstream), "WEBSEARCH_ALLOW_PRIVATE_URLS": "1"}
    process = cli(["call", "fetch_content", f"urls={upstream.url}/post", "--timeout", "3", "--log-level", "error"],
                  env)
    assert process.returncode == 0 and process.stdout.startswith("## Understanding Async Rust")
    assert "progress: fetching 1 page" in process.stderr  # stderr is not a terminal: plain progress lines
    assert "INFO" not in process.stderr  # --log-level after the tool's name was taken


def test_call_turns_bytes_that_are_not_utf8_into_a_search_not_a_traceback(ddg):
    process = subprocess.run([installed_command(), "call", "web_search", b"query=\xff\xfe"], capture_output=True,
                             env=client_environment(env_for(ddg)), timeout=30)
    assert process.returncode == 0 and b"Traceback" not in process.stderr
    assert process.stdout.startswith('## Web Search Results for "\ufffd\ufffd"'.encode())


def test_a_malformed_notification_is_answered_as_json_rpc_requires():
    # JSON-RPC 2.0 (section 5): a message that is not a valid Request gets -32600 with a null id, even
    # without an id; the README says so next to "notifications are never answered".
    process = run([{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": "x"},
                   {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "gone"}},
                   request("ping", id=1)])
    lines = [json.loads(line) for line in process.stdout.decode().splitlines()]
    assert lines == [{"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message":
                      "Invalid Request: params must be an object or an array"}},
                     {"jsonrpc": "2.0", "id": 1, "result": {}}]


def test_one_deadline_bounds_a_call_whatever_falls_back(upstream):
    from tests.fake_upstream import Reply

    upstream.route("POST", "/html/", Reply(delay=4))
    upstream.route("POST", "/lite/", Reply(delay=4))
    env = {**env_for(upstream), "WEBSEARCH_TIMEOUT": "3", "WEBSEARCH_CALL_TIMEOUT": "4"}
    started = time.monotonic()
    process = run([call("web_search", {"query": "slow"}, id=1)], env=env)
    elapsed = time.monotonic() - started
    result = replies(process)[1]["result"]
    assert result["isError"] and elapsed < 6  # html 3 s, then lite gets the 1 s left: not 2.4 x 3 s


def test_a_name_that_does_not_resolve_is_not_retried(tmp_path):
    """In a network namespace of its own (no network at all, so no DNS query leaves the machine) no
    host name resolves: each engine fails at once, with one short log line, and is not retried."""
    unshare = shutil.which("unshare")
    if unshare is None or subprocess.run([unshare, "-rn", "true"], capture_output=True).returncode != 0:
        pytest.skip("network namespaces are not available here (unshare -rn)")
    env = client_environment({"WEBSEARCH_BACKENDS": "duckduckgo,bing", "WEBSEARCH_STORE": "memory",
                              "WEBSEARCH_DDG_HTML_URL": "http://html.duckduckgo.example/html/",
                              "WEBSEARCH_DDG_LITE_URL": "http://lite.duckduckgo.example/lite/",
                              "WEBSEARCH_BING_URL": "http://www.bing.example/search"})
    started = time.monotonic()
    process = subprocess.run([unshare, "-rn", installed_command(), "call", "web_search", "query=rust"],
                             capture_output=True, text=True, env=env, timeout=60)
    elapsed = time.monotonic() - started
    assert process.returncode == 1 and "could not resolve the host name www.bing.example" in process.stderr
    log_lines = [line for line in process.stderr.splitlines() if line.startswith("websearch-mcp ")]
    assert not any("retrying" in line for line in log_lines), log_lines
    assert len(log_lines) <= 3 and elapsed < 10


def test_the_offline_demo_runs_every_tool():
    process = subprocess.run([installed_command(), "demo"], capture_output=True, text=True, timeout=60,
                             env=client_environment())
    assert process.returncode == 0, process.stderr
    out = process.stdout
    assert '## Web Search Results for "rust programming language"' in out and "_Source: DuckDuckGo (3 results)_" in out
    assert "_Source: Bing (3 results)_" in out  # DuckDuckGo's CAPTCHA page, then the next engine
    assert '## Instant Answer for "DuckDuckGo"' in out and "## Understanding Async Rust" in out
    assert '## Context for "how do async rust executors poll futures"' in out
    assert "/blog/async-rust" in out.split("===== map_site")[1] and '## Context for "tokio runtime"' in out
    assert "7 of 7 calls answered (6 tools)" in process.stderr
