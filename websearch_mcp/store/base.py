"""What every store offers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

Result = TypeVar("Result")


class StoreFault(Exception):
    """The store could not be used (unreadable, locked, full, unreachable, refused)."""

    @classmethod
    def from_error(cls, err: BaseException) -> StoreFault:
        return cls(str(err) or type(err).__name__)


def guarded(work: Callable[[], Result], faults: tuple[type[BaseException], ...]) -> Result:
    """The work's result; any of `faults` it raises becomes a StoreFault."""
    try:
        return work()
    except faults as err:
        raise StoreFault.from_error(err) from err


class Store(Protocol):
    """Shared state. Times are wall-clock seconds (time.time()), comparable across processes."""

    @property
    def kind(self) -> str:
        """memory, sqlite or redis: where the state is kept (now)."""

    def get(self, namespace: str, key: str) -> bytes | None:
        """A live cached value, or None."""

    def put(self, namespace: str, key: str, value: bytes, ttl: float) -> None:
        """Cache a value for `ttl` seconds; the oldest and expired entries go first when full."""

    def claim(self, key: str, ttl: float) -> bool:
        """Take a lease on a key for `ttl` seconds (so only one caller fetches it); False if held."""

    def release(self, key: str) -> None:
        """Give a lease back."""

    def renew(self, key: str, ttl: float) -> None:
        """Extend a lease this caller holds to `ttl` seconds from now."""

    def reserve(self, name: str, interval: float) -> float:
        """Book the next request slot for `name`, at least `interval` seconds after the previous one
        (whoever booked it); returns the seconds to wait before sending."""

    def cooldown(self, name: str) -> tuple[float, int, str]:
        """(until, strikes, reason) of a backend's cool-down; until is 0 when none was set."""

    def set_cooldown(self, name: str, until: float, strikes: int, reason: str) -> None:
        """Record a backend's cool-down (until 0 and strikes 0 clear it)."""

    def get_value(self, key: str) -> str | None:
        """A small named value (e.g. SearXNG's last good instance)."""

    def set_value(self, key: str, value: str) -> None:
        """Set a small named value."""

    def close(self) -> None:
        """Close connections."""
