"""One run in a real terminal: tmux starts `drill start`, we type an answer and read the screen."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def capture(name: str) -> str:
    return subprocess.run(["tmux", "capture-pane", "-p", "-t", name], capture_output=True,
                          text=True).stdout


def wait_for(name: str, marker: str, timeout: float = 20) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = capture(name)
        if marker in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{marker!r} never appeared; the screen was:\n{screen}")


def test_type_an_answer_and_read_the_feedback(drill_home):
    name = f"drill-{uuid.uuid4().hex[:8]}"
    command = (f"DRILL_HOME={drill_home} {sys.executable} -m drill start --seed 1 --lang en "
               "--skill ridge-point --count 2")
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "100", "-y", "32", command],
                   check=True)
    try:
        screen = wait_for(name, "Answer (FLOP/B)")
        assert "What is the ridge point?" in screen
        subprocess.run(["tmux", "send-keys", "-t", name, "12.5", "Enter"], check=True)
        screen = wait_for(name, "Worked solution")
        assert "Ridge point" in screen and "Expected" in screen or "correct" in screen
        subprocess.run(["tmux", "send-keys", "-t", name, "q"], check=True)
        wait_for(name, "Leave this session?")
        subprocess.run(["tmux", "send-keys", "-t", name, "y"], check=True)
        wait_for(name, "Summary")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
