"""The one table of search engines: adding an engine means one module and one line here.

Each line names the engine, its class, its settings and their defaults. The settings become
environment variables: `WEBSEARCH_<PREFIX>_<KEY>` for each URL and `WEBSEARCH_<PREFIX>_MIN_INTERVAL`
for the least time between two requests to it. Nothing is imported here: this module is read at
start-up, and an engine's module only when it is first asked.
"""

from __future__ import annotations


class EngineEntry:
    """One search engine as configuration knows it."""

    __slots__ = ("default", "label", "min_interval", "name", "prefix", "target", "urls")

    def __init__(self, name: str, label: str, target: str, urls: dict[str, str], min_interval: float,
                 default: bool = True, prefix: str = "") -> None:
        self.name = name  # as WEBSEARCH_BACKENDS and the `backend` argument spell it
        self.label = label  # as the footer shows it
        self.target = target  # "module:Class" under websearch_mcp.engines
        self.urls = urls  # setting key -> default
        self.min_interval = min_interval
        self.default = default  # in the default order
        self.prefix = (prefix or name).lower()

    def setting(self, key: str) -> str:
        """The Config field of one of this engine's settings."""
        return f"{self.prefix}_{key}"


ENGINES = (
    EngineEntry("duckduckgo", "DuckDuckGo", "duckduckgo:DuckDuckGo",
                {"html_url": "https://html.duckduckgo.com/html/", "lite_url": "https://lite.duckduckgo.com/lite/",
                 "url": "https://duckduckgo.com/"},  # the token page; news.js, i.js and v.js live under it
                min_interval=1.0, prefix="ddg"),
    EngineEntry("searxng", "SearXNG", "searxng:Searxng", {"urls": ""}, min_interval=0.0, default=False),
    EngineEntry("bing", "Bing", "bing:Bing", {"url": "https://www.bing.com/search", "news_url": "https://www.bing.com/news/infinitescrollajax",
                 "images_url": "https://www.bing.com/images/async", "videos_url": "https://www.bing.com/videos/asyncv2"},
                min_interval=1.0),
    EngineEntry("brave", "Brave", "brave:Brave", {"url": "https://search.brave.com/search", "news_url": "https://search.brave.com/news",
                 "images_url": "https://search.brave.com/images", "videos_url": "https://search.brave.com/videos"},
                min_interval=1.0),
    EngineEntry("mojeek", "Mojeek", "mojeek:Mojeek", {"url": "https://www.mojeek.com/search"}, min_interval=1.0),
    EngineEntry("yahoo", "Yahoo", "yahoo:Yahoo", {"url": "https://search.yahoo.com/search"}, min_interval=1.0),
    EngineEntry("wikipedia", "Wikipedia", "wikipedia:Wikipedia",
                {"url": "https://{lang}.wikipedia.org/w/api.php"}, min_interval=0.0),
)
BY_NAME = {entry.name: entry for entry in ENGINES}
DEFAULT_ORDER = tuple(entry.name for entry in ENGINES if entry.default)
