"""Hardening and first use, round two: the items that are each one rule (ids, CLI, messages, stores)."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.conftest import client_environment, env_for, installed_command
from websearch_mcp.config import Config, ConfigError, describe_store


def _run(lines: list[bytes], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([installed_command()], input=b"".join(lines), capture_output=True,
                          env=client_environment(env), timeout=30)


@pytest.mark.parametrize("digits", [4301, 20000])
def test_a_huge_integer_id_is_answered_with_that_id(digits):
    big = "7" * digits
    done = _run([f'{{"jsonrpc":"2.0","id":{big},"method":"ping"}}\n'.encode(),
                 f'{{"jsonrpc":"2.0","id":-{big},"method":"nope"}}\n'.encode()])
    lines = done.stdout.decode().splitlines()
    assert lines[0] == f'{{"jsonrpc":"2.0","id":{big},"result":{{}}}}'
    assert lines[1].startswith(f'{{"jsonrpc":"2.0","id":-{big},"error":{{"code":-32601')
    assert b"set_int_max_str_digits" not in done.stdout + done.stderr


def test_a_relative_sqlite_path_is_read_from_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    kind, path = describe_store(Config(store="sqlite:cache/websearch.db"))
    assert (kind, path) == ("sqlite", str(tmp_path / "cache" / "websearch.db"))


def test_sqlite_with_three_slashes_and_no_directory_is_refused():
    with pytest.raises(ConfigError, match=r"would write /relative\.db at the root of the file system.*"
                                          r"write sqlite:relative\.db"):
        describe_store(Config(store="sqlite:///relative.db"))
    assert describe_store(Config(store="sqlite:///var/cache/w.db")) == ("sqlite", "/var/cache/w.db")


def test_the_relative_store_is_used_by_the_server(ddg, tmp_path):
    env = {**env_for(ddg), "WEBSEARCH_STORE": "sqlite:state/store.db"}
    done = subprocess.run([installed_command(), "call", "web_search", "query=rust programming language"],
                          capture_output=True, env=client_environment(env), cwd=tmp_path, timeout=30)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "state" / "store.db").exists()


WRITER = """
import sys
from websearch_mcp.store.sqlite import SqliteStore
store = SqliteStore(sys.argv[1], 1 << 20)
for n in range(300):
    store.put("page", f"{sys.argv[2]}-{n}", bytes([n % 251]) * 50_000, 600)
    store.get("page", f"{sys.argv[2]}-{n // 2}")
"""


def test_the_sqlite_footprint_stays_near_its_bound(tmp_path):
    """Three processes write and read fifteen times the 1 MiB bound each: the file and its write-ahead
    log stay near the bound all along."""
    import os
    import sys
    import time

    path = tmp_path / "store.db"
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), name]) for name in ("a", "b", "c")]
    largest = 0
    while any(w.poll() is None for w in writers):
        largest = max(largest, sum(os.path.getsize(f) for f in (path, f"{path}-wal") if os.path.exists(f)))
        time.sleep(0.005)
    assert all(w.returncode == 0 for w in writers)
    assert largest < 3 * (1 << 20), f"{largest} bytes on disk at most for a 1 MiB bound"


def test_what_is_supported_has_one_answer():
    from tests.helpers import MODERN_META, exchange, request

    discover, refused = exchange([
        request("server/discover", {"_meta": MODERN_META}, id=1),
        request("tools/list", {"_meta": {**MODERN_META, "io.modelcontextprotocol/protocolVersion": "2025-11-25"}},
                id=2)])
    supported = discover["result"]["supportedVersions"]
    assert refused["error"]["code"] == -32022 and refused["error"]["data"]["supported"] == supported
    assert "2025-11-25" not in supported and refused["error"]["data"]["requested"] == "2025-11-25"


def test_a_stateless_post_without_meta_names_the_missing_key(upstream):
    import threading

    import requests

    from tests.conftest import config_for
    from websearch_mcp.transports.http.server import make_http_server

    server = make_http_server(config_for(upstream), "127.0.0.1", 0)
    threading.Thread(target=server.serve, daemon=True).start()
    try:
        response = requests.post(f"http://127.0.0.1:{server.address[1]}/mcp", timeout=5,
                                 json={"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {}},
                                 headers={"Accept": "application/json, text/event-stream",
                                          "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"})
    finally:
        server.close()
    error = response.json()["error"]
    assert response.status_code == 400 and error["code"] == -32602
    assert "io.modelcontextprotocol/protocolVersion" in error["message"] and "Unsupported" not in error["message"]


# -- the command line ------------------------------------------------------------------------------

def _cli(*words: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([installed_command(), *words], capture_output=True, text=True,
                          env=client_environment(env), timeout=60)


def test_flags_may_come_between_the_tool_and_its_arguments(ddg):
    done = _cli("call", "web_search", "--json", "query=rust programming language", "--log-level", "error",
                "max_results=2", env=env_for(ddg))
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["structuredContent"]["results"]) == 2


def test_a_list_argument_may_be_repeated():
    from websearch_mcp.call import parse_arguments
    from websearch_mcp.tools.fetch_content import INPUT_SCHEMA

    parsed = parse_arguments(["urls=https://a.example", "urls=https://b.example", "max_chars=300"], INPUT_SCHEMA)
    assert parsed == {"urls": ["https://a.example", "https://b.example"], "max_chars": 300}


def test_json_errors_go_to_stdout_with_exit_code_1(upstream):
    done = _cli("call", "fetch_content", "--json", "urls=http://127.0.0.1:9/nothing", env=env_for(upstream))
    assert done.returncode == 1
    assert json.loads(done.stdout)["isError"] is True


def test_call_help_has_a_description_examples_and_exit_codes():
    done = _cli("call", "--help")
    assert "Call one tool, as an MCP client would" in done.stdout
    assert "examples:" in done.stdout and "exit codes:" in done.stdout and "may be repeated" in done.stdout


@pytest.mark.parametrize("command", ["tools", "demo"])
def test_tools_and_demo_list_only_flags_that_work_there(command):
    done = _cli(command, "--help")
    assert "--log-level" in done.stdout
    for useless in ("--timeout", "--max-line-bytes", "--servers", "--lightweight-list", "--json"):
        assert useless not in done.stdout


def test_call_with_no_arguments_says_what_is_needed():
    done = _cli("call")
    assert done.returncode == 2 and "call needs a tool name" in done.stderr and "web_search" in done.stderr
    assert "optional arguments" not in done.stderr


def test_the_demo_counts_calls_and_tools():
    done = _cli("demo")
    assert done.returncode == 0
    assert "7 of 7 calls answered (6 tools)" in done.stderr and "7 of 7 tools" not in done.stderr


def test_a_citation_never_breaks_a_markdown_list():
    from websearch_mcp.passages import Passage
    from websearch_mcp.services.context import ContextAnswer, Source
    from websearch_mcp.tools.search_context import render_markdown

    listed = Passage(1, 0, "- Futures are lazy\n- Executors poll them")
    prose = Passage(1, 1, "Async functions return futures.")
    text = render_markdown("futures", ContextAnswer([listed, prose], [Source(1, "Async", "https://a.example")]))
    assert "[1]\n\n- Futures are lazy\n- Executors poll them" in text
    assert "[1] Async functions return futures." in text and "[1] - Futures" not in text


def _offline(*words: str) -> subprocess.CompletedProcess[str]:
    """The installed command in a network namespace of its own: no network at all, no DNS query leaves."""
    import shutil

    unshare = shutil.which("unshare")
    if unshare is None or subprocess.run([unshare, "-rn", "true"], capture_output=True).returncode != 0:
        pytest.skip("network namespaces are not available here (unshare -rn)")
    return subprocess.run([unshare, "-rn", installed_command(), *words], capture_output=True, text=True,
                          env=client_environment({"WEBSEARCH_STORE": "memory"}), timeout=60)


def test_every_engine_failing_is_one_line_each_with_the_hint_last():
    done = _offline("call", "web_search", "--json", "query=rust")
    result = json.loads(done.stdout)
    lines = result["content"][0]["text"].splitlines()
    assert lines[0] == "Every search engine failed:" and all(line.startswith("- ") for line in lines[1:-1])
    assert lines[-1].startswith("Check the network connection") and len(lines) == 8
    assert "Check the network" not in "\n".join(lines[:-1])
    assert result["structuredContent"]["attempted_instances"] == ["duckduckgo", "bing", "brave", "mojeek", "yahoo",
                                                                   "wikipedia"]


@pytest.mark.parametrize("words", [("instant_answer", "query=rust"), ("fetch_content", "urls=https://example.com")])
def test_offline_tools_say_to_check_the_network(words):
    done = _offline("call", *words)
    assert done.returncode == 1 and "Check the network connection (and HTTPS_PROXY" in done.stderr + done.stdout


def test_the_readme_lists_every_status_the_http_server_answers_a_client_with():
    from pathlib import Path

    from websearch_mcp.transports.http.messages import REASONS

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("## Serve over HTTP", 1)[1].split("\n## ", 1)[0]
    missing = [code for code in REASONS if code not in (200, 500) and str(code) not in section]
    assert missing == []
