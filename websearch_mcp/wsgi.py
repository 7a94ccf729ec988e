"""The WSGI application for gunicorn, waitress or any WSGI server: `websearch_mcp.wsgi:app`.

It is built from the environment when the server imports this module, so a configuration the server
cannot use stops the server at start (one line, status 2) instead of answering 500 to every request.
"""

import sys

from websearch_mcp.config import ConfigError
from websearch_mcp.transports.http import create_app

try:
    app = create_app()
except ConfigError as err:
    print(f"websearch-mcp: configuration error: {err}", file=sys.stderr)
    # A gunicorn worker that exits with 3 while booting stops gunicorn (any other status would have it
    # restart the worker forever); elsewhere, the usual status 2 of a configuration error.
    raise SystemExit(3 if "gunicorn" in sys.modules else 2) from None

__all__ = ["app"]
