"""A small HTTP forward proxy for the tests, standing for a corporate proxy that does the DNS: it knows
some names this machine cannot resolve (a table of name -> (address, port)) and records every request
it is sent (absolute-form requests and CONNECTs). CONNECT is recorded and refused with 502 (no TLS
server stands behind it)."""

from __future__ import annotations

import socket
import socketserver
import threading
from urllib.parse import urlsplit


class ForwardProxy:
    """Use as a context manager; `seen` lists 'METHOD target' for each request, in order."""

    def __init__(self, host: str, names: dict[str, tuple[str, int]]) -> None:
        self.names = names
        self.seen: list[str] = []
        proxy = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                proxy._serve(self.request)

        self._server = socketserver.ThreadingTCPServer((host, 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://{host}:{self._server.server_address[1]}"

    def __enter__(self) -> ForwardProxy:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _serve(self, client: socket.socket) -> None:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = client.recv(65536)
            if not chunk:
                return
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, target, version = lines[0].split(" ", 2)
        self.seen.append(f"{method} {target}")
        if method == "CONNECT":
            client.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        parts = urlsplit(target)
        where = self.names.get(parts.hostname or "")
        if where is None:
            client.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 9\r\nConnection: close\r\n\r\nunknown\r\n")
            return
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        kept = [line for line in lines[1:] if not line.lower().startswith(("proxy-", "connection:"))]
        request = "\r\n".join([f"{method} {path} {version}", *kept, "Connection: close"]) + "\r\n\r\n"
        with socket.create_connection(where, timeout=10) as upstream:
            upstream.sendall(request.encode("latin-1") + rest)
            while True:
                chunk = upstream.recv(65536)
                if not chunk:
                    break
                client.sendall(chunk)
