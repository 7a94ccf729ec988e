"""A real HTTP server on 127.0.0.1 that replays files from fixtures/ and injects faults.

Used by the tests and the benchmarks in place of DuckDuckGo & co. Routes map (method, path)
to a list of replies served in turn (the last one repeats) or to a function of the request.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

HTML = "text/html; charset=UTF-8"


@dataclass
class Reply:
    """One canned response, optionally with a fault."""

    status: int = 200
    body: bytes = b""
    content_type: str = HTML
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before anything is sent
    fault: str | None = None  # reset | truncate | oversize | drip | close-delimited | trickle-headers
    oversize_bytes: int = 0
    drip_seconds: float = 0.0

    @classmethod
    def fixture(cls, name: str, **options: object) -> Reply:
        """A reply whose body is a fixture file (a `.with-headers.http` file keeps its status/headers)."""
        data = (FIXTURES / name).read_bytes()
        if name.endswith(".with-headers.http"):
            head, _, body = data.partition(b"\n\n") if b"\r\n\r\n" not in data else data.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").splitlines()
            status = int(lines[0].split()[1])
            headers = {}
            for line in lines[1:]:
                key, _, value = line.partition(":")
                if key.lower() not in ("content-encoding", "content-length", "transfer-encoding"):
                    headers[key.strip()] = value.strip()
            content_type = headers.pop("content-type", HTML)
            base = cls(status=status, body=body, content_type=content_type, headers=headers)
        else:
            kind = "application/x-javascript" if name.endswith(".json") and "ddg-ia" in name else (
                "application/json" if name.endswith(".json") else HTML)
            base = cls(body=data, content_type=kind)
        for key, value in options.items():
            setattr(base, key, value)
        return base

    @classmethod
    def json(cls, data: object, status: int = 200, **options: object) -> Reply:
        """A JSON reply."""
        return cls(status=status, body=json.dumps(data).encode(), content_type="application/json",
                   **options)  # type: ignore[arg-type]


@dataclass
class Seen:
    """A request the fake upstream received."""

    method: str
    path: str
    query: dict[str, str]
    form: dict[str, str]
    headers: dict[str, str]
    body: bytes = b""
    at: float = field(default_factory=time.monotonic)  # when it arrived


class _QuietServer(ThreadingHTTPServer):
    """A client that hangs up on a slow or faulty reply is what the faults are for: no traceback. The
    listen backlog is a real server's, not socketserver's 5: ten pages of one site are asked at once,
    and a connection past a full backlog waits a second for its SYN to be sent again."""

    request_queue_size = 128

    def handle_error(self, request: object, client_address: object) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


Responder = Callable[[Seen], Reply]
RouteTarget = list[Reply] | Responder


class FakeUpstream:
    """The server; use as a context manager. `url` is its base, e.g. http://127.0.0.1:PORT."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.routes: dict[tuple[str, str], RouteTarget] = {}
        self.requests: list[Seen] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        self._server = _QuietServer((host, 0), self._handler_class())  # loopback addresses only
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self.url = f"http://{host}:{self._server.server_address[1]}"

    def __enter__(self) -> FakeUpstream:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def route(self, method: str, path: str, *replies: Reply | Responder) -> None:
        """Serve these replies in turn for METHOD PATH (the last repeats), or a responder function."""
        if len(replies) == 1 and callable(replies[0]) and not isinstance(replies[0], Reply):
            self.routes[(method, path)] = replies[0]
        else:
            self.routes[(method, path)] = [r for r in replies if isinstance(r, Reply)]

    def arrivals(self, path: str) -> list[float]:
        """When each request to a path arrived (time.monotonic), in order."""
        with self._lock:
            return [r.at for r in self.requests if r.path == path]

    def count(self, path: str, method: str | None = None) -> int:
        """How many requests reached a path."""
        with self._lock:
            return sum(1 for r in self.requests if r.path == path and method in (None, r.method))

    def _next_reply(self, seen: Seen) -> Reply:
        with self._lock:
            self.requests.append(seen)
            target = self.routes.get((seen.method, seen.path))
            if target is None:
                return Reply(status=404, body=b"no such route in the fake upstream", content_type="text/plain")
            if callable(target):
                responder = target
            else:
                return target.pop(0) if len(target) > 1 else target[0]
        return responder(seen)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        upstream = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                parts = urlsplit(self.path)
                form = {}
                if "application/x-www-form-urlencoded" in self.headers.get("Content-Type", ""):
                    form = {k: v[0] for k, v in parse_qs(raw.decode(), keep_blank_values=True).items()}
                seen = Seen(self.command, parts.path,
                            {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()},
                            form, {k.lower(): v for k, v in self.headers.items()}, raw)
                with upstream._lock:
                    upstream.in_flight += 1
                    upstream.max_in_flight = max(upstream.max_in_flight, upstream.in_flight)
                try:
                    _send(self, upstream._next_reply(seen))
                finally:
                    with upstream._lock:
                        upstream.in_flight -= 1

            do_GET = do_POST = do_PUT = do_DELETE = _serve

        return Handler


def _send(handler: BaseHTTPRequestHandler, reply: Reply) -> None:
    if reply.delay:
        time.sleep(reply.delay)
    if reply.fault == "reset":
        handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        handler.close_connection = True
        handler.connection.close()
        return
    if reply.fault == "trickle-headers":
        _trickle_headers(handler, reply)
        return
    body = reply.body
    handler.send_response(reply.status)
    handler.send_header("Content-Type", reply.content_type)
    for key, value in reply.headers.items():
        handler.send_header(key, value)
    if reply.fault == "truncate":
        handler.send_header("Content-Length", str(len(body) * 2 + 10))
        handler.send_header("Connection", "close")
        handler.end_headers()
        handler.wfile.write(body[: len(body) // 2])
        handler.close_connection = True
        return
    if reply.fault in ("oversize", "close-delimited", "drip"):
        handler.send_header("Connection", "close")
        handler.end_headers()
        handler.close_connection = True
        _stream(handler, reply)
        return
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def _trickle_headers(handler: BaseHTTPRequestHandler, reply: Reply) -> None:
    """Send the status line, then a header one byte every `drip_seconds`, for as long as the client
    listens (at most 10 minutes)."""
    handler.close_connection = True
    try:
        handler.wfile.write(f"HTTP/1.1 {reply.status} OK\r\nX-Trickle: ".encode())
        handler.wfile.flush()
        started = time.monotonic()
        while time.monotonic() - started < 600:
            time.sleep(reply.drip_seconds or 1.0)
            handler.wfile.write(b"a")
            handler.wfile.flush()
    except (BrokenPipeError, ConnectionResetError):
        pass  # the client gave up, as it should


def _stream(handler: BaseHTTPRequestHandler, reply: Reply) -> None:
    """Send a body with no Content-Length, ended by closing the connection."""
    try:
        if reply.fault == "oversize":
            chunk = b"x" * 65536
            sent = 0
            while sent < reply.oversize_bytes:
                handler.wfile.write(chunk)
                sent += len(chunk)
        elif reply.fault == "drip":
            for index in range(0, len(reply.body), 64):
                handler.wfile.write(reply.body[index:index + 64])
                handler.wfile.flush()
                time.sleep(reply.drip_seconds)
        else:
            handler.wfile.write(reply.body)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the client gave up, as it should on an oversized or slow body
