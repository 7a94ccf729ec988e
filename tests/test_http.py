"""The HTTP transport over real loopback HTTP: seed 001's REST facade, Streamable HTTP in both eras,
security rules, SSE progress, and the app under gunicorn with two workers."""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from tests.conftest import config_for, env_for
from tests.fake_upstream import Reply
from tests.helpers import MODERN_META, wait_for_http
from tests.store_parts import free_port
from websearch_mcp.transports.http.server import make_http_server

ACCEPT = "application/json, text/event-stream"


@pytest.fixture
def serve():
    """Start the embedded server on port 0 for a configuration; returns its base URL."""
    servers = []

    def start(config, app=None):
        server = make_http_server(config, "127.0.0.1", 0, app=app)
        threading.Thread(target=server.serve, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.address[1]}"

    yield start
    for server in servers:
        server.close()


@pytest.fixture
def base(ddg, serve):
    return serve(config_for(ddg))


def mcp(base, body, headers=None, **kwargs):
    merged = {"Content-Type": "application/json", "Accept": ACCEPT, **(headers or {})}
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return requests.post(f"{base}/mcp", data=data, headers=merged, timeout=10, **kwargs)


def modern_headers(method, name=None):
    headers = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
    if name is not None:
        headers["Mcp-Name"] = name
    return headers


def modern_body(method, params=None, id=1):
    return {"jsonrpc": "2.0", "id": id, "method": method, "params": {**(params or {}), "_meta": MODERN_META}}


# -- seed 001's REST facade ----------------------------------------------------------------------

def test_health(base):
    response = requests.get(f"{base}/", timeout=5)
    assert response.status_code == 200 and response.json() == {"status": "ok", "message": "MCP Server is running"}


def test_tools_metadata(base):
    tools = requests.get(f"{base}/tools", timeout=5).json()["tools"]
    web = next(t for t in tools if t["name"] == "web_search")
    assert web["description"].startswith("Search the web using DuckDuckGo")
    assert web["parameters"][0] == {"name": "query", "type": "string", "description": "検索キーワード",
                                    "required": True}
    assert {"name": "max_results", "type": "integer", "description": "返却する検索結果の最大数（デフォルト: 10）",
            "required": False} in web["parameters"]


def test_tools_call_success(base):
    response = requests.post(f"{base}/tools/call", json={"name": "instant_answer", "parameters": {"query": "2+2"}},
                             timeout=10)
    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True and body["result"]["answer"] == "2 + 2 = 4"
    assert body["result"]["markdown"].startswith('## Instant Answer for "2+2"')


@pytest.mark.parametrize("payload, status, error", [
    ({"parameters": {}}, 400, "Tool name is required"),
    ({"name": "", "parameters": {}}, 400, "Tool name is required"),
    ({"name": "invalid_tool", "parameters": {}}, 400, "Tool not found: invalid_tool"),
    ({"name": "web_search", "parameters": {}}, 400, "query parameter is required"),
    ({"name": "web_search", "parameters": {"query": "x", "max_results": 99}}, 400,
     "Invalid argument 'max_results': must be at most 30, got 99 (maximum)"),
])
def test_tools_call_errors(base, payload, status, error):
    response = requests.post(f"{base}/tools/call", json=payload, timeout=10)
    assert response.status_code == status and response.json() == {"success": False, "error": error}


def test_tools_call_upstream_failure_is_502(upstream, serve):
    upstream.route("GET", "/ia/", Reply(status=500))
    base = serve(config_for(upstream, retries=0))
    response = requests.post(f"{base}/tools/call", json={"name": "instant_answer", "parameters": {"query": "x"}},
                             timeout=10)
    assert response.status_code == 502 and response.json()["success"] is False


@pytest.mark.parametrize("method, path, body, status", [
    ("POST", "/tools/call", b"not json", 400),
    ("POST", "/tools/call", b"[1, 2]", 400),
    ("DELETE", "/tools", None, 405),
    ("POST", "/", b"{}", 405),
    ("GET", "/tools/call", None, 405),
    ("GET", "/nowhere", None, 404),
])
def test_rest_status_codes(base, method, path, body, status):
    assert requests.request(method, f"{base}{path}", data=body, timeout=5).status_code == status


def test_oversized_body_is_413(ddg, serve):
    base = serve(config_for(ddg, http_max_body=1024))
    response = requests.post(f"{base}/tools/call", data=b"x" * 5000, timeout=5)
    assert response.status_code == 413
    assert mcp(base, b"{" + b" " * 5000 + b"}").status_code == 413


# -- security -------------------------------------------------------------------------------------

@pytest.mark.parametrize("origin, allowed", [("http://evil.example", False), ("null", False),
                                             ("http://localhost:3000", True), ("http://127.0.0.1:9", True),
                                             ("http://[::1]:8080", True), ("https://localhost", True)])
def test_origin_is_checked(base, origin, allowed):
    response = requests.get(f"{base}/tools", headers={"Origin": origin}, timeout=5)
    assert (response.status_code == 200) is allowed
    if not allowed:
        assert response.status_code == 403
        assert mcp(base, modern_body("server/discover"), {"Origin": origin, **modern_headers("server/discover")}
                   ).status_code == 403


def test_configured_origins(ddg, serve):
    base = serve(config_for(ddg, http_allowed_origins="https://app.example.org"))
    assert requests.get(f"{base}/tools", headers={"Origin": "https://app.example.org"}, timeout=5).ok
    assert requests.get(f"{base}/tools", headers={"Origin": "http://localhost:3000"}, timeout=5).status_code == 403


def test_bearer_token(ddg, serve):
    base = serve(config_for(ddg, http_token="s3cret"))
    assert requests.get(f"{base}/", timeout=5).status_code == 200  # health stays open
    for method, path in (("GET", "/tools"), ("POST", "/tools/call"), ("POST", "/mcp")):
        response = requests.request(method, f"{base}{path}", json={}, timeout=5)
        assert response.status_code == 401 and response.headers["WWW-Authenticate"].startswith("Bearer")
        wrong = requests.request(method, f"{base}{path}", json={}, headers={"Authorization": "Bearer nope"},
                                 timeout=5)
        assert wrong.status_code == 401
    ok = requests.get(f"{base}/tools", headers={"Authorization": "Bearer s3cret"}, timeout=5)
    assert ok.status_code == 200


def test_fetching_private_addresses_stays_refused_over_http(upstream, serve):
    upstream.route("GET", "/secret", Reply(body=b"<p>internal</p>"))
    base = serve(config_for(upstream))
    payload = {"name": "fetch_content", "parameters": {"urls": [f"{upstream.url}/secret"]}}
    response = requests.post(f"{base}/tools/call", json=payload, timeout=10)
    assert response.status_code == 502 and "loopback" in response.json()["error"]
    assert upstream.count("/secret") == 0


# -- Streamable HTTP, handshake era -------------------------------------------------------------------

def test_legacy_initialize_list_and_call(base):
    init = mcp(base, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
    assert init.status_code == 200 and init.headers["Content-Type"] == "application/json"
    assert init.json()["result"]["protocolVersion"] == "2025-06-18"
    assert "Mcp-Session-Id" not in init.headers
    note = mcp(base, {"jsonrpc": "2.0", "method": "notifications/initialized"}, {"MCP-Protocol-Version": "2025-06-18"})
    assert note.status_code == 202 and note.content == b""
    listing = mcp(base, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, {"MCP-Protocol-Version": "2025-06-18"})
    assert "outputSchema" in listing.json()["result"]["tools"][0]
    old = mcp(base, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})  # no header: 2025-03-26
    assert "outputSchema" not in old.json()["result"]["tools"][0] and "annotations" in old.json()["result"]["tools"][0]
    called = mcp(base, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "web_search", "arguments": {"query": "rust programming language", "max_results": 2}}},
        {"MCP-Protocol-Version": "2025-11-25"})
    assert called.json()["result"]["structuredContent"]["metadata"]["results_count"] == 2


@pytest.mark.parametrize("method", ["GET", "DELETE"])
def test_get_and_delete_are_405(base, method):
    response = requests.request(method, f"{base}/mcp", headers={"Accept": "text/event-stream"}, timeout=5)
    assert response.status_code == 405 and "POST" in response.headers["Allow"]


@pytest.mark.parametrize("headers, body, status, code", [
    ({"Content-Type": "text/plain"}, {"jsonrpc": "2.0", "id": 1, "method": "ping"}, 415, None),
    ({"Accept": "text/html"}, {"jsonrpc": "2.0", "id": 1, "method": "ping"}, 406, None),
    ({}, b"{not json", 400, -32700),
    ({}, {"jsonrpc": "1.0", "id": 1, "method": "ping"}, 400, -32600),
    ({"MCP-Protocol-Version": "1999-01-01"}, {"jsonrpc": "2.0", "id": 1, "method": "ping"}, 400, -32600),
    ({"MCP-Protocol-Version": "2025-11-25"}, [{"jsonrpc": "2.0", "id": 1, "method": "ping"}], 400, -32600),
])
def test_legacy_refusals(base, headers, body, status, code):
    response = mcp(base, body, headers)
    assert response.status_code == status
    if code is not None:
        assert response.json()["error"]["code"] == code


def test_batches_in_2025_03_26(base):
    batch = [{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "method": "notifications/x"},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
    response = mcp(base, batch, {"MCP-Protocol-Version": "2025-03-26"})
    assert [r["id"] for r in response.json()] == [1, 2]


# -- Streamable HTTP, stateless era --------------------------------------------------------------------

def test_stateless_discover_list_and_call(base):
    discover = mcp(base, modern_body("server/discover"), modern_headers("server/discover"))
    assert discover.status_code == 200 and discover.json()["result"]["supportedVersions"] == ["2026-07-28"]
    listing = mcp(base, modern_body("tools/list"), modern_headers("tools/list"))
    assert listing.json()["result"]["resultType"] == "complete"
    body = modern_body("tools/call", {"name": "web_search", "arguments": {"query": "rust programming language"}})
    called = mcp(base, body, modern_headers("tools/call", "web_search"))
    assert called.json()["result"]["structuredContent"]["metadata"]["results_count"] == 10
    encoded = "=?base64?" + base64.b64encode(b"web_search").decode() + "?="
    assert mcp(base, body, modern_headers("tools/call", encoded)).status_code == 200


@pytest.mark.parametrize("headers, body, status, code", [
    ({"Mcp-Method": "tools/list"}, modern_body("tools/list"), 400, -32020),
    ({"MCP-Protocol-Version": "2026-07-28"}, modern_body("tools/list"), 400, -32020),
    (modern_headers("tools/call"), modern_body("tools/list"), 400, -32020),
    (modern_headers("tools/call", "instant_answer"),
     modern_body("tools/call", {"name": "web_search", "arguments": {"query": "x"}}), 400, -32020),
    ({**modern_headers("tools/list"), "MCP-Protocol-Version": "2025-11-25"}, modern_body("tools/list"), 400, -32020),
    (modern_headers("tools/list"), {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}, 400, -32602),
    ({**modern_headers("tools/list"), "MCP-Protocol-Version": "2099-01-01"}, {"jsonrpc": "2.0", "id": 1,
     "method": "tools/list", "params": {"_meta": {**MODERN_META, "io.modelcontextprotocol/protocolVersion":
                                                  "2099-01-01"}}}, 400, -32022),
    (modern_headers("ping"), modern_body("ping"), 404, -32601),
    (modern_headers("prompts/list"), modern_body("prompts/list"), 404, -32601),
])
def test_stateless_refusals(base, headers, body, status, code):
    response = mcp(base, body, headers)
    assert response.status_code == status and response.json()["error"]["code"] == code


def test_progress_streams_as_sse(upstream, serve):
    for n in range(3):
        upstream.route("GET", f"/p{n}", Reply.fixture("handmade/pages/article.html"))
    base = serve(config_for(upstream, allow_private_urls=True))
    body = {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
        "name": "fetch_content", "arguments": {"urls": [f"{upstream.url}/p{n}" for n in range(3)]},
        "_meta": {"progressToken": "t"}}}
    response = mcp(base, body, {"MCP-Protocol-Version": "2025-11-25"}, stream=True)
    assert response.headers["Content-Type"] == "text/event-stream"
    assert response.headers["X-Accel-Buffering"] == "no"
    events = [json.loads(line[6:]) for line in response.iter_lines(decode_unicode=True) if line.startswith("data: ")]
    assert [e["params"]["progress"] for e in events[:-1]] == [0, 1, 2, 3]
    assert events[-1]["id"] == 9 and "result" in events[-1]


# -- interoperability ---------------------------------------------------------------------------------

@pytest.mark.parametrize("mode, version", [("legacy", "2025-11-25"), ("auto", "2026-07-28")])
def test_official_sdk_client_over_http(base, mode, version):
    import anyio
    from mcp import Client

    async def session():
        async with Client(f"{base}/mcp", mode=mode) as client:
            tools = await client.list_tools()
            result = await client.call_tool("web_search", {"query": "rust programming language", "max_results": 2})
            return client.protocol_version, [t.name for t in tools.tools], result

    protocol, names, result = anyio.run(session)
    assert protocol == version and names[:2] == ["web_search", "instant_answer"]
    assert result.structured_content["metadata"]["results_count"] == 2


SUITES = {"0.1.16": "@modelcontextprotocol/conformance", "0.2.0-alpha.12": "conformance-next"}
# Scenarios of 0.2.0-alpha.12 that apply to a server with its own tools. The others need the suite's
# own test tools (tools-call-*, json-schema-2020-12, elicitation, sampling, input-required-*,
# http-custom-header-server-validation: tools with x-mcp-header), capabilities this server does not
# offer (resources-*, prompts-*, completion-complete, logging-set-level, caching of their lists,
# server-sse-polling and server-sse-multiple-streams: resumable GET streams), or extensions (tasks-*,
# sep-2640-skills-*). In server-stateless, four checks need the suite's diagnostic tools and report
# themselves "Not testable"; every other check must pass.
NEXT_SCENARIOS = ["server-initialize", "server-stateless", "ping", "tools-list", "dns-rebinding-protection",
                  "http-header-validation"]


def _conformance(package: str = SUITES["0.1.16"]) -> tuple[str, str] | None:
    root = Path(os.environ.get("CONFORMANCE_DIR", Path(__file__).resolve().parent.parent / ".ci" / "node"))
    node = root / "node_modules" / ".bin" / "node"
    script = root / "node_modules" / Path(package) / "dist" / "index.js"
    return (str(node), str(script)) if node.exists() and script.exists() else None


@pytest.mark.parametrize("suite, scenario", [
    *(("0.1.16", s) for s in ("server-initialize", "ping", "tools-list", "dns-rebinding-protection")),
    *(("0.2.0-alpha.12", s) for s in NEXT_SCENARIOS)])
def test_official_conformance_suite(base, suite, scenario):
    tool = _conformance(SUITES[suite])
    if tool is None:
        if os.environ.get("CI"):
            pytest.fail("the conformance suite is not installed (.ci/run installs it)")
        pytest.skip("conformance suite not installed; .ci/run installs it")
    node, script = tool
    # to a file, not a pipe: node exits before a pipe takes its last writes, and the verbose report of a
    # tools/list is past a pipe's 64 KiB
    with tempfile.TemporaryFile("w+") as report:
        process = subprocess.run([node, script, "server", "--url", f"{base}/mcp", "--scenario", scenario,
                                  "--verbose"], stdout=report, stderr=subprocess.PIPE, text=True, timeout=120)
        report.seek(0)
        stdout = report.read()
    failed = stdout.count('"status": "FAILURE"')
    not_testable = stdout.count('"errorMessage": "Not testable:')
    assert failed == not_testable and (not_testable or " 0 failed" in stdout), stdout[-4000:] + process.stderr


def test_gunicorn_with_two_workers_spreads_requests(ddg, tmp_path):
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent))
    if gunicorn is None:
        pytest.fail("gunicorn is a test dependency; run make install")
    port = free_port()
    env = {**os.environ, **env_for(ddg)}
    access_log = tmp_path / "access.log"  # gunicorn writes the pid of the worker that served each request
    process = subprocess.Popen([gunicorn, "-w", "2", "-b", f"127.0.0.1:{port}", "--graceful-timeout", "2",
                                "--access-logfile", str(access_log), "--access-logformat", "%(p)s %(U)s",
                                "websearch_mcp.wsgi:app"], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(port)

        def served_by(_):
            response = requests.post(f"{base}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                                     headers={"Accept": ACCEPT}, timeout=10)
            assert response.json() == {"jsonrpc": "2.0", "id": 1, "result": {}}
            assert "X-Served-By" not in response.headers  # no process ids in answers

        with ThreadPoolExecutor(8) as pool:
            list(pool.map(served_by, range(200)))
        time.sleep(0.5)  # the access log is written after each response
        workers = {line.split()[0] for line in access_log.read_text().splitlines() if line.endswith(" /mcp")}
        assert len(workers) == 2
        search = requests.post(f"{base}/tools/call", json={"name": "web_search", "parameters": {
            "query": "rust programming language", "max_results": 1}}, timeout=10)
        assert search.json()["result"]["results"][0]["url"] == "https://rust-lang.org/"
    finally:
        process.terminate()
        process.wait(10)


# -- load and first use ------------------------------------------------------------------------------

def http_command(tmp_path, server: str, address: str, env: dict[str, str] | None = None):
    from tests.conftest import client_environment, installed_command

    log = open(tmp_path / f"{server}.log", "wb")  # noqa: SIM115 - closed by the caller through the process
    process = subprocess.Popen([installed_command(), "--http", address], stdout=subprocess.DEVNULL, stderr=log,
                               env=client_environment({"WEBSEARCH_HTTP_SERVER": server, "WEBSEARCH_HTTP_TIMEOUT": "1",
                                                       **(env or {})}))
    return process, tmp_path / f"{server}.log"


@pytest.mark.parametrize("server", ["stdlib", "waitress"])
def test_no_request_is_lost_under_load(tmp_path, server):
    import http.client

    from tests.store_parts import free_port

    port = free_port()
    process, log = http_command(tmp_path, server, f"127.0.0.1:{port}")
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
    outcomes: list[int | str] = []
    try:
        wait_for_http(port)
        stop = time.monotonic() + 3

        def client() -> None:
            while time.monotonic() < stop:  # a new connection for every request, 40 clients at once
                try:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    connection.request("POST", "/mcp", body=body, headers={
                        "Content-Type": "application/json", "Accept": ACCEPT, "Connection": "close"})
                    outcomes.append(connection.getresponse().status)
                    connection.close()
                except OSError as err:
                    outcomes.append(type(err).__name__)

        threads = [threading.Thread(target=client) for _ in range(40)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        idle = socket.create_connection(("127.0.0.1", port))  # says nothing: times out after 1 s
        time.sleep(1.5)
        idle.close()
    finally:
        process.terminate()
        process.wait(10)
    assert len(outcomes) > 500 and set(outcomes) == {200}, {o: outcomes.count(o) for o in set(outcomes)}
    assert "Traceback" not in log.read_text()  # an idle client that timed out is at most one quiet line


def test_serving_beyond_loopback_without_a_token_warns(tmp_path):
    from tests.store_parts import free_port

    port = free_port()
    process, log = http_command(tmp_path, "stdlib", f"0.0.0.0:{port}")
    try:
        wait_for_http(port)
    finally:
        process.terminate()
        process.wait(10)
    assert "without WEBSEARCH_HTTP_TOKEN" in log.read_text()
    quiet, quiet_log = http_command(tmp_path, "waitress", f"0.0.0.0:{port}", {"WEBSEARCH_HTTP_TOKEN": "s3cret"})
    try:
        wait_for_http(port)
    finally:
        quiet.terminate()
        quiet.wait(10)
    assert "WEBSEARCH_HTTP_TOKEN" not in quiet_log.read_text()


def test_gunicorn_with_the_shipped_settings_completes_a_call_longer_than_30_s(tmp_path):
    """gunicorn's own default (sync workers, a 30 s timeout) kills such a call mid-way; the settings
    module that ships with the app (gthread workers, timeouts after the call deadline) lets it finish."""
    from tests.fake_upstream import FakeUpstream

    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent))
    assert gunicorn is not None, "gunicorn is a test dependency; run make install"
    with FakeUpstream() as upstream:
        upstream.route("GET", "/slow", Reply.fixture("handmade/pages/article.html", delay=32))
        port = free_port()
        env = {**os.environ, **env_for(upstream), "WEBSEARCH_ALLOW_PRIVATE_URLS": "1", "WEBSEARCH_TIMEOUT": "40",
               "WEBSEARCH_CALL_TIMEOUT": "45", "WEB_CONCURRENCY": "1"}
        process = subprocess.Popen([gunicorn, "-c", "python:websearch_mcp.gunicorn_conf", "-b", f"127.0.0.1:{port}",
                                    "websearch_mcp.wsgi:app"], env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE)
        try:
            wait_for_http(port)
            started = time.monotonic()
            response = requests.post(f"http://127.0.0.1:{port}/tools/call", timeout=60, json={
                "name": "fetch_content", "parameters": {"urls": [f"{upstream.url}/slow"]}})
            assert time.monotonic() - started > 30
            assert response.status_code == 200 and "Understanding Async Rust" in response.text
        finally:
            process.terminate()
            _, errors = process.communicate(timeout=60)
        assert b"WORKER TIMEOUT" not in errors and b"Traceback" not in errors
