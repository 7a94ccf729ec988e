"""The HTTP client for fetching arbitrary pages: the plain outbound client, trusting no hop."""

from __future__ import annotations

from websearch_mcp.http_client import HttpClient


class GuardedHttpClient(HttpClient):
    """The client for fetching arbitrary pages: every connection, the first one included, goes only
    to an address the AddressGuard has checked."""

    trust_first_hop = False
