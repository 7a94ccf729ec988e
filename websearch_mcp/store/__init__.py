"""Where state shared between calls lives: caches, politeness slots, cool-downs and small values.

`WEBSEARCH_STORE` chooses it: `memory` (this process only), an SQLite file (the default: one file
in the user's cache folder, shared by every process of this user), or a Redis server (shared by
several machines). Whatever it is, a fault of the store never fails a call: the store answers
from per-process memory meanwhile (see `resilient`).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from websearch_mcp.config import Config
    from websearch_mcp.store.base import Store

__all__ = ["Store", "open_store"]


def open_store(config: Config) -> Store:
    """The store the configuration names, wrapped so that its faults fall back to memory."""
    from websearch_mcp.config import describe_store
    from websearch_mcp.store.memory import MemoryStore

    kind, target = describe_store(config)
    if kind == "memory":
        return MemoryStore(config.store_max_bytes)
    from websearch_mcp.store.resilient import ResilientStore

    return ResilientStore(kind, target, config)
