"""The embedded HTTP server: the stdlib's WSGI server, one thread per request."""

from __future__ import annotations

import socketserver
import sys
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from websearch_mcp import log
from websearch_mcp.config import Config
from websearch_mcp.transports.http.app import create_app


class _ThreadingWSGIServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True
    allow_reuse_address = True


class _QuietHandler(WSGIRequestHandler):
    """Access lines go to the log (stderr), at debug level; slow clients time out."""

    timeout = 30.0

    def log_message(self, format: str, *args: object) -> None:
        log.debug("http " + format % args)


def parse_address(text: str) -> tuple[str, int]:
    """[HOST:]PORT (IPv6 in brackets) → (host, port); the host defaults to loopback."""
    host, port = "127.0.0.1", text
    if text.startswith("["):
        host, _, port = text[1:].partition("]:")
    elif ":" in text:
        host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 <= int(port) < 65536:
        raise ValueError(f"not a port: {port!r}")
    return host or "127.0.0.1", int(port)


def make_http_server(config: Config, host: str, port: int) -> WSGIServer:
    """A threaded server for the app on host:port (port 0 picks a free one); not yet serving."""
    handler = type("Handler", (_QuietHandler,), {"timeout": config.http_timeout})
    return make_server(host, port, create_app(config), server_class=_ThreadingWSGIServer, handler_class=handler)


def serve_http(config: Config, address: str) -> int:
    """Serve until interrupted; prints the URL it listens on to stderr."""
    host, port = parse_address(address)
    with make_http_server(config, host, port) as server:
        bound_host, bound_port = str(server.server_address[0]), int(server.server_address[1])
        shown = f"[{bound_host}]" if ":" in bound_host else bound_host
        print(f"websearch-mcp: serving MCP on http://{shown}:{bound_port}/mcp "
              f"(REST at http://{shown}:{bound_port}/tools)", file=sys.stderr, flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0
