"""The shared store with real parts only: real websearch-mcp processes sharing a real SQLite file, a
real redis-server shared by gunicorn workers and stdio processes, and the faults of both. The fake
upstream's request log proves the counts and the gaps."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time

import pytest
import requests

from tests.conftest import PAGE_ONE, client_environment, env_for
from tests.fake_upstream import Reply
from tests.helpers import call, initialize, wait_for_http
from tests.store_parts import RedisServer, free_port, run_together, smallest_gap, spawn
from tests.test_engines import route_engines
from websearch_mcp.store.sqlite import SqliteStore

QUERIES = [f"rust topic {n}" for n in range(5)]
INTERVAL = 0.3


def shared_env(upstream, store: str) -> dict[str, str]:
    """Every process pointed at the fake upstream and at one store, with DuckDuckGo's politeness on."""
    return {**env_for(upstream), "WEBSEARCH_STORE": store, "WEBSEARCH_DDG_MIN_INTERVAL": str(INTERVAL)}


def slow_ddg(upstream) -> None:
    upstream.route("POST", "/html/", Reply.fixture(PAGE_ONE, delay=0.1))


# -- SQLite, shared by processes -----------------------------------------------------------------------

def test_six_processes_share_one_cache_and_one_request_rate(upstream, tmp_path):
    slow_ddg(upstream)
    results = run_together(shared_env(upstream, f"sqlite:///{tmp_path}/store.db"), QUERIES, processes=6)
    for answers, stderr in results:
        assert all(not answers[n]["result"].get("isError") for n in range(1, 6)), stderr
    assert upstream.count("/html/") == 5  # one request per distinct search, whoever asked first
    assert smallest_gap(upstream.arrivals("/html/")) >= INTERVAL
    cached = [answers[n]["result"]["structuredContent"]["metadata"] for answers, _ in results for n in range(1, 6)]
    assert sum(1 for m in cached if m["cached"]) == 25
    assert {m.get("cache_store") for m in cached if m["cached"]} == {"sqlite"}


def test_a_block_one_process_met_is_skipped_by_the_next(upstream, tmp_path):
    route_engines(upstream)  # DuckDuckGo answers its CAPTCHA page
    env = {**shared_env(upstream, f"sqlite:///{tmp_path}/store.db"), "WEBSEARCH_BACKENDS": ""}
    run_together(env, ["first"], processes=1)
    seen = upstream.count("/html/")
    [(answers, _)] = run_together(env, ["second"], processes=1)
    assert upstream.count("/html/") == seen  # the second process went straight to the next engine
    tried = answers[1]["result"]["structuredContent"]["metadata"]["backends_tried"]
    assert tried[0]["backend"] == "duckduckgo" and tried[0]["status"] == "skipped"
    assert answers[1]["result"]["structuredContent"]["metadata"]["backend"] == "bing"


def test_the_default_store_is_a_file_in_the_users_cache_folder(ddg, tmp_path):
    env = {**env_for(ddg), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    del env["WEBSEARCH_STORE"]
    run_together(env, ["rust programming language"], processes=1)
    [(answers, _)] = run_together(env, ["rust programming language"], processes=1)
    assert (tmp_path / "cache" / "websearch-mcp" / "store.sqlite3").is_file()
    metadata = answers[1]["result"]["structuredContent"]["metadata"]
    assert metadata["cached"] is True and metadata["cache_store"] == "sqlite" and ddg.count("/html/") == 1


def test_sqlite_cache_is_bounded_oldest_first(tmp_path):
    store = SqliteStore(str(tmp_path / "s.db"), max_bytes=3000)
    for n in range(6):
        store.put("page", f"k{n}", b"x" * 1000, ttl=60 + n)
    kept = [n for n in range(6) if store.get("page", f"k{n}") is not None]
    assert kept == [3, 4, 5]
    store.put("page", "old", b"y" * 100, ttl=0.01)
    time.sleep(0.05)
    assert store.get("page", "old") is None  # expired
    another = SqliteStore(str(tmp_path / "s.db"), max_bytes=3000)  # a second process's view
    assert another.get("page", "k5") == b"x" * 1000


def test_request_slots_are_shared_between_connections(tmp_path):
    first, second = SqliteStore(str(tmp_path / "s.db"), 1000), SqliteStore(str(tmp_path / "s.db"), 1000)
    assert first.reserve("ddg", 1.0) == 0.0
    assert 0.9 < second.reserve("ddg", 1.0) <= 1.0 and 1.9 < first.reserve("ddg", 1.0) <= 2.0
    assert first.claim("lease", 5) and not second.claim("lease", 5)
    first.release("lease")
    assert second.claim("lease", 5)


# -- faults: one warning, and the call goes on with memory -----------------------------------------------

def call_with_store(ddg, store: str, extra: dict[str, str] | None = None) -> tuple[dict, str, float]:
    started = time.monotonic()
    [(answers, stderr)] = run_together({**env_for(ddg), "WEBSEARCH_STORE": store, **(extra or {})},
                                       ["rust programming language", "rust programming language"], processes=1)
    return answers, stderr, time.monotonic() - started


def assert_fell_back(answers: dict, stderr: str, store_words: str) -> None:
    assert not answers[1]["result"].get("isError") and not answers[2]["result"].get("isError")
    warnings = [line for line in stderr.splitlines() if "cannot be used" in line]
    assert len(warnings) == 1 and store_words in warnings[0], stderr  # one warning, naming the store
    assert "Traceback" not in stderr


def test_a_garbage_file_falls_back_to_memory(ddg, tmp_path):
    path = tmp_path / "store.db"
    path.write_bytes(b"this is not an SQLite database\n" * 100)
    answers, stderr, _ = call_with_store(ddg, f"sqlite:///{path}")
    assert_fell_back(answers, stderr, str(path))


def read_only(folder) -> tuple[list[str], list[str]]:
    """Commands that make a folder read-only and writable again (root writes through permissions, so
    root makes it immutable instead)."""
    if os.geteuid() == 0:
        return ["chattr", "+i", str(folder)], ["chattr", "-i", str(folder)]
    return ["chmod", "500", str(folder)], ["chmod", "700", str(folder)]


def test_a_read_only_directory_falls_back_to_memory(ddg, tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    lock, unlock = read_only(folder)
    if subprocess.run(lock, capture_output=True).returncode != 0:
        pytest.fail(f"cannot make {folder} read-only with {lock[0]}")
    try:
        answers, stderr, _ = call_with_store(ddg, f"sqlite:///{folder}/store.db")
    finally:
        subprocess.run(unlock, check=True)
    assert_fell_back(answers, stderr, str(folder))


def test_a_store_that_cannot_be_created_falls_back_to_memory(ddg, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")  # the store's folder would have to be inside a file
    answers, stderr, _ = call_with_store(ddg, f"sqlite:///{blocker}/store.db")
    assert_fell_back(answers, stderr, str(blocker))


def test_a_lock_held_past_the_busy_timeout_falls_back_without_hanging(ddg, tmp_path):
    path = tmp_path / "store.db"
    SqliteStore(str(path), 1000).close()
    holder = sqlite3.connect(str(path), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
    try:
        answers, stderr, elapsed = call_with_store(ddg, f"sqlite:///{path}")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert_fell_back(answers, stderr, str(path))
    assert elapsed < 10


def test_a_store_written_by_another_version_falls_back_to_memory(ddg, tmp_path):
    path = tmp_path / "store.db"
    with sqlite3.connect(str(path)) as db:
        db.execute("PRAGMA user_version = 99")
    answers, stderr, _ = call_with_store(ddg, f"sqlite:///{path}")
    assert_fell_back(answers, stderr, "another version")


# -- Redis ---------------------------------------------------------------------------------------------

@pytest.fixture
def redis_server(tmp_path):
    server = RedisServer(tmp_path)
    yield server
    server.stop()


def test_redis_is_shared_by_gunicorn_workers_and_stdio_processes(upstream, redis_server, tmp_path):
    slow_ddg(upstream)
    env = shared_env(upstream, redis_server.url)
    port = free_port()
    gunicorn = subprocess.Popen([os.path.join(os.path.dirname(sys.executable), "gunicorn"), "-w", "3", "-b",
                                 f"127.0.0.1:{port}", "websearch_mcp.wsgi:app"],
                                env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_http(port)
        from concurrent.futures import ThreadPoolExecutor

        def over_http(query: str) -> dict:
            reply = requests.post(f"http://127.0.0.1:{port}/tools/call", timeout=30,
                                  json={"name": "web_search", "parameters": {"query": query, "max_results": 3}})
            return reply.json()

        with ThreadPoolExecutor(10) as pool:
            http_replies = pool.map(over_http, QUERIES * 2)
            stdio = run_together(env, QUERIES, processes=2)
            http_answers = list(http_replies)
    finally:
        gunicorn.terminate()
        gunicorn.wait(10)
    assert all(reply["success"] for reply in http_answers)
    assert all(not answers[n]["result"].get("isError") for answers, _ in stdio for n in range(1, 6))
    assert upstream.count("/html/") == 5
    assert smallest_gap(upstream.arrivals("/html/")) >= INTERVAL


def ask(process, request_id: int, query: str) -> dict:
    """One search on a running server, and its reply."""
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write((json.dumps(call("web_search", {"query": query, "max_results": 3}, id=request_id)) + "\n")
                        .encode())
    process.stdin.flush()
    return json.loads(process.stdout.readline())


def test_redis_going_away_mid_run_and_coming_back(ddg, redis_server):
    from websearch_mcp.store import resilient

    process = spawn({**env_for(ddg), "WEBSEARCH_STORE": redis_server.url, "WEBSEARCH_SEARCH_CACHE_TTL": "600"})
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write((json.dumps(initialize(id=0)) + "\n").encode())
        process.stdin.flush()
        process.stdout.readline()
        first = ask(process, 1, "rust programming language")
        assert first["result"]["structuredContent"]["metadata"]["cached"] is False
        redis_server.stop()
        during = ask(process, 2, "rust programming language")  # answered from memory, or fetched again
        assert not during["result"].get("isError")
        redis_server.start()  # empty: persistence is off
        time.sleep(resilient.RETRY_AFTER + 0.5)
        ask(process, 3, "rust async")
        again = ask(process, 4, "rust async")
        assert again["result"]["structuredContent"]["metadata"]["cache_store"] == "redis"  # Redis is used again
    finally:
        process.stdin.close()
        stderr = process.stderr.read().decode() if process.stderr else ""
        process.wait(10)
    warnings = [line for line in stderr.splitlines() if "cannot be used" in line]
    assert len(warnings) == 1 and "redis store" in warnings[0] and "works again" in stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize("case", ["unreachable", "wrong password"])
def test_redis_refusing_falls_back_to_memory(ddg, tmp_path, case):
    if case == "unreachable":
        url = f"redis://127.0.0.1:{free_port()}/0"
        answers, stderr, elapsed = call_with_store(ddg, url)
    else:
        server = RedisServer(tmp_path, password="right")
        try:
            answers, stderr, elapsed = call_with_store(ddg, url := f"redis://:wrong@127.0.0.1:{server.port}/0")
        finally:
            server.stop()
        assert "wrong" not in stderr  # the password is not shown
    assert_fell_back(answers, stderr, "redis store")
    assert elapsed < 10


def test_redis_cache_is_bounded(redis_server):
    from websearch_mcp.store.redis_server import RedisStore

    store = RedisStore(redis_server.url, max_bytes=3000)
    for n in range(6):
        store.put("page", f"k{n}", b"x" * 1000, ttl=60 + n)
    assert [n for n in range(6) if store.get("page", f"k{n}") is not None] == [3, 4, 5]
    assert store.reserve("ddg", 1.0) == 0.0 and 0.9 < store.reserve("ddg", 1.0) <= 1.0


def test_a_redis_store_without_the_redis_package_is_a_start_up_error():
    code = "import sys; sys.modules['redis'] = None; from websearch_mcp.cli import main; sys.exit(main())"
    process = subprocess.run([sys.executable, "-c", code], input=b"", capture_output=True, timeout=30,
                             env=client_environment({"WEBSEARCH_STORE": "redis://127.0.0.1:6379/0"}))
    assert process.returncode == 2 and f"{sys.executable} -m pip install 'redis>=4.5'".encode() in process.stderr
    assert process.stdout == b""

