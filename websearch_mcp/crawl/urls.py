"""Site addresses: one normal form per page, the site a URL belongs to, and the caps that cut traps
(calendars, session ids, ever-growing parameters) short."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

TRACKING = frozenset({"fbclid", "gclid", "dclid", "msclkid", "yclid", "igshid", "mc_cid", "mc_eid", "_ga",
                      "_gl", "ref_src", "sessionid", "session_id", "sid", "phpsessid", "jsessionid", "s_kwcid"})
# links to files no reader turns into text: not worth a request
SKIPPED_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".ico", ".css", ".js", ".mjs", ".map",
                    ".woff", ".woff2", ".ttf", ".eot", ".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".tar",
                    ".whl", ".exe", ".dmg", ".msi", ".deb", ".rpm", ".mp3", ".mp4", ".webm", ".avi", ".mov",
                    ".wav", ".ogg", ".iso", ".bin", ".jar", ".apk", ".inv")
_DIGITS = re.compile(r"\d+")
_ID = re.compile(r"^[0-9a-f]{8,}$|^[0-9a-f-]{20,}$", re.IGNORECASE)
# two-label suffixes under which a registrable domain has three labels (no public suffix list needed
# for the common cases; an unknown suffix errs towards the narrower site)
_SECOND_LEVEL = frozenset({"co", "com", "net", "org", "gov", "edu", "ac", "or", "ne", "go", "gob", "mil"})
PATTERN_CAP = 12  # URLs of one path pattern (digits counted as one) a crawl follows
VARIANT_CAP = 4  # query-string variants of one path a crawl follows


def normalise(link: str, base: str = "") -> str | None:
    """The URL's normal form (fragment, default port and tracking parameters dropped, host
    lower-cased), resolved against `base`; None for what is not an http(s) page address."""
    try:
        joined = urljoin(base, link.strip()) if base else link.strip()
        parts = urlsplit(joined)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower().rstrip(".")
    if scheme not in ("http", "https") or not host:
        return None
    if ":" in host:
        host = f"[{host}]"
    if port and (scheme, port) not in (("http", 80), ("https", 443)):
        host = f"{host}:{port}"
    # parameters keep their order: robots.txt rules match the query string as it is sent
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
             if not k.lower().startswith("utm_") and k.lower() not in TRACKING]
    return urlunsplit((scheme, host, parts.path or "/", urlencode(query), ""))


def page_key(url: str) -> str:
    """What two addresses of one page share: the normal form without a trailing slash (servers
    redirect /guide to /guide/, and authors write both)."""
    parts = urlsplit(url)
    if len(parts.path) > 1 and parts.path.endswith("/"):
        return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), parts.query, ""))
    return url


def host_of(url: str) -> str:
    """The URL's host name, lower-cased."""
    return (urlsplit(url).hostname or "").lower()


def site_of(url: str) -> str:
    """The host and port (when not the default) of a normalised URL: what "the same host" means."""
    return urlsplit(url).netloc.lower()


def origin_of(url: str) -> str:
    """scheme://host[:port] of a normalised URL."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def registrable(host: str) -> str:
    """The registrable domain of a host name (example.co.uk for docs.example.co.uk); an address stays whole."""
    labels = host.split(".")
    if host.replace(".", "").isdigit() or ":" in host or len(labels) <= 2:
        return host
    if len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


def in_site(url: str, start_site: str, include_subdomains: bool) -> bool:
    """Whether a URL belongs to the site of the start page (`start_site` as site_of gives it): the
    same host and port, or with subdomains any host under the start host's registrable domain (never
    another registrable domain)."""
    if site_of(url) == start_site:
        return True
    if not include_subdomains:
        return False
    start_host = urlsplit("//" + start_site).hostname or ""
    if start_host.replace(".", "").isdigit() or ":" in start_host:
        return False  # an address has no subdomains
    domain = registrable(start_host)
    host = host_of(url)
    return host == domain or host.endswith("." + domain)


def readable_link(url: str) -> bool:
    """Whether a link may lead to a readable page (not an image, archive, script or font)."""
    return not urlsplit(url).path.lower().endswith(SKIPPED_SUFFIXES)


def path_pattern(url: str) -> str:
    """The shape of a URL's path: digit runs and id-like segments made one, so that /cal/2026/01 and
    /cal/2031/12 share a pattern."""
    parts = urlsplit(url)
    segments = ["*" if _ID.match(s) else _DIGITS.sub("9", s) for s in parts.path.split("/")]
    return parts.netloc + "/".join(segments)


class TrapLimits:
    """Counts the URLs a crawl has taken per path pattern and per path; refuses those over the caps."""

    def __init__(self, pattern_cap: int = PATTERN_CAP, variant_cap: int = VARIANT_CAP) -> None:
        self.pattern_cap = pattern_cap
        self.variant_cap = variant_cap
        self.patterns: dict[str, int] = {}
        self.variants: dict[str, int] = {}

    def admit(self, url: str) -> bool:
        """Count the URL and say whether it is within the caps."""
        parts = urlsplit(url)
        pattern = path_pattern(url)
        if self.patterns.get(pattern, 0) >= self.pattern_cap:
            return False
        path = parts.netloc + parts.path
        if parts.query and self.variants.get(path, 0) >= self.variant_cap:
            return False
        self.patterns[pattern] = self.patterns.get(pattern, 0) + 1
        if parts.query:
            self.variants[path] = self.variants.get(path, 0) + 1
        return True

    def to_json(self) -> dict[str, dict[str, int]]:
        """The counts, to keep in the store."""
        return {"patterns": self.patterns, "variants": self.variants}

    @classmethod
    def from_json(cls, data: dict[str, dict[str, int]]) -> TrapLimits:
        """Counts back from the store."""
        limits = cls()
        limits.patterns = dict(data.get("patterns", {}))
        limits.variants = dict(data.get("variants", {}))
        return limits
