"""A backend MCP server as a child process, and the JSON-RPC client over its stdin and stdout.

The child runs under a keeper (keeper.py) in a process group of its own: closing it ends the whole
group (a shell wrapper's real server, the server's own helpers), and so does the death of this
process, however it dies. Its stderr is forwarded to ours, each line prefixed with the server's name.
"""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

from websearch_mcp import log, wire
from websearch_mcp.proxy import keeper

NotificationHandler = Callable[[str, dict[str, Any]], None]
MAX_REPLY_BYTES = 16 * 1024 * 1024  # one line from a backend; a longer one is refused, not held
KEEPER_GRACE = 2.0  # between SIGTERM and SIGKILL for what is left of a backend's group


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
        merged = {**os.environ, **env}
        _check_runnable(command[0], merged.get("PATH", os.defpath))
        # the keeper is started from the supervisor's thread, which lives as long as the backend is
        # wanted: its parent-death signal is tied to that thread
        kept: dict[str, Any] = {"start_new_session": True, "preexec_fn": keeper.parent_death_signal()}
        self.process = subprocess.Popen(keeper.command(command, KEEPER_GRACE) if keeper.available() else command,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env=merged, **(kept if keeper.available() else {}))
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
        if not isinstance(result, dict):
            found = "missing" if "result" not in reply else "null" if result is None else type(result).__name__
            raise BackendRpcError({"code": -32603, "message": f"invalid reply to {method}: the result is {found}, "
                                   "not an object"})
        return result

    # -- receiving ---------------------------------------------------------------------------------

    def _read_stdout(self) -> None:
        from websearch_mcp.transports.stdio import OversizedLine, read_lines

        assert self.process.stdout is not None
        try:
            for line in read_lines(self.process.stdout, MAX_REPLY_BYTES):  # type: ignore[arg-type]
                if isinstance(line, OversizedLine):
                    self._refuse_oversized(line.prefix)
                else:
                    self._receive(line)
        except (OSError, ValueError):
            pass
        finally:
            self.exited.set()
            with self._lock:
                waiting = list(self._pending.values())
            for pending in waiting:
                pending.done.set()  # reply stays None: the child is gone

    def _refuse_oversized(self, prefix: bytes) -> None:
        """A line over the limit was skipped unread: fail the request it answers, if it names one."""
        from websearch_mcp.jsonrpc import sniff_id

        log.warning(f"[{self.name}] wrote a line over {MAX_REPLY_BYTES} bytes on stdout; it was skipped")
        self._answer(sniff_id(prefix), {"error": {"code": -32603, "message": (
            f"the reply exceeds {MAX_REPLY_BYTES // (1024 * 1024)} MiB and was not read")}})

    def _answer(self, request_id: object, reply: dict[str, Any]) -> None:
        """Hand a reply to the request waiting for it (our ids are integers; anything else waits for none)."""
        if not isinstance(request_id, int) or isinstance(request_id, bool):
            return
        with self._lock:
            pending = self._pending.get(request_id)
        if pending is not None:
            pending.reply = reply
            pending.done.set()

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
        self._answer(message.get("id"), message)

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
        """Close stdin, then SIGTERM, then SIGKILL, waiting `grace` seconds between steps; every
        step reaches the whole process group (the keeper ends what its child leaves behind)."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except OSError:
            pass
        steps = (None, self.process.terminate, self._kill)
        for step in steps:
            if step is not None:
                try:
                    step()
                except OSError:
                    pass
            try:
                self.process.wait(grace + KEEPER_GRACE if step == self.process.terminate else grace)
                return
            except subprocess.TimeoutExpired:
                continue

    def _kill(self) -> None:
        """SIGKILL the keeper's whole process group (where there are groups), else the child."""
        if keeper.available():
            os.killpg(self.process.pid, signal.SIGKILL)
        else:
            self.process.kill()


def _check_runnable(command: str, path: str) -> None:
    """FileNotFoundError or PermissionError now, as running the command itself would raise them
    (under the keeper they would only show as an exit status)."""
    if shutil.which(command, path=path) is not None:
        return
    if os.sep in command and os.path.exists(command):
        raise PermissionError(13, "Permission denied", command)
    raise FileNotFoundError(2, "No such file or directory", command)
