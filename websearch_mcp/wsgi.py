"""The WSGI application for gunicorn, waitress or any WSGI server: `websearch_mcp.wsgi:app`."""

from websearch_mcp.transports.http import app

__all__ = ["app"]
