"""The command that adds an optional extra to this very installation: pipx, a checkout's virtual
environment, or plain pip, whichever the running server came from."""

from __future__ import annotations

import sys


def extra_packages(extra: str) -> list[str]:
    """The requirements an extra names in the installed package's metadata (e.g. ['pypdfium2>=5.0'])."""
    from importlib import metadata

    try:
        requires = metadata.distribution("websearch-mcp").requires or []
    except metadata.PackageNotFoundError:
        return []
    packages = []
    for line in requires:
        requirement, _, marker = line.partition(";")
        if f"extra == \"{extra}\"" in marker or f"extra == '{extra}'" in marker:
            packages.append(requirement.strip().replace(" ", ""))
    return packages


def install_command(extra: str) -> str:
    """How to add `extra` here: `pipx inject websearch-mcp ...` under pipx, else this environment's pip,
    with the extra's own packages (which works whether the package came from a checkout or an index)."""
    packages = " ".join(f"'{p}'" for p in extra_packages(extra)) or f"'websearch-mcp[{extra}]'"
    prefix = sys.prefix.replace("\\", "/")
    if "/pipx/venvs/" in prefix:
        return f"pipx inject websearch-mcp {packages}"
    return f"{sys.executable} -m pip install {packages}"
