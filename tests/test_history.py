"""The history store with a real SQLite file: schema, migration, refusal, recording, crashes."""

from __future__ import annotations

import hashlib
import json
import os
import select
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from drill.config import paths
from drill.runs.recording import Recorder
from drill.store.history import History, HistoryError
from drill.store.records import Attempt, SessionRecord
from drill.store.schema import APPLICATION_ID, SCHEMA_VERSION, check_file
from drill.store.timeutil import parse_utc, utc_iso
from tests.helpers import ROOT, run_drill

V1_SCHEMA = """
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, mode TEXT NOT NULL,
    started_utc TEXT NOT NULL, ended_utc TEXT, seed INTEGER,
    settings_json TEXT NOT NULL DEFAULT '{}', app_version TEXT NOT NULL DEFAULT ''
);
CREATE TABLE attempts (
    id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE,
    session_id INTEGER NOT NULL REFERENCES sessions(id), item_kind TEXT NOT NULL,
    skill TEXT NOT NULL, question TEXT NOT NULL DEFAULT '', ask TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL DEFAULT '', scenario_json TEXT NOT NULL DEFAULT '{}',
    answer TEXT NOT NULL DEFAULT '', parsed_json TEXT NOT NULL DEFAULT 'null',
    expected_json TEXT NOT NULL DEFAULT 'null', score REAL NOT NULL, correct INTEGER NOT NULL,
    skipped INTEGER NOT NULL DEFAULT 0, relative_error REAL, self_mark INTEGER,
    mistakes_json TEXT NOT NULL DEFAULT '[]', hints_used INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL, answered_utc TEXT NOT NULL
);
"""


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def attempt(
    skill: str = "bound", score: float = 1.0, when: str = "2025-01-02T10:00:00Z", **extra
) -> Attempt:
    return Attempt(
        item_kind="skill",
        skill=skill,
        score=score,
        correct=score >= 1,
        seconds=extra.pop("seconds", 12.5),
        answered_utc=utc_iso(parse_utc(when)),
        **extra,
    )


def make_session(*listeners):
    from drill.content.catalog import load_catalog
    from drill.runs.factory import new_session
    from drill.runs.practice import SessionConfig

    config = SessionConfig(count=3, seed=11, skills=["bound"], topic="numeric")
    session = new_session(config, load_catalog())
    for listener in listeners:
        session.subscribe(listener)
    return config, session


# -- schema -------------------------------------------------------------------------------
def test_new_database_is_current_wal_and_marked(tmp_path):
    with History.open(tmp_path / "h.sqlite3") as history:
        conn = history.conn
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"sessions", "attempts", "review_cards"} <= tables


def test_default_location_follows_drill_home(drill_home):
    with History.open() as history:
        assert history.path == paths.database_file()
        assert str(history.path).startswith(str(drill_home))


def test_version_1_database_is_upgraded_and_keeps_its_data(tmp_path):
    path = tmp_path / "v1.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(V1_SCHEMA)
    conn.execute(
        "INSERT INTO sessions (uuid, mode, started_utc, seed) VALUES "
        "('7a3c9b52-1d8e-4f0a-9a43-6f5e2d1c0b9a', 'practice', "
        "'2024-05-01T08:00:00.000Z', 42)"
    )
    conn.execute(
        "INSERT INTO attempts (uuid, session_id, item_kind, skill, score, correct, "
        "seconds, answered_utc, mistakes_json) VALUES "
        "('0d9f3e1a-5b7c-4c2d-8e6f-1a2b3c4d5e6f', 1, 'skill', 'ridge-point', 0.5, 0, "
        "20.0, '2024-05-01T08:01:00.000Z', '[\"inverted-ratio\"]')"
    )
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()

    with History.open(path) as history:
        conn = history.conn
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert "review_cards" in names
        assert {"attempts_time", "attempts_skill"} <= names
        assert history.check() == []
        (session,) = history.sessions()
        assert session.seed == 42
        assert session.attempts[0].skill == "ridge-point"
        assert session.attempts[0].mistakes == ("inverted-ratio",)
        history.put_review_card(
            "skill:ridge-point", "skill", {"stability": 1.5}, "2024-05-03T00:00:00.000Z"
        )
        assert history.review_cards()["skill:ridge-point"][1] == {"stability": 1.5}
        new_id = history.start_session(SessionRecord("practice", utc_iso()))
        history.add_attempt(new_id, attempt())
        assert history.counts() == (2, 2)


def test_version_0_migration_path_is_every_step(tmp_path):
    """A fresh file goes through version 1 and 2 the same way an old one does."""
    from drill.store.schema import MIGRATIONS

    assert len(MIGRATIONS) == SCHEMA_VERSION
    with History.open(tmp_path / "x.sqlite3") as history:
        columns = [r[1] for r in history.conn.execute("PRAGMA table_info(attempts)")]
    conn = sqlite3.connect(":memory:")
    conn.executescript(V1_SCHEMA)
    assert columns == [r[1] for r in conn.execute("PRAGMA table_info(attempts)")]


# -- refusing files that are not ours -----------------------------------------------------
def _refused(path: Path, match: str) -> None:
    before = digest(path)
    siblings = sorted(p.name for p in path.parent.iterdir())
    with pytest.raises(HistoryError, match=match):
        History.open(path)
    assert digest(path) == before
    assert sorted(p.name for p in path.parent.iterdir()) == siblings


def test_garbage_file_is_refused_and_untouched(tmp_path):
    path = tmp_path / "h.sqlite3"
    path.write_bytes(b"these are my notes, not a database\n" * 300)
    _refused(path, "cannot be read as a drill history.*left untouched")


def test_other_sqlite_database_is_refused_and_untouched(tmp_path):
    path = tmp_path / "h.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.execute("INSERT INTO recipes VALUES ('soup')")
    conn.commit()
    conn.close()
    _refused(path, "not a roofline-drill history")


def test_newer_schema_is_refused_and_untouched(tmp_path):
    path = tmp_path / "h.sqlite3"
    with History.open(path) as history:
        history.conn.execute("PRAGMA user_version = 3")
    _refused(path, "newer roofline-drill.*schema 3")


def test_corrupt_history_is_reported_everywhere_and_never_changed(drill_home):
    path = paths.database_file()
    with History.open(path) as history:
        sid = history.start_session(SessionRecord("practice", utc_iso()))
        for i in range(400):
            history.add_attempt(sid, attempt(answer="x" * 200, question=str(i)))
        history.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    for offset in range(8192, len(data) - 4096, 4096):  # scribble over every b-tree page
        data[offset + 8 : offset + 64] = os.urandom(56)
    path.write_bytes(bytes(data))
    before = digest(path)

    start = run_drill(
        "start",
        "--plain",
        "--count",
        "2",
        "--seed",
        "3",
        "--topic",
        "numeric",
        input="skip\nskip\n",
    )
    assert start.returncode == 0
    stats = run_drill("stats", "--json")
    check = run_drill("history", "check")
    export = run_drill("history", "export")
    assert stats.returncode == 1 and len(stats.stderr.strip().splitlines()) == 1
    assert check.returncode == 1
    assert export.returncode == 1
    assert digest(path) == before
    assert not Path(str(path) + "-wal").exists() or Path(str(path) + "-wal").stat().st_size == 0


def test_plain_session_on_a_refused_file_warns_once_and_goes_on(drill_home):
    path = paths.database_file()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x00\x01garbage" * 1000)
    before = digest(path)
    result = run_drill(
        "start",
        "--plain",
        "--count",
        "2",
        "--seed",
        "3",
        "--topic",
        "numeric",
        input="skip\nskip\n",
    )
    assert result.returncode == 0
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "will not be saved" in warnings[0]
    assert "Summary" in result.stdout
    assert digest(path) == before
    check = run_drill("history", "check")
    assert check.returncode == 1 and "untouched" in check.stdout


def test_check_reports_a_healthy_database(drill_home):
    with History.open() as history:
        history.add_attempt(history.start_session(SessionRecord("practice", utc_iso())), attempt())
    result = run_drill("history", "check")
    assert result.returncode == 0, result.stderr
    assert "ok, schema 2" in result.stdout
    assert check_file(paths.database_file()) == (2, [])


# -- recording ----------------------------------------------------------------------------
def test_recorder_commits_each_answer_and_updates_on_self_mark(tmp_path):
    path = tmp_path / "h.sqlite3"
    history = History.open(path)
    reader = sqlite3.connect(path)
    config, _ = make_session()
    recorder = Recorder(history, "practice", config, 11, "9.9")
    _, session = make_session(recorder.handle)
    assert reader.execute("SELECT count(*) FROM sessions").fetchone()[0] == 0

    first = session.answer("memory")
    rows = reader.execute(
        "SELECT skill, answer, score, correct, self_mark, seconds, "
        "answered_utc, scenario_json, expected_json FROM attempts"
    ).fetchall()
    assert len(rows) == 1
    skill, answer, score, correct, self_mark, seconds, when, scenario, expected = rows[0]
    assert (skill, answer, score, bool(correct)) == (
        "bound",
        "memory",
        first.score,
        first.grade.correct,
    )
    assert self_mark is None and seconds >= 0
    assert json.loads(scenario)["skill"] == "bound"
    assert json.loads(expected) == first.question.expected_json()
    assert parse_utc(when).tzinfo is not None and when.endswith("Z")

    session.mark_last(True)
    assert reader.execute("SELECT count(*), max(self_mark) FROM attempts").fetchone() == (1, 1)
    session.skip()
    assert reader.execute("SELECT count(*), sum(skipped) FROM attempts").fetchone() == (2, 1)
    recorder.close()
    recorder.close()
    (row,) = reader.execute(
        "SELECT mode, seed, app_version, ended_utc, settings_json FROM sessions"
    ).fetchall()
    assert row[:3] == ("practice", 11, "9.9") and row[3] is not None
    assert json.loads(row[4])["skills"] == ["bound"]


def test_a_session_quit_before_any_answer_leaves_nothing(tmp_path):
    history = History.open(tmp_path / "h.sqlite3")
    config, _ = make_session()
    recorder = Recorder(history, "practice", config, 11, "9.9")
    recorder.close()
    with History.open(tmp_path / "h.sqlite3") as again:
        assert again.counts() == (0, 0)


def test_recorder_write_failure_warns_and_does_not_raise(tmp_path):
    history = History.open(tmp_path / "h.sqlite3")
    messages: list[str] = []
    config, _ = make_session()
    recorder = Recorder(history, "practice", config, 11, "9.9", on_error=messages.append)
    _, session = make_session(recorder.handle)
    history.conn.execute("DROP TABLE attempts")
    session.answer("memory")
    session.skip()
    assert len(messages) == 1 and "could not save" in messages[0]
    recorder.close()


def test_a_refused_damaged_file_is_still_closed(tmp_path):
    history = History.open(tmp_path / "h.sqlite3")
    history.quick_check = lambda: ["row 1 missing from index"]  # as on a damaged file
    messages: list[str] = []
    config, _ = make_session()
    recorder = Recorder(history, "practice", config, 11, "9.9", on_error=messages.append)
    _, session = make_session(recorder.handle)
    session.answer("memory")
    assert len(messages) == 1 and "damaged" in messages[0]
    session.finish()  # RunFinished closes the recorder, and with it the connection
    with pytest.raises(sqlite3.ProgrammingError):
        history.conn.execute("SELECT 1")


def test_plain_and_jsonl_sessions_record_every_answer(drill_home):
    run_drill(
        "start",
        "--plain",
        "--count",
        "3",
        "--seed",
        "5",
        "--skill",
        "bound",
        input="memory\ncompute\nskip\n",
    )
    run_drill(
        "start",
        "--jsonl",
        "--count",
        "2",
        "--seed",
        "6",
        "--skill",
        "bound",
        input="memory\nmemory\n",
    )
    with History.open() as history:
        sessions = history.sessions()
    assert [len(s.attempts) for s in sessions] == [3, 2]
    assert all(s.ended_utc for s in sessions)
    assert [a.answer for a in sessions[0].attempts] == ["memory", "compute", ""]
    assert sessions[0].attempts[2].skipped
    assert sessions[0].seed == 5 and sessions[0].mode == "practice"


@pytest.mark.serial
def test_two_processes_writing_at_once_keep_every_attempt(drill_home, tmp_path):
    go = tmp_path / "go"
    writer = textwrap.dedent(f"""
        import os, sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from drill.store.history import History
        from drill.store.records import Attempt, SessionRecord
        from drill.store.timeutil import utc_iso
        history = History.open()
        sid = history.start_session(SessionRecord("practice", utc_iso()))
        while not os.path.exists({str(go)!r}):
            time.sleep(0.005)
        for i in range(150):
            history.add_attempt(sid, Attempt("skill", "bound", 1.0, True, 1.0, utc_iso(),
                                             answer=f"{{sys.argv[1]}}-{{i}}"))
        history.close()
    """)
    procs = [subprocess.Popen([sys.executable, "-c", writer, name]) for name in ("a", "b")]
    time.sleep(0.5)
    go.touch()
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    with History.open() as history:
        answers = [r[0] for r in history.conn.execute("SELECT answer FROM attempts")]
        assert history.check() == []
    assert len(answers) == 300
    assert {f"{n}-{i}" for n in "ab" for i in range(150)} == set(answers)


@pytest.mark.serial
def test_two_plain_sessions_at_once_both_record(drill_home):
    cmd = [sys.executable, "-m", "drill", "start", "--plain", "--count", "6", "--skill", "bound"]
    procs = [
        subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for _ in range(2)
    ]
    for proc in procs:
        proc.stdin.write("memory\ncompute\n" * 3)
        proc.stdin.close()
    assert [p.wait(timeout=60) for p in procs] == [0, 0]
    assert all(p.stderr.read() == "" for p in procs)
    with History.open() as history:
        assert [len(s.attempts) for s in history.sessions()] == [6, 6]


class _Output:
    """Everything a child process has printed so far, read without blocking forever."""

    def __init__(self, proc) -> None:
        self.fd = proc.stdout.fileno()
        self.data = b""

    def wait_for(self, text: str, count: int, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while self.data.decode(errors="replace").count(text) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {text!r}:\n{self.data.decode()}")
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if ready:
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    raise AssertionError(f"output ended early:\n{self.data.decode()}")
                self.data += chunk


@pytest.mark.serial
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL and select on pipes are POSIX")
def test_sigkill_after_three_answers_keeps_three_attempts(drill_home):
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "drill",
            "start",
            "--plain",
            "--count",
            "10",
            "--seed",
            "4",
            "--skill",
            "bound",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        output = _Output(proc)
        output.wait_for("> ", 1)
        for n, answer in enumerate(("memory", "compute", "memory"), 1):
            proc.stdin.write(answer.encode() + b"\n")
            proc.stdin.flush()
            output.wait_for("Expected", n)  # printed after the attempt is committed
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    path = paths.database_file()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("SELECT count(*) FROM attempts").fetchone()[0] == 3
    assert conn.execute("SELECT ended_utc FROM sessions").fetchall() == [(None,)]
    conn.close()
    stats = json.loads(run_drill("stats", "--json").stdout)
    assert stats["overview"]["attempts"] == 3


# -- export / import ----------------------------------------------------------------------
def _fill(count: int = 3) -> None:
    with History.open() as history:
        history.start_session(SessionRecord("mock", "2024-12-01T09:00:00.000Z"))  # no answers
        for s in range(count):
            sid = history.start_session(
                SessionRecord(
                    "practice" if s else "mock",
                    f"2025-0{s + 1}-01T09:00:00.000Z",
                    seed=s,
                    settings={"count": 2, "lang": "zh"},
                    app_version="0.1.0",
                )
            )
            history.add_attempt(
                sid,
                attempt(
                    "bound",
                    1.0,
                    f"2025-0{s + 1}-01T09:01:00Z",
                    answer="带宽",
                    parsed="memory",
                    expected="memory",
                ),
            )
            history.add_attempt(
                sid,
                attempt(
                    "ridge-point",
                    0.25,
                    f"2025-0{s + 1}-01T09:02:00Z",
                    answer="0.005",
                    parsed=0.005,
                    expected=200.6,
                    mistakes=("inverted-ratio", "unit-prefix"),
                    relative_error=0.99,
                    hints_used=2,
                    self_mark=False,
                    scenario={"gpu": "a100"},
                ),
            )


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_export_then_import_elsewhere_is_identical_and_idempotent(
    drill_home, tmp_path, monkeypatch, fmt
):
    _fill()
    out = tmp_path / f"history.{fmt}"
    result = run_drill("history", "export", "--format", fmt, str(out))
    assert result.returncode == 0, result.stderr
    with History.open() as history:
        original = [s.to_json() for s in history.sessions()]

    other = tmp_path / "other"
    other.mkdir()
    env = {"DRILL_HOME": str(other)}
    first = run_drill("history", "import", str(out), env=env)
    assert first.returncode == 0, first.stderr
    assert "4 new session(s) and 6 new attempt(s)" in first.stdout
    again = run_drill("history", "import", str(out), env=env)
    assert "0 new session(s) and 0 new attempt(s)" in again.stdout
    monkeypatch.setenv("DRILL_HOME", str(other))
    with History.open() as history:
        assert history.counts() == (4, 6)
        assert [s.to_json() for s in history.sessions()] == original


def test_import_merges_with_what_is_there(drill_home, tmp_path):
    _fill(2)
    out = tmp_path / "h.json"
    run_drill("history", "export", str(out))
    with History.open() as history:
        history.add_attempt(2, attempt("kv-cache"))
    result = run_drill("history", "import", str(out))
    assert "0 new session(s) and 0 new attempt(s)" in result.stdout
    with History.open() as history:
        assert history.counts() == (3, 5)


def test_export_to_stdout_is_json(drill_home):
    _fill(1)
    data = json.loads(run_drill("history", "export").stdout)
    assert data["format"] == "roofline-drill-history" and data["version"] == 1
    assert data["sessions"][0]["attempts"] == []
    assert data["sessions"][1]["attempts"][1]["mistakes"] == ["inverted-ratio", "unit-prefix"]


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"format": "something-else"}', "not a drill history export"),
        ('{"format": "roofline-drill-history", "version": 99, "sessions": []}', "newer"),
        ("not json and not csv", "not a drill history export"),
        (
            '{"format": "roofline-drill-history", "version": 1, "sessions": [{"uuid": "x", '
            '"mode": "practice", "started_utc": "2025-01-01T00:00:00Z"}]}',
            "not a UUID",
        ),
        (
            '{"format": "roofline-drill-history", "version": 1, "sessions": [{"uuid": '
            '"7a3c9b52-1d8e-4f0a-9a43-6f5e2d1c0b9a", "mode": "practice", "started_utc": '
            '"2025-01-01T00:00:00Z", "attempts": [{"uuid": "0d9f3e1a-5b7c-4c2d-8e6f-1a2b3c4d5e6f", '
            '"item_kind": "skill", "skill": "bound", "score": 7, "correct": true, "seconds": 1, '
            '"answered_utc": "2025-01-01T00:00:01Z"}]}]}',
            "'score' must be a number from 0 to 1",
        ),
    ],
)
def test_bad_import_file_is_one_line_exit_2_and_changes_nothing(
    drill_home, tmp_path, content, message
):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = run_drill("history", "import", str(path))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert message in result.stderr
    assert not paths.database_file().exists()


def test_missing_import_file_is_exit_2(tmp_path):
    result = run_drill("history", "import", str(tmp_path / "nope.json"))
    assert result.returncode == 2 and "cannot read" in result.stderr


def test_timestamps_are_fixed_width_utc():
    moment = datetime(2025, 3, 9, 23, 5, 7, 123456, tzinfo=timezone.utc)
    assert utc_iso(moment) == "2025-03-09T23:05:07.123Z"
    assert parse_utc("2025-03-10T08:05:07.123+09:00") == moment.replace(microsecond=123000)
    with pytest.raises(ValueError):
        utc_iso(datetime(2025, 1, 1))


def test_import_refuses_out_of_range_values_and_keeps_stats_working(tmp_path, drill_home):
    run_drill(
        "start", "--plain", "--seed", "2", "--count", "2", "--topic", "numeric", input="skip\n" * 4
    )
    exported = json.loads(run_drill("history", "export").stdout)
    assert exported["format"] == "roofline-drill-history"
    assert [len(s["attempts"]) for s in exported["sessions"]] == [2]
    for field, value in (
        ("seconds", 1e308),
        ("hints_used", 2**70),
        ("answered_utc", "9999-12-31T23:59:59-12:00"),
    ):
        broken = json.loads(json.dumps(exported))
        target = broken["sessions"][0]["attempts"][0]
        target[field] = value
        target["uuid"] = "00000000-0000-4000-8000-000000000001"
        path = tmp_path / f"{field}.json"
        path.write_text(json.dumps(broken))
        result = run_drill("history", "import", str(path))
        # The bad attempt is named and skipped; the rest of the file is imported.
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        assert field in result.stderr
    with History.open() as history:
        assert history.counts() == (1, 2)  # every refused import left the history as it was
    assert run_drill("stats").returncode == 0


def test_export_and_import_carry_the_review_schedule(tmp_path, drill_home):
    run_drill("start", "--plain", "--count", "3", "--topic", "numeric", input="skip\n" * 9)
    exported = tmp_path / "history.json"
    assert run_drill("history", "export", str(exported)).returncode == 0
    cards = json.loads(exported.read_text())["review_cards"]
    assert cards and all(c["card_id"] and c["state"] for c in cards)
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    env = {"DRILL_HOME": str(fresh)}
    assert run_drill("history", "import", str(exported), env=env).returncode == 0
    stats = json.loads(run_drill("stats", "--json", env=env).stdout)
    assert stats["overview"]["review"]["cards"] == len(cards)
    assert run_drill("history", "import", str(exported), env=env).returncode == 0
    again = json.loads(run_drill("stats", "--json", env=env).stdout)
    assert again["overview"]["review"]["cards"] == len(cards)
