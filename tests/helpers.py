"""Plain helpers shared by test modules (fixtures live in conftest.py)."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import re
import subprocess
import sys
import sysconfig
import time
from datetime import datetime
from pathlib import Path

from drill.content.skills.model import CHOICE, NUMBER, Ask
from drill.core.units import format_si, sig

ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def builtin_catalog():
    from drill.content.catalog import load_catalog

    return load_catalog(include_user=False)


@functools.cache
def generated(skill_id: str, seed: int, difficulty: int):
    """A scenario on the built-in catalog, made once per test process: the rules, keys and
    drills modules read the same skill × difficulty × seed grid."""
    from drill.content.skills import registry

    return registry.generate(skill_id, seed, difficulty, builtin_catalog())


def installed_tool(name: str) -> str:
    """The path of a command from the test extra, installed beside this interpreter.

    Looked up in the running environment's scripts folder, never on PATH, so the suite checks
    with the tools it was installed with; a missing one fails the test with the install hint.
    """
    folders = [sysconfig.get_path("scripts"), str(Path(sys.executable).parent)]
    for folder in dict.fromkeys(folders):
        for suffix in ("", ".exe"):
            path = Path(folder) / f"{name}{suffix}"
            if path.is_file() and os.access(path, os.X_OK):
                return str(path)
    raise AssertionError(
        f"{name} is not installed beside {sys.executable}: it is part of the test extra "
        "(pip install -e '.[test]')"
    )


class _Output(io.TextIOWrapper):
    """Standard output or error as a pipe gives it: UTF-8 text, not a terminal."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8", newline="")

    def text(self) -> str:
        self.flush()
        return self.buffer.getvalue().decode("utf-8", "replace")


@contextlib.contextmanager
def _environment(env: dict[str, str]):
    """os.environ with ``env`` on top for the duration (TZ re-read both ways)."""
    before = dict(os.environ)
    os.environ.update(env)
    if "TZ" in env:
        time.tzset()
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(before)
        if "TZ" in env:
            time.tzset()


def run_drill(
    *args: str, input: str | None = None, env: dict | None = None, timeout: float = 60
) -> subprocess.CompletedProcess:
    """``drill ARGS`` as a pipe sees it (stdin, stdout and stderr are not terminals), run in
    this process: the same entry point, arguments, environment and working folder as
    ``run_drill_process``, without an interpreter start per call. A crash fails the test
    with its traceback.

    ``timeout`` is the subprocess's; in this process a hang is the test's own."""
    from drill.cli.main import main

    full_env = {"COLUMNS": os.environ.get("COLUMNS", "100"), **(env or {})}
    # Without DRILL_HOME the command would write into the real user's folders.
    assert full_env.get("DRILL_HOME") or os.environ.get("DRILL_HOME"), "run_drill needs DRILL_HOME"
    stdin = io.TextIOWrapper(io.BytesIO((input or "").encode("utf-8")), encoding="utf-8")
    out, err = _Output(), _Output()
    saved = sys.stdin, sys.stdout, sys.stderr
    here = os.getcwd()
    with _environment({k: str(v) for k, v in full_env.items()}):
        os.chdir(ROOT)
        sys.stdin, sys.stdout, sys.stderr = stdin, out, err
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse and commands that exit
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        finally:
            _finish_writes()
            sys.stdin, sys.stdout, sys.stderr = saved
            os.chdir(here)
    return subprocess.CompletedProcess(["drill", *args], code, out.text(), err.text())


def _finish_writes() -> None:
    """What the interpreter's exit does for a process: queued history writes land."""
    recording = sys.modules.get("drill.runs.recording")
    if recording is not None:
        recording.flush()


def run_drill_process(
    *args: str, input: str | None = None, env: dict | None = None, timeout: float = 60
) -> subprocess.CompletedProcess:
    """Run ``python -m drill`` as a user would, in a subprocess that inherits DRILL_HOME: for
    what only a process shows (signals, encodings, exit codes of the interpreter)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    full_env.setdefault("COLUMNS", "100")
    # Without DRILL_HOME the child would write into the real user's folders.
    assert full_env.get("DRILL_HOME"), "run_drill needs DRILL_HOME (the autouse fixture sets it)"
    return subprocess.run(
        [sys.executable, "-m", "drill", *args],
        input=input,
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
        cwd=ROOT,
    )


def examples(full: int) -> int:
    """A property test's example count: ``full`` under ``--hypothesis-profile=full``, a fifth
    of it (at least 2) in the default "ci" profile (tests/conftest.py)."""
    from hypothesis import settings

    return full if settings.get_current_profile_name() == "full" else max(2, full // 5)


def run_json(*args: str) -> dict | list:
    result = run_drill(*args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def typed(ask: Ask, value) -> str:
    """A value as a person types it: 3 significant figures and the asked unit."""
    unit = ask.unit
    if unit.label == "%":
        return f"{sig(value * 100, 3)}%"
    if unit.label == "x":
        return f"{sig(value, 3)}x"
    if unit.label == "":
        return sig(value, 3)
    return f"{sig(value / unit.scale, 3)} {unit.label}"


def right_answer(item, lang: str = "en") -> str:
    """What a well-prepared candidate types for an Ask, or for a whole run question."""
    if not isinstance(item, Ask):
        if item.ask is not None:
            return right_answer(item.ask, lang)
        concept = item.concept
        if concept.type == "truefalse":
            return "true" if concept.correct else "false"
        if concept.choices:  # the letters as shown (options are shuffled per showing)
            return ",".join(item.expected_typed())
        return concept.answer[lang]
    if item.kind == NUMBER:
        return typed(item, float(item.expected))
    if item.kind == CHOICE:
        return next(o.id for o in item.options if o.value == item.expected)
    return ",".join(o.id for o in item.options if o.value in item.expected)


class Wall:
    """A settable wall clock (aware datetimes)."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class Ticks:
    """A monotonic clock the test moves: the seconds each answer takes."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class FakeClock:
    """A monotonic clock the test moves by hand (``clock.now += 60``)."""

    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


GOOD_CARD = """\
id: my-card
name: My Card
vendor: Me
architecture: Test
form_factor: PCIe
units: 10
unit_kind: SM
fp32_lanes_per_unit: 64
boost_clock_mhz: 1000
memory:
  type: GDDR6
  capacity_gb: 8
  bus_width_bits: 256
  data_rate_gbps: 10
  bandwidth_gbs: 320
peaks_tflops:
  vector:
    fp32: 1.28
  tensor:
    fp16: 10
sources:
  - id: me
    title: my measurement
"""

# The same card without fp16: a machine that only has an fp32 roof, like a measured CPU.
FP32_ONLY_CARD = GOOD_CARD.replace("id: my-card", "id: my-cpu").replace(
    "    fp16: 10\n", "    fp32: 2\n"
)


def printed(value: float, text: str) -> bool:
    """Whether a number is written in the question: a given that happens to equal an answer
    (an 8-GPU node and a TP degree of 8) is no leak, and the givens are never dropped."""
    forms = (
        {f"{value:g}", f"{value:,.0f}", f"{int(value)}"}
        if float(value).is_integer()
        else {f"{value:g}"}
    )
    forms.add(format_si(value, "").strip())  # "46.7 G" parameters
    return any(re.search(rf"(?<![\d.]){re.escape(form)}(?![\d])", text) for form in forms)
