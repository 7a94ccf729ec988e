"""Runs tests/shell/run.sh: plain `printf | websearch-mcp` pipelines, as a shell user drives the server."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.conftest import client_environment, installed_command

SCRIPT = Path(__file__).resolve().parent / "shell" / "run.sh"


def test_shell_pipelines():
    bin_dir = str(Path(installed_command()).parent)
    env = client_environment({"PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")})
    process = subprocess.run(["sh", str(SCRIPT)], capture_output=True, text=True, env=env, timeout=120)
    assert process.returncode == 0, process.stdout + process.stderr
    assert process.stdout.strip().endswith("passed, 0 failed")
