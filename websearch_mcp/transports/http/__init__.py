"""HTTP transport: MCP Streamable HTTP at /mcp and seed 001's REST facade, as one WSGI app.

`websearch_mcp.wsgi:app` is the app configured from the environment (for gunicorn, waitress, ...);
`create_app(config)` makes one for a given configuration.
"""

from __future__ import annotations

from websearch_mcp.transports.http.app import WebsearchApp, create_app

__all__ = ["WebsearchApp", "create_app"]
