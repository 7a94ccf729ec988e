"""The embedded HTTP server: waitress (the `http` extra), or on request (WEBSEARCH_HTTP_SERVER=stdlib)
the standard library's WSGI server made fit for load (a real listen backlog and a bounded pool of
handler threads). The standard library's server gives each connection a thread for its whole life,
so idle connections can take every thread (measured in bench/http_load.py): `--http` therefore
needs waitress unless the standard library's server is asked for by name."""

from __future__ import annotations

import queue
import socket
import sys
import threading
from collections.abc import Callable
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from websearch_mcp import log
from websearch_mcp.config import Config, ConfigError

BACKLOG = 1024  # connections the kernel holds while every handler thread is busy


class _QuietHandler(WSGIRequestHandler):
    """Access lines go to the log (stderr) at debug level; slow clients time out."""

    timeout = 30.0

    def log_message(self, format: str, *args: object) -> None:
        log.debug("http " + format % args)


class PooledWSGIServer(WSGIServer):
    """The stdlib WSGI server with a fixed pool of handler threads fed from a bounded queue."""

    request_queue_size = BACKLOG
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], handler: type[WSGIRequestHandler], threads: int) -> None:
        super().__init__(address, handler)
        self._requests: queue.Queue[tuple[Any, Any] | None] = queue.Queue(maxsize=threads)
        self._workers = [threading.Thread(target=self._work, name=f"http-{n}", daemon=True) for n in range(threads)]
        for worker in self._workers:
            worker.start()

    def process_request(self, request: Any, client_address: Any) -> None:
        """Hand the connection to a handler thread; while all are busy, accepting waits (the kernel
        keeps the next connections in the backlog)."""
        self._requests.put((request, client_address))

    def _work(self) -> None:
        while (item := self._requests.get()) is not None:
            request, client_address = item
            try:
                self.finish_request(request, client_address)
            except Exception:
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """One quiet line, never a traceback, for a client that went away or timed out."""
        error = sys.exc_info()[1]
        if isinstance(error, (TimeoutError, ConnectionError, socket.timeout)):
            log.debug(f"http client {client_address[0]}: {type(error).__name__}")
        else:
            log.warning(f"http client {client_address[0]}: {type(error).__name__}: {error}")

    def server_close(self) -> None:
        """Stop the handler threads and close the socket."""
        super().server_close()
        for _ in self._workers:
            try:
                self._requests.put_nowait(None)
            except queue.Full:
                break


class Served:
    """A server that is bound and ready: `serve()` runs it, `close()` stops it; `address` is (host, port)."""

    def __init__(self, kind: str, address: tuple[str, int], serve: Callable[[], None],
                 close: Callable[[], None]) -> None:
        self.kind = kind
        self.address = address
        self.serve = serve
        self.close = close


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


def _stdlib(app: Any, config: Config, host: str, port: int) -> Served:
    handler = type("Handler", (_QuietHandler,), {"timeout": config.http_timeout})
    if ":" in host:
        server_class: type[PooledWSGIServer] = type("Pooled6", (PooledWSGIServer,), {"address_family": socket.AF_INET6})
    else:
        server_class = PooledWSGIServer
    server = server_class((host, port), handler, config.http_threads)
    server.set_app(app)

    def close() -> None:
        server.shutdown()
        server.server_close()

    bound = server.server_address
    return Served("stdlib", (str(bound[0]), int(bound[1])), lambda: server.serve_forever(poll_interval=0.1), close)


def _waitress(app: Any, config: Config, host: str, port: int) -> Served:
    from waitress.server import create_server

    server: Any = create_server(app, host=host, port=port, threads=config.http_threads, backlog=BACKLOG,
                                channel_timeout=int(config.http_timeout), connection_limit=BACKLOG,
                                clear_untrusted_proxy_headers=True, ident="websearch-mcp")
    closing = threading.Event()

    def serve() -> None:
        try:
            server.run()
        except (OSError, ValueError):
            if not closing.is_set():
                raise  # a real failure; while closing, the loop's last select sees its sockets go

    def close() -> None:
        closing.set()
        server.task_dispatcher.shutdown()
        for dispatcher in list(server._map.values()):  # with every socket closed, the loop ends
            dispatcher.handle_close()

    return Served("waitress", (host, int(server.effective_port)), serve, close)


def waitress_installed() -> bool:
    """Whether the http extra's server is importable."""
    import importlib.util

    return importlib.util.find_spec("waitress") is not None


def make_http_server(config: Config, host: str, port: int, app: Any = None, engine: str = "") -> Served:
    """A bound server for the app on host:port (port 0 picks a free one), not yet serving: waitress
    when it is installed (the `http` extra), else the pooled stdlib server (`engine` picks one)."""
    if app is None:
        from websearch_mcp.transports.http.app import create_app

        app = create_app(config)
    serve_host = getattr(app, "serve_host", None)
    if serve_host is not None:
        serve_host(host)
    choice = engine or config.http_server
    if choice in ("auto", "waitress"):
        if not waitress_installed():
            from websearch_mcp.install_hint import install_command

            raise ConfigError(f"--http serves with waitress, from the http extra: {install_command('http')} "
                              "(or set WEBSEARCH_HTTP_SERVER=stdlib for the standard library's "
                              "server, which idle connections can stall; see the README)")
        choice = "waitress"
    return (_waitress if choice == "waitress" else _stdlib)(app, config, host, port)


def serve_http(config: Config, address: str) -> int:
    """Serve until interrupted; prints the URL it listens on to stderr."""
    host, port = parse_address(address)
    if host not in ("127.0.0.1", "localhost", "::1") and not (config.http_token or config.oauth_issuer):
        log.warning(f"serving on {host}, beyond this machine, without WEBSEARCH_HTTP_TOKEN: anyone who can "
                    "reach the port can use it; set WEBSEARCH_HTTP_TOKEN to require a bearer token")
    served = make_http_server(config, host, port)
    bound_host, bound_port = served.address
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    print(f"websearch-mcp: serving MCP on http://{shown}:{bound_port}/mcp (REST at http://{shown}:{bound_port}/tools; "
          f"{served.kind} server)", file=sys.stderr, flush=True)
    try:
        served.serve()
    except KeyboardInterrupt:
        pass
    finally:
        served.close()
    return 0

