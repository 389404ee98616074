"""A history that cannot be written mid-session (read-only, or locked past the busy timeout)
loses no answer: they are kept, tried again, counted in the summary and written to a recovery
file that ``drill history import`` reads back."""

from __future__ import annotations

import io
import json
import sqlite3

from drill.config import paths
from drill.runs.factory import open_interview, open_practice
from drill.runs.options import MockOptions, PracticeOptions
from drill.ui.lines.driver import drive
from drill.ui.lines.jsonl import JsonlFormatter
from drill.ui.lines.plain import PlainFormatter
from tests.reliability.helpers import drill, stored_sessions

OPTIONS = PracticeOptions(count=4, seed=7, skills=("bound",), topic="numeric")


def _practice(warnings: list[str]):
    return open_practice(OPTIONS, "en", on_warning=warnings.append)


def _lock():
    """Another process's write transaction on the history (a second drill importing)."""
    other = sqlite3.connect(paths.database_file(), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    return other


def _short_wait(session) -> None:
    """The recorder gives up on a lock after 50 ms instead of 15 s (keeps the test fast)."""
    session.recorder.history.conn.execute("PRAGMA busy_timeout = 50")


def _answers(session) -> list[str]:
    return [a.answer for s in stored_sessions() if s.uuid == session.recorder.session.uuid
            for a in s.attempts]  # fmt: skip


def test_answers_written_while_locked_are_retried_with_the_next_write():
    warnings: list[str] = []
    session = _practice(warnings)
    session.answer("memory")
    _short_wait(session)
    lock = _lock()
    session.answer("compute")
    session.skip()
    assert session.recorder.unsaved == 2
    assert len(warnings) == 1 and "kept and tried again" in warnings[0]
    lock.execute("ROLLBACK")
    lock.close()
    session.answer("memory")  # this write takes the two waiting ones with it
    assert session.recorder.unsaved == 0
    session.finish()
    (stored,) = stored_sessions()
    assert [a.answer for a in stored.attempts] == ["memory", "compute", "", "memory"]
    assert stored.ended_utc is not None
    assert session.recorder.recovery is None


def test_answers_still_unsaved_at_the_end_go_to_a_recovery_file_that_imports(tmp_path):
    warnings: list[str] = []
    session = _practice(warnings)
    _short_wait(session)
    stdout = io.StringIO()
    out = PlainFormatter(stdout, "en")
    session.answer("memory")  # saved: the session row exists
    lock = _lock()
    drive(session, io.StringIO("compute\nskip\nmemory\n"), out)
    out.end(session)
    lock.execute("ROLLBACK")
    lock.close()
    recovery = session.recorder.recovery
    assert recovery is not None and recovery.parent == paths.data_dir() / "recovery"
    shown = stdout.getvalue()
    assert f"3 result(s) could not be saved to the history; they are kept in {recovery}" in shown
    assert [a.answer for a in stored_sessions()[0].attempts] == ["memory"]
    data = json.loads(recovery.read_text(encoding="utf-8"))
    assert [a["answer"] for a in data["sessions"][0]["attempts"]] == ["compute", "", "memory"]
    code, _, err = drill("history", "import", str(recovery))
    assert code == 0, err
    (stored,) = stored_sessions()  # the same session, now whole
    assert [a.answer for a in stored.attempts] == ["memory", "compute", "", "memory"]
    assert stored.ended_utc is not None


def test_read_only_history_mid_mock_is_reported_in_the_jsonl_summary():
    warnings: list[str] = []
    interview = open_interview(MockOptions(minutes=30, seed=3), "en", on_warning=warnings.append)
    interview.skip()  # saved
    interview.recorder.history.conn.execute("PRAGMA query_only = ON")  # writes now refused
    stdout = io.StringIO()
    out = JsonlFormatter(stdout, "en")
    drive(interview, io.StringIO("skip\n"), out)  # one skip, then the interview is left
    out.end(interview)
    summary = json.loads(stdout.getvalue().splitlines()[-1])
    assert summary["type"] == "summary"
    total = 3  # two skips and the question on screen when it was left
    assert summary["unsaved"] == total - 1
    assert summary["recovery"] == str(interview.recorder.recovery)
    assert len(stored_sessions()[0].attempts) == 1
    code, _, err = drill("history", "import", summary["recovery"])
    assert code == 0, err
    (stored,) = stored_sessions()
    assert len(stored.attempts) == total


def test_when_no_recovery_file_can_be_written_the_summary_says_so(monkeypatch):
    import tempfile

    warnings: list[str] = []
    session = _practice(warnings)
    session.answer("memory")
    session.recorder.history.conn.execute("PRAGMA query_only = ON")
    for folder in (paths.data_dir(), paths.cache_dir()):  # no recovery folder can be made
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "recovery").write_text("not a folder")
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(paths.data_dir() / "recovery"))
    stdout = io.StringIO()
    out = PlainFormatter(stdout, "zh")
    drive(session, io.StringIO("compute\n"), out)
    out.end(session)
    assert "有 1 条结果未能写入历史记录，也未能写入恢复文件。" in stdout.getvalue()
    assert "nor to a recovery file" in warnings[-1]
