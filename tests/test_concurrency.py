"""The stdio loop with a request in flight: pings answered meanwhile, cancellation, EOF drain."""

from __future__ import annotations

import json
import os
import threading
from typing import Any

import pytest

from tests.helpers import Gate, call, request, test_registry
from websearch_mcp.config import Config
from websearch_mcp.mcp import McpServer
from websearch_mcp.transports.stdio import serve


class Pipes:
    """serve() running in a thread over real OS pipes, as a client sees it."""

    def __init__(self, gate: Gate) -> None:
        in_read, self._in_write = os.pipe()
        self._out_read, out_write = os.pipe()
        self._reader = os.fdopen(in_read, "rb")
        self._writer = os.fdopen(out_write, "wb")
        self.lines = os.fdopen(self._out_read, "rb")
        server = McpServer(test_registry(gate))
        self.status: list[int] = []
        self.thread = threading.Thread(target=self._run, args=(server,), daemon=True)
        self.thread.start()

    def _run(self, server: McpServer) -> None:
        self.status.append(serve(self._reader, self._writer, server, Config()))
        self._writer.close()

    def send(self, message: Any) -> None:
        os.write(self._in_write, (json.dumps(message) + "\n").encode())

    def receive(self) -> Any:
        line = self.lines.readline()
        assert line, "the server closed its output"
        return json.loads(line)

    def close_input(self) -> None:
        os.close(self._in_write)

    def rest(self) -> list[Any]:
        return [json.loads(line) for line in self.lines.read().splitlines()]


@pytest.fixture
def gate() -> Gate:
    return Gate()


def test_ping_and_list_are_answered_while_a_call_is_in_flight(gate):
    pipes = Pipes(gate)
    pipes.send(call("gate", {}, id="slow"))
    assert gate.entered.wait(5)
    pipes.send(request("ping", id=1))
    assert pipes.receive() == {"jsonrpc": "2.0", "id": 1, "result": {}}
    pipes.send(request("tools/list", id=2))
    assert pipes.receive()["id"] == 2
    gate.release.set()
    assert pipes.receive()["id"] == "slow"
    pipes.close_input()
    assert pipes.rest() == []
    pipes.thread.join(5)
    assert pipes.status == [0]


def test_cancelled_request_gets_no_response(gate):
    pipes = Pipes(gate)
    pipes.send(call("gate", {}, id=5))
    assert gate.entered.wait(5)
    pipes.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5,
                                                                                  "reason": "user"}})
    pipes.send(request("ping", id=6))
    assert pipes.receive()["id"] == 6
    pipes.close_input()
    assert pipes.rest() == []  # no response for 5, ever


def test_eof_waits_for_in_flight_requests(gate):
    pipes = Pipes(gate)
    pipes.send(call("gate", {}, id=11))
    assert gate.entered.wait(5)
    pipes.close_input()
    threading.Timer(0.2, gate.release.set).start()
    assert pipes.rest() == [{"jsonrpc": "2.0", "id": 11,
                             "result": {"content": [{"type": "text", "text": "released"}]}}]
    pipes.thread.join(5)
    assert pipes.status == [0]


def test_progress_notifications_only_with_a_token(gate):
    pipes = Pipes(gate)
    gate.release.set()
    pipes.send(call("gate", {}, id=1, meta={"progressToken": "tok"}))
    progress = pipes.receive()
    assert progress == {"jsonrpc": "2.0", "method": "notifications/progress",
                        "params": {"progressToken": "tok", "progress": 1, "total": 2, "message": "halfway"}}
    assert pipes.receive()["id"] == 1
    pipes.send(call("gate", {}, id=2))
    assert pipes.receive()["id"] == 2  # no notification without a token
    pipes.send(call("gate", {}, id=3, meta={"progressToken": {"not": "valid"}}))
    assert pipes.receive()["id"] == 3  # nor with a token that is not a string or an integer
    pipes.close_input()
    assert pipes.rest() == []


def test_many_concurrent_calls_never_interleave_lines(gate):
    gate.release.set()
    pipes = Pipes(gate)
    collected: list[Any] = []
    reader = threading.Thread(target=lambda: collected.extend(pipes.rest()), daemon=True)
    reader.start()  # read while writing, or both sides fill their pipes and wait forever
    for index in range(200):
        pipes.send(call("echo", {"text": "é" * (index * 50)}, id=index) if index % 2 else
                   request("ping", id=index))
    pipes.close_input()
    reader.join(30)
    assert sorted(r["id"] for r in collected) == list(range(200))
