"""A system clock outside the years a history export holds (reliability review D14): the
session says up front that answers are not saved, and nothing unexportable is recorded."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from drill.runs import factory
from tests.helpers import run_drill


@pytest.mark.parametrize("year", [1969, 2201])
def test_a_clock_outside_the_exportable_years_records_nothing(drill_home, monkeypatch, year):
    monkeypatch.setattr(factory, "_now", lambda: datetime(year, 6, 1, tzinfo=timezone.utc))
    result = run_drill("start", "--plain", "--skill", "kv-cache", "--count", "1", input="1\n")
    assert result.returncode == 0, result.stderr
    assert f"the system clock reads {year}-06-01" in result.stderr
    assert "answers will not be saved" in result.stderr
    exported = run_drill("history", "export")
    assert exported.returncode == 0, exported.stderr  # nothing that cannot be exported
    assert '"sessions": []' in exported.stdout


def test_a_clock_inside_the_years_records_as_usual(drill_home):
    result = run_drill("start", "--plain", "--skill", "kv-cache", "--count", "1", input="1\n")
    assert result.returncode == 0 and "system clock" not in result.stderr
    assert '"sessions": []' not in run_drill("history", "export").stdout
