"""Plain helpers shared by test modules (fixtures live in conftest.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

from drill.content.skills.model import CHOICE, NUMBER, Ask
from drill.core.units import sig

ROOT = Path(__file__).resolve().parent.parent


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


def run_drill(
    *args: str, input: str | None = None, env: dict | None = None, timeout: float = 60
) -> subprocess.CompletedProcess:
    """Run ``python -m drill`` as a user would, in a subprocess that inherits DRILL_HOME."""
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
