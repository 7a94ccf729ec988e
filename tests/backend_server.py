"""A small MCP server for the aggregator tests (standard library only): it can answer, fail,
crash, hang, report progress and change its tool list on demand.

    python tests/backend_server.py [--slow-start SECONDS] [--crash-at-start] [--ignore-eof] [--helper]

--ignore-eof keeps it running after its stdin ends (as some servers do); --helper starts a child
process of its own (a helper that outlives it unless someone ends it), whose pid `helper_pid` tells.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

TOOLS = [
    {"name": "echo", "description": "Echo the text back.", "title": "Echo",
     "inputSchema": {"type": "object", "properties": {"text": {"type": "string", "minLength": 1}},
                     "required": ["text"], "additionalProperties": False},
     "outputSchema": {"type": "object", "properties": {"echo": {"type": "string"}}, "required": ["echo"]},
     "annotations": {"readOnlyHint": True, "openWorldHint": False}},
    {"name": "fail", "description": "Answer with a JSON-RPC error.", "inputSchema": {"type": "object"}},
    {"name": "tool_error", "description": "Answer with an isError result.", "inputSchema": {"type": "object"}},
    {"name": "crash", "description": "Exit at once.", "inputSchema": {"type": "object"}},
    {"name": "hang", "description": "Never answer.", "inputSchema": {"type": "object"}},
    {"name": "progress", "description": "Report progress, then answer.", "inputSchema": {"type": "object"}},
    {"name": "pid", "description": "Say which process answers.", "inputSchema": {"type": "object"}},
    {"name": "change", "description": "Add a tool and announce it.", "inputSchema": {"type": "object"}},
    {"name": "helper_pid", "description": "Say which process is the helper.", "inputSchema": {"type": "object"}},
    {"name": "list_id", "description": "Answer under an id that is a list.", "inputSchema": {"type": "object"}},
    {"name": "null_result", "description": "Answer with result null.", "inputSchema": {"type": "object"}},
    {"name": "huge", "description": "Answer with MEGABYTES of text.", "inputSchema": {"type": "object"}},
]
helpers: list[subprocess.Popen] = []
PAGE = 3
lock = threading.Lock()
calls: list[threading.Thread] = []


def send(message: dict) -> None:
    with lock:
        sys.stdout.write(json.dumps(message, ensure_ascii=False) + "\n")
        sys.stdout.flush()


def result(request_id, value: dict) -> None:
    send({"jsonrpc": "2.0", "id": request_id, "result": value})


def call(request_id, params: dict) -> None:
    name = params.get("name")
    arguments = params.get("arguments") or {}
    token = (params.get("_meta") or {}).get("progressToken")
    if name == "echo":
        result(request_id, {"content": [{"type": "text", "text": arguments.get("text", "")}],
                            "structuredContent": {"echo": arguments.get("text", "")}})
    elif name == "fail":
        send({"jsonrpc": "2.0", "id": request_id,
              "error": {"code": -32001, "message": "File not found", "data": {"path": "/nope"}}})
    elif name == "tool_error":
        result(request_id, {"content": [{"type": "text", "text": "it went wrong"}], "isError": True})
    elif name == "crash":
        os._exit(3)
    elif name == "hang":
        return
    elif name == "progress":
        for step in (1, 2):
            if token is not None:
                send({"jsonrpc": "2.0", "method": "notifications/progress",
                      "params": {"progressToken": token, "progress": step, "total": 2}})
            time.sleep(0.05)
        result(request_id, {"content": [{"type": "text", "text": "done"}]})
    elif name == "helper_pid":
        result(request_id, {"content": [{"type": "text", "text": str(helpers[0].pid if helpers else 0)}]})
    elif name == "list_id":
        send({"jsonrpc": "2.0", "id": [request_id], "result": {"content": []}})
    elif name == "null_result":
        send({"jsonrpc": "2.0", "id": request_id, "result": None})
    elif name == "huge":
        text = "x" * (int(arguments.get("megabytes", 1)) * 1024 * 1024)
        result(request_id, {"content": [{"type": "text", "text": text}]})
    elif name == "pid":
        result(request_id, {"content": [{"type": "text", "text": str(os.getpid())}]})
    elif name == "change":
        if not any(t["name"] == "added" for t in TOOLS):
            TOOLS.append({"name": "added", "description": "Added later.", "inputSchema": {"type": "object"}})
        result(request_id, {"content": [{"type": "text", "text": "changed"}]})
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
    else:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32602, "message": f"Unknown tool: {name}"}})


def handle(message: dict) -> None:
    method, request_id = message.get("method"), message.get("id")
    params = message.get("params") or {}
    if request_id is None:
        if method == "notifications/cancelled":
            print(f"cancelled {params.get('requestId')}", file=sys.stderr, flush=True)
        return
    if method == "initialize":
        result(request_id, {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                            "capabilities": {"tools": {"listChanged": True}},
                            "serverInfo": {"name": "test-backend", "version": "1.0.0"}})
    elif method == "ping":
        result(request_id, {})
    elif method == "tools/list":
        start = int(params.get("cursor") or 0)
        page = {"tools": TOOLS[start:start + PAGE]}
        if start + PAGE < len(TOOLS):
            page["nextCursor"] = str(start + PAGE)
        result(request_id, page)
    elif method == "tools/call":
        worker = threading.Thread(target=call, args=(request_id, params), daemon=True)
        calls.append(worker)
        worker.start()
    else:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": f"Method not found: {method}"}})


def main() -> None:
    if "--crash-at-start" in sys.argv:
        print("broken on purpose", file=sys.stderr, flush=True)
        sys.exit(1)
    if "--slow-start" in sys.argv:
        time.sleep(float(sys.argv[sys.argv.index("--slow-start") + 1]))
    if "--helper" in sys.argv:
        helpers.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"]))
    print(f"test backend {os.getpid()} ready", file=sys.stderr, flush=True)
    for line in sys.stdin:
        if line.strip():
            handle(json.loads(line))
    if "--ignore-eof" in sys.argv:
        time.sleep(600)
    for worker in calls:  # answer every call already read before exiting (a hanging one is let go)
        worker.join(5)


if __name__ == "__main__":
    main()
