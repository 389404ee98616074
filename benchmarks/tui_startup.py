"""Time until the home screen, and until the first practice question with its roofline, are on
screen, as ratios to a minimal Textual app (Header, Static, Footer) measured in the same run.

Targets: home <= 1.3x; the first question (with its plot) <= 1.6x, also for the first start
ever and for a returning user's daily start after a month and a year of practice. Uses tmux, like
../shared/tools/tui_first_frame.py; 21 rounds (about two minutes), each starting every
program once, back to back.

A ratio is paired by round: the median, over the rounds, of a program's time over the
minimal app's time in the same round. A shared machine's speed drifts between rounds by
more than the targets' margins; a round's programs share its speed, so it cancels in the
round's ratio, where a ratio of medians would mix fast and slow spells.

Every program runs with its bytecode cached, as after ``pip install`` (which compiles it):
an environment with PYTHONDONTWRITEBYTECODE would otherwise recompile drill's modules, but
not Textual's installed ones, on every start. The cache goes to a temporary folder
(PYTHONPYCACHEPREFIX), written by the warm-up run, so the checkout stays clean.
"""

from __future__ import annotations

import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", 21))  # noise moves an 11-run median ratio by ~0.1
MINIMAL = """
from textual.app import App
from textual.widgets import Footer, Header, Static
class Minimal(App):
    def compose(self):
        yield Header()
        yield Static("minimal ready")
        yield Footer()
Minimal().run()
"""


def first_frame(command: str, marker: str, timeout: float = 30) -> float:
    name = "bench-" + uuid.uuid4().hex[:8]
    start = time.perf_counter()
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, "-x", "120", "-y", "40", command],
        check=True,
    )
    pid = _pane_pid(name)
    try:
        while time.perf_counter() - start < timeout:
            screen = subprocess.run(
                ["tmux", "capture-pane", "-p", "-t", name], capture_output=True, text=True
            ).stdout
            if marker in screen:
                return time.perf_counter() - start
            time.sleep(0.005)
        raise SystemExit(f"{marker!r} never appeared for: {command}\n{screen}")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
        _wait_gone(pid)


def _pane_pid(name: str) -> int | None:
    out = subprocess.run(
        ["tmux", "list-panes", "-t", name, "-F", "#{pane_pid}"], capture_output=True, text=True
    ).stdout.split()
    return int(out[0]) if out else None


def _wait_gone(pid: int | None, limit: float = 5.0) -> None:
    """The closed program has exited (or is a zombie) before the next one starts, so one
    program's shutdown never overlaps the next one's start-up."""
    deadline = time.perf_counter() + limit
    while pid is not None and time.perf_counter() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return
        except (FileNotFoundError, ProcessLookupError):
            return
        time.sleep(0.01)


def main() -> None:
    home = tempfile.mkdtemp(prefix="drill-bench-")
    script = Path(home) / "minimal.py"
    script.write_text(MINIMAL)
    py = shlex.quote(sys.executable)
    cache = shlex.quote(str(Path(home) / "pycache"))
    python = f"env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX={cache} {py}"
    env = f"DRILL_HOME={shlex.quote(home)} DRILL_LANG=en"
    cases = {
        "minimal Textual app": (f"{python} {script}", "minimal ready"),
        "drill (home screen)": (f"{env} {python} -m drill", "Calculator"),
        "drill start (question + plot)": (
            f"{env} {python} -m drill start --seed 1 --skill ridge-point",
            "arithmetic intensity (FLOP/B)",
        ),
        # skills and the question bank planned together, as a plain `drill start` does
        "drill start, mixed (+ bank)": (
            f"{env} {python} -m drill start --seed 3",
            "arithmetic intensity (FLOP/B)",
        ),
        # what a new user runs first: no flags, an empty data folder, nothing parsed or cached
        "drill start, first ever": (
            f"DRILL_HOME=$(mktemp -d -p {shlex.quote(home)}) DRILL_LANG=en {python} -m drill start",
            "Enter  submit",  # its case is drawn at random: the key bar comes with the screen
        ),
    }
    # the daily start of a returning user: a smart session planned from a month's and a year's
    # history, made by the real planner and recorder (benchmarks/returning_user.py)
    for label, answers, days in (("a month", 1_500, 30), ("a year", 20_000, 365)):
        user = Path(home) / label.replace(" ", "-")
        built = subprocess.run(
            [sys.executable, str(Path(__file__).with_name("returning_user.py")), str(user),
             str(answers), str(days)],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        print("history:", built.stdout.strip())
        cases[f"drill start, {label} of history"] = (
            f"DRILL_HOME={shlex.quote(str(user))} DRILL_LANG=en {python} -m drill start",
            "Enter  submit",
        )
    times: dict[str, list[float]] = {k: [] for k in cases}
    # An idle session keeps the tmux server up between runs (a server exiting races the next).
    keep = "bench-keep-" + uuid.uuid4().hex[:6]
    subprocess.run(["tmux", "new-session", "-d", "-s", keep, "sleep 600"], check=True)
    try:
        for command, marker in cases.values():  # warm caches once
            first_frame(command, marker)
        for _ in range(RUNS):
            for label, (command, marker) in cases.items():
                times[label].append(first_frame(command, marker))
    finally:
        subprocess.run(["tmux", "kill-session", "-t", keep], capture_output=True)
    base = times["minimal Textual app"]
    targets = {
        "drill (home screen)": 1.3,
        "drill start (question + plot)": 1.6,
        "drill start, mixed (+ bank)": 1.6,
        "drill start, first ever": 1.6,
        "drill start, a month of history": 1.6,
        "drill start, a year of history": 1.6,
    }
    for label, values in times.items():
        median = statistics.median(values)
        ratio = statistics.median(
            value / minimal for value, minimal in zip(values, base, strict=True)
        )
        line = f"{label:32} median {median * 1000:7.1f} ms  ratio {ratio:4.2f}x"
        if label in targets:
            ok = ratio <= targets[label]
            line += f"  (target <= {targets[label]}x) {'ok' if ok else 'OVER TARGET'}"
        print(line)
    os.environ.pop("DRILL_HOME", None)


if __name__ == "__main__":
    main()
