"""Who may talk to the HTTP server: Host and Origin checks against DNS rebinding, CORS for the origins
allowed, and an optional bearer token."""

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


# What a browser page on an allowed origin may send and read (MCP clients send these).
CORS_ALLOW_HEADERS = ("Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, "
                      "Mcp-Name, Last-Event-ID")
CORS_EXPOSE_HEADERS = "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate"


def host_of(header: str) -> str:
    """The host name of a Host header, without its port, lower-cased."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[: header.find("]") + 1] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def check_host(request: Request, allowed: frozenset[str], token: str) -> None:
    """421 for a Host this server is not bound to or configured for: a page whose DNS name was
    rebound to this machine sends its own name. With a token and no list, any host may ask (the
    token is what a rebinding page lacks)."""
    given = request.header("Host")
    if not given or "*" in allowed or (token and not allowed - LOCAL_HOSTS):
        return
    if host_of(given) not in allowed:
        raise HttpError(421, {"error": f"host {host_of(given)} is not served here; set WEBSEARCH_HTTP_ALLOWED_HOSTS "
                                       "to the names clients use"})


def cors_headers(request: Request, allowed: frozenset[str], preflight: bool = False) -> dict[str, str]:
    """The CORS headers for a request from an allowed browser origin (none for other requests)."""
    origin = request.header("Origin")
    if not origin or not origin_allowed(origin, allowed):
        return {}
    headers = {"Access-Control-Allow-Origin": origin, "Vary": "Origin",
               "Access-Control-Expose-Headers": CORS_EXPOSE_HEADERS}
    if preflight:
        asked = request.header("Access-Control-Request-Headers")
        headers.update({"Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
                        "Access-Control-Allow-Headers": CORS_ALLOW_HEADERS + (f", {asked}" if asked else ""),
                        "Access-Control-Max-Age": "600"})
    return headers
