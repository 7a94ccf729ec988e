"""The Tavily API (search and extract): requests, retries on rate limiting, and its error types."""

from __future__ import annotations

from typing import Any

from websearch_mcp import log, templates
from websearch_mcp.config import Config
from websearch_mcp.errors import ToolError, UpstreamError
from websearch_mcp.http_client import HttpClient

RATE_LIMIT_RETRIES = 2

ERROR_TYPES = {
    400: "VALIDATION_ERROR", 401: "AUTH_ERROR", 403: "USAGE_LIMIT_ERROR", 429: "RATE_LIMIT_ERROR",
    432: "USAGE_LIMIT_ERROR", 433: "USAGE_LIMIT_ERROR",
}
DEFAULT_MESSAGES = {
    400: "the request was not valid", 401: "the API key is invalid or missing",
    403: "this request is not allowed for this API key's plan", 429: "too many requests (rate limit)",
    432: "this request exceeds the plan's usage limit", 433: "this request exceeds the pay-as-you-go limit",
}


class TavilyApiError(ToolError):
    """A Tavily failure (from the API or from seed 004's own checks), with its error type; the
    message is seed 004's text, made from the two fields."""

    def __init__(self, detail: str, error_type: str) -> None:
        super().__init__(detail)
        self.detail = detail
        self.error_type = error_type

    @property
    def message(self) -> str:
        """`Tavily API エラー: {detail}` / `エラータイプ: {type}`."""
        return templates.TAVILY_ERROR.format(message=self.detail, error_type=self.error_type)

    @property
    def structured(self) -> dict[str, Any]:
        """The error as an object."""
        return {"error_type": self.error_type, "error_details": self.detail}


def _error_message(body: Any, status: int) -> str:
    detail = body.get("detail") if isinstance(body, dict) else None
    if isinstance(detail, dict) and detail.get("error"):
        return str(detail["error"])
    if isinstance(detail, str) and detail:
        return detail
    if isinstance(body, dict) and isinstance(body.get("error"), str):
        return body["error"]
    return DEFAULT_MESSAGES.get(status, f"HTTP {status}")


class TavilyClient:
    """Calls api.tavily.com (or WEBSEARCH_TAVILY_URL) with the configured key."""

    def __init__(self, config: Config, http: HttpClient) -> None:
        self.config = config
        self.base = config.tavily_url.rstrip("/")
        self.http = http

    def search(self, query: str, search_depth: str = "basic", max_results: int = 5,
               include_answer: bool = False) -> dict[str, Any]:
        """POST /search."""
        return self._post("/search", {"query": query, "search_depth": search_depth, "max_results": max_results,
                                      "include_answer": include_answer})

    def extract(self, urls: list[str]) -> dict[str, Any]:
        """POST /extract."""
        return self._post("/extract", {"urls": urls})

    def _post(self, path: str, payload: dict[str, Any]) -> dict[str, Any]:
        from websearch_mcp import wire

        headers = {"Authorization": f"Bearer {self.config.tavily_api_key}", "Accept": "application/json"}
        for attempt in range(RATE_LIMIT_RETRIES + 1):
            try:
                response = self.http.request("POST", self.base + path, json_body=payload, headers=headers,
                                             retries=0)  # rate limiting is retried here, as Tavily's client does
            except UpstreamError as err:
                raise TavilyApiError(err.message, "API_ERROR") from err
            try:
                body = wire.loads(response.text()) if response.body.strip() else {}
            except wire.DecodeError:
                body = {}
            if response.status == 429 and attempt < RATE_LIMIT_RETRIES:
                wait = min(response.retry_after() or self.config.backoff_seconds * 2 ** attempt,
                           self.config.retry_after_cap)
                log.info(f"Tavily rate limit on {path}; retrying in {wait:.1f} s")
                self.http.pause(wait)
                continue
            if response.status >= 400:
                error_type = ERROR_TYPES.get(response.status, "API_ERROR")
                raise TavilyApiError(_error_message(body, response.status), error_type)
            if not isinstance(body, dict):
                raise TavilyApiError("the API sent a reply that is not a JSON object", "API_ERROR")
            return body
        raise AssertionError("unreachable")
