"""The project's exception types: tool failures a model can act on, and upstream failures."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any



class ToolError(Exception):
    """A tool failed; the message becomes the text of an `isError: true` result."""

    def __init__(self, message: str, structured: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.structured = structured


class InvalidArguments(ToolError):
    """The arguments break the tool's input schema or its own rules."""


class UpstreamError(ToolError):
    """An upstream service could not be reached or answered with something unusable."""

    def __init__(self, message: str, *, url: str = "", status: int | None = None,
                 retry_after: float | None = None):
        super().__init__(message)
        self.url = url
        self.status = status
        self.retry_after = retry_after


class UpstreamTimeout(UpstreamError):
    """The upstream did not answer within the time allowed."""


class UpstreamConnectionError(UpstreamError):
    """The connection to the upstream failed or was reset."""


class UpstreamHTTPError(UpstreamError):
    """The upstream answered with an HTTP error status."""


class ResponseTooLarge(UpstreamError):
    """The upstream's body exceeded the size cap."""


class BlockedError(UpstreamError):
    """The upstream refuses automated clients for now (rate limit or CAPTCHA)."""


class BackendServerError(Exception):
    """A backend MCP server failed; answered as JSON-RPC error -32000."""

    def __init__(self, message: str, data: Any = None):
        super().__init__(message)
        self.message = message
        self.data = data


class UnexpectedPage(UpstreamError):
    """The upstream answered 200 with a page that is neither results nor a known refusal."""
