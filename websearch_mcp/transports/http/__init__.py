"""HTTP transport: MCP Streamable HTTP at /mcp and seed 001's REST facade, as one WSGI app.

`websearch_mcp.wsgi:app` is the app configured from the environment (for gunicorn, waitress, ...);
`create_app(config)` makes one for a given configuration.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from websearch_mcp.transports.http.app import WebsearchApp, create_app

__all__ = ["WebsearchApp", "app", "create_app"]


class _FromEnvironment:
    """A WSGI callable that builds the app from the environment on its first request (per process)."""

    def __init__(self) -> None:
        self._app: WebsearchApp | None = None
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if self._app is None:
            with self._lock:
                if self._app is None:
                    self._app = create_app()
        return self._app(environ, start_response)


app = _FromEnvironment()
