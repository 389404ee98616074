"""The session object and its line front ends (--plain, --jsonl), driven as a user would."""

from __future__ import annotations

import json

import pytest

from drill.content.catalog import load_catalog
from drill.grading.numbers import HINT_COSTS
from drill.runs.factory import new_session
from drill.runs.practice import Session, SessionConfig
from tests.helpers import right_answer, run_drill

CATALOG = load_catalog(include_user=False)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def numeric_session(**kw) -> Session:
    clock = kw.pop("clock", None) or FakeClock()
    config = SessionConfig(count=kw.pop("count", 6), seed=kw.pop("seed", 11), topic="numeric", **kw)
    return new_session(config, CATALOG, clock=clock)


def test_same_seed_same_questions():
    a = [q.text("en") for q in _all_questions(numeric_session())]
    b = [q.text("en") for q in _all_questions(numeric_session())]
    assert a == b and len(set(a)) > 3


def _all_questions(session):
    seen = []
    while not session.finished:
        seen.append(session.current)
        session.skip()
    return seen


def test_answering_everything_right_scores_full_marks():
    clock = FakeClock()
    session = new_session(
        SessionConfig(count=8, seed=5, topic="numeric", difficulty=3), CATALOG, clock=clock
    )
    while not session.finished:
        clock.now += 12
        result = session.answer(right_answer(session.current.ask))
        assert result.grade.correct and result.seconds == 12
    summary = session.summary()
    assert summary.questions == len(session.results) >= 8
    assert summary.correct == summary.questions
    assert summary.accuracy == 1.0
    assert summary.mistakes == {}


def test_hints_cost_the_stated_share():
    session = numeric_session(skills=["ridge-point"])
    first = session.hint()
    second = session.hint()
    assert first and second and first != second
    result = session.answer(right_answer(session.current.ask))
    assert result.score == round(1 - HINT_COSTS[0] - HINT_COSTS[1], 4)
    assert result.hints_used == 2


def test_unreadable_answer_keeps_the_question():
    session = numeric_session(skills=["ridge-point"])
    before = session.current
    with pytest.raises(ValueError, match="number"):
        session.answer("twelve")
    assert session.current is before and session.results == []


def test_plain_session_of_five_varied_questions():
    result = run_drill(
        "start", "--plain", "--seed", "1", "--count", "5", "--topic", "numeric", input="a\n1\n" * 40
    )  # a letter for a choice, else a number
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("== Question") == 5
    assert "Convention:" in out and "1 FMA = 2 FLOPs" in out
    assert "Worked solution:" in out
    assert "== Summary ==" in out
    skills = {
        line.split("[")[1].split("]")[0]
        for line in out.splitlines()
        if line.startswith("== Question")
    }
    assert len(skills) == 5


def test_plain_end_of_input_ends_cleanly_in_chinese():
    result = run_drill(
        "start",
        "--plain",
        "--seed",
        "2",
        "--count",
        "3",
        "--lang",
        "zh",
        "--topic",
        "numeric",
        input="",
    )
    assert result.returncode == 0
    assert "第 1 题" in result.stdout and "总结" in result.stdout


def test_jsonl_protocol():
    lines = "\n".join(["not a number", "skip", "hint", "1", "1", "1", "1", "1"]) + "\n"
    result = run_drill(
        "start",
        "--jsonl",
        "--seed",
        "4",
        "--count",
        "3",
        "--skill",
        "ridge-point",
        "--skill",
        "kv-cache",
        "--skill",
        "bound",
        input=lines,
    )
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    kinds = [e["type"] for e in events]
    assert kinds[0] == "question" and kinds[1] == "error" and kinds[-1] == "summary"
    q = events[0]
    for key in ("id", "skill", "ask", "unit", "prompt", "scenario"):
        assert key in q
    assert {"gpu", "dtype", "peak", "bandwidth"} <= set(q["scenario"]) or "tokens" in q["scenario"]
    grades = [e for e in events if e["type"] == "grade"]
    assert grades[0]["skipped"] is True
    for g in grades:
        assert set(g) >= {"id", "score", "correct", "expected", "mistakes", "solution"}
        assert 0 <= g["score"] <= 1 and isinstance(g["solution"], list)
    assert events[-1]["questions"] == len(grades)


def test_jsonl_right_answers_from_the_scenario_score_one():
    # Answer each question with the expected value the grade event reveals on a first pass.
    first = run_drill(
        "start", "--jsonl", "--seed", "9", "--count", "4", "--topic", "numeric", input="skip\n" * 20
    )
    expected = [e for e in map(json.loads, first.stdout.splitlines()) if e["type"] == "grade"]
    answers = []
    for g in expected:
        value = g["expected"]
        if isinstance(value, float):
            answers.append(g["expected_text"])  # numbers with their unit, e.g. "52.12 TFLOP/s"
        else:
            answers.append(",".join(value) if isinstance(value, list) else value)
    events = [
        json.loads(line)
        for line in run_drill(
            "start",
            "--jsonl",
            "--seed",
            "9",
            "--count",
            "4",
            "--topic",
            "numeric",
            input="\n".join(answers) + "\n",
        ).stdout.splitlines()
    ]
    grades = [e for e in events if e["type"] == "grade"]
    assert grades and all(g["score"] == 1.0 for g in grades), grades


def test_practice_and_mock_are_both_runs_with_typed_events():
    from drill.content.bank import load_bank
    from drill.runs.interview import MockConfig, MockInterview
    from drill.runs.protocol import ResultRecorded, ResultUpdated, Run, RunFinished

    clock = FakeClock()
    session = numeric_session(clock=clock, skills=["ridge-point", "bound"])
    interview = MockInterview(
        MockConfig(seed=2), CATALOG, load_bank(include_user=False), clock=clock
    )
    assert isinstance(session, Run) and isinstance(interview, Run)
    events = []
    session.subscribe(events.append)
    clock.now += 7
    assert session.elapsed == 7
    first = session.skip()
    session.mark_last(False)
    session.finish()
    session.finish()
    assert [type(e) for e in events] == [ResultRecorded, ResultUpdated, RunFinished]
    assert events[0].result is events[1].result and events[1].result.uid == first.uid
    assert session.summary().missed_skills == [first.question.item.id]
    assert first.question.item.kind == "skill" and not first.can_self_mark


def test_only_numeric_skills_are_offered_again():
    from drill.content.bank.cache import cached_bank

    bank = cached_bank()
    concept = sorted(bank.questions)[0]
    config = SessionConfig(
        count=2, seed=1, topic="mixed", plan=[("concept", concept), ("skill", "bound")]
    )
    session = new_session(config, CATALOG, bank, clock=FakeClock())
    session.skip()
    session.skip()
    summary = session.summary()
    assert set(summary.per_skill) == {concept, "bound"}
    assert summary.missed_skills == ["bound"]


@pytest.mark.parametrize("skill", ["gemm-intensity", "kv-bound", "tp-degree", "ridge-point"])
def test_a_session_never_asks_the_same_question_twice(skill: str) -> None:
    """Seeded draws from a finite set repeat; a session draws again rather than ask the same
    text, or the same numbers in another dtype, a second time."""
    config = SessionConfig(count=10, seed=41, skills=[skill], difficulty=2)
    session = new_session(config, CATALOG, clock=FakeClock())
    scenarios, answers = [], set()
    while not session.finished:
        question = session.current
        if question.scenario is not None and question.part == 1:
            scenarios.append(question.scenario)
        session.skip()
    for sc in scenarios:
        numbers = tuple(round(a.expected, 6) for a in sc.asks if a.kind == "number")
        assert numbers not in answers, (sc.intro_en, numbers)
        answers.add(numbers)
    assert len(scenarios) >= 5
