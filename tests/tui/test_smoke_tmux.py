"""One run in a real terminal: tmux starts `drill start`, we type an answer and read the screen."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid

import pytest

pytestmark = [pytest.mark.serial, pytest.mark.slow]


@pytest.fixture(autouse=True)
def tmux_is_installed() -> None:
    """A real terminal is part of the suite: without tmux these tests fail, never skip."""
    assert shutil.which("tmux"), (
        "tmux runs the real-terminal tests: install it (apt-get install tmux)"
    )


def tmux(name: str, *args: str) -> subprocess.CompletedProcess:
    """A tmux command on this test's own server, so other tmux sessions can't disturb it.

    The environment is passed explicitly: readline, which pytest imports, exports COLUMNS=80 and
    LINES=24 into the process's C environment, and the app would believe them.
    """
    return subprocess.run(
        ["tmux", "-L", name, *args], capture_output=True, text=True, env=dict(os.environ)
    )


def wait_for(name: str, marker: str, timeout: float = 20) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux(name, "capture-pane", "-p", "-t", name).stdout
        if marker in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{marker!r} never appeared; the screen was:\n{screen}")


def test_type_a_right_answer_and_read_the_feedback(drill_home):
    name = f"drill-{uuid.uuid4().hex[:8]}"
    command = (
        f"DRILL_HOME={drill_home} {sys.executable} -m drill start --seed 4 --lang en "
        "--skill ridge-point --count 2 --gpu rtx-3090"
    )
    started = tmux(name, "new-session", "-d", "-s", name, "-x", "100", "-y", "32", command)
    assert started.returncode == 0, started.stderr
    try:
        screen = wait_for(name, "Answer (FLOP/B)")
        assert "NVIDIA GeForce RTX 3090, fp32 on the non-tensor units: peak 35.6 TFLOP/s" in screen
        assert "What is the ridge point? (in FLOP/B)" in screen
        # The right answer: 35.6 TFLOP/s / 936 GB/s = 38.03 FLOP/B.
        tmux(name, "send-keys", "-t", name, "38.03", "Enter")
        screen = wait_for(name, "Worked solution")
        lines = [line.strip() for line in screen.splitlines()]
        assert "correct  (1.00)" in lines
        assert (
            "│ Ridge point │ peak / bandwidth │ 35.6 TFLOP/s / 936 GB/s │ 38.03 FLOP/B │" in lines
        )
        assert "wrong" not in screen and "partial" not in screen
        wait_for(name, "score 1.00 / 1 · streak 1")
        tmux(name, "send-keys", "-t", name, "q")
        wait_for(name, "Leave this session?")
        tmux(name, "send-keys", "-t", name, "y")
        wait_for(name, "Summary")
    finally:
        tmux(name, "kill-server")


def test_too_small_notice_then_working_after_a_resize(drill_home):
    name = f"drill-{uuid.uuid4().hex[:8]}"
    command = (
        f"DRILL_HOME={drill_home} {sys.executable} -m drill start --seed 4 --lang en "
        "--skill ridge-point --count 2 --gpu rtx-3090 --no-save"
    )
    started = tmux(name, "new-session", "-d", "-s", name, "-x", "40", "-y", "12", command)
    assert started.returncode == 0, started.stderr
    try:
        screen = wait_for(name, "have 40×12")
        assert "Terminal too small" in screen and "need 60×18" in screen
        resized = tmux(name, "resize-window", "-t", name, "-x", "80", "-y", "24")
        assert resized.returncode == 0, resized.stderr
        wait_for(name, "Answer (FLOP/B)")
        tmux(name, "send-keys", "-t", name, "38.03", "Enter")
        screen = wait_for(name, "correct  (1.00)")
        assert "too small" not in screen
    finally:
        tmux(name, "kill-server")
    from drill.store.history import History

    history = History.open()  # --no-save: the answer was never recorded
    try:
        assert history.conn.execute("SELECT count(*) FROM attempts").fetchone()[0] == 0
    finally:
        history.close()


@pytest.mark.parametrize("signal_name", ["TERM", "HUP"])
def test_a_signal_ends_the_session_and_keeps_the_answer(drill_home, signal_name):
    """kill (SIGTERM) or a closed terminal (SIGHUP) mid-session: the app exits, the answer
    given is in the history and the session has its end time, as after leaving."""
    import signal
    import sqlite3

    from drill.config import paths

    name = f"drill-{uuid.uuid4().hex[:8]}"
    command = (
        f"DRILL_HOME={drill_home} exec {sys.executable} -m drill start --seed 4 --lang en "
        "--skill ridge-point --count 3 --gpu rtx-3090"
    )
    started = tmux(name, "new-session", "-d", "-s", name, "-x", "100", "-y", "32", command)
    assert started.returncode == 0, started.stderr
    try:
        tmux(name, "set-option", "-t", name, "remain-on-exit", "on")
        wait_for(name, "Answer (FLOP/B)")
        pid = int(tmux(name, "list-panes", "-t", name, "-F", "#{pane_pid}").stdout.split()[0])
        tmux(name, "send-keys", "-t", name, "38.03", "Enter")
        wait_for(name, "score 1.00 / 1 · streak 1")
        os.kill(pid, getattr(signal, f"SIG{signal_name}"))
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            dead = tmux(name, "list-panes", "-t", name, "-F", "#{pane_dead}").stdout.strip()
            if dead == "1":
                break
            time.sleep(0.1)
        assert dead == "1", "the app did not exit"
    finally:
        tmux(name, "kill-server")
    conn = sqlite3.connect(paths.database_file())
    try:
        sessions = conn.execute("SELECT id, ended_utc FROM sessions").fetchall()
        attempts = conn.execute("SELECT skill, correct FROM attempts").fetchall()
    finally:
        conn.close()
    assert len(sessions) == 1 and sessions[0][1]  # ended, with its end time
    assert attempts == [("ridge-point", 1)]


def _exited(pid: int) -> bool:
    """Gone, or a zombie nobody reaps (an orphan in a container whose init does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads process states from /proc")
@pytest.mark.parametrize("screen", ["start", "home"])
def test_closing_the_terminal_while_the_app_starts_ends_it(drill_home, screen):
    """A terminal closed just as the first frame arrives (the hangup and SIGCONT land while
    Textual is still writing, or its input thread fails first): the app must not outlive its
    terminal. Before the fix about half such closes left the process blocked for ever; five
    in a row must all exit."""
    args = "start --seed 1 --skill ridge-point" if screen == "start" else ""
    marker = "arithmetic intensity (FLOP/B)" if screen == "start" else "Calculator"
    for _ in range(5):
        name = f"drill-{uuid.uuid4().hex[:8]}"
        command = f"DRILL_HOME={drill_home} DRILL_LANG=en exec {sys.executable} -m drill {args}"
        started = tmux(name, "new-session", "-d", "-s", name, "-x", "120", "-y", "40", command)
        assert started.returncode == 0, started.stderr
        try:
            pid = int(tmux(name, "list-panes", "-t", name, "-F", "#{pane_pid}").stdout.split()[0])
            deadline = time.monotonic() + 20
            while marker not in tmux(name, "capture-pane", "-p", "-t", name).stdout:
                assert time.monotonic() < deadline, f"{marker!r} never appeared"
                time.sleep(0.005)
        finally:
            tmux(name, "kill-server")  # the terminal goes away: SIGHUP, then SIGCONT
        deadline = time.monotonic() + 10
        while not _exited(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if not _exited(pid):
            os.kill(pid, 9)
            raise AssertionError("the app outlived its terminal")


def test_placement_in_a_terminal_opens_the_app(drill_home):
    """`drill placement` in a terminal is the app's placement, as `l` on the home screen is:
    its intro above the first question, the answer box and the key bar."""
    name = f"drill-{uuid.uuid4().hex[:8]}"
    command = f"DRILL_HOME={drill_home} {sys.executable} -m drill placement --seed 7 --lang en"
    started = tmux(name, "new-session", "-d", "-s", name, "-x", "100", "-y", "32", command)
    assert started.returncode == 0, started.stderr
    try:
        screen = wait_for(name, "Placement ·")
        assert "Answer" in screen and "leave" in screen.splitlines()[-1]
        assert "== " not in screen  # not the line mode's banner
    finally:
        tmux(name, "kill-server")


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "h100-pcie-80gb is not one"), ("zh", "h100-pcie-80gb 不是")]
)
def test_a_serving_mock_on_a_card_it_cannot_take_is_refused_before_the_app(drill_home, lang, said):
    """The second run-through: in a terminal the app opened on its home screen with an
    English notice over the title; it is the command line's one line, in the user's
    language, as with a pipe."""
    name = f"drill-{uuid.uuid4().hex[:8]}"
    command = (
        f"DRILL_HOME={drill_home} {sys.executable} -m drill mock --case serving "
        f"--gpu h100-pcie-80gb --lang {lang}; echo rc=$?; sleep 30"
    )
    started = tmux(name, "new-session", "-d", "-s", name, "-x", "100", "-y", "32", command)
    assert started.returncode == 0, started.stderr
    try:
        screen = wait_for(name, "rc=")
        assert said in screen.replace("\n", "") and "rc=2" in screen  # the terminal wraps it
    finally:
        tmux(name, "kill-server")
