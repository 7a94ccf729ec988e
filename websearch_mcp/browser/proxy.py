"""A forward proxy on loopback through which the browser makes every request (pages, scripts,
XHR/fetch, images, iframes, redirects, WebSockets): each one is checked by the same address rules as
fetch_content (AddressGuard), and the connection goes to the very address that was checked. Only web
ports are reached (80, 443 and the ports the proxy is opened for: the page's own), and only the
processes the proxy serves may use it (`peers`)."""

from __future__ import annotations

import collections
import select
import socket
import threading
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from websearch_mcp import log
from websearch_mcp.errors import ToolError
from websearch_mcp.fetch.addresses import AddressGuard, BlockedAddressError
from websearch_mcp.fetch.proxies import proxy_for

_HEAD_LIMIT = 64 * 1024
_IDLE_SECONDS = 60.0
_HOP_HEADERS = (b"proxy-connection:", b"proxy-authorization:", b"connection:", b"keep-alive:")
WEB_PORTS = frozenset({80, 443})
PeerCheck = Callable[[tuple[str, int], tuple[str, int]], bool]


class GuardedProxy:
    """An HTTP forward proxy (CONNECT for TLS and WebSockets, absolute-form requests for http) on
    127.0.0.1 that refuses every address fetch_content would refuse, every port but the web ports
    and `ports`, and, with `peers`, every client that check does not accept."""

    def __init__(self, guard: AddressGuard, ports: Iterable[int] = (), peers: PeerCheck | None = None) -> None:
        self.guard = guard
        self.ports = WEB_PORTS | frozenset(ports)
        self.peers = peers
        self.refused: collections.deque[str] = collections.deque(maxlen=200)  # most recent refusals
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(128)
        self._listener.settimeout(0.5)  # to notice `close` where shutting the listener down does not wake it
        self._closed = threading.Event()
        threading.Thread(target=self._accept, name="browser-proxy", daemon=True).start()

    @property
    def address(self) -> str:
        """host:port of the proxy."""
        return f"127.0.0.1:{self._listener.getsockname()[1]}"

    def close(self) -> None:
        """Stop accepting connections (those open finish on their own)."""
        self._closed.set()
        try:
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread (Linux)
        except OSError:
            pass
        self._listener.close()

    def _accept(self) -> None:
        ours = self._listener.getsockname()
        while not self._closed.is_set():
            try:
                client, peer = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return  # closed
            threading.Thread(target=self._serve_peer, args=(client, peer, ours), name="browser-proxy-client",
                             daemon=True).start()

    def _serve_peer(self, client: socket.socket, peer: tuple[str, int], ours: tuple[str, int]) -> None:
        if self.peers is not None and not self.peers(peer, ours):
            log.warning(f"browser: refused a connection to its proxy from {peer[0]}:{peer[1]}, not the browser")
            client.settimeout(2.0)
            try:
                _read_head(client)  # read before answering: closing on unread bytes would reset the connection
            except OSError:
                pass
            _answer(client, 403, "Refused by websearch-mcp: this proxy serves its browser only")
            client.close()
            return
        self.serve(client)

    def serve(self, client: socket.socket) -> None:
        """One client connection: read the request head, check the target, then relay."""
        client.settimeout(_IDLE_SECONDS)
        try:
            head, rest = _read_head(client)
            if head is None:
                return
            method, target, version = _request_line(head)
            if method == b"CONNECT":
                host, port = _split_host_port(target.decode("latin-1"), 443)
            else:
                parts = urlsplit(target.decode("latin-1"))
                if parts.scheme != "http" or not parts.hostname:
                    _answer(client, 400, "Only http and https are proxied")
                    return
                host, port = parts.hostname, parts.port or 80
            if port not in self.ports:
                self.refused.append(f"{host}:{port}")
                (log.warning if self.ports else log.debug)(
                    f"browser: refused {method.decode('latin-1')} {host}:{port}: not a web port")
                _answer(client, 403, f"Refused by websearch-mcp: port {port} is not a web port")
                return
            url = f"https://{host}:{port}/" if method == b"CONNECT" else target.decode("latin-1")
            through = proxy_for(url)
            if through is not None:
                self._via_proxy(client, through, (head, method, target, version, rest), host, port)
                return
            upstream = self._connect(client, method.decode("latin-1"), host, port)
            if upstream is None:
                return
            with upstream:
                if method == b"CONNECT":
                    client.sendall(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                    if rest:
                        upstream.sendall(rest)
                else:
                    upstream.sendall(_origin_form(head, method, target, version) + rest)
                _relay(client, upstream)
        except (OSError, ValueError):
            return
        finally:
            client.close()

    def _via_proxy(self, client: socket.socket, through: str, request: tuple[bytes, bytes, bytes, bytes, bytes],
                   host: str, port: int) -> None:
        """Forward one request to the upstream proxy the environment names (which does the DNS), after
        the address check that applies behind a proxy."""
        head, method, target, version, rest = request
        try:
            self.guard.check_behind_proxy(host, port)
        except BlockedAddressError as err:
            self.refused.append(f"{host}:{port}")
            log.warning(f"browser: refused {method.decode('latin-1')} {host}:{port}: {err.message}")
            _answer(client, 403, "Refused by websearch-mcp: not a public address")
            return
        parts = urlsplit(through if "://" in through else f"http://{through}")
        credentials = _basic_credentials(parts.username, parts.password)
        try:
            upstream = socket.create_connection((parts.hostname or "", parts.port or 8080), timeout=10)
        except OSError:
            _answer(client, 502, f"could not connect to the proxy {parts.hostname}")
            return
        with upstream:
            if method == b"CONNECT":
                upstream.sendall(b"CONNECT " + target + b" " + version + b"\r\nHost: " + target + b"\r\n"
                                 + credentials + b"\r\n")
                answer, extra = _read_head(upstream)
                if answer is None:
                    return
                client.sendall(answer + extra)
                if answer.split(b" ", 2)[1:2] != [b"200"]:
                    return
                if rest:
                    upstream.sendall(rest)
            else:
                upstream.sendall(_proxy_form(head, credentials) + rest)
            _relay(client, upstream)

    def _connect(self, client: socket.socket, method: str, host: str, port: int) -> socket.socket | None:
        try:
            pairs = self.guard.resolve(host, port)
        except BlockedAddressError as err:
            self.refused.append(f"{host}:{port}")
            log.warning(f"browser: refused {method} {host}:{port}: {err.message}")
            _answer(client, 403, "Refused by websearch-mcp: not a public address")
            return None
        except ToolError as err:
            _answer(client, 502, err.message)
            return None
        for _, address in pairs:
            try:
                return socket.create_connection(self.guard.dial_target(address, port), timeout=10)
            except OSError:
                continue
        _answer(client, 502, f"could not connect to {host}")
        return None


def _read_head(client: socket.socket) -> tuple[bytes | None, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = client.recv(8192)
        if not chunk:
            return None, b""
        data += chunk
        if len(data) > _HEAD_LIMIT:
            _answer(client, 431, "Request head too large")
            return None, b""
    head, _, rest = data.partition(b"\r\n\r\n")
    return head + b"\r\n\r\n", rest


def _request_line(head: bytes) -> tuple[bytes, bytes, bytes]:
    line = head.split(b"\r\n", 1)[0]
    method, target, version = line.split(b" ", 2)
    return method.upper(), target, version


def _split_host_port(authority: str, default: int) -> tuple[str, int]:
    if authority.startswith("["):
        host, _, port = authority[1:].partition("]")
        port = port.lstrip(":")
    else:
        host, _, port = authority.rpartition(":") if ":" in authority else (authority, "", "")
    return host, int(port) if port else default


def _origin_form(head: bytes, method: bytes, target: bytes, version: bytes) -> bytes:
    """The request as the origin server expects it: path only, no proxy headers, one request."""
    parts = urlsplit(target.decode("latin-1"))
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    lines = head.split(b"\r\n")[1:]
    kept = [line for line in lines if line and not line.lower().startswith(_HOP_HEADERS)]
    upgrade = any(line.lower().startswith(b"upgrade:") for line in lines)
    connection = b"Connection: Upgrade" if upgrade else b"Connection: close"
    return b"\r\n".join([method + b" " + path.encode("latin-1") + b" " + version, *kept, connection]) + b"\r\n\r\n"


def _proxy_form(head: bytes, credentials: bytes) -> bytes:
    """The request for an upstream proxy: absolute form kept, the browser's proxy headers replaced."""
    lines = head.split(b"\r\n")
    kept = [line for line in lines[1:] if line and not line.lower().startswith(_HOP_HEADERS)]
    return b"\r\n".join([lines[0], *kept, b"Connection: close"]) + b"\r\n" + credentials + b"\r\n"


def _basic_credentials(user: str | None, password: str | None) -> bytes:
    """A Proxy-Authorization header line for a proxy URL with credentials, else nothing."""
    if not user:
        return b""
    import base64
    from urllib.parse import unquote

    token = base64.b64encode(f"{unquote(user)}:{unquote(password or '')}".encode()).decode("ascii")
    return f"Proxy-Authorization: Basic {token}\r\n".encode("latin-1")


def _relay(client: socket.socket, upstream: socket.socket) -> None:
    """Copy bytes both ways until one side closes or both are idle too long."""
    sockets = [client, upstream]
    while True:
        readable, _, _ = select.select(sockets, [], [], _IDLE_SECONDS)
        if not readable:
            return
        for source in readable:
            data = source.recv(1 << 16)
            if not data:
                return
            (upstream if source is client else client).sendall(data)


def _answer(client: socket.socket, status: int, text: str) -> None:
    body = text.encode()
    reason = {400: "Bad Request", 403: "Forbidden", 431: "Request Header Fields Too Large"}.get(status, "Bad Gateway")
    try:
        client.sendall(f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain\r\nContent-Length: {len(body)}\r\n"
                       f"Connection: close\r\n\r\n".encode() + body)
    except OSError:
        pass


def closed_proxy() -> GuardedProxy:
    """A proxy that answers every request with a refusal, quietly: where the browser's own
    background requests (updates, time, accounts) go, since no page renders outside a context."""
    proxy = GuardedProxy(AddressGuard(allow_private=False), ports=())
    proxy.ports = frozenset()
    return proxy
