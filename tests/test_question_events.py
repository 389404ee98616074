"""The ``--jsonl`` question event never carries the value it asks for: its scenario holds the
givens only (drill.content.skills.model.Scenario.public_params), for every skill."""

from __future__ import annotations

import json
import math

import pytest

from drill.content.catalog import load_catalog
from drill.content.skills.model import DERIVED, NUMBER
from drill.content.skills.registry import SKILLS, generate
from drill.runs.items import ItemRef, Question
from drill.ui.lines.jsonl import question_event
from tests.helpers import printed, run_drill

CATALOG = load_catalog(include_user=False)
SEEDS = range(40)
# Givens an answer may legitimately equal: a compute-bound kernel attains the peak it was
# given, a memory-bound one at 1 FLOP/B moves as many bytes as the bandwidth, a byte count
# converts to GiB, and a dimension of the shape may happen to equal a small answer.
GIVEN = {"peak", "bandwidth", "bytes"}
# Asks for a card figure: the event must carry no figure equal to it at all.
CARD_FIGURE_ASKS = {"peak", "bandwidth", "dense", "sustained"}


class _Run:
    mode = "practice"
    lang = "en"


def numbers(obj, path: str = ""):
    if isinstance(obj, bool):
        return
    if isinstance(obj, (int, float)):
        yield path, float(obj)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from numbers(value, f"{path}.{key}" if path else str(key))
    elif isinstance(obj, (list, tuple)):
        for i, value in enumerate(obj):
            yield from numbers(value, f"{path}[{i}]")


def close(a: float, b: float) -> bool:
    return b != 0 and math.isfinite(a) and abs(a - b) <= 0.005 * abs(b)


def events(skill: str):
    for difficulty in (1, 2, 3):
        for seed in SEEDS:
            scenario = generate(skill, seed, difficulty, CATALOG)
            for i, ask in enumerate(scenario.asks):
                q = Question("1", 1, i + 1, len(scenario.asks), ItemRef.skill(skill), scenario, ask)
                yield scenario, ask, question_event(_Run(), q)


@pytest.mark.parametrize("skill", sorted(SKILLS))
def test_no_question_event_carries_its_answer(skill):
    for scenario, ask, event in events(skill):
        data = event["scenario"]
        where = (skill, scenario.difficulty, scenario.seed, ask.key)
        leaked = (DERIVED | set(scenario.hidden) | {ask.key, ask.key.replace("-", "_")}) & set(data)
        assert not leaked, (where, leaked)
        if ask.kind != NUMBER:
            values = {v for v in data.values() if isinstance(v, str)}
            expected = {ask.expected} if isinstance(ask.expected, str) else set(ask.expected)
            assert not values & expected, (where, values & expected)
            continue
        expected = float(ask.expected)
        for path, value in numbers(data):
            if path in ("seed", "difficulty") or not close(value, expected):
                continue
            given = (
                path in GIVEN
                or path.startswith("shape.")
                or value == int(value) < 1e4
                or printed(value, scenario.intro_en)  # a given the question states
            )
            assert given and ask.key not in CARD_FIGURE_ASKS, (where, path, value, expected)


def test_figures_asked_for_are_not_in_the_event():
    """peak-from-specs and bandwidth-from-specs never hand over the card's figure."""
    for skill, figure in (("peak-from-specs", "peak"), ("bandwidth-from-specs", "bandwidth")):
        for scenario, ask, event in events(skill):
            card = CATALOG.get(scenario.params["gpu"])
            assert figure not in event["scenario"]
            text = json.dumps(event["scenario"])
            assert str(float(ask.expected)) not in text, (skill, scenario.seed)
            assert card.id == event["scenario"]["gpu"]


def test_the_cli_event_for_the_roofline_case_holds_givens_only():
    result = run_drill(
        "start", "--jsonl", "--skill", "roofline-case", "--seed", "3", "--count", "1",
        input="skip\n" * 6,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    asked = [json.loads(line) for line in result.stdout.splitlines()]
    questions = [e for e in asked if e["type"] == "question"]
    grades = [e for e in asked if e["type"] == "grade"]
    assert [q["ask"] for q in questions][:2] == ["intensity", "ridge"]
    for q in questions:
        assert {"gpu", "dtype", "measured", "shape"} <= set(q["scenario"])
        assert not {"intensity", "attainable", "ridge", "bound", "efficiency"} & set(q["scenario"])
    intensity = grades[0]["expected"]
    assert all(not close(v, intensity) for _, v in numbers(questions[0]["scenario"]))
