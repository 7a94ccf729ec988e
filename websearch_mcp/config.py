"""Settings, read once from the environment (CLI flags may override them)."""

from __future__ import annotations

import os
import sys

from websearch_mcp.engines.table import BY_NAME, DEFAULT_ORDER, ENGINES

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing and dataclasses cost start-up time; clients spawn this server often
    from collections.abc import Mapping
    from typing import Any

DEFAULT_USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36"
)


class ConfigError(ValueError):
    """A setting has a value the server cannot use; `field` names it when it is one setting's value."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class Config:
    """Everything the server can be told from outside, with its defaults; treat it as immutable."""

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
    pdf_max_bytes: int = 32 * 1024 * 1024
    pdf_max_pages: int = 200
    fetch_concurrency: int = 16
    fetch_per_host: int = 10
    cache_ttl: float = 600.0
    backends: str = ""
    tools: str = ""
    browser: str = ""
    render: str = "auto"
    render_timeout: float = 8.0
    render_concurrency: int = 4
    fusion: int = 1
    hedge_delay: float = 1.5
    search_cache_ttl: float = 300.0
    store: str = ""
    store_max_bytes: int = 64 * 1024 * 1024
    call_timeout: float = 45.0
    max_result_chars: int = 100_000
    cooldown: float = 60.0
    tavily_api_key: str = ""
    tavily_url: str = "https://api.tavily.com"
    http_token: str = ""
    http_allowed_origins: str = ""
    http_allowed_hosts: str = ""
    http_max_body: int = 4 * 1024 * 1024
    http_timeout: float = 30.0
    http_threads: int = 8
    http_server: str = "auto"
    servers_file: str = ""
    backend_timeout: float = 60.0
    lightweight_list: bool = False
    oauth_issuer: str = ""
    oauth_resource: str = ""
    oauth_scopes: str = ""
    oauth_client_id: str = ""
    oauth_client_secret: str = ""
    oauth_introspection_cache: float = 30.0
    crawl_per_host: int = 2  # map_site and crawl_site: requests to one host at once, across processes

    def __init__(self, **values: Any) -> None:
        for name, value in values.items():
            if name not in _FIELDS:
                raise TypeError(f"Config has no setting {name!r}")
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Config is immutable; use with_overrides()")

    def get(self, name: str) -> Any:
        """A setting by its field name (the engines' settings have no attribute declared here)."""
        if name not in _FIELDS:
            raise KeyError(name)
        return getattr(self, name)

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


_ENGINE_FIELDS: dict[str, tuple[type, object]] = {}
for _entry in ENGINES:  # every engine's URLs and minimum interval, from the one table of engines
    for _key, _default in _entry.urls.items():
        _ENGINE_FIELDS[_entry.setting(_key)] = (str, _default)
    _ENGINE_FIELDS[_entry.setting("min_interval")] = (float, _entry.min_interval)
    setattr(Config, _entry.setting("min_interval"), _entry.min_interval)
    for _key, _default in _entry.urls.items():
        setattr(Config, _entry.setting(_key), _default)

_FIELDS = (*Config.__annotations__, *_ENGINE_FIELDS)


_ENV_FIELDS: dict[str, tuple[str, type]] = {
    **{f"WEBSEARCH_{field.upper()}": (field, kind) for field, (kind, _) in _ENGINE_FIELDS.items()},
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
    "WEBSEARCH_PDF_MAX_BYTES": ("pdf_max_bytes", int),
    "WEBSEARCH_PDF_MAX_PAGES": ("pdf_max_pages", int),
    "WEBSEARCH_FETCH_CONCURRENCY": ("fetch_concurrency", int),
    "WEBSEARCH_FETCH_PER_HOST": ("fetch_per_host", int),
    "WEBSEARCH_CACHE_TTL": ("cache_ttl", float),
    "WEBSEARCH_BACKENDS": ("backends", str),
    "WEBSEARCH_TOOLS": ("tools", str),
    "WEBSEARCH_BROWSER": ("browser", str),
    "WEBSEARCH_RENDER": ("render", str),
    "WEBSEARCH_RENDER_TIMEOUT": ("render_timeout", float),
    "WEBSEARCH_RENDER_CONCURRENCY": ("render_concurrency", int),
    "WEBSEARCH_FUSION": ("fusion", int),
    "WEBSEARCH_HEDGE_DELAY": ("hedge_delay", float),
    "WEBSEARCH_SEARCH_CACHE_TTL": ("search_cache_ttl", float),
    "WEBSEARCH_STORE": ("store", str),
    "WEBSEARCH_STORE_MAX_BYTES": ("store_max_bytes", int),
    "WEBSEARCH_CALL_TIMEOUT": ("call_timeout", float),
    "WEBSEARCH_MAX_RESULT_CHARS": ("max_result_chars", int),
    "WEBSEARCH_COOLDOWN": ("cooldown", float),
    "TAVILY_API_KEY": ("tavily_api_key", str),
    "WEBSEARCH_TAVILY_URL": ("tavily_url", str),
    "WEBSEARCH_HTTP_TOKEN": ("http_token", str),
    "WEBSEARCH_HTTP_ALLOWED_ORIGINS": ("http_allowed_origins", str),
    "WEBSEARCH_HTTP_ALLOWED_HOSTS": ("http_allowed_hosts", str),
    "WEBSEARCH_HTTP_MAX_BODY": ("http_max_body", int),
    "WEBSEARCH_HTTP_TIMEOUT": ("http_timeout", float),
    "WEBSEARCH_HTTP_THREADS": ("http_threads", int),
    "WEBSEARCH_HTTP_SERVER": ("http_server", str),
    "WEBSEARCH_SERVERS": ("servers_file", str),
    "WEBSEARCH_BACKEND_TIMEOUT": ("backend_timeout", float),
    "WEBSEARCH_LIGHTWEIGHT_LIST": ("lightweight_list", bool),
    "WEBSEARCH_OAUTH_ISSUER": ("oauth_issuer", str),
    "WEBSEARCH_OAUTH_RESOURCE": ("oauth_resource", str),
    "WEBSEARCH_OAUTH_SCOPES": ("oauth_scopes", str),
    "WEBSEARCH_OAUTH_CLIENT_ID": ("oauth_client_id", str),
    "WEBSEARCH_OAUTH_CLIENT_SECRET": ("oauth_client_secret", str),
    "WEBSEARCH_OAUTH_INTROSPECTION_CACHE": ("oauth_introspection_cache", float),
    "WEBSEARCH_CRAWL_PER_HOST": ("crawl_per_host", int),
}
_ENV_NAMES = {field: name for name, (field, _) in _ENV_FIELDS.items()}
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")

_MINIMUMS = {"timeout": 0.1, "max_line_bytes": 1024, "workers": 1, "tools_page_size": 1,
             "max_response_bytes": 1024, "retries": 0, "backoff_seconds": 0.0,
             "retry_after_cap": 0.0, "max_pages": 1, "fetch_max_bytes": 1024, "pdf_max_bytes": 1024, "pdf_max_pages": 1,
             "fetch_concurrency": 1, "render_timeout": 0.5, "render_concurrency": 1,
             "fetch_per_host": 1, "cache_ttl": 0.0, "search_cache_ttl": 0.0,
             "http_max_body": 1024, "http_timeout": 1.0, "http_threads": 1, "backend_timeout": 0.1,
             "fusion": 1, "hedge_delay": 0.0, "store_max_bytes": 0, "call_timeout": 1.0, "cooldown": 0.0,
             "max_result_chars": 10_000, "oauth_introspection_cache": 0.0,
             "crawl_per_host": 1,
             **{entry.setting("min_interval"): 0.0 for entry in ENGINES}}

LOG_LEVELS = ("debug", "info", "warning", "error")


def _parse(raw: str, kind: type) -> object:
    if kind is bool:
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        raise ValueError(raw)
    value = kind(raw)
    if kind is float and (value != value or value in (float("inf"), float("-inf"))):
        raise ValueError(raw)  # nan and infinity pass every comparison with a minimum
    return value


def load_config(environ: Mapping[str, str] | None = None) -> Config:
    """Build a Config from environment variables; unset or empty ones keep their defaults."""
    env = os.environ if environ is None else environ
    if any(name.startswith("WEBSEARCH_") and name not in _ENV_FIELDS for name in env):
        from websearch_mcp import log

        for line in unknown_settings(env):
            log.warning(line)
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


def _is_program(path: str) -> bool:
    """Whether a path (or a name on PATH) is an executable file."""
    import shutil

    return shutil.which(path) is not None


# Variables of this family that are read elsewhere than in this table (gunicorn's settings module,
# the benchmarks).
_OTHER_NAMES = ("WEBSEARCH_GUNICORN_BIND",)


def unknown_settings(environ: Mapping[str, str]) -> list[str]:
    """One line for each WEBSEARCH_* variable no setting reads (a typo), naming the closest known one."""
    import difflib

    known = [*_ENV_FIELDS, *_OTHER_NAMES]
    lines = []
    for name in sorted(environ):
        if not name.startswith("WEBSEARCH_") or name in known or name.startswith("WEBSEARCH_BENCH"):
            continue
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.75)
        hint = f"; did you mean {close[0]}?" if close else " (see the README's settings)"
        lines.append(f"{name} is not a setting websearch-mcp reads{hint}")
    return lines


def setting_name(field: str) -> str:
    """The environment variable of a Config field."""
    return _ENV_NAMES.get(field, field)


def validate(config: Config) -> Config:
    """Refuse values that are out of range (naming the variable); return the config unchanged. Values
    from flags come through here too (the CLI names the flag)."""
    for field, minimum in _MINIMUMS.items():
        value = config.get(field)
        if value != value or value in (float("inf"), float("-inf")):
            raise ConfigError(f"{setting_name(field)}={value!r}: must be a finite number", field)
        if value < minimum:
            raise ConfigError(f"{setting_name(field)}={value!r}: must be at least {minimum}", field)
    if config.browser.strip() and not _is_program(config.browser.strip()):
        raise ConfigError(f"WEBSEARCH_BROWSER={config.browser!r}: no such program (give the path of a Chrome or "
                          "Chromium executable, or leave it unset to use the first one found)", "browser")
    for name in backend_order(config):
        if name not in BY_NAME:
            raise ConfigError(f"WEBSEARCH_BACKENDS names {name!r}; known backends: {', '.join(BY_NAME)}")
    for name in tool_selection(config) or ():
        if name not in BUILT_IN_TOOLS:
            raise ConfigError(f"WEBSEARCH_TOOLS names {name!r}; known tools: {', '.join(BUILT_IN_TOOLS)}")
        if name.startswith("tavily_") and not config.tavily_api_key.strip():
            raise ConfigError(f"WEBSEARCH_TOOLS names {name!r}, which needs TAVILY_API_KEY")
    if config.render not in RENDER_MODES:
        raise ConfigError(f"WEBSEARCH_RENDER={config.render!r}: must be one of {', '.join(RENDER_MODES)}")
    if config.http_server not in ("auto", "waitress", "stdlib"):
        raise ConfigError(f"WEBSEARCH_HTTP_SERVER={config.http_server!r}: must be auto, waitress or stdlib")
    if config.log_level.lower() not in LOG_LEVELS:
        raise ConfigError(f"WEBSEARCH_LOG_LEVEL={config.log_level!r}: must be one of {', '.join(LOG_LEVELS)}")
    if config.oauth_issuer or config.oauth_resource:
        from websearch_mcp.transports.http.oauth import check_settings

        check_settings(config)
    kind, _ = describe_store(config)
    if kind == "redis":
        import importlib.util

        from websearch_mcp.install_hint import install_command

        if importlib.util.find_spec("redis") is None:
            raise ConfigError(f"WEBSEARCH_STORE={config.store!r} needs the Redis client: "
                              + install_command("redis"))
    return config


RENDER_MODES = ("auto", "always", "never")
BUILT_IN_TOOLS = ("web_search", "instant_answer", "fetch_content", "search_context", "tavily_search",
                  "tavily_extract", "tavily_context", "map_site", "crawl_site")


def tool_selection(config: Config) -> list[str] | None:
    """The built-in tools WEBSEARCH_TOOLS names, in its order, or None for the default set."""
    named = [n.strip().lower() for n in config.tools.split(",") if n.strip()]
    return list(dict.fromkeys(named)) or None


def backend_order(config: Config) -> list[str]:
    """The search engines to ask, in order, each once: WEBSEARCH_BACKENDS, or the default order with
    SearXNG second when instances are configured."""
    named = [n.strip().lower() for n in config.backends.split(",") if n.strip()]
    if not named:
        named = list(DEFAULT_ORDER)
        if config.get("searxng_urls").strip():
            named.insert(1, "searxng")
    return list(dict.fromkeys(named))


def default_sqlite_path() -> str:
    """The SQLite file in the user's cache folder (XDG on Linux, the platform's folder elsewhere)."""
    if sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Caches")
    elif sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "websearch-mcp", "store.sqlite3")


def describe_store(config: Config) -> tuple[str, str]:
    """(kind, target) of the configured store: memory, sqlite (a file path) or redis (a URL)."""
    setting = config.store.strip()
    if not setting:
        return "sqlite", default_sqlite_path()
    if setting == "memory":
        return "memory", ""
    if setting.startswith("sqlite:///"):
        path = "/" + setting[len("sqlite://"):].lstrip("/")
        if os.path.dirname(path) == "/":
            raise ConfigError(f"WEBSEARCH_STORE={setting!r} would write {path} at the root of the file system: "
                              "sqlite:/// takes an absolute path (sqlite:///var/cache/websearch.db); for a path "
                              f"relative to the working directory write sqlite:{path.lstrip('/')}")
        return "sqlite", path
    if setting.startswith("sqlite:") and not setting.startswith("sqlite:/"):
        return "sqlite", os.path.abspath(setting[len("sqlite:"):])  # relative to the working directory
    if setting.startswith(("redis://", "rediss://")):
        return "redis", setting
    raise ConfigError(f"WEBSEARCH_STORE={setting!r}: use memory, sqlite:///ABSOLUTE/PATH, sqlite:RELATIVE/PATH, "
                      "redis://[:PASSWORD@]HOST:PORT/DB or rediss://...")
