"""The history file: atomic export, refused files keep their bytes, damaged rows are found
and exported around, odd locations get clear messages."""

from __future__ import annotations

import hashlib
import json
import os
import resource
import sqlite3
import subprocess
import sys

import pytest

from drill.config import paths
from drill.store.history import History, HistoryError
from drill.store.records import Attempt, SessionRecord
from drill.store.timeutil import utc_iso
from tests.helpers import ROOT
from tests.reliability.helpers import drill, is_root


def _record(sessions: int = 2) -> None:
    with History.open() as history:
        for n in range(sessions):
            sid = history.start_session(SessionRecord("practice", utc_iso(), seed=n))
            history.add_attempt(
                sid,
                Attempt("skill", "bound", 1.0, True, 3.0, utc_iso(), answer=f"answer {n}"),
                review=(f"skill:bound{n}", "skill", {"s": 1}, utc_iso()),
            )


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_export_over_the_file_size_limit_keeps_the_old_backup(tmp_path):
    with History.open() as history:  # ~60 KB of answers: the export outgrows the limit
        sid = history.start_session(SessionRecord("practice", utc_iso()))
        for n in range(6):
            history.add_attempt(
                sid, Attempt("skill", "bound", 1.0, True, 3.0, utc_iso(), answer=f"{n}" * 9_000)
            )
    backup = tmp_path / "out" / "backup.json"
    backup.parent.mkdir()
    backup.write_text("previous backup\n")
    limit = 40_000  # bytes: above the -shm file the reader maps, below the export

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    result = subprocess.run(
        [sys.executable, "-m", "drill", "history", "export", str(backup), "--force"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        preexec_fn=small_files,
        timeout=60,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "cannot write" in result.stderr and "left as it was" in result.stderr
    assert backup.read_text() == "previous backup\n"
    assert [p.name for p in backup.parent.iterdir()] == ["backup.json"]  # no temporary left


def test_export_replaces_the_file_whole(tmp_path):
    _record()
    backup = tmp_path / "backup.json"
    backup.write_text("previous backup\n")
    code, _, err = drill("history", "export", str(backup), "--force")
    assert code == 0, err
    assert len(json.loads(backup.read_text())["sessions"]) == 2


def _foreign_wal(path) -> None:
    """A WAL-mode SQLite file of another program, with unwritten pages in its -wal."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE notes (x TEXT)")
    conn.execute("INSERT INTO notes VALUES ('keep me')")
    # copy the files while the connection is open: the WAL still holds the rows
    return conn


def _side_files(path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


def test_a_foreign_wal_database_keeps_its_bytes_and_side_files(tmp_path):
    src = tmp_path / "src" / "history.sqlite3"
    src.parent.mkdir()
    conn = _foreign_wal(src)
    db = paths.database_file()
    db.parent.mkdir(parents=True)
    for suffix in ("", "-wal", "-shm"):
        (db.parent / (db.name + suffix)).write_bytes(
            (src.parent / (src.name + suffix)).read_bytes()
        )
    conn.close()
    before = {p.name: _digest(p) for p in db.parent.iterdir()}
    with pytest.raises(HistoryError, match="left untouched"):
        History.open(db)
    code, _, err = drill("history", "export")
    assert code == 1 and "not a roofline-drill history" in err
    code, out, _ = drill("history", "check")
    assert code == 1
    assert {p.name: _digest(p) for p in db.parent.iterdir()} == before


def test_check_creates_no_side_files_next_to_a_refused_file():
    db = paths.database_file()
    db.parent.mkdir(parents=True)
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE other (x)")
    conn.commit()
    conn.close()
    before = _side_files(db)
    code, out, _ = drill("history", "check")
    assert code == 1 and "not a roofline-drill history" in out
    assert _side_files(db) == before == ["history.sqlite3"]


@pytest.mark.parametrize("version, message", [(99, "newer roofline-drill"), (-1, "damaged header")])
def test_odd_schema_versions_are_refused_untouched(version, message):
    _record(1)
    db = paths.database_file()
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()
    for side in db.parent.glob("*-*"):
        side.unlink()
    before = _digest(db)
    code, out, _ = drill("history", "check")
    assert code == 1 and message in out
    code, _, err = drill("stats")
    assert code == 1 and message in err
    assert _digest(db) == before and _side_files(db) == ["history.sqlite3"]


def _damage(sql: str) -> None:
    conn = sqlite3.connect(paths.database_file(), isolation_level=None)
    conn.execute("PRAGMA foreign_keys=OFF")
    conn.execute(sql)
    conn.close()


@pytest.mark.parametrize(
    "sql, found",
    [
        ("UPDATE attempts SET scenario_json = '{broken' WHERE id = 1", "not valid JSON"),
        ("UPDATE sessions SET settings_json = 'nope' WHERE id = 2", "not valid JSON"),
        ("UPDATE attempts SET session_id = 99 WHERE id = 1", "missing session"),
        ("UPDATE attempts SET answered_utc = 'yesterday' WHERE id = 1", "not a timestamp"),
        (
            "UPDATE sessions SET started_utc = '99999-01-01T00:00:00.000Z' WHERE id = 2",
            "not a timestamp",
        ),
        ("DROP TABLE review_cards", "review_cards is missing"),
    ],
)
def test_damaged_rows_are_found_by_check_and_exported_around(tmp_path, sql, found):
    _record(2)
    _damage(sql)
    code, out, _ = drill("history", "check")
    assert code == 1 and found in out
    target = tmp_path / "rescue.json"
    code, _, err = drill("history", "export", str(target))
    assert code == 1 and "Traceback" not in err and "left out" in err
    data = json.loads(target.read_text())
    attempts = sum(len(s["attempts"]) for s in data["sessions"])
    assert attempts >= 1  # the readable one is there
    assert drill("history", "import", str(target))[0] == 0  # and the rescue imports


def test_a_data_folder_that_is_a_file_is_named():
    paths.data_dir().parent.mkdir(parents=True, exist_ok=True)
    paths.data_dir().write_text("not a folder")
    for argv in (("history", "export"), ("stats",), ("history", "check")):
        code, out, err = drill(*argv)
        assert code == 1 and "is a file, not a folder" in err and out == "", argv


def test_a_dangling_link_is_named(tmp_path):
    paths.data_dir().mkdir(parents=True)
    paths.database_file().symlink_to(tmp_path / "gone.sqlite3")
    for argv in (("history", "export"), ("stats",), ("history", "check")):
        code, out, err = drill(*argv)
        assert code == 1 and "does not exist" in err and out == "", argv


def test_a_read_only_history_is_read_and_refuses_writes():
    _record(1)
    with History.open() as history:  # leave the file checkpointed, as a closed app does
        pass
    history = History._open_read_only(paths.database_file())
    with history:
        assert history.read_only and history.counts() == (1, 1)
        with pytest.raises(sqlite3.OperationalError, match="read-only"):
            history.start_session(SessionRecord("practice", utc_iso()))


@pytest.mark.skipif(is_root(), reason="root writes into read-only folders")
def test_a_read_only_folder_is_reported_and_read():
    _record(1)
    folder = paths.data_dir()
    folder.chmod(0o555)
    try:
        code, out, _ = drill("history", "check")
        assert code == 0 and "read-only" in out
        code, out, err = drill("history", "export")
        assert code == 0 and "read-only" in err and json.loads(out)["sessions"]
    finally:
        folder.chmod(0o755)


def test_long_answers_are_cut_with_a_note():
    with History.open() as history:
        sid = history.start_session(SessionRecord("practice", utc_iso()))
        history.add_attempt(
            sid,
            Attempt(
                "skill", "bound", 0.0, False, 1.0, utc_iso(), answer="x" * 1_000_000 + "\udcff"
            ),
        )
        stored = history.sessions()[0].attempts[0].answer
    assert len(stored) < 10_100 and "answer cut to 10,000 of 1,000,001 characters" in stored


def test_lone_surrogates_are_stored_as_replacement_characters():
    with History.open() as history:
        sid = history.start_session(SessionRecord("practice", utc_iso()))
        history.add_attempt(
            sid,
            Attempt(
                "skill",
                "bound",
                0.0,
                False,
                1.0,
                utc_iso(),
                answer="batching \udcff\udcfe",
                scenario={"k": "\ud800"},
            ),
        )
        attempt = history.sessions()[0].attempts[0]
    assert attempt.answer == "batching \ufffd\ufffd" and attempt.scenario == {"k": "\ufffd"}


def test_export_never_writes_nan(tmp_path):
    with History.open() as history:
        sid = history.start_session(SessionRecord("practice", utc_iso()))
        history.add_attempt(
            sid,
            Attempt(
                "skill",
                "bound",
                0.5,
                False,
                1.0,
                utc_iso(),
                parsed=float("nan"),
                expected=float("inf"),
            ),
        )
    code, out, _ = drill("history", "export")
    assert code == 0 and "NaN" not in out and "Infinity" not in out
    assert json.loads(out)["sessions"][0]["attempts"][0]["parsed"] is None
    os.environ.get("TZ")  # keep the environment as it was
