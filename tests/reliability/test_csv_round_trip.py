"""A CSV export holding a carriage return imports again (reliability review D10), and a CSV
the reader cannot parse is named by the line it stops on."""

from __future__ import annotations

import json

from tests.helpers import run_drill


def _answered_export(tmp_path) -> dict:
    done = run_drill("start", "--plain", "--skill", "kv-cache", "--count", "1", input="1\n")
    assert done.returncode == 0, done.stderr
    out = tmp_path / "h.json"
    assert run_drill("history", "export", str(out)).returncode == 0
    return json.loads(out.read_text())


def test_an_answer_with_a_carriage_return_survives_the_csv_round_trip(
    tmp_path, drill_home, monkeypatch
):
    data = _answered_export(tmp_path)
    data["sessions"][0]["attempts"][0]["answer"] = "first\rsecond\r\nthird"
    source = tmp_path / "cr.json"
    source.write_text(json.dumps(data))
    first = tmp_path / "first"
    first.mkdir()
    monkeypatch.setenv("DRILL_HOME", str(first))
    assert run_drill("history", "import", str(source)).returncode == 0
    exported = run_drill("history", "export", "--format", "csv")
    assert exported.returncode == 0
    csv_file = tmp_path / "x.csv"
    csv_file.write_bytes(exported.stdout.encode())
    second = tmp_path / "second"
    second.mkdir()
    monkeypatch.setenv("DRILL_HOME", str(second))
    result = run_drill("history", "import", str(csv_file))
    assert result.returncode == 0, result.stderr
    back = json.loads(run_drill("history", "export").stdout)
    assert back["sessions"][0]["attempts"][0]["answer"] == "first\rsecond\r\nthird"


def test_an_unreadable_csv_row_is_named_by_its_line(tmp_path, drill_home):
    _answered_export(tmp_path)
    text = run_drill("history", "export", "--format", "csv").stdout
    lines = text.split("\r\n")
    header, row = lines[0], lines[1]
    bad = "\r\n".join([header, row, row.replace(",", ",x\ry", 1)]) + "\r\n"
    path = tmp_path / "bad.csv"
    path.write_bytes(bad.encode())
    result = run_drill("history", "import", str(path))
    assert result.returncode != 0
    assert "line 3" in result.stderr, result.stderr
