"""The project's exception types. Each carries typed fields set where it is raised; presentation
(a tool result, an HTTP status, a CLI exit code) reads the fields, never the message text."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class ToolError(Exception):
    """A tool failed; the message becomes the text of an `isError: true` result."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self._message = message

    @property
    def message(self) -> str:
        """The text a model reads."""
        return self._message

    @property
    def structured(self) -> dict[str, Any] | None:
        """The error as an object for `structuredContent`, when the tool declares one."""
        return None


class InvalidArguments(ToolError):
    """The arguments break the tool's input schema or its own rules."""

    def __init__(self, message: str, *, parameter: str = "", rule: str = "") -> None:
        super().__init__(message)
        self.parameter = parameter  # the argument's path, e.g. "max_results" or "urls[2]"
        self.rule = rule  # the schema keyword it breaks, e.g. "required", "maximum"


class UpstreamError(ToolError):
    """An upstream service could not be reached or answered with something unusable."""

    def __init__(self, message: str, *, url: str = "", status: int | None = None,
                 retry_after: float | None = None, backend: str = "") -> None:
        super().__init__(message)
        self.url = url
        self.status = status
        self.retry_after = retry_after
        self.backend = backend


class UpstreamTimeout(UpstreamError):
    """The upstream did not answer within the time allowed."""


class UpstreamConnectionError(UpstreamError):
    """The connection to the upstream failed or was reset."""

    def __init__(self, message: str, *, transient: bool = True, **fields: Any) -> None:
        super().__init__(message, **fields)
        self.transient = transient  # False when retrying cannot help (the name does not resolve)


class UpstreamHTTPError(UpstreamError):
    """The upstream answered with an HTTP error status."""


class ResponseTooLarge(UpstreamError):
    """The upstream's body exceeded the size cap."""


class BlockedError(UpstreamError):
    """The upstream refuses automated clients for now (rate limit, CAPTCHA, consent wall)."""


class UnexpectedPage(UpstreamError):
    """The upstream answered 200 with a page that is neither results nor a known refusal."""


class DeadlineExceeded(UpstreamTimeout):
    """The tool call's overall deadline passed before this step could run."""


class SearchFailed(UpstreamError):
    """No search backend could answer; `structured` is seed 002's error shape."""

    def __init__(self, message: str, *, error_type: str, details: str = "",
                 attempted_instances: list[str] | None = None, retry_after: float | None = None,
                 blocked: bool = False) -> None:
        super().__init__(message, retry_after=retry_after)
        self.error_type = error_type
        self.details = details or message
        self.attempted_instances = attempted_instances or []
        self.blocked = blocked

    @property
    def structured(self) -> dict[str, Any]:
        """Seed 002's error object."""
        return {"error_type": self.error_type, "error_details": self.details,
                "attempted_instances": self.attempted_instances,
                "retry_after": int(self.retry_after) if self.retry_after else None}


class BackendServerError(Exception):
    """A backend MCP server failed; answered as JSON-RPC error -32000."""

    def __init__(self, message: str, data: Any = None):
        super().__init__(message)
        self.message = message
        self.data = data
