"""gunicorn settings that fit this app: `gunicorn -c python:websearch_mcp.gunicorn_conf websearch_mcp.wsgi:app`.

A tool call may take up to WEBSEARCH_CALL_TIMEOUT (45 s by default), longer than gunicorn's default
worker timeout (30 s), after which a sync worker is killed mid-call. Threaded workers (gthread) keep
their heartbeat while calls run, and the timeouts below follow the call deadline. Command-line flags
(-w, -b, ...) still override these."""

from __future__ import annotations

import os
import sys

from websearch_mcp.config import ConfigError, load_config

try:
    _config = load_config()
except ConfigError as err:  # refuse to start, in one line, rather than boot workers that cannot serve
    print(f"websearch-mcp: configuration error: {err}", file=sys.stderr)
    raise SystemExit(2) from None

worker_class = "gthread"
threads = _config.http_threads  # calls each worker runs at once (WEBSEARCH_HTTP_THREADS)
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
timeout = int(_config.call_timeout) + 30  # a worker's heartbeat; never shorter than a call may take
graceful_timeout = int(_config.call_timeout) + 5  # let calls under way finish on a reload or stop
keepalive = 5
bind = os.environ.get("WEBSEARCH_GUNICORN_BIND", "127.0.0.1:3000")
