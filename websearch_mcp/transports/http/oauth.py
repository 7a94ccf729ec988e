"""The HTTP server as an OAuth 2.1 resource server, as MCP's authorization rules describe it.

It publishes its protected-resource metadata (RFC 9728) and answers a request without a usable
token with 401 and a `WWW-Authenticate: Bearer resource_metadata="..."` challenge, which is how an
MCP client finds the authorization server; a valid token without the required scopes gets 403
`insufficient_scope`. The tokens themselves are checked in `oauth_tokens` (loaded only here, only
when WEBSEARCH_OAUTH_ISSUER is set, so nothing of the JOSE library is imported otherwise).
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from websearch_mcp import log
from websearch_mcp.config import Config, ConfigError
from websearch_mcp.transports.http.messages import HttpError, Request, Response

WELL_KNOWN = "/.well-known/oauth-protected-resource"


def is_loopback(host: str) -> bool:
    """Whether a host name or address stays on this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _check_url(name: str, value: str) -> None:
    try:
        parts = urlsplit(value)
        host = parts.hostname or ""
    except ValueError:
        raise ConfigError(f"{name}={value!r} is not a URL") from None
    if not host or parts.scheme not in ("http", "https") or parts.fragment or parts.query:
        raise ConfigError(f"{name}={value!r}: must be an absolute https:// URL without a query or fragment")
    if parts.scheme == "http" and not is_loopback(host):
        raise ConfigError(f"{name}={value!r}: must be https:// (plain http is accepted on loopback only)")


def check_settings(config: Config) -> None:
    """Refuse an OAuth configuration that cannot work (before anything is served)."""
    if not (config.oauth_issuer and config.oauth_resource):
        raise ConfigError("WEBSEARCH_OAUTH_ISSUER and WEBSEARCH_OAUTH_RESOURCE go together: the issuer whose tokens "
                          "are accepted, and this server's public URL (the audience those tokens must name)")
    _check_url("WEBSEARCH_OAUTH_ISSUER", config.oauth_issuer)
    _check_url("WEBSEARCH_OAUTH_RESOURCE", config.oauth_resource)
    if bool(config.oauth_client_id) != bool(config.oauth_client_secret):
        raise ConfigError("WEBSEARCH_OAUTH_CLIENT_ID and WEBSEARCH_OAUTH_CLIENT_SECRET go together (the credentials "
                          "this server introspects opaque tokens with)")


def required_scopes(config: Config) -> list[str]:
    """WEBSEARCH_OAUTH_SCOPES as a list (spaces or commas between them)."""
    return [s for s in config.oauth_scopes.replace(",", " ").split() if s]


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


class OAuthGuard:
    """Publishes the resource metadata and checks the bearer token of every protected request."""

    def __init__(self, config: Config, tokens: Any) -> None:
        self.resource = config.oauth_resource
        self.issuer = config.oauth_issuer
        self.scopes = required_scopes(config)
        self.static_token = config.http_token
        self.tokens = tokens
        parts = urlsplit(self.resource)
        self.host = (parts.hostname or "").lower()
        path = parts.path.rstrip("/")
        self.metadata_url = f"{parts.scheme}://{parts.netloc}{WELL_KNOWN}{path}"
        self.metadata_paths = frozenset({WELL_KNOWN, f"{WELL_KNOWN}/mcp", f"{WELL_KNOWN}{path}"})

    def routes(self) -> dict[str, dict[str, Callable[[Request], Response]]]:
        """The metadata document at the root well-known path and at its form suffixed with /mcp."""
        return {path: {"GET": self.metadata} for path in self.metadata_paths}

    def metadata(self, request: Request) -> Response:
        """GET /.well-known/oauth-protected-resource[/mcp] (RFC 9728)."""
        document: dict[str, Any] = {"resource": self.resource, "authorization_servers": [self.issuer],
                                    "bearer_methods_supported": ["header"], "resource_name": "websearch-mcp"}
        if self.scopes:
            document["scopes_supported"] = self.scopes
        return Response.json(200, document, {"Cache-Control": "max-age=300"})

    def check(self, request: Request) -> None:
        """Return when the request carries a token that may use the tools; raise 401, 403 or 503 otherwise."""
        scheme, _, token = request.header("Authorization").partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise self._refusal(401, "", "a bearer token is required")
        if self.static_token and hmac.compare_digest(token.encode(), self.static_token.encode()):
            return  # WEBSEARCH_HTTP_TOKEN, compared in constant time, keeps working beside OAuth
        from websearch_mcp.transports.http.oauth_tokens import IssuerUnavailable, TokenRefused

        try:
            claims = self.tokens.validate(token)
        except TokenRefused as refused:
            log.debug(f"oauth: refused a token on {request.method} {request.path}: {refused}")
            raise self._refusal(401, "invalid_token", str(refused)) from None
        except IssuerUnavailable as err:
            log.warning(f"oauth: the authorization server did not answer: {err}")
            raise HttpError(503, {"error": "the authorization server could not be reached"},
                            {"Retry-After": "5"}) from None
        granted = set(claims.get("scope", []))
        if any(scope not in granted for scope in self.scopes):
            raise self._refusal(403, "insufficient_scope", "the token lacks a required scope")

    def _refusal(self, status: int, error: str, description: str) -> HttpError:
        """An RFC 6750 challenge that points at the resource metadata (and names the scopes needed)."""
        params = [f"resource_metadata={_quoted(self.metadata_url)}"]
        if self.scopes:
            params.append(f"scope={_quoted(' '.join(self.scopes))}")
        body: dict[str, str] = {"error": error or "unauthorized", "error_description": description}
        if error:
            params += [f"error={_quoted(error)}", f"error_description={_quoted(description)}"]
        return HttpError(status, body, {"WWW-Authenticate": "Bearer " + ", ".join(params)})


def make_guard(config: Config) -> OAuthGuard | None:
    """The guard for this configuration, its issuer's metadata and keys fetched (None without OAuth
    settings); an issuer that cannot be reached is a ConfigError."""
    if not config.oauth_issuer:
        return None
    check_settings(config)
    try:
        from websearch_mcp.transports.http.oauth_tokens import TokenValidator
    except ImportError as err:
        from websearch_mcp.install_hint import install_command

        raise ConfigError(f"WEBSEARCH_OAUTH_ISSUER needs the oauth extra ({err.name} is missing): "
                          f"{install_command('oauth')}") from None

    validator = TokenValidator(config)
    validator.start()
    return OAuthGuard(config, validator)
