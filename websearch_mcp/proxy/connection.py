"""A backend MCP server as a child process, and the JSON-RPC client over its stdin and stdout.

Its stderr is forwarded to ours, each line prefixed with the server's name.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

from websearch_mcp import log, wire

NotificationHandler = Callable[[str, dict[str, Any]], None]


class BackendGone(Exception):
    """The child process exited (or never started)."""


class BackendTimeout(Exception):
    """The child did not answer in time."""


class BackendCancelled(Exception):
    """The caller cancelled; the child was told so."""


class BackendRpcError(Exception):
    """The child answered with a JSON-RPC error."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(str(error.get("message", "")))
        self.code = error.get("code")
        self.message = str(error.get("message", ""))
        self.data = error.get("data")


class _Pending:
    __slots__ = ("done", "reply")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.reply: dict[str, Any] | None = None


class BackendConnection:
    """Starts the child and speaks newline-delimited JSON-RPC with it."""

    def __init__(self, name: str, command: list[str], env: dict[str, str],
                 on_notification: NotificationHandler) -> None:
        self.name = name
        self.on_notification = on_notification
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env={**os.environ, **env})
        self._pending: dict[int, _Pending] = {}
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._ids = itertools.count(1)
        self.exited = threading.Event()
        threading.Thread(target=self._read_stdout, name=f"{name}-stdout", daemon=True).start()
        threading.Thread(target=self._forward_stderr, name=f"{name}-stderr", daemon=True).start()

    @property
    def alive(self) -> bool:
        """Whether the child still runs."""
        return not self.exited.is_set()

    # -- sending ---------------------------------------------------------------------------------------

    def _send(self, message: dict[str, Any]) -> None:
        from websearch_mcp.jsonrpc import encode

        data = encode(message)  # escapes what UTF-8 cannot hold (lone surrogates from a client)
        with self._write_lock:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write(data)
                self.process.stdin.flush()
            except (OSError, ValueError) as err:
                raise BackendGone(str(err)) from None

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        """Send a notification (errors ignored: a dead child needs no more news)."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        try:
            self._send(message)
        except BackendGone:
            pass

    def request(self, method: str, params: dict[str, Any], timeout: float,
                cancelled: Callable[[], bool] | None = None) -> dict[str, Any]:
        """Send a request and wait for its result; raises BackendRpcError, BackendTimeout,
        BackendGone or BackendCancelled."""
        if not self.alive:
            raise BackendGone("not running")
        request_id = next(self._ids)
        pending = _Pending()
        with self._lock:
            self._pending[request_id] = pending
        try:
            self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
            waited = 0.0
            while not pending.done.wait(0.05):
                waited += 0.05
                if cancelled is not None and cancelled():
                    self.notify("notifications/cancelled", {"requestId": request_id, "reason": "cancelled by client"})
                    raise BackendCancelled()
                if waited >= timeout:
                    self.notify("notifications/cancelled", {"requestId": request_id, "reason": "timed out"})
                    raise BackendTimeout()
        finally:
            with self._lock:
                self._pending.pop(request_id, None)
        reply = pending.reply
        if reply is None:
            raise BackendGone("exited before answering")
        if "error" in reply:
            error = reply["error"] if isinstance(reply["error"], dict) else {"message": str(reply["error"])}
            raise BackendRpcError(error)
        result = reply.get("result")
        return result if isinstance(result, dict) else {}

    # -- receiving ---------------------------------------------------------------------------------

    def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        try:
            for line in self.process.stdout:
                if line.strip():
                    self._receive(line)
        except (OSError, ValueError):
            pass
        finally:
            self.exited.set()
            with self._lock:
                waiting = list(self._pending.values())
            for pending in waiting:
                pending.done.set()  # reply stays None: the child is gone

    def _receive(self, line: bytes) -> None:
        try:
            message = wire.loads(line.decode("utf-8", "replace"))
        except wire.DecodeError:
            log.warning(f"[{self.name}] wrote something that is not JSON on stdout: {line[:200]!r}")
            return
        if not isinstance(message, dict):
            return
        if "method" in message:
            if "id" in message:  # a request from the child (ping, roots, sampling): we offer none but ping
                reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
                if message["method"] == "ping":
                    reply["result"] = {}
                else:
                    reply["error"] = {"code": -32601, "message": f"Method not found: {message['method']}"}
                try:
                    self._send(reply)
                except BackendGone:
                    pass
            else:
                params = message.get("params")
                self.on_notification(str(message["method"]), params if isinstance(params, dict) else {})
            return
        with self._lock:
            pending = self._pending.get(message.get("id"))  # type: ignore[arg-type]
        if pending is not None:
            pending.reply = message
            pending.done.set()

    def _forward_stderr(self) -> None:
        assert self.process.stderr is not None
        try:
            for line in self.process.stderr:
                text = line.decode("utf-8", "replace").rstrip("\n")
                try:
                    sys.stderr.write(f"[{self.name}] {text}\n")
                    sys.stderr.flush()
                except (OSError, ValueError):
                    return
        except (OSError, ValueError):
            pass

    # -- ending ----------------------------------------------------------------------------------------

    def close(self, grace: float = 2.0) -> None:
        """Close stdin, then SIGTERM, then SIGKILL, waiting `grace` seconds between steps."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except OSError:
            pass
        for step in (None, self.process.terminate, self.process.kill):
            if step is not None:
                try:
                    step()
                except OSError:
                    pass
            try:
                self.process.wait(grace)
                return
            except subprocess.TimeoutExpired:
                continue
