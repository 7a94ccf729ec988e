"""The WSGI application: routes, security checks, and errors, over one McpServer per process."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from websearch_mcp import log
from websearch_mcp.assembly import Assembly
from websearch_mcp.config import Config
from websearch_mcp.transports.http.messages import HttpError, Request, Response
from websearch_mcp.transports.http.oauth import make_guard
from websearch_mcp.transports.http.rest import RestFacade
from websearch_mcp.transports.http.security import (
    LOCAL_HOSTS,
    check_host,
    check_origin,
    check_token,
    cors_headers,
    host_of,
)
from websearch_mcp.transports.http.streamable import StreamableEndpoint

Route = Callable[[Request], Response]


class WebsearchApp:
    """A WSGI callable; it keeps no per-client state, so any number of workers can serve it."""

    def __init__(self, assembly: Assembly) -> None:
        self.assembly = assembly
        self.config = config = assembly.config
        self.server = assembly.server
        self.allowed_origins = frozenset(o.strip().rstrip("/") for o in config.http_allowed_origins.split(",")
                                         if o.strip())
        self.allowed_hosts = LOCAL_HOSTS | {host_of(h) for h in config.http_allowed_hosts.split(",") if h.strip()}
        rest = RestFacade(self.server, config.call_timeout)
        mcp = StreamableEndpoint(self.server, config.call_timeout)
        self.routes: dict[str, dict[str, Route]] = {
            "/": {"GET": rest.health},
            "/tools": {"GET": rest.tools},
            "/tools/call": {"POST": rest.call},
            "/mcp": {"POST": mcp.handle, "GET": mcp.handle, "DELETE": mcp.handle},
        }
        self.guard = make_guard(config)  # None unless WEBSEARCH_OAUTH_ISSUER is set
        self.open_paths = frozenset({"/"})
        if self.guard is not None:
            self.routes.update(self.guard.routes())
            self.open_paths |= self.guard.metadata_paths
            self.allowed_hosts = self.allowed_hosts | {self.guard.host}

    def serve_host(self, host: str) -> None:
        """Accept requests addressed to the host this server is bound to."""
        if host not in ("0.0.0.0", "::", ""):
            self.allowed_hosts = self.allowed_hosts | {host_of(f"[{host}]" if ":" in host else host)}

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        request = Request(environ, self.config.http_max_body)
        try:
            response = self.dispatch(request)
        except HttpError as err:
            response = Response.json(err.status, err.body, err.headers)
        except Exception:
            log.exception(f"internal error on {request.method} {request.path}")
            response = Response.json(500, {"error": "internal error"})
        response.headers.update(cors_headers(request, self.allowed_origins))
        return response.send(start_response)

    def dispatch(self, request: Request) -> Response:
        """Check who asks, then route."""
        check_host(request, self.allowed_hosts, self.config.http_token)
        methods = self.routes.get(request.path.rstrip("/") or "/")
        if methods is None:
            raise HttpError(404, {"error": f"no such path: {request.path}"})
        check_origin(request, self.allowed_origins)
        if request.method == "OPTIONS":  # a CORS preflight: no credentials come with it
            return Response(204, b"", {"Allow": ", ".join(sorted([*methods, "OPTIONS"])),
                                       **cors_headers(request, self.allowed_origins, preflight=True)})
        if not (request.method == "GET" and (request.path.rstrip("/") or "/") in self.open_paths):
            if self.guard is not None:
                self.guard.check(request)  # OAuth tokens, and WEBSEARCH_HTTP_TOKEN beside them
            else:
                check_token(request, self.config.http_token)
        handler = methods.get(request.method)
        if handler is None:
            raise HttpError(405, {"error": f"{request.method} is not allowed here"},
                            {"Allow": ", ".join(sorted(methods))})
        return handler(request)


def create_app(config: Config | None = None) -> WebsearchApp:
    """A WSGI app for this configuration (from the environment when none is given); it starts the
    backend servers of a servers file, as the stdio server does."""
    from websearch_mcp.config import load_config

    config = config or load_config()
    log.set_level(config.log_level)
    assembly = Assembly(config)
    assembly.start()
    return WebsearchApp(assembly)
