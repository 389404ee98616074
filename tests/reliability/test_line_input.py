"""Typed input in --plain and --jsonl: undecodable bytes, the mock's deadline while waiting,
an interview left empty, and stop signals."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from drill.runs.options import MockOptions
from drill.ui.lines.driver import Lines, decode_line
from tests.helpers import ROOT
from tests.reliability.helpers import drill_bytes, stored_sessions

BAD = b"batching \xff\xfe helps \xc3( \x1b[2J\x00 more"


def _events(stdout: bytes) -> list[dict]:
    return [json.loads(line) for line in stdout.decode("utf-8").splitlines()]


@pytest.mark.parametrize("env", [{}, {"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C"}])
def test_invalid_utf8_answer_in_plain_practice_is_graded_and_stored(env):
    done = drill_bytes(
        "start", "--plain", "--seed", "1", "--question", "peak-flops-formula",
        input=BAD + b"\nskip\n", env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert b"Traceback" not in done.stderr
    (session,) = stored_sessions()
    answers = [a.answer for a in session.attempts]
    assert answers[0] == "batching \ufffd\ufffd helps \ufffd( \ufffd[2J\ufffd more"
    assert session.ended_utc is not None


@pytest.mark.parametrize("command", ["start", "mock"])
def test_invalid_utf8_in_jsonl_never_crashes(command):
    extra = ("--count", "2") if command == "start" else ()
    done = drill_bytes(command, "--jsonl", "--seed", "4", *extra, input=b"\xff\xfe\n" + BAD + b"\n")
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    events = _events(done.stdout)
    assert events[-1]["type"] == "summary"
    assert "\\udc" not in done.stdout.decode()  # no escaped surrogate reaches a script


def test_decoding_falls_back_to_the_terminals_encoding():
    assert decode_line("café\n".encode("latin-1"), "iso8859-1") == "café"
    assert decode_line("带宽\r\n".encode()) == "带宽"
    assert decode_line(b"\xff ok", "ascii") == "\ufffd ok"


def test_an_overlong_line_is_cut_and_the_next_line_still_read():
    import io

    raw = io.TextIOWrapper(io.BytesIO(b"x" * 200_000 + b"\nnext\n"))
    lines = Lines(raw)
    first = lines.read()
    assert 0 < len(first) <= 64 * 1024
    assert lines.read() == "next"
    assert lines.read() is None


def _unanswered_mock_is_stored() -> None:
    """The time ran out on the first question: it is stored, unanswered; the questions never
    shown are no attempts, and the session keeps the scorecard's score."""
    (session,) = stored_sessions()
    assert session.mode == "mock" and session.ended_utc is not None
    assert len(session.attempts) == 1 and session.attempts[0].skipped
    assert session.settings["score"] == 0.0 and "ended_early" not in session.settings


@pytest.mark.slow
@pytest.mark.serial
def test_mock_time_limit_ends_the_wait_for_input_of_the_real_process():
    """--minutes 0.1 is 6 s; nothing is typed and input stays open: the scorecard comes anyway
    and every item is saved as unanswered."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100")
    started = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "drill", "mock", "--plain", "--minutes", "0.1", "--seed", "2"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT,
    )  # fmt: skip
    try:
        proc.wait(timeout=30)  # stdin stays open: no end of input, only the deadline
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        proc.kill()
        proc.stdin.close()
    assert proc.returncode == 0, err.decode()
    assert time.monotonic() - started < 25
    assert "Time is up: the questions left count as unanswered." in out.decode()
    assert "== Scorecard ==" in out.decode()
    _unanswered_mock_is_stored()


def test_mock_time_limit_ends_the_wait_for_jsonl_input():
    """The same deadline in --jsonl, driven in this process: the interview's clock has moved
    5.8 of its 6 s on before the first question, so the wait on an input that never ends is
    the last 0.2 s."""
    from drill.runs.factory import open_interview
    from drill.runs.recording import flush
    from drill.ui.lines.driver import drive
    from drill.ui.lines.jsonl import JsonlFormatter

    moved = [0.0]
    started = time.monotonic()
    interview = open_interview(
        MockOptions(minutes=0.1, seed=2), "en", clock=lambda: time.monotonic() + moved[0]
    )
    moved[0] = 5.8
    read_end, write_end = os.pipe()  # held open: no end of input, only the deadline
    stdin = os.fdopen(read_end, "r", encoding="utf-8")
    out = io.StringIO()
    formatter = JsonlFormatter(out, "en")
    driver = threading.Thread(target=drive, args=(interview, stdin, formatter), daemon=True)
    try:
        driver.start()
        driver.join(10)
        assert not driver.is_alive(), "the deadline did not end the wait for input"
        formatter.end(interview)
    finally:
        os.close(write_end)  # the reader thread sees the end of input, then the file closes
        stdin.close()
    flush()
    assert time.monotonic() - started < 5
    summary = _events(out.getvalue().encode())[-1]
    assert summary["type"] == "summary" and summary["timed_out"] is True
    assert {q["status"] for q in summary["questions"]} == {"unanswered"}
    _unanswered_mock_is_stored()


def test_mock_with_no_input_at_all_records_nothing():
    done = drill_bytes("mock", "--plain", "--seed", "2", input=b"")
    assert done.returncode == 0, done.stderr.decode()
    assert b"Score" in done.stdout or b"score" in done.stdout
    assert stored_sessions() == []
    # one skip is an answer: that interview counts
    done = drill_bytes("mock", "--plain", "--seed", "2", input=b"skip\n")
    assert done.returncode == 0
    (session,) = stored_sessions()  # the skip, and the question on screen at the end
    assert session.mode == "mock" and len(session.attempts) == 2
    assert session.settings["ended_early"] is True


@pytest.mark.serial
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
@pytest.mark.parametrize("command", ["start", "mock"])
def test_stop_signals_end_the_session_and_keep_the_answers(signum, command):
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100")
    extra = ("--count", "3") if command == "start" else ()
    proc = subprocess.Popen(
        [sys.executable, "-m", "drill", command, "--jsonl", "--seed", "5", *extra],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT,
    )  # fmt: skip
    try:
        assert json.loads(proc.stdout.readline())["type"] == "question"
        proc.stdin.write(b"skip\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["type"] == "grade"
        assert json.loads(proc.stdout.readline())["type"] == "question"  # waiting for input
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 128 + signum, err.decode()
    assert b"Traceback" not in err
    (session,) = stored_sessions()
    assert session.ended_utc is not None
    assert session.attempts[0].skipped and not session.attempts[0].answer
