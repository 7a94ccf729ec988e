"""Reading seed 003's servers file: {"mcpServers": {NAME: {"command", "args", "env", "enabled"}}}."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from websearch_mcp.config import ConfigError

_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@dataclass(frozen=True)
class BackendSpec:
    """How to start one backend server."""

    name: str
    command: str
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    enabled: bool = True


def _problem(path: Path, message: str) -> ConfigError:
    return ConfigError(f"servers file {path}: {message}")


def load_servers(path_text: str) -> list[BackendSpec]:
    """The enabled and disabled servers of a file; ConfigError naming the file and the problem."""
    path = Path(path_text).expanduser()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _problem(path, "no such file") from None
    except OSError as err:
        raise _problem(path, f"cannot be read ({err.strerror})") from None
    except (ValueError, UnicodeDecodeError) as err:
        raise _problem(path, f"is not valid JSON ({err})") from None
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        raise _problem(path, 'must be an object with an "mcpServers" object')
    specs = []
    for name, entry in servers.items():
        specs.append(_spec(path, name, entry))
    return specs


def _spec(path: Path, name: str, entry: object) -> BackendSpec:
    if not _NAME.match(name):
        raise _problem(path, f"server name {name!r} must be 1-64 letters, digits, '_' or '-'")
    if not isinstance(entry, dict):
        raise _problem(path, f"server {name!r} must be an object")
    command = entry.get("command")
    if not isinstance(command, str) or not command.strip():
        raise _problem(path, f"server {name!r} needs a \"command\" string")
    args = entry.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise _problem(path, f"server {name!r}: \"args\" must be a list of strings")
    env = entry.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items()):
        raise _problem(path, f"server {name!r}: \"env\" must be an object of strings")
    enabled = entry.get("enabled", True)
    if not isinstance(enabled, bool):
        raise _problem(path, f"server {name!r}: \"enabled\" must be true or false")
    return BackendSpec(name, command, tuple(args), tuple(sorted(env.items())), enabled)
