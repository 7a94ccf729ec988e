"""JSON-RPC 2.0 framing: decoding one message, checking its shape, encoding replies, error types.

Knows nothing of MCP: it turns bytes into `Request` objects and results or errors back into bytes.
"""

from __future__ import annotations

from websearch_mcp import wire

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    JSON = Any
    RequestId = Any  # str or int; never None for a request


class JsonRpcError(Exception):
    """An error that is answered as a JSON-RPC error object."""

    CODE = -32603
    MESSAGE = "Internal error"

    def __init__(self, message: str | None = None, data: JSON = None, code: int | None = None):
        super().__init__(message or self.MESSAGE)
        self.code = self.CODE if code is None else code
        self.message = message or self.MESSAGE
        self.data = data

    def to_dict(self) -> dict[str, JSON]:
        """The `error` member of a response."""
        error: dict[str, JSON] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class ParseError(JsonRpcError):
    CODE = -32700
    MESSAGE = "Parse error"


class InvalidRequest(JsonRpcError):
    CODE = -32600
    MESSAGE = "Invalid Request"


class MethodNotFound(JsonRpcError):
    CODE = -32601
    MESSAGE = "Method not found"


class InvalidParams(JsonRpcError):
    CODE = -32602
    MESSAGE = "Invalid params"


class InternalError(JsonRpcError):
    CODE = -32603
    MESSAGE = "Internal error"


class ServerError(JsonRpcError):
    """Implementation-defined server error, kept for failures of backend servers."""

    CODE = -32000
    MESSAGE = "Server error"


class Request:
    """A request (with an id) or a notification (without one)."""

    __slots__ = ("id", "is_notification", "method", "params")

    def __init__(self, method: str, params: JSON, id: RequestId = None, is_notification: bool = False) -> None:
        self.method = method
        self.params = params
        self.id = id
        self.is_notification = is_notification

    @property
    def params_dict(self) -> dict[str, JSON]:
        """The params when they are an object, else an empty dict."""
        return self.params if isinstance(self.params, dict) else {}


class MalformedMessage(Exception):
    """A message that is not a valid request; `id` is the request id when one could be read."""

    def __init__(self, error: JsonRpcError, request_id: RequestId = None):
        super().__init__(error.message)
        self.error = error
        self.id = request_id


def decode(line: bytes) -> JSON:
    """Parse one line of UTF-8 JSON; raise ParseError on anything else."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ParseError(f"Parse error: input is not valid UTF-8 ({err.reason})") from err
    try:
        return wire.loads(text)
    except wire.DecodeError as err:
        raise ParseError(f"Parse error: {err}") from err


def valid_id(value: JSON) -> bool:
    """Whether a value may be used as a request id (string or integer, not bool)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def to_request(message: JSON) -> Request:
    """Check one decoded message and return it as a Request; raise MalformedMessage otherwise."""
    if not isinstance(message, dict):
        raise MalformedMessage(InvalidRequest("Invalid Request: a message must be a JSON object"))
    has_id = "id" in message
    request_id = message.get("id")
    usable_id = request_id if valid_id(request_id) else None
    if message.get("jsonrpc") != "2.0":
        raise MalformedMessage(InvalidRequest('Invalid Request: "jsonrpc" must be "2.0"'), usable_id)
    if has_id and not valid_id(request_id):
        raise MalformedMessage(InvalidRequest("Invalid Request: id must be a string or an integer"))
    method = message.get("method")
    if not isinstance(method, str):
        if "method" not in message and ("result" in message or "error" in message):
            raise MalformedMessage(InvalidRequest("Invalid Request: unexpected response"), usable_id)
        raise MalformedMessage(InvalidRequest("Invalid Request: method must be a string"), usable_id)
    params = message.get("params")
    if params is not None and not isinstance(params, (dict, list)):
        raise MalformedMessage(InvalidRequest("Invalid Request: params must be an object or an array"),
                               usable_id)
    return Request(method=method, params=params, id=request_id, is_notification=not has_id)


def is_response(message: JSON) -> bool:
    """Whether a decoded message is a response (to a request this side never sends)."""
    return (isinstance(message, dict) and "method" not in message
            and ("result" in message or "error" in message) and "id" in message)


def result_response(request_id: RequestId, result: JSON) -> dict[str, JSON]:
    """A success response."""
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def error_response(request_id: RequestId, error: JsonRpcError) -> dict[str, JSON]:
    """An error response; the id is null when it could not be read."""
    return {"jsonrpc": "2.0", "id": request_id, "error": error.to_dict()}


def notification(method: str, params: JSON = None) -> dict[str, JSON]:
    """A notification message."""
    message: dict[str, JSON] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


_LINE_BREAKS = {"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def encode(message: JSON) -> bytes:
    """Compact UTF-8 JSON followed by a newline; never contains another line break, not even one
    that only some readers split on (NEL, the Unicode line and paragraph separators)."""
    text = wire.dumps(message)
    for char, escaped in _LINE_BREAKS.items():
        if char in text:
            text = text.replace(char, escaped)
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:  # lone surrogates from the input: escape them instead
        return wire.dumps(message, ensure_ascii=True).encode("ascii") + b"\n"


_LEADING_ID = (
    rb'^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\]|\\.){0,200}")\s*[,}]'
)


def sniff_id(prefix: bytes) -> RequestId:
    """The request id of a message that could not be read whole, if it leads the object."""
    import re  # only oversized lines come here

    match = re.match(_LEADING_ID, prefix)
    if not match:
        return None
    try:
        value = wire.loads(match.group(1).decode("utf-8"))
    except (wire.DecodeError, UnicodeDecodeError):
        return None
    return value if valid_id(value) else None
