"""A DRILL_HOME that is a file (reliability review D15): every command that reads the history
says so in one line and exits non-zero, instead of showing an empty history."""

from __future__ import annotations

import pytest

from tests.helpers import run_drill


@pytest.mark.parametrize(
    "argv", [("stats",), ("stats", "--json"), ("history", "export"), ("history", "check")]
)
def test_a_home_that_is_a_file_is_refused(tmp_path, monkeypatch, argv):
    home = tmp_path / "home-file"
    home.write_text("not a folder")
    monkeypatch.setenv("DRILL_HOME", str(home))
    result = run_drill(*argv)
    assert result.returncode != 0, result.stdout
    assert f"{home} is a file, not a folder" in result.stderr
    assert '"sessions": []' not in result.stdout and "No answers recorded yet" not in result.stdout
    assert home.read_text() == "not a folder"
