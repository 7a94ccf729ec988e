"""Log lines on stderr (stdout belongs to the protocol); no `logging` import on the start-up path."""

from __future__ import annotations

import _thread
import sys

_LEVELS = {"debug": 10, "info": 20, "warning": 30, "error": 40}
_threshold = _LEVELS["info"]
_lock = _thread.allocate_lock()  # threading itself costs start-up time


def set_level(name: str) -> None:
    """Set the lowest level that is written."""
    global _threshold
    _threshold = _LEVELS.get(name.lower(), _LEVELS["warning"])


def enabled(level: str) -> bool:
    """Whether a message at this level would be written."""
    return _LEVELS[level] >= _threshold


def _write(level: str, message: str) -> None:
    if _LEVELS[level] < _threshold:
        return
    line = f"websearch-mcp {level.upper()}: {message}\n"
    with _lock:
        try:
            sys.stderr.write(line)
            sys.stderr.flush()
        except (OSError, ValueError):
            pass  # a closed stderr must never take the server down


def debug(message: str) -> None:
    """Write a debug line."""
    _write("debug", message)


def info(message: str) -> None:
    """Write an info line."""
    _write("info", message)


def warning(message: str) -> None:
    """Write a warning line."""
    _write("warning", message)


def error(message: str) -> None:
    """Write an error line."""
    _write("error", message)


def exception(message: str) -> None:
    """Write an error line followed by the current traceback."""
    import traceback

    _write("error", f"{message}\n{traceback.format_exc().rstrip()}")
