"""Which outbound proxy a URL goes through: HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY, read
the way requests reads them for the request itself, so the address check and the request agree."""

from __future__ import annotations


def proxy_for(url: str) -> str | None:
    """The proxy URL that applies to `url`, or None when the request goes out directly."""
    from requests.utils import get_environ_proxies, select_proxy

    try:
        return select_proxy(url, get_environ_proxies(url)) or None
    except ValueError:  # a URL requests cannot take apart: it fails on its own later, with a clear error
        return None
