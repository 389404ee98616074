"""What the first practice question costs to import: only what it needs (the start-up
benchmark's figures depend on it). A fresh interpreter builds a session of one skill."""

from __future__ import annotations

import json
import subprocess
import sys

import drill.content.bank as bank

SCRIPT = """
import json, sys
from drill.runs.factory import open_practice
from drill.runs.options import PracticeOptions
session = open_practice(
    PracticeOptions(seed=1, skills=("ridge-point",), count=2), "en", background=True
)
assert session.current is not None
print(json.dumps(sorted(sys.modules)))
"""


def test_a_skill_session_loads_no_bank_rubric_interview_or_card_checks(drill_home):
    for _ in range(2):  # the first run parses the card files and writes the catalog's cache
        out = subprocess.run(
            [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120
        )
        assert out.returncode == 0, out.stderr
    loaded = set(json.loads(out.stdout))
    assert "yaml" not in loaded  # the question bank's YAML is not read for a skill session
    assert "drill.content.bank.load" not in loaded
    assert "drill.content.bank.cache" not in loaded  # nor its stored parse
    assert "drill.grading.rubric" not in loaded  # graded on the first free answer, if any
    assert "drill.runs.interview" not in loaded
    for name in ("drill.grading.numbers", "drill.grading.choices", "drill.runs.protocol"):
        assert name not in loaded  # the graders and the run's events come with the first answer
    assert "drill.runs.summary" not in loaded  # with the session's end
    assert "textual" not in loaded
    assert "drill.content.catalog.schema" not in loaded  # the catalog came from its cache
    assert "drill.content.skills.llm_serving" not in loaded  # only the asked skill's module


def test_the_bank_package_names_load_on_first_use():
    for name in bank.__all__:
        assert getattr(bank, name) is not None
    assert set(bank.__all__) == set(bank._HOME)
