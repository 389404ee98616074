"""ruff is part of the test extra; the tree stays clean and formatted."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.helpers import ROOT


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed")
def test_ruff_is_clean():
    result = subprocess.run(
        ["ruff", "check", "--output-format", "concise", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed")
def test_ruff_format_is_applied():
    result = subprocess.run(
        ["ruff", "format", "--check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
