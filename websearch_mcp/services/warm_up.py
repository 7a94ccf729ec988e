"""Work a call will need once its pages are in, done while they load. Ranking passages needs the
passage module (its character classes take milliseconds to compile), the stemmer's import and the
stemmer itself: about 30 ms in all, which a call that ranks pages would otherwise add to its answer
after the last page is in. Started once per process, on a thread of its own."""

from __future__ import annotations

import threading

_STARTING = threading.Lock()
_started: list[threading.Thread] = []


def warm_up_ranking() -> None:
    """Ready the ranking in the background (at most once per process; later calls return at once)."""
    with _STARTING:
        if _started:
            return
        thread = threading.Thread(target=_ready_ranking, name="ranking-warm-up", daemon=True)
        _started.append(thread)
    thread.start()


def _ready_ranking() -> None:
    from websearch_mcp.passages import terms

    terms("ranking readies its stemmer", "en")
