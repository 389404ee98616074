"""history import: what older versions wrote is imported around, hostile files are one line."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

import pytest

from drill.cli.commands import history as history_cmd
from drill.store import history as store
from drill.store import schema
from drill.store.history import History
from drill.store.records import Attempt, SessionRecord
from drill.store.timeutil import utc_iso
from tests.reliability.helpers import drill

S1 = "7a3c9b52-1d8e-4f0a-9a43-6f5e2d1c0b9a"
S2 = "8b4d0c63-2e9f-4a1b-8b54-7a6f3e2d1c0b"


def _attempt(uid: str, **extra) -> dict:
    return {
        "uuid": uid,
        "item_kind": "skill",
        "skill": "bound",
        "score": 1,
        "correct": True,
        "seconds": 2,
        "answered_utc": "2025-01-01T00:00:01Z",
        **extra,
    }


def _export(*sessions) -> str:
    return json.dumps(
        {"format": "roofline-drill-history", "version": 1, "sessions": list(sessions)}
    )


def _session(uid: str, attempts: list, **extra) -> dict:
    return {
        "uuid": uid,
        "mode": "practice",
        "started_utc": "2025-01-01T00:00:00Z",
        "attempts": attempts,
        **extra,
    }


def test_a_negative_seed_from_an_older_version_keeps_the_session(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(
        _export(
            _session(S1, [_attempt("0d9f3e1a-5b7c-4c2d-8e6f-1a2b3c4d5e6f")], seed=-5),
            _session(S2, [_attempt("1e0a4f2b-6c8d-4d3e-9f70-2b3c4d5e6f70")], seed=2**64),
        )
    )
    code, out, err = drill("history", "import", str(path))
    assert code == 1 and "2 new session(s) and 2 new attempt(s)" in out
    assert err.count("kept without its seed") == 2
    with History.open() as history:
        assert [s.seed for s in history.sessions()] == [None, None]


def test_a_bad_session_is_skipped_and_the_rest_imported(tmp_path):
    path = tmp_path / "mixed.json"
    path.write_text(
        _export(
            _session("not-a-uuid", [_attempt("0d9f3e1a-5b7c-4c2d-8e6f-1a2b3c4d5e6f")]),
            _session(
                S2,
                [
                    _attempt("1e0a4f2b-6c8d-4d3e-9f70-2b3c4d5e6f70"),
                    _attempt("2f1b5a3c-7d9e-4e4f-8a81-3c4d5e6f7081", score=7),
                ],
            ),
        )
    )
    code, out, err = drill("history", "import", str(path))
    assert code == 1 and "1 new session(s) and 1 new attempt(s)" in out
    assert "session 1" in err and "session 2: attempt 2" in err and "'score'" in err


@pytest.mark.parametrize("stamp", ["9999-12-31T23:59:59Z", "0999-01-01T00:00:00Z"])
def test_timestamps_outside_the_supported_years_are_refused(tmp_path, stamp):
    path = tmp_path / "far.json"
    path.write_text(
        _export(
            _session(S1, [_attempt("0d9f3e1a-5b7c-4c2d-8e6f-1a2b3c4d5e6f", answered_utc=stamp)])
        )
    )
    code, _, err = drill("history", "import", str(path))
    assert code == 2 and "from 1970 to 2200" in err and len(err.strip().splitlines()) == 1
    assert drill("stats")[0] == 0


def test_years_before_1000_are_written_with_four_digits():
    from datetime import datetime, timezone

    assert utc_iso(datetime(999, 1, 2, tzinfo=timezone.utc)) == "0999-01-02T00:00:00.000Z"


def _csv_history(tmp_path) -> str:
    with History.open() as history:
        sid = history.start_session(SessionRecord("practice", utc_iso()))
        for answer in (
            "y" * 200_000,
            "=cmd|' /C calc'!A0",
            "@SUM(1)",
            "+1+1",
            "-2",
            "'=already quoted",
            "\tlead",
            "plain",
        ):
            history.add_attempt(
                sid, Attempt("skill", "bound", 1.0, True, 1.0, utc_iso(), answer=answer)
            )
    code, out, _ = drill("history", "export", "--format", "csv")
    assert code == 0
    return out


def test_csv_cells_that_look_like_formulas_are_prefixed_and_round_trip(tmp_path):
    text = _csv_history(tmp_path)
    answers = [row["answer"] for row in csv.DictReader(io.StringIO(text))]
    for cell in answers:
        assert cell[0] not in "=+-@\t\r", cell
    assert "'=cmd|' /C calc'!A0" in answers and "''=already quoted" in answers
    path = tmp_path / "h.csv"
    path.write_text(text)
    before = [a.answer for s in History.open().sessions() for a in s.attempts]
    History.open().conn.execute("DELETE FROM attempts")
    code, out, err = drill("history", "import", str(path))
    assert code == 0, err
    after = [a.answer for s in History.open().sessions() for a in s.attempts]
    assert sorted(after) == sorted(before)
    assert any(len(a) > 128 * 1024 for a in after) is False  # stored answers are capped
    assert "=cmd|' /C calc'!A0" in after and "'=already quoted" in after


def test_a_csv_field_over_128_kib_imports(tmp_path):
    header = (
        "session_uuid,session_mode,session_started_utc,uuid,item_kind,skill,score,"
        "correct,seconds,answered_utc,answer\n"
    )
    row = (
        f"{S1},practice,2025-01-01T00:00:00Z,0d9f3e1a-5b7c-4c2d-8e6f-1a2b3c4d5e6f,skill,"
        f"bound,1,1,2,2025-01-01T00:00:01Z,{'z' * 200_000}\n"
    )
    path = tmp_path / "long.csv"
    path.write_text(header + row)
    code, out, err = drill("history", "import", str(path))
    assert code == 0 and "1 new attempt(s)" in out, err


def test_short_csv_rows_are_reported_by_line(tmp_path):
    header = (
        "session_uuid,session_mode,session_started_utc,uuid,item_kind,skill,score,"
        "correct,seconds,answered_utc\n"
    )
    good = (
        f"{S1},practice,2025-01-01T00:00:00Z,0d9f3e1a-5b7c-4c2d-8e6f-1a2b3c4d5e6f,skill,"
        "bound,1,1,2,2025-01-01T00:00:01Z\n"
    )
    path = tmp_path / "short.csv"
    path.write_text(header + good + f"{S1},practice\n" + good.replace("0d9f", "1d9f"))
    code, out, err = drill("history", "import", str(path))
    assert code == 1 and "2 new attempt(s)" in out
    assert "line 3: has 2 of 10 columns" in err


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"a": ' + "[" * 200_000, "nested too deeply"),
        ('{"a": ' + "[" * 200_000 + "]" * 200_000 + "}", "nested too deeply"),
        ("x" * 300_000 + "\n", "not a drill history export"),
        (
            '{"format": "roofline-drill-history", "version": 1, "sessions": [{"uuid": "\\ud800", '
            '"mode": "practice", "started_utc": "2025-01-01T00:00:00Z"}]}',
            "not a UUID",
        ),
    ],
    ids=["unclosed-nesting", "deep-nesting", "long-line", "lone-surrogate"],
)
def test_hostile_import_files_are_one_line(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, out, err = drill("history", "import", str(path))
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_a_lone_surrogate_in_an_answer_is_stored(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(
        _export(_session(S1, [_attempt("0d9f3e1a-5b7c-4c2d-8e6f-1a2b3c4d5e6f", answer="a\udcffb")]))
    )
    code, _, err = drill("history", "import", str(path))
    assert code == 0, err
    assert History.open().sessions()[0].attempts[0].answer == "a\ufffdb"


def test_a_locked_history_is_one_line(tmp_path, monkeypatch, capsys):
    path = tmp_path / "one.json"
    path.write_text(_export(_session(S1, [_attempt("0d9f3e1a-5b7c-4c2d-8e6f-1a2b3c4d5e6f")])))
    History.open().close()
    monkeypatch.setattr(schema, "BUSY_TIMEOUT_S", 0.2)
    monkeypatch.setattr(store, "BUSY_TIMEOUT_S", 0.2)
    holder = sqlite3.connect(History.open().path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        assert history_cmd.import_file(str(path), "en") == 1
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    err = capsys.readouterr().err
    assert "locked" in err and len(err.strip().splitlines()) == 1
