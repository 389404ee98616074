"""ruff and mypy are part of the test extra; the tree stays clean, formatted and typed."""

from __future__ import annotations

import subprocess

from tests.helpers import ROOT, installed_tool


def test_ruff_is_clean():
    result = subprocess.run(
        [installed_tool("ruff"), "check", "--output-format", "concise", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_applied():
    result = subprocess.run(
        [installed_tool("ruff"), "format", "--check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean_on_core_store_and_runs():
    """mypy reads its files (drill/core, drill/store, drill/runs) from pyproject.toml."""
    result = subprocess.run([installed_tool("mypy")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
