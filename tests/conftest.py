"""Shared fixtures: an isolated DRILL_HOME and a way to run the real CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def drill_home(tmp_path, monkeypatch) -> Path:
    """Every test gets its own empty DRILL_HOME, so nothing touches the real user folders."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("DRILL_HOME", str(home))
    monkeypatch.setenv("DRILL_LANG", "en")
    return home


def run_drill(*args: str, input: str | None = None, env: dict | None = None,
              timeout: float = 60) -> subprocess.CompletedProcess:
    """Run ``python -m drill`` as a user would, in a subprocess."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    full_env.setdefault("COLUMNS", "100")
    return subprocess.run(
        [sys.executable, "-m", "drill", *args],
        input=input,
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
        cwd=ROOT,
    )


def run_json(*args: str) -> dict | list:
    result = run_drill(*args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)
