"""Shared fixtures: an isolated DRILL_HOME."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def drill_home(tmp_path, monkeypatch) -> Path:
    """Every test gets its own empty DRILL_HOME, so nothing touches the real user folders."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("DRILL_HOME", str(home))
    monkeypatch.setenv("DRILL_LANG", "en")
    return home
