"""Who may talk to the HTTP server: Origin checks against DNS rebinding, and an optional bearer token."""

from __future__ import annotations

import hmac
from urllib.parse import urlsplit

from websearch_mcp.transports.http.messages import HttpError, Request

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def origin_allowed(origin: str, allowed: frozenset[str]) -> bool:
    """No Origin (curl, servers) passes; a browser page passes only from an allowed origin.
    With no list configured, the allowed origins are the local ones on any port."""
    if not origin:
        return True
    if origin in allowed:
        return True
    if allowed:
        return False
    try:
        host = urlsplit(origin).hostname or ""
    except ValueError:
        return False
    return urlsplit(origin).scheme in ("http", "https") and host in LOCAL_HOSTS


def check_origin(request: Request, allowed: frozenset[str]) -> None:
    """403 for a request from an origin that is not allowed."""
    if not origin_allowed(request.header("Origin"), allowed):
        raise HttpError(403, {"error": f"origin {request.header('Origin')} is not allowed"})


def check_token(request: Request, token: str) -> None:
    """401 unless the request carries the configured bearer token (when one is configured)."""
    if not token:
        return
    scheme, _, given = request.header("Authorization").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), token.encode()):
        raise HttpError(401, {"error": "a valid bearer token is required"},
                        {"WWW-Authenticate": 'Bearer realm="websearch-mcp"'})
