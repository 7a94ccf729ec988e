"""A small, lazily started thread pool that can be drained (no concurrent.futures at start-up)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable

from websearch_mcp import log


class WorkerPool:
    """Runs submitted callables on up to `size` daemon threads; `drain` waits for all of them."""

    def __init__(self, size: int, name: str = "worker") -> None:
        self._size = size
        self._name = name
        self._tasks: queue.Queue[Callable[[], None]] = queue.Queue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def submit(self, task: Callable[[], None]) -> None:
        """Queue a task; start another thread if all are busy and the pool is not full."""
        self._tasks.put(task)
        with self._lock:
            if len(self._threads) < self._size and self._tasks.qsize() > 0:
                thread = threading.Thread(target=self._work, name=f"{self._name}-{len(self._threads)}",
                                          daemon=True)
                self._threads.append(thread)
                thread.start()

    def drain(self) -> None:
        """Block until every submitted task has finished."""
        self._tasks.join()

    def _work(self) -> None:
        while True:
            task = self._tasks.get()
            try:
                task()
            except BaseException:  # a task must never kill its worker
                log.exception("worker task failed")
            finally:
                self._tasks.task_done()
