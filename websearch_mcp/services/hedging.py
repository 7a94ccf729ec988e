"""Hedged requests across search engines: when the engine asked has not answered within a short
delay, the next one is asked beside it, and the first good answers are used.

One engine that accepts the connection and never answers would otherwise hold a search for its whole
timeout (15 s an endpoint). With hedging, the slowest useful answer comes a hedge delay after the one
before it. Each hedge is one more request to one more engine: politeness slots and cool-downs apply
to it as to any other request.
"""

from __future__ import annotations

import math
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from websearch_mcp.engines.base import Skipped
from websearch_mcp.errors import UpstreamError

HEDGE_FLOOR = 1.0  # never hedge sooner than this (seconds), however fast an engine usually is
HEDGE_FACTOR = 3.0  # ... and otherwise after this many times what the engine usually takes
_SAMPLES = 20


class Latencies:
    """How long each engine took to answer lately, in this process (for the hedge delay)."""

    def __init__(self) -> None:
        self._times: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def note(self, name: str, seconds: float) -> None:
        """Record one answer's time."""
        with self._lock:
            self._times.setdefault(name, deque(maxlen=_SAMPLES)).append(seconds)

    def hedge_delay(self, name: str, configured: float) -> float:
        """Seconds to give `name` before the next engine is asked beside it: a few times what it
        usually takes, between HEDGE_FLOOR and the configured delay (the configured delay while too
        little is known)."""
        if configured <= 0:
            return math.inf  # hedging is off
        with self._lock:
            times = list(self._times.get(name, ()))
        if len(times) < 3:
            return configured
        import statistics  # here, not on every first search's path: it takes milliseconds to import

        return min(configured, max(min(HEDGE_FLOOR, configured), HEDGE_FACTOR * statistics.median(times)))


class Attempt:
    """One engine being asked: when, whether the next was asked beside it, and whether it is abandoned."""

    def __init__(self, name: str, delay: float) -> None:
        self.name = name
        self.started = time.monotonic()
        self.delay = delay
        self.hedged = False
        self.abandoned = threading.Event()


class Outcome:
    """What a hedged round gave: the answers, the failures, and the engines still silent at the end."""

    def __init__(self) -> None:
        self.answers: list[tuple[str, Any]] = []
        self.failures: list[tuple[str, Exception]] = []
        self.slow: list[Attempt] = []
        self.order: list[str] = []  # the engines in the order they were asked


def ask_hedged(names: list[str], want: int, ask: Callable[[str, Attempt], Any],
               delay_for: Callable[[str], float], deadline: float | None,
               cancelled: Callable[[], bool] | None = None) -> Outcome:
    """Ask engines in order until `want` of them answered. An engine that fails is replaced by the next
    at once; one still silent after its hedge delay gets the next asked beside it. Engines still silent
    when the answers are in are abandoned (their threads end on their own deadline) and listed in
    `slow`. `ask(name, attempt)` returns an answer or raises UpstreamError or Skipped."""
    outcome = Outcome()
    waiting = deque(names)
    running: dict[str, Attempt] = {}
    events: queue.Queue[tuple[str, Any]] = queue.Queue()

    def launch() -> None:
        while waiting and sum(not a.hedged for a in running.values()) + len(outcome.answers) < want:
            name = waiting.popleft()
            attempt = running[name] = Attempt(name, _bounded(delay_for(name), deadline))
            outcome.order.append(name)
            threading.Thread(target=_run, args=(ask, attempt, events), name=f"search-{name}", daemon=True).start()

    launch()
    while running and len(outcome.answers) < want:
        if cancelled is not None and cancelled():
            break  # the call was cancelled: its engines are abandoned, its thread is free at once
        timeout = _next_wake(running, deadline)
        if timeout is not None and timeout <= 0 and deadline is not None and time.monotonic() >= deadline:
            break
        if cancelled is not None:
            timeout = 0.1 if timeout is None else min(timeout, 0.1)
        try:
            name, result = events.get(timeout=timeout)
        except queue.Empty:
            if cancelled is not None and cancelled():
                break
            now = time.monotonic()
            for attempt in running.values():
                if not attempt.hedged and now >= attempt.started + attempt.delay:
                    attempt.hedged = True
            launch()
            continue
        running.pop(name)
        if isinstance(result, (UpstreamError, Skipped)):
            outcome.failures.append((name, result))
        else:
            outcome.answers.append((name, result))
        launch()
    for attempt in running.values():
        attempt.abandoned.set()
        outcome.slow.append(attempt)
    return outcome


def _run(ask: Callable[[str, Attempt], Any], attempt: Attempt, events: queue.Queue[tuple[str, Any]]) -> None:
    try:
        result: Any = ask(attempt.name, attempt)
    except (UpstreamError, Skipped) as err:
        result = err
    except Exception as err:  # a fault inside the server: that engine failed, the search goes on
        result = UpstreamError(f"failed inside the server ({type(err).__name__}: {err})")
    events.put((attempt.name, result))


def _bounded(delay: float, deadline: float | None) -> float:
    """A hedge delay never longer than half the time left, so the next engine has time to answer."""
    if deadline is None or delay == math.inf:
        return delay
    return max(0.0, min(delay, (deadline - time.monotonic()) / 2))


def _next_wake(running: dict[str, Attempt], deadline: float | None) -> float | None:
    """Seconds until the next hedge is due or the deadline passes (None: wait for an event)."""
    wakes = [a.started + a.delay for a in running.values() if not a.hedged and a.delay != math.inf]
    if deadline is not None:
        wakes.append(deadline)
    if not wakes:
        return None
    return max(0.0, min(wakes) - time.monotonic())
