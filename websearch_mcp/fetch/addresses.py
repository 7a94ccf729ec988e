"""Which addresses a page fetch may connect to, and the resolver that checks every one of them.

Private, loopback, link-local (cloud metadata included), CGNAT, multicast, reserved and unspecified
addresses are refused, also when wrapped in IPv6 (IPv4-mapped, 6to4, Teredo, NAT64).
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from websearch_mcp.errors import ToolError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


class BlockedAddressError(ToolError):
    """The URL leads to an address this server does not fetch from."""


class InvalidUrlError(ToolError):
    """The URL cannot be fetched at all (scheme, host)."""


class UnresolvedHostError(ToolError):
    """The host name does not resolve."""


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def refusal_reason(address: IPAddress) -> str | None:
    """Why an address may not be fetched from, or None when it is a public one."""
    if isinstance(address, ipaddress.IPv6Address):
        inner = _embedded_ipv4(address)
        if inner is not None:
            reason = refusal_reason(inner)
            return f"{reason} (inside IPv6 {address})" if reason else None
    checks = (
        (address.is_unspecified, "an unspecified address"),
        (address.is_loopback, "a loopback address"),
        (address.is_link_local, "a link-local address (e.g. cloud metadata)"),
        (address.is_multicast, "a multicast address"),
        (address.is_reserved, "a reserved address"),
        (address.is_private, "a private-network address"),
        (not address.is_global, "an address that is not publicly routable (e.g. CGNAT)"),
    )
    for refused, reason in checks:
        if refused:
            return reason
    return None


def _literal(host: str) -> IPAddress | None:
    """The address a host names literally (IPv4, IPv6 with or without brackets), or None for a name."""
    try:
        return ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return None


def check_url(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of a fetchable URL; InvalidUrlError for anything but http(s) with a host."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as err:
        raise InvalidUrlError(f"not a valid URL ({err})") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise InvalidUrlError(f"only http and https URLs can be fetched, not {scheme or 'a URL without scheme'}")
    host = parts.hostname
    if not host:
        raise InvalidUrlError("the URL has no host name")
    return scheme, host, port or (443 if scheme == "https" else 80)


class AddressGuard:
    """Resolves host names and refuses non-public addresses; tests may swap the network below it."""

    def __init__(self, allow_private: bool = False) -> None:
        self.allow_private = allow_private

    def lookup(self, host: str, port: int) -> list[tuple[int, str]]:
        """(family, address) pairs for a host, as the system resolver gives them."""
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError) as err:
            raise UnresolvedHostError(f"could not resolve the host name {host} ({err})") from None
        seen: list[tuple[int, str]] = []
        for family, _, _, _, sockaddr in infos:
            pair = (family, str(sockaddr[0]).split("%")[0])
            if pair not in seen:
                seen.append(pair)
        return seen

    def dial_target(self, address: str, port: int) -> tuple[str, int]:
        """Where to open the socket for a checked address (the address itself, outside tests)."""
        return address, port

    def check_behind_proxy(self, host: str, port: int) -> list[tuple[int, str]] | None:
        """The address check for a request that goes through a proxy, which does the DNS: a literal
        address, localhost and a name that resolves here are checked as usual (and refused before the
        proxy sees them); a name that does not resolve here is left to the proxy (None)."""
        literal = _literal(host)
        if literal is None and (host.lower() == "localhost" or host.lower().endswith(".localhost")):
            literal = ipaddress.ip_address("127.0.0.1")
        if literal is not None:
            if not self.allow_private:
                reason = refusal_reason(literal)
                if reason:
                    raise BlockedAddressError(f"refused to fetch from {host}: it is {literal}, {reason}. Set "
                                              "WEBSEARCH_ALLOW_PRIVATE_URLS=1 to allow private addresses in a "
                                              "trusted setup.")
            return [(socket.AF_INET6 if literal.version == 6 else socket.AF_INET, str(literal))]
        try:
            return self.resolve(host, port)
        except UnresolvedHostError:
            return None

    def resolve(self, host: str, port: int) -> list[tuple[int, str]]:
        """Every address of a host, each checked; BlockedAddressError if any is not public."""
        pairs = self.lookup(host, port)
        if not self.allow_private:
            for _, text in pairs:
                reason = refusal_reason(ipaddress.ip_address(text))
                if reason:
                    raise BlockedAddressError(
                        f"refused to fetch from {host}: it resolves to {text}, {reason}. "
                        "Set WEBSEARCH_ALLOW_PRIVATE_URLS=1 to allow private addresses in a trusted setup.")
        return pairs
