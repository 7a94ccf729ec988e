"""The HTTP client for fetching arbitrary pages: the plain outbound client, with every connection
opened only to an address the AddressGuard has checked."""

from __future__ import annotations

from typing import Any

from requests.adapters import HTTPAdapter

from websearch_mcp.config import Config
from websearch_mcp.fetch.addresses import AddressGuard
from websearch_mcp.http_client import HttpClient


class _GuardedAdapter(HTTPAdapter):
    """A transport adapter whose connections open sockets only to checked addresses."""

    def __init__(self, guard: AddressGuard) -> None:
        self.guard = guard
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        from websearch_mcp.fetch.connections import pool_classes

        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = pool_classes(self.guard)


class GuardedHttpClient(HttpClient):
    """The client for fetching arbitrary pages: every connection is checked by an AddressGuard."""

    def __init__(self, config: Config, guard: AddressGuard) -> None:
        super().__init__(config)
        self.guard = guard
        adapter = _GuardedAdapter(guard)
        self.session.mount("http://", adapter)
        self.session.mount("https://", adapter)
