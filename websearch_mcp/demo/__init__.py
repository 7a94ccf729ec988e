"""`websearch-mcp demo`: every tool run against recorded upstream pages served on loopback, so a
person without network (or before configuring anything) sees real output in one command.

The recorded pages ship with the package (gzipped beside this file): a DuckDuckGo results page and
its CAPTCHA page, a Bing results page and an Instant Answer, all real recordings (fixtures/PROVENANCE.md
names their sources), and one hand-made article page, which also stands for every page of the small
site the site tools map and crawl. Nothing leaves the machine.
"""

from __future__ import annotations

import gzip
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websearch_mcp.config import Config

HERE = Path(__file__).resolve().parent
CONTEXT_QUERY = "how do async rust executors poll futures"


def recorded(name: str) -> bytes:
    """A recorded page shipped with the package."""
    return gzip.decompress((HERE / f"{name}.gz").read_bytes())


def _results_for_context(base: str) -> bytes:
    """A results page (DuckDuckGo's html markup) that lists the local article: made here for the demo."""
    link = f'<a class="result__a" href="{base}/blog/async-rust">Understanding Async Rust</a>'
    return (b'<html><body class="body--html"><div id="links"><div class="result results_links web-result">'
            b'<h2 class="result__title">' + link.encode() + b'</h2><a class="result__snippet" href="#">A guide to '
            b'async Rust, futures and executors</a></div><div class="nav-link"></div></div></body></html>')


class _Replay(BaseHTTPRequestHandler):
    """Answers as each upstream would, from the recorded pages."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # quiet: the demo prints tool output only
        pass

    def _reply(self, body: bytes, content_type: str = "text/html; charset=utf-8") -> None:
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _route(self) -> tuple[bytes, str]:
        path = urlsplit(self.path).path
        length = int(self.headers.get("Content-Length") or 0)
        form = parse_qs(self.rfile.read(length).decode("utf-8", "replace")) if length else {}
        query = (form.get("q") or [""])[0]
        base = f"http://{self.headers.get('Host')}"
        if path == "/html/":
            if "javascript" in query:
                return recorded("ddg-captcha.html"), "text/html; charset=utf-8"  # DuckDuckGo blocks this one
            if query == CONTEXT_QUERY:
                return _results_for_context(base), "text/html; charset=utf-8"
            return recorded("ddg-results.html"), "text/html; charset=utf-8"
        if path == "/lite/":
            return recorded("ddg-captcha.html"), "text/html; charset=utf-8"
        if path == "/bing/search":
            return recorded("bing-results.html"), "text/html; charset=utf-8"
        if path == "/ia/":
            return recorded("instant-answer.json"), "application/x-javascript"
        if path in ("/robots.txt", "/sitemap.xml"):
            return b"", "text/plain"  # none: map_site and crawl_site follow the site's links
        return recorded("article.html"), "text/html; charset=utf-8"

    def do_GET(self) -> None:
        self._reply(*self._route())

    do_POST = do_GET


def _config(base: str) -> Config:
    return Config(ddg_html_url=f"{base}/html/", ddg_lite_url=f"{base}/lite/", ddg_api_url=f"{base}/ia/",
                  bing_url=f"{base}/bing/search", backends="duckduckgo,bing", store="memory",
                  allow_private_urls=True, retries=0, ddg_min_interval=0.0, bing_min_interval=0.0)


RUNS: list[tuple[str, str, dict[str, Any]]] = [
    ("web_search", "a search, answered by DuckDuckGo", {"query": "rust programming language", "max_results": 3}),
    ("instant_answer", "an instant answer", {"query": "DuckDuckGo"}),
    ("fetch_content", "a page read as Markdown (the hand-made article, served on loopback)",
     {"urls": ["{base}/blog/async-rust"], "max_chars": 900}),
    ("search_context", "cited context for a question", {"query": CONTEXT_QUERY, "max_tokens": 400}),
    ("web_search", "DuckDuckGo answers with its CAPTCHA page: the next engine answers instead",
     {"query": "javascript tutorial", "max_results": 3}),
    ("map_site", "a site's pages, found from its links (no sitemap here)", {"url": "{base}/blog/async-rust",
                                                                            "limit": 10}),
    ("crawl_site", "a site read for a question, best first", {"url": "{base}/blog/async-rust",
                                                             "query": "tokio runtime", "max_pages": 3,
                                                             "max_tokens": 300}),
]


def run_demo(config: Config) -> int:
    """Serve the recorded pages on 127.0.0.1 and print each tool's Markdown; 0 when every tool answered."""
    from websearch_mcp import log
    from websearch_mcp.assembly import Assembly
    from websearch_mcp.call_context import ToolContext

    log.set_level("error")  # the tools' own output is the demo
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Replay)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    assembly = Assembly(_config(base), aggregate=False)
    failures = 0
    try:
        for name, what, arguments in RUNS:
            arguments = {k: [u.format(base=base) for u in v] if k == "urls" else
                         v.format(base=base) if k == "url" else v for k, v in arguments.items()}
            print(f"\n===== {name}: {what}\n===== arguments: {arguments}\n", flush=True)
            result = assembly.server.run_tool(name, arguments, ToolContext(request_id=name))
            print(result.text, flush=True)
            failures += result.is_error
    finally:
        assembly.close()
        server.shutdown()
        server.server_close()
    tools = len({name for name, _, _ in RUNS})
    print(f"\n===== {len(RUNS) - failures} of {len(RUNS)} calls answered ({tools} tools) from recorded pages on "
          f"{base} (no network used)", file=sys.stderr)
    return 1 if failures else 0
