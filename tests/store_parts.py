"""Real parts for the shared-store tests: a redis-server on a free loopback port, and groups of
websearch-mcp processes talking to one fake upstream at the same time."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import client_environment, installed_command
from tests.helpers import call, initialize


def free_port() -> int:
    """A TCP port nobody listens on (on loopback)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    """A real redis-server with persistence off, on a free loopback port; stopped by its pid."""

    def __init__(self, directory: Path, password: str = "") -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed (apt-get install redis-server; .ci/run installs it)")
        self.binary = binary
        self.directory = directory
        self.password = password
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        """The WEBSEARCH_STORE value for this server."""
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start (or restart) the server on its port and wait until it answers."""
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                   "no", "--dir", str(self.directory)]
        if self.password:
            command += ["--requirepass", self.password]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as connection:
                    connection.sendall(b"PING\r\n")
                    if connection.recv(64):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        """Stop the server by its pid (SIGTERM, then SIGKILL)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


def spawn(env: dict[str, str], stdin: Any = subprocess.PIPE) -> subprocess.Popen[bytes]:
    """The installed command, as a client starts it."""
    return subprocess.Popen([installed_command()], stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=client_environment(env))


def search_lines(queries: list[str]) -> bytes:
    """An initialize and one web_search per query, as JSON lines."""
    messages: list[Any] = [initialize(id=0)]
    messages += [call("web_search", {"query": q, "max_results": 3}, id=n) for n, q in enumerate(queries, 1)]
    return b"".join((json.dumps(m) + "\n").encode() for m in messages)


def run_together(env: dict[str, str], queries: list[str], processes: int) -> list[tuple[dict[int, Any], str]]:
    """Several servers asked the same searches at the same moment: each one's answers and stderr."""
    with tempfile.TemporaryDirectory() as folder:  # every process finds all its input at once
        path = os.path.join(folder, "lines.jsonl")
        with open(path, "wb") as lines:
            lines.write(search_lines(queries))
        started = []
        for _ in range(processes):
            with open(path, "rb") as own:  # each its own open file, with its own read position
                started.append(spawn(env, stdin=own))
    results = []
    for process in started:
        out, err = process.communicate(timeout=60)
        answers = {m["id"]: m for m in (json.loads(line) for line in out.decode().splitlines())}
        results.append((answers, err.decode()))
    return results


def smallest_gap(times: list[float]) -> float:
    """The least time between two consecutive arrivals."""
    ordered = sorted(times)
    return min((b - a for a, b in itertools.pairwise(ordered)), default=float("inf"))
