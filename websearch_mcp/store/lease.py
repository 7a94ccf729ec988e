"""A lease kept alive while its holder works: short, and renewed by a heartbeat, so a holder that dies
(killed, crashed, frozen) lets go within a few seconds instead of holding its work for the whole
request timeout."""

from __future__ import annotations

import threading

from websearch_mcp import log
from websearch_mcp.store.base import Store, StoreFault

LEASE_SECONDS = 3.0  # how long a lease outlives its last heartbeat
HEARTBEAT_SECONDS = 1.0


class KeptLease:
    """A lease already claimed, renewed every second until the `with` block ends, then released."""

    def __init__(self, store: Store, key: str) -> None:
        self.store = store
        self.key = key
        self._stop = threading.Event()
        self._beat = threading.Thread(target=self._renew, name="lease-heartbeat", daemon=True)

    def __enter__(self) -> KeptLease:
        self._beat.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._beat.join()
        self.store.release(self.key)

    def _renew(self) -> None:
        while not self._stop.wait(HEARTBEAT_SECONDS):
            try:
                self.store.renew(self.key, LEASE_SECONDS)
            except StoreFault as err:  # the store is down: the lease lapses, someone else may fetch
                log.warning(f"could not renew the lease {self.key}: {err}")
