"""Site filters: a domain list as the engines' `site:` / `-site:` operators, and the same lists
applied to the results, so that an engine ignoring the operators cannot break the promise."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

MAX_DOMAINS = 10


def normalise_domain(value: str) -> str:
    """A bare lower-case host from what a user may type: `https://www.Example.com/x` -> `www.example.com`."""
    text = value.strip().lower()
    if "//" in text:
        text = urlsplit(text).hostname or ""
    return text.split("/", 1)[0].split(":", 1)[0].strip(".")


def with_site_operators(query: str, include: Iterable[str], exclude: Iterable[str]) -> str:
    """`query site:a OR site:b -site:c`: the operators DuckDuckGo, Bing and Brave understand."""
    parts = [query]
    wanted = [f"site:{d}" for d in include]
    if wanted:
        parts.append(" OR ".join(wanted))
    parts += [f"-site:{d}" for d in exclude]
    return " ".join(parts)


def host_matches(host: str, domain: str) -> bool:
    """Whether a host is the domain or one of its subdomains (`news.bbc.co.uk` is in `bbc.co.uk`)."""
    return host == domain or host.endswith("." + domain)


def allowed(url: str, include: Iterable[str], exclude: Iterable[str]) -> bool:
    """Whether a result's URL passes the filters (an include list admits only its domains)."""
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    wanted = list(include)
    if wanted and not any(host_matches(host, d) for d in wanted):
        return False
    return not any(host_matches(host, d) for d in exclude)


def filter_hits(hits: list[Any], include: Iterable[str], exclude: Iterable[str]) -> list[Any]:
    """The hits whose `url` passes the filters, in order."""
    include, exclude = list(include), list(exclude)
    if not include and not exclude:
        return hits
    return [hit for hit in hits if allowed(hit.url, include, exclude)]
