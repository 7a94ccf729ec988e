"""Shared fixtures: the fake upstream, a configuration pointing at it, and DuckDuckGo routes."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fake_upstream import FakeUpstream, Reply, Seen
from websearch_mcp.config import Config

PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")
PAGE_ONE = "ddg-html/rust-programming-language-2026-04.html"
PAGE_TWO = "handmade/ddg-html-page2-rust-programming-language.html"
PAGE_END = "handmade/ddg-html-page3-no-more-results.html"
LITE_PAGE = "ddg-lite/rust-programming-2026-04-14.body.html"
IA_ARTICLE = "ddg-ia/article-A-duckduckgo-infobox-2022-11.pretty.json"


@pytest.fixture(autouse=True)
def _no_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loopback traffic must never be sent to a proxy from the developer's environment."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


@pytest.fixture(autouse=True)
def _private_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The default store (an SQLite file in the user's cache folder) never touches the real one."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))


@pytest.fixture
def upstream() -> Iterator[FakeUpstream]:
    with FakeUpstream() as server:
        yield server


def engine_urls(base: str) -> dict[str, str]:
    """Every search engine's URL setting pointed at the fake upstream (Config field -> URL)."""
    from websearch_mcp.engines.table import ENGINES

    urls = {"ddg_html_url": f"{base}/html/", "ddg_lite_url": f"{base}/lite/", "ddg_api_url": f"{base}/ia/",
            "ddg_url": f"{base}/ddg/"}
    for entry in ENGINES:
        if entry.name not in ("duckduckgo", "searxng"):
            for key in entry.urls:  # url -> /bing/search, news_url -> /bing/news, ...
                path = "search" if key == "url" else key.removesuffix("_url")
                urls[entry.setting(key)] = f"{base}/{entry.name}/{path}"
    return urls


def config_for(upstream: FakeUpstream, **overrides: object) -> Config:
    """A configuration whose upstream URLs all point at the fake upstream, with fast retries, no
    politeness delays, a per-process store, and DuckDuckGo alone unless a test names other engines."""
    base = Config(**engine_urls(upstream.url), timeout=5.0, backoff_seconds=0.01, retry_after_cap=2.0,
                  store="memory", backends="duckduckgo",
                  **{f"{e}_min_interval": 0.0 for e in ("ddg", "bing", "brave", "mojeek", "yahoo")})
    return base.with_overrides(**overrides)


def env_for(upstream: FakeUpstream) -> dict[str, str]:
    """The environment variables that point a spawned server at the fake upstream (every engine
    included, so that nothing can leave the machine), DuckDuckGo alone unless a test names others."""
    env = {f"WEBSEARCH_{field.upper()}": url for field, url in engine_urls(upstream.url).items()}
    env.update({"WEBSEARCH_BACKOFF": "0.01", "WEBSEARCH_STORE": "memory", "WEBSEARCH_BACKENDS": "duckduckgo",
                "NO_PROXY": "127.0.0.1,localhost"})
    env.update({f"WEBSEARCH_{e}_MIN_INTERVAL": "0" for e in ("DDG", "BING", "BRAVE", "MOJEEK", "YAHOO")})
    return env


@pytest.fixture
def config(upstream: FakeUpstream) -> Config:
    return config_for(upstream)


def paged_html(seen: Seen) -> Reply:
    """DuckDuckGo html as it pages: page 1, then page 2, then the end, chosen by the form's `s`."""
    offset = seen.form.get("s", "0")
    name = {"0": PAGE_ONE, "10": PAGE_TWO}.get(offset, PAGE_END)
    return Reply.fixture(name)


def instant_answers(seen: Seen) -> Reply:
    """The Instant Answer API: a fixture chosen by the query."""
    names = {"duckduckgo": IA_ARTICLE, "mercury": "handmade/ia-disambiguation-D-mercury.json",
             "2+2": "handmade/ia-answer-E-calculator.json",
             "serendipity": "handmade/ia-definition-dictionary.json"}
    return Reply.fixture(names.get(seen.query.get("q", "").lower(), "ddg-ia/empty-no-answer-2020-05.json"))


@pytest.fixture
def ddg(upstream: FakeUpstream) -> FakeUpstream:
    """The fake upstream with DuckDuckGo's html, lite and Instant Answer routes installed."""
    upstream.route("POST", "/html/", paged_html)
    upstream.route("POST", "/lite/", Reply.fixture(LITE_PAGE))
    upstream.route("GET", "/ia/", instant_answers)
    return upstream


def installed_command() -> str:
    """The `websearch-mcp` script installed next to the running interpreter."""
    path = Path(sys.executable).parent / "websearch-mcp"
    if not path.exists():
        pytest.fail(f"websearch-mcp is not installed next to {sys.executable}; run `make install`")
    return str(path)


def client_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The small environment MCP clients start servers with (no PYTHONUNBUFFERED)."""
    env = {key: os.environ[key] for key in ("HOME", "PATH", "USER", "LANG", "XDG_CACHE_HOME") if key in os.environ}
    # every upstream points at a closed loopback port unless the test says otherwise: nothing leaves the machine
    env.update({f"WEBSEARCH_{field.upper()}": url for field, url in engine_urls("http://127.0.0.1:9").items()})
    env.update(extra or {})
    return env
