"""Hardening and first use, round two: the items that are each one rule (ids, CLI, messages, stores)."""

from __future__ import annotations

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
