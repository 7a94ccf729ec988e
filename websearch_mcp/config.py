"""Settings, read once from the environment (CLI flags may override them)."""

from __future__ import annotations

import _thread
import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing and dataclasses cost start-up time; clients spawn this server often
    from collections.abc import Callable, Mapping
    from typing import Any, TypeVar

    Shared = TypeVar("Shared")

DEFAULT_USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36"
)


class ConfigError(ValueError):
    """A setting has a value the server cannot use."""


class Config:
    """Everything the server can be told from outside, with its defaults; treat it as immutable."""

    ddg_html_url: str = "https://html.duckduckgo.com/html/"
    ddg_lite_url: str = "https://lite.duckduckgo.com/lite/"
    ddg_api_url: str = "https://api.duckduckgo.com/"
    timeout: float = 15.0
    user_agent: str = DEFAULT_USER_AGENT
    log_level: str = "info"
    max_line_bytes: int = 4 * 1024 * 1024
    workers: int = 4
    tools_page_size: int = 50
    max_response_bytes: int = 5 * 1024 * 1024
    retries: int = 2
    backoff_seconds: float = 0.5
    retry_after_cap: float = 10.0
    max_pages: int = 10
    allow_private_urls: bool = False
    fetch_max_bytes: int = 5 * 1024 * 1024
    fetch_concurrency: int = 16
    fetch_per_host: int = 2
    cache_bytes: int = 32 * 1024 * 1024
    cache_ttl: float = 600.0
    searxng_urls: str = ""
    backends: str = "duckduckgo"
    search_cache_ttl: float = 300.0
    search_cache_bytes: int = 8 * 1024 * 1024
    ddg_min_interval: float = 1.0
    searxng_min_interval: float = 0.0
    tavily_api_key: str = ""
    tavily_url: str = "https://api.tavily.com"
    http_token: str = ""
    http_allowed_origins: str = ""
    http_max_body: int = 4 * 1024 * 1024
    http_timeout: float = 30.0
    servers_file: str = ""
    backend_timeout: float = 60.0
    lightweight_list: bool = False

    def __init__(self, **values: Any) -> None:
        for name, value in values.items():
            if name not in _FIELDS:
                raise TypeError(f"Config has no setting {name!r}")
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Config is immutable; use with_overrides()")

    def as_dict(self) -> dict[str, Any]:
        """Every setting by name."""
        return {name: getattr(self, name) for name in _FIELDS}

    def with_overrides(self, **changes: Any) -> Config:
        """Return a copy with the given fields replaced (None values are ignored)."""
        return Config(**{**self.as_dict(), **{k: v for k, v in changes.items() if v is not None}})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Config) and self.as_dict() == other.as_dict()

    def __hash__(self) -> int:
        return hash(tuple(self.as_dict().items()))

    def __repr__(self) -> str:
        return f"Config({', '.join(f'{k}={v!r}' for k, v in self.as_dict().items())})"


_FIELDS = tuple(Config.__annotations__)


_ENV_FIELDS: dict[str, tuple[str, type]] = {
    "WEBSEARCH_DDG_HTML_URL": ("ddg_html_url", str),
    "WEBSEARCH_DDG_LITE_URL": ("ddg_lite_url", str),
    "WEBSEARCH_DDG_API_URL": ("ddg_api_url", str),
    "WEBSEARCH_TIMEOUT": ("timeout", float),
    "WEBSEARCH_USER_AGENT": ("user_agent", str),
    "WEBSEARCH_LOG_LEVEL": ("log_level", str),
    "WEBSEARCH_MAX_LINE_BYTES": ("max_line_bytes", int),
    "WEBSEARCH_WORKERS": ("workers", int),
    "WEBSEARCH_TOOLS_PAGE_SIZE": ("tools_page_size", int),
    "WEBSEARCH_MAX_RESPONSE_BYTES": ("max_response_bytes", int),
    "WEBSEARCH_RETRIES": ("retries", int),
    "WEBSEARCH_BACKOFF": ("backoff_seconds", float),
    "WEBSEARCH_RETRY_AFTER_CAP": ("retry_after_cap", float),
    "WEBSEARCH_MAX_PAGES": ("max_pages", int),
    "WEBSEARCH_ALLOW_PRIVATE_URLS": ("allow_private_urls", bool),
    "WEBSEARCH_FETCH_MAX_BYTES": ("fetch_max_bytes", int),
    "WEBSEARCH_FETCH_CONCURRENCY": ("fetch_concurrency", int),
    "WEBSEARCH_FETCH_PER_HOST": ("fetch_per_host", int),
    "WEBSEARCH_CACHE_BYTES": ("cache_bytes", int),
    "WEBSEARCH_CACHE_TTL": ("cache_ttl", float),
    "WEBSEARCH_SEARXNG_URLS": ("searxng_urls", str),
    "WEBSEARCH_BACKENDS": ("backends", str),
    "WEBSEARCH_SEARCH_CACHE_TTL": ("search_cache_ttl", float),
    "WEBSEARCH_SEARCH_CACHE_BYTES": ("search_cache_bytes", int),
    "WEBSEARCH_DDG_MIN_INTERVAL": ("ddg_min_interval", float),
    "WEBSEARCH_SEARXNG_MIN_INTERVAL": ("searxng_min_interval", float),
    "TAVILY_API_KEY": ("tavily_api_key", str),
    "WEBSEARCH_TAVILY_URL": ("tavily_url", str),
    "WEBSEARCH_HTTP_TOKEN": ("http_token", str),
    "WEBSEARCH_HTTP_ALLOWED_ORIGINS": ("http_allowed_origins", str),
    "WEBSEARCH_HTTP_MAX_BODY": ("http_max_body", int),
    "WEBSEARCH_HTTP_TIMEOUT": ("http_timeout", float),
    "WEBSEARCH_SERVERS": ("servers_file", str),
    "WEBSEARCH_BACKEND_TIMEOUT": ("backend_timeout", float),
    "WEBSEARCH_LIGHTWEIGHT_LIST": ("lightweight_list", bool),
}
KNOWN_BACKENDS = ("duckduckgo", "searxng")
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")

_MINIMUMS = {"timeout": 0.1, "max_line_bytes": 1024, "workers": 1, "tools_page_size": 1,
             "max_response_bytes": 1024, "retries": 0, "backoff_seconds": 0.0,
             "retry_after_cap": 0.0, "max_pages": 1, "fetch_max_bytes": 1024, "fetch_concurrency": 1,
             "fetch_per_host": 1, "cache_bytes": 0, "cache_ttl": 0.0, "search_cache_ttl": 0.0,
             "search_cache_bytes": 0, "ddg_min_interval": 0.0, "searxng_min_interval": 0.0,
             "http_max_body": 1024, "http_timeout": 1.0, "backend_timeout": 0.1}

LOG_LEVELS = ("debug", "info", "warning", "error")


def _parse(raw: str, kind: type) -> object:
    if kind is bool:
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        raise ValueError(raw)
    return kind(raw)


def load_config(environ: Mapping[str, str] | None = None) -> Config:
    """Build a Config from environment variables; unset or empty ones keep their defaults."""
    env = os.environ if environ is None else environ
    values: dict[str, object] = {}
    for name, (field, kind) in _ENV_FIELDS.items():
        raw = env.get(name, "").strip()
        if not raw:
            continue
        try:
            value = _parse(raw, kind)
        except ValueError:
            raise ConfigError(f"{name}={raw!r} is not a valid {kind.__name__}") from None
        values[field] = value
    return validate(Config().with_overrides(**values))


def validate(config: Config) -> Config:
    """Refuse values that are out of range; return the config unchanged otherwise."""
    for field, minimum in _MINIMUMS.items():
        if getattr(config, field) < minimum:
            raise ConfigError(f"{field} must be at least {minimum}")
    for name in backend_order(config):
        if name not in KNOWN_BACKENDS:
            raise ConfigError(f"WEBSEARCH_BACKENDS names {name!r}; known backends: {', '.join(KNOWN_BACKENDS)}")
    if config.log_level.lower() not in LOG_LEVELS:
        raise ConfigError(f"log level must be one of {', '.join(LOG_LEVELS)}")
    return config


def backend_order(config: Config) -> list[str]:
    """The backends named in WEBSEARCH_BACKENDS, in order, each once."""
    return list(dict.fromkeys(n.strip().lower() for n in config.backends.split(",") if n.strip()))


def one_per_config(factory: Callable[[Config], Shared]) -> Callable[[Config], Shared]:
    """`factory` made into a function that returns one shared instance per configuration (a
    connection pool, a cache), made on first use; safe to call from several threads."""
    made: dict[Config, Shared] = {}
    lock = _thread.allocate_lock()

    def shared(config: Config) -> Shared:
        with lock:
            if config not in made:
                made[config] = factory(config)
            return made[config]

    shared.__doc__ = factory.__doc__
    return shared
