"""urllib3 connections that open their socket only to an address the AddressGuard has checked, and
whose replies cannot outlive the deadline of the exchange reading them.

The host name stays on the connection, so TLS still verifies the certificate for it; only the
socket goes to the checked address, which closes the window between checking and connecting
that DNS rebinding would use. A configured endpoint asked directly (the exchange trusts its origin)
may sit on a private address; nothing else may.
"""

from __future__ import annotations

import socket
from typing import Any

from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.util.connection import create_connection

from websearch_mcp import exchange
from websearch_mcp.fetch.addresses import AddressGuard, UnresolvedHostError


class _DeadlineMixin:
    sock: socket.socket | None

    def getresponse(self, *args: Any, **kwargs: Any) -> Any:
        running = exchange.current()
        if running is not None:
            running.attach(self.sock)  # the status line and headers are read under the deadline too
        return super().getresponse(*args, **kwargs)  # type: ignore[misc]


class _GuardedMixin(_DeadlineMixin):
    guard: AddressGuard
    _dns_host: str
    port: int
    timeout: object
    source_address: object
    socket_options: object
    sock: socket.socket | None

    def _new_conn(self) -> socket.socket:
        running = exchange.current()
        try:
            if running is not None and running.trusts(self._dns_host, self.port):
                pairs = self.guard.lookup(self._dns_host, self.port)
            else:
                pairs = self.guard.resolve(self._dns_host, self.port)  # BlockedAddressError passes through
        except UnresolvedHostError as err:
            raise NameResolutionError(self._dns_host, self, socket.gaierror(err.message)) from err  # type: ignore[arg-type]
        last: OSError | None = None
        for _, address in pairs:
            target = self.guard.dial_target(address, self.port)
            try:
                return create_connection(target, self.timeout, source_address=self.source_address,  # type: ignore[arg-type]
                                         socket_options=self.socket_options)  # type: ignore[arg-type]
            except TimeoutError as err:
                raise ConnectTimeoutError(self, f"Connection to {self._dns_host} timed out") from err
            except OSError as err:
                last = err
        raise NewConnectionError(self, f"Failed to establish a new connection: {last}")  # type: ignore[arg-type]


def deadline_pool_classes() -> dict[str, type]:
    """Connection-pool classes for the connections to a configured proxy: no address check (the proxy
    is the operator's choice, often on a private address), but replies under the exchange's deadline."""
    http_conn = type("DeadlineHTTPConnection", (_DeadlineMixin, HTTPConnection), {})
    https_conn = type("DeadlineHTTPSConnection", (_DeadlineMixin, HTTPSConnection), {})
    return {
        "http": type("DeadlineHTTPConnectionPool", (HTTPConnectionPool,), {"ConnectionCls": http_conn}),
        "https": type("DeadlineHTTPSConnectionPool", (HTTPSConnectionPool,), {"ConnectionCls": https_conn}),
    }


def pool_classes(guard: AddressGuard) -> dict[str, type]:
    """Connection-pool classes for http and https whose connections are bound to this guard."""
    http_conn = type("GuardedHTTPConnection", (_GuardedMixin, HTTPConnection), {"guard": guard})
    https_conn = type("GuardedHTTPSConnection", (_GuardedMixin, HTTPSConnection), {"guard": guard})
    return {
        "http": type("GuardedHTTPConnectionPool", (HTTPConnectionPool,), {"ConnectionCls": http_conn}),
        "https": type("GuardedHTTPSConnectionPool", (HTTPSConnectionPool,), {"ConnectionCls": https_conn}),
    }
