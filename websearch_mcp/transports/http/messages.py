"""The small HTTP vocabulary the WSGI app speaks: a request read from the environ, a response."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from websearch_mcp import wire

REASONS = {200: "OK", 202: "Accepted", 204: "No Content", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
           404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable", 411: "Length Required",
           413: "Payload Too Large", 415: "Unsupported Media Type", 500: "Internal Server Error",
           421: "Misdirected Request", 502: "Bad Gateway"}
REASONS[503] = "Service Unavailable"  # an OAuth token could not be checked: its issuer did not answer


class HttpError(Exception):
    """Ends a request early with a status and a JSON body."""

    def __init__(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        super().__init__(status)
        self.status = status
        self.body = body
        self.headers = headers or {}


class Request:
    """The parts of a WSGI environ the app uses; the body is read at most once, within a cap."""

    def __init__(self, environ: dict[str, Any], max_body: int) -> None:
        self.environ = environ
        self.method = environ.get("REQUEST_METHOD", "GET").upper()
        self.path = environ.get("PATH_INFO", "/") or "/"
        self.max_body = max_body
        self._body: bytes | None = None

    def header(self, name: str) -> str:
        """A request header ('' when absent)."""
        key = "HTTP_" + name.upper().replace("-", "_")
        if name.lower() == "content-type":
            key = "CONTENT_TYPE"
        return str(self.environ.get(key, "") or "")

    def body(self) -> bytes:
        """The request body; 413 when it is over the cap, 411 when its length is unknown."""
        if self._body is None:
            raw_length = self.environ.get("CONTENT_LENGTH") or ""
            if not str(raw_length).strip():
                if self.environ.get("HTTP_TRANSFER_ENCODING", "").lower() == "chunked":
                    raise HttpError(411, {"error": "a Content-Length is required"})
                self._body = b""
                return self._body
            try:
                length = int(raw_length)
            except ValueError:
                raise HttpError(400, {"error": "invalid Content-Length"}) from None
            if length > self.max_body:
                raise HttpError(413, {"error": f"the body is over the {self.max_body}-byte limit"})
            try:
                self._body = self.environ["wsgi.input"].read(length) if length > 0 else b""
            except OSError:  # the client stopped sending (a read timeout, a reset)
                raise HttpError(400, {"error": f"the body did not arrive: {length} bytes were announced"}) from None
            if len(self._body) < length:  # the client closed its side before sending it all
                raise HttpError(400, {"error": f"the body is shorter than its Content-Length ({len(self._body)} of "
                                               f"{length} bytes)"})
        return self._body


class Response:
    """A status, headers and a body: bytes, or an iterator of bytes for a stream."""

    def __init__(self, status: int, body: bytes | Iterator[bytes] = b"",
                 headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.body = body
        self.headers = headers or {}

    @classmethod
    def json(cls, status: int, payload: Any, headers: dict[str, str] | None = None) -> Response:
        """A JSON response."""
        return cls(status, wire.dumps(payload).encode("utf-8"),
                   {"Content-Type": "application/json", **(headers or {})})

    def send(self, start_response: Any) -> Iterable[bytes]:
        """Hand the response to the WSGI server."""
        headers = dict(self.headers)
        if isinstance(self.body, bytes):
            headers["Content-Length"] = str(len(self.body))
        start_response(f"{self.status} {REASONS.get(self.status, 'Unknown')}", list(headers.items()))
        return [self.body] if isinstance(self.body, bytes) else self.body
