"""Aggregation of backend MCP servers (seed 003), against real child processes: the test backend,
websearch-mcp itself, and a third-party server from npm when the machine has it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from queue import Empty, Queue
from typing import Any

import pytest
import requests

from tests.conftest import client_environment, env_for, installed_command
from tests.helpers import call, initialize, request, wait_for_http

BACKEND = str(Path(__file__).resolve().parent / "backend_server.py")
NODE_DIR = Path(os.environ.get("CONFORMANCE_DIR", Path(__file__).resolve().parent.parent / ".ci" / "node"))


class Aggregator:
    """`websearch-mcp --servers FILE` as a client runs it, with a reader thread for its output."""

    def __init__(self, servers: dict[str, Any], tmp_path: Path, env: dict[str, str] | None = None,
                 args: list[str] | None = None) -> None:
        path = tmp_path / "servers.json"
        path.write_text(json.dumps({"mcpServers": servers}))
        offline = {name: "http://127.0.0.1:9/" for name in ("WEBSEARCH_DDG_HTML_URL", "WEBSEARCH_DDG_LITE_URL",
                                                             "WEBSEARCH_DDG_API_URL")}  # never the internet
        self.process = subprocess.Popen([installed_command(), "--servers", str(path), *(args or [])],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env=client_environment({**offline, **(env or {})}))
        self.messages: Queue[dict[str, Any]] = Queue()
        self.stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.messages.put(json.loads(line))

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line.decode("utf-8", "replace"))

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps(message) + "\n").encode())
        self.process.stdin.flush()

    def reply(self, request_id: Any, timeout: float = 20) -> dict[str, Any]:
        """The response to request_id; notifications seen meanwhile are kept in `notifications`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                message = self.messages.get(timeout=0.1)
            except Empty:
                continue
            if message.get("id") == request_id and "method" not in message:
                return message
            self.notifications.append(message)
        raise AssertionError(f"no reply to {request_id}; stderr: {''.join(self.stderr)[-2000:]}")

    notifications: list[dict[str, Any]]

    def ask(self, message: dict[str, Any], timeout: float = 20) -> dict[str, Any]:
        self.send(message)
        return self.reply(message["id"], timeout)

    def tools(self) -> dict[str, dict[str, Any]]:
        listed: dict[str, dict[str, Any]] = {}
        cursor = None
        while True:
            params = {"cursor": cursor} if cursor else {}
            page = self.ask(request("tools/list", params, id=f"list-{time.monotonic_ns()}"))["result"]
            listed.update((t["name"], t) for t in page["tools"])
            cursor = page.get("nextCursor")
            if not cursor:
                return listed

    def wait_for_tool(self, name: str, timeout: float = 20) -> dict[str, dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            tools = self.tools()
            if name in tools:
                return tools
            time.sleep(0.1)
        raise AssertionError(f"{name} never listed; stderr: {''.join(self.stderr)[-2000:]}")

    def close(self, timeout: float = 15) -> int:
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
        return self.process.wait(timeout)


@pytest.fixture
def aggregate(tmp_path):
    started: list[Aggregator] = []

    def start(servers: dict[str, Any], **kwargs: Any) -> Aggregator:
        aggregator = Aggregator(servers, tmp_path, **kwargs)
        aggregator.notifications = []
        started.append(aggregator)
        aggregator.ask(initialize())
        aggregator.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return aggregator

    yield start
    for aggregator in started:
        if aggregator.process.poll() is None:
            aggregator.process.kill()
            aggregator.process.wait(5)


def backend(*args: str) -> dict[str, Any]:
    return {"command": sys.executable, "args": [BACKEND, *args]}


def direct_call(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The test backend's own answer, asked without the aggregator."""
    lines = [initialize(), call(tool, arguments, id=1)]
    process = subprocess.run([sys.executable, BACKEND], input="".join(json.dumps(m) + "\n" for m in lines),
                             capture_output=True, text=True, timeout=20)
    return next(json.loads(line) for line in process.stdout.splitlines() if json.loads(line).get("id") == 1)


def pid_of(aggregator: Aggregator, name: str) -> int:
    return int(aggregator.ask(call(f"{name}.pid", {}, id=f"pid-{time.monotonic_ns()}"))["result"]["content"][0]["text"])


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_tools_and_schemas_pass_through(aggregate, ddg):
    aggregator = aggregate({"tb": backend(), "ws": {"command": installed_command(), "env": env_for(ddg)}})
    aggregator.wait_for_tool("tb.change")
    tools = aggregator.wait_for_tool("ws.web_search")
    echo = tools["tb.echo"]
    assert echo["inputSchema"]["properties"]["text"] == {"type": "string", "minLength": 1}
    assert echo["outputSchema"] == {"type": "object", "properties": {"echo": {"type": "string"}}, "required": ["echo"]}
    assert echo["annotations"] == {"readOnlyHint": True, "openWorldHint": False} and echo["title"] == "Echo"
    assert {"tb.echo", "tb.fail", "tb.crash", "tb.hang", "tb.progress", "tb.pid", "tb.change"} <= set(tools)
    ours = {t["name"]: t for t in tools.values() if "." not in t["name"]}
    assert tools["ws.web_search"]["inputSchema"] == ours["web_search"]["inputSchema"]
    assert tools["ws.web_search"]["outputSchema"] == ours["web_search"]["outputSchema"]
    assert list(tools)[:4] == ["web_search", "instant_answer", "fetch_content", "search_context"]


def test_results_pass_through_unchanged(aggregate, ddg):
    aggregator = aggregate({"tb": backend(), "ws": {"command": installed_command(), "env": env_for(ddg)}},
                           env=env_for(ddg))
    aggregator.wait_for_tool("tb.echo")
    through = aggregator.ask(call("tb.echo", {"text": "héllo ✓"}, id=5))
    assert through["result"] == direct_call("echo", {"text": "héllo ✓"})["result"]
    failed_tool = aggregator.ask(call("tb.tool_error", {}, id=6))
    assert failed_tool["result"] == {"content": [{"type": "text", "text": "it went wrong"}], "isError": True}
    aggregator.wait_for_tool("ws.instant_answer")
    answer = aggregator.ask(call("ws.instant_answer", {"query": "DuckDuckGo"}, id=7))
    own = aggregator.ask(call("instant_answer", {"query": "DuckDuckGo"}, id=8))
    assert answer["result"]["content"] == own["result"]["content"]
    assert answer["result"]["structuredContent"] == own["result"]["structuredContent"]


def test_error_cases(aggregate, tmp_path):
    aggregator = aggregate({"tb": backend()}, env={"WEBSEARCH_BACKEND_TIMEOUT": "1"})
    aggregator.wait_for_tool("tb.echo")
    failed = aggregator.ask(call("tb.fail", {}, id=1))
    assert failed["error"] == {"code": -32000, "message": "Backend MCP server error: File not found",
                               "data": {"code": -32001, "data": {"path": "/nope"}}}
    hung = aggregator.ask(call("tb.hang", {}, id=2))
    assert hung["error"]["code"] == -32000 and hung["error"]["message"] == "MCP server 'tb' did not answer within 1 s"
    unknown = aggregator.ask(call("tb.nope", {}, id=3))
    assert unknown["error"] == {"code": -32602, "message": "Tool not found: tb.nope"}
    crashed = aggregator.ask(call("tb.crash", {}, id=4))
    assert crashed["error"] == {"code": -32000, "message": "MCP server 'tb' is not running"}
    right_after = aggregator.ask(call("tb.echo", {"text": "x"}, id=5))  # restarting: gone, or back already
    echoed = {"content": [{"type": "text", "text": "x"}], "structuredContent": {"echo": "x"}}
    gone = ({"code": -32602, "message": "Tool not found: tb.echo"},
            {"code": -32000, "message": "MCP server 'tb' is not running"})
    assert right_after.get("result") == echoed or right_after["error"] in gone
    assert aggregator.ask(request("ping", id=6))["result"] == {}  # the aggregator itself is undisturbed


def test_a_killed_backend_is_restarted(aggregate):
    aggregator = aggregate({"tb": backend()})
    aggregator.wait_for_tool("tb.pid")
    first = pid_of(aggregator, "tb")
    os.kill(first, signal.SIGKILL)
    deadline = time.monotonic() + 20
    second = first
    while time.monotonic() < deadline and second == first:
        time.sleep(0.2)
        reply = aggregator.ask(call("tb.pid", {}, id=f"p{time.monotonic_ns()}"))
        if "result" in reply:
            second = int(reply["result"]["content"][0]["text"])
    assert second != first and alive(second)
    assert any(n.get("method") == "notifications/tools/list_changed" for n in aggregator.notifications)


@pytest.mark.parametrize("how", ["stdin closed", "SIGTERM"])
def test_no_child_outlives_the_aggregator(aggregate, how):
    aggregator = aggregate({"one": backend(), "two": backend()})
    aggregator.wait_for_tool("one.pid")
    aggregator.wait_for_tool("two.pid")
    children = [pid_of(aggregator, "one"), pid_of(aggregator, "two")]
    if how == "SIGTERM":
        aggregator.process.send_signal(signal.SIGTERM)
        aggregator.process.wait(15)
    else:
        assert aggregator.close() == 0
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(pid) for pid in children):
        time.sleep(0.1)
    assert not any(alive(pid) for pid in children)


def test_broken_and_slow_backends_do_not_delay_the_rest(aggregate):
    started = time.monotonic()
    aggregator = aggregate({"slow": backend("--slow-start", "4"), "broken": backend("--crash-at-start"),
                            "missing": {"command": "/nonexistent/server"}, "fast": backend()})
    assert aggregator.ask(request("ping", id="p"))["result"] == {}
    assert "web_search" in aggregator.tools()
    aggregator.wait_for_tool("fast.echo", timeout=10)
    assert time.monotonic() - started < 4  # did not wait for the slow one
    aggregator.wait_for_tool("slow.echo", timeout=20)
    # a configured server that is not running is "not running" (seed 003), not an unknown tool
    assert aggregator.ask(call("broken.echo", {"text": "x"}, id=9))["error"] == {
        "code": -32000, "message": "MCP server 'broken' is not running"}
    assert any(line.startswith("[broken] broken on purpose") for line in aggregator.stderr)


def test_stderr_is_forwarded_with_the_name(aggregate):
    aggregator = aggregate({"tb": backend()})
    aggregator.wait_for_tool("tb.echo")
    assert any(line.startswith("[tb] test backend ") for line in aggregator.stderr)


def test_progress_and_cancellation_pass_through(aggregate):
    aggregator = aggregate({"tb": backend()})
    aggregator.wait_for_tool("tb.progress")
    done = aggregator.ask(call("tb.progress", {}, id=1, meta={"progressToken": "mine"}))
    assert done["result"]["content"][0]["text"] == "done"
    progress = [n["params"] for n in aggregator.notifications if n.get("method") == "notifications/progress"]
    assert progress == [{"progressToken": "mine", "progress": 1, "total": 2},
                        {"progressToken": "mine", "progress": 2, "total": 2}]
    aggregator.send(call("tb.hang", {}, id=2))
    time.sleep(0.5)
    aggregator.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}})
    assert aggregator.ask(request("ping", id=3))["result"] == {}
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not any("[tb] cancelled" in line for line in aggregator.stderr):
        time.sleep(0.1)
    assert any("[tb] cancelled" in line for line in aggregator.stderr)
    assert not any(n.get("id") == 2 for n in aggregator.notifications)


def test_list_changed_is_followed_and_announced(aggregate):
    aggregator = aggregate({"tb": backend()})
    aggregator.wait_for_tool("tb.change")
    aggregator.notifications.clear()
    aggregator.ask(call("tb.change", {}, id=1))
    aggregator.wait_for_tool("tb.added")
    assert {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"} in aggregator.notifications
    capabilities = aggregator.ask(initialize(id="again"))["result"]["capabilities"]
    assert capabilities == {"tools": {"listChanged": True}}


def test_lightweight_listing(aggregate):
    aggregator = aggregate({"tb": backend()}, args=["--lightweight-list"])
    tools = aggregator.wait_for_tool("tb.echo")
    assert tools["tb.echo"] == {"name": "tb.echo", "description": "Echo the text back."}


@pytest.mark.parametrize("content, problem", [
    (None, "no such file"), ("{not json", "is not valid JSON"), ('{"servers": {}}', '"mcpServers"'),
    ('{"mcpServers": {"a": {"args": []}}}', 'needs a "command" string'),
    ('{"mcpServers": {"a b": {"command": "x"}}}', "server name 'a b'"),
])
def test_bad_servers_file_is_a_clear_start_up_error(tmp_path, content, problem):
    path = tmp_path / "servers.json"
    if content is not None:
        path.write_text(content)
    process = subprocess.run([installed_command(), "--servers", str(path)], input=b"", capture_output=True,
                             env=client_environment(), timeout=20)
    assert process.returncode == 2
    assert str(path) in process.stderr.decode() and problem in process.stderr.decode()


def test_disabled_servers_are_not_started(aggregate):
    aggregator = aggregate({"off": {**backend(), "enabled": False}, "on": backend()})
    tools = aggregator.wait_for_tool("on.echo")
    assert not any(name.startswith("off.") for name in tools)
    refused = aggregator.ask(call("off.echo", {"text": "hi"}, id=7))
    assert refused["error"]["code"] == -32000
    assert refused["error"]["message"] == "MCP server 'off' is disabled in the servers file"  # not "not running"


def test_third_party_server_from_npm(aggregate):
    node = NODE_DIR / "node_modules" / ".bin" / "node"
    script = NODE_DIR / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
    if not (node.exists() and script.exists()):
        pytest.skip("@modelcontextprotocol/server-everything is not installed (make test installs it with npm)")
    aggregator = aggregate({"everything": {"command": str(node), "args": [str(script), "stdio"]}})
    tools = aggregator.wait_for_tool("everything.echo", timeout=30)
    assert tools["everything.echo"]["inputSchema"]["type"] == "object"
    echoed = aggregator.ask(call("everything.echo", {"message": "hi from the aggregator"}, id=1))
    assert "hi from the aggregator" in json.dumps(echoed["result"])


def test_a_command_that_cannot_run_is_given_up_and_no_list_change_is_announced(aggregate):
    aggregator = aggregate({"ghost": {"command": "/nonexistent/mcp-server"}, "tb": backend()})
    aggregator.wait_for_tool("tb.echo")
    time.sleep(2.5)  # long enough for several restarts, were there any
    missing = aggregator.ask(call("ghost.anything", {}, id=1))
    assert missing["error"] == {"code": -32000, "message": "MCP server 'ghost' is not running"}
    ghost_lines = [line for line in aggregator.stderr if "ghost" in line]
    assert len(ghost_lines) == 1 and "cannot run '/nonexistent/mcp-server'" in ghost_lines[0], ghost_lines
    changes = [n for n in aggregator.notifications if n.get("method") == "notifications/tools/list_changed"]
    assert len(changes) == 1  # tb's tools arriving, once; nothing for the server that never ran


def test_the_http_transport_serves_aggregated_tools(tmp_path):
    from tests.store_parts import free_port

    servers = tmp_path / "servers.json"
    servers.write_text(json.dumps({"mcpServers": {"tb": backend(), "ghost": {"command": "/nonexistent/x"}}}))
    port = free_port()
    process = subprocess.Popen([installed_command(), "--servers", str(servers), "--http", f"127.0.0.1:{port}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=client_environment())
    try:
        wait_for_http(port)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            listed = requests.get(f"{base}/tools", timeout=5).json()["tools"]
            if any(t["name"] == "tb.echo" for t in listed):
                break
            time.sleep(0.1)
        headers = {"Accept": "application/json, text/event-stream"}
        echoed = requests.post(f"{base}/mcp", json=call("tb.echo", {"text": "via http"}), headers=headers,
                               timeout=10).json()
        assert echoed["result"]["structuredContent"] == {"echo": "via http"}
        ghost = requests.post(f"{base}/mcp", json=call("ghost.x", {}), headers=headers, timeout=10).json()
        assert ghost["error"] == {"code": -32000, "message": "MCP server 'ghost' is not running"}
        rest = requests.post(f"{base}/tools/call", json={"name": "tb.echo", "parameters": {"text": "rest"}},
                             timeout=10)
        assert rest.status_code == 200 and rest.json()["result"]["markdown"] == "rest"
        down = requests.post(f"{base}/tools/call", json={"name": "ghost.x", "parameters": {}}, timeout=10)
        assert down.status_code == 502 and down.json()["error"] == "MCP server 'ghost' is not running"
    finally:
        process.terminate()
        process.wait(10)


def running(pid: int) -> bool:
    """Whether a process runs (a zombie waiting to be reaped has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return False


def number(aggregator: Aggregator, tool: str) -> int:
    return int(aggregator.ask(call(tool, {}, id=f"n-{time.monotonic_ns()}"))["result"]["content"][0]["text"])


@pytest.mark.parametrize("how", ["stdin closed", "SIGTERM", "SIGKILL"])
def test_no_process_of_any_backend_outlives_the_aggregator(aggregate, how):
    wrapped = f"{sys.executable} {BACKEND} --ignore-eof; true"  # `; true`: the shell stays as the parent
    aggregator = aggregate({"wrapped": {"command": "sh", "args": ["-c", wrapped]},
                            "helped": backend("--helper"), "deaf": backend("--ignore-eof")})
    for name in ("wrapped", "helped", "deaf"):
        aggregator.wait_for_tool(f"{name}.pid")
    processes = {"wrapped server": number(aggregator, "wrapped.pid"), "helper": number(aggregator, "helped.helper_pid"),
                 "server ignoring EOF": number(aggregator, "deaf.pid")}
    assert all(running(pid) for pid in processes.values())
    if how == "SIGKILL":
        aggregator.process.kill()
    elif how == "SIGTERM":
        aggregator.process.send_signal(signal.SIGTERM)
    else:
        aggregator.process.stdin.close()  # type: ignore[union-attr]
    assert aggregator.process.wait(15) in (0, -signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(running(pid) for pid in processes.values()):
        time.sleep(0.1)
    assert not [name for name, pid in processes.items() if running(pid)]


def test_a_reply_whose_id_is_a_list_harms_nothing(aggregate):
    aggregator = aggregate({"tb": backend()}, env={"WEBSEARCH_BACKEND_TIMEOUT": "1"})
    aggregator.wait_for_tool("tb.list_id")
    before = pid_of(aggregator, "tb")
    odd = aggregator.ask(call("tb.list_id", {}, id=1))
    assert odd["error"] == {"code": -32000, "message": "MCP server 'tb' did not answer within 1 s"}
    assert aggregator.ask(call("tb.echo", {"text": "still here"}, id=2))["result"]["structuredContent"] == {
        "echo": "still here"}
    assert pid_of(aggregator, "tb") == before  # the same backend, read by the same reader: nothing restarted


def test_a_null_result_is_an_invalid_reply(aggregate):
    aggregator = aggregate({"tb": backend()})
    aggregator.wait_for_tool("tb.null_result")
    answer = aggregator.ask(call("tb.null_result", {}, id=1))
    assert answer["error"]["code"] == -32000
    assert answer["error"]["message"] == ("Backend MCP server error: invalid reply to tools/call: the result is null, "
                                          "not an object")


def peak_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def test_an_oversized_reply_is_refused_without_being_held(aggregate):
    aggregator = aggregate({"tb": backend()})
    aggregator.wait_for_tool("tb.huge")
    assert aggregator.ask(call("tb.huge", {"megabytes": 1}, id=1))["result"]["content"][0]["text"][:999] == "x" * 999
    huge = aggregator.ask(call("tb.huge", {"megabytes": 100}, id=2), timeout=60)
    assert huge["error"] == {"code": -32000, "message": "Backend MCP server error: the reply exceeds 16 MiB and was "
                                                         "not read", "data": {"code": -32603, "data": None}}
    assert peak_mib(aggregator.process.pid) < 150  # the 100 MB line was skipped, never held
    assert aggregator.ask(call("tb.echo", {"text": "next"}, id=3))["result"]["structuredContent"] == {"echo": "next"}
