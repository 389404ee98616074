"""A self-mark is real: the stored score, the summary and the review card follow the user's own
verdict on a free answer; a concepts session offers its misses again, in honest plurals."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest

from drill.config import paths
from drill.content.bank.cache import cached_bank
from drill.content.catalog import load_catalog
from drill.learning.srs import AGAIN, GOOD, card_id, load_state
from drill.runs.factory import new_session
from drill.runs.practice import SessionConfig
from drill.store.history import History
from drill.store.timeutil import utc_iso
from tests.helpers import FakeClock, run_drill

CATALOG = load_catalog(include_user=False)
BANK = cached_bank()
FREE = sorted(q.id for q in BANK.questions.values() if q.type == "free")
CHOICE = sorted(q.id for q in BANK.questions.values() if q.type == "choice")
NONSENSE = "no idea at all"  # a free answer no rubric accepts


def attempts() -> list[sqlite3.Row]:
    conn = sqlite3.connect(paths.database_file())
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute("SELECT * FROM attempts ORDER BY id").fetchall()
    finally:
        conn.close()


def card(question: str):
    with History.open() as history:
        state = load_state(history, card_id("concept", question))
        due = history.conn.execute(
            "SELECT due_utc FROM review_cards WHERE card_id = ?", (card_id("concept", question),)
        ).fetchone()[0]
    return state, due


@pytest.mark.parametrize("mark", ["right", "wrong", ""])
def test_plain_self_mark_changes_the_stored_score_and_the_review(mark):
    question = FREE[0]
    result = run_drill("start", "--plain", "--question", question, input=f"{NONSENSE}\n{mark}\n")
    assert result.returncode == 0, result.stderr
    (row,) = attempts()
    parsed = json.loads(row["parsed_json"])
    assert parsed["rubric_score"] == 0.0  # the rubric's own score
    # a whole-answer mark is the attempt's self_mark, not a flip of each point
    assert [(p["grader"], p["user"]) for p in parsed["points"]] == [(False, None)] * len(
        parsed["points"]
    )
    state, due = card(question)
    now = datetime.now(timezone.utc)
    soon, later = (utc_iso(now + timedelta(days=d)) for d in (1.1, 1.5))
    if mark == "right":
        assert (row["score"], row["correct"], row["self_mark"]) == (1.0, 1, 1)
        assert "Marked right by you. correct (1)" in result.stdout
        assert "1 question, 1 correct" in result.stdout
        assert "Practise what you missed again" not in result.stdout
        assert state.lapses == 0 and due > later  # rated Good: not due again for days
        assert state.fsrs["stability"] > 1
    else:
        assert (row["score"], row["correct"]) == (0.0, 0)
        assert row["self_mark"] == (0 if mark == "wrong" else None)
        assert "1 question, 0 correct" in result.stdout
        assert f"drill start --count 1 --question {question}" in result.stdout
        assert state.lapses == 1 and due < soon  # rated Again: back within a day
        assert state.fsrs["stability"] < 1


def test_a_partly_right_answer_marked_wrong_counts_nothing_and_rates_again():
    question = next(q for q in FREE if BANK.get(q).rubric and len(BANK.get(q).rubric) > 1)
    q = BANK.get(question)
    session = new_session(
        SessionConfig(count=1, seed=1, topic="concepts", plan=[("concept", question)]),
        CATALOG,
        BANK,
        clock=FakeClock(),
    )
    # the first required point's own label: partly right by the rubric
    first = next(p for p in q.rubric if not getattr(p, "optional", False))
    result = session.answer(first.label["en"])
    assert 0 < result.rubric_score < 1 and result.verdict() == "partial"
    session.mark_last(False)
    assert result.score == 0.0 and result.verdict() == "wrong" and result.rating == AGAIN
    assert session.score == 0.0 and session.summary().correct == 0
    session.mark_last(True)
    assert result.score == 1.0 and result.rating == GOOD and session.summary().correct == 1
    assert result.rubric_score == result.grade.score < 1  # the rubric's verdict is kept


def test_a_self_mark_right_keeps_the_hints_cost():
    from drill.grading.numbers import hint_penalty

    session = new_session(
        SessionConfig(count=1, seed=1, topic="concepts", plan=[("concept", FREE[0])]),
        CATALOG,
        BANK,
        clock=FakeClock(),
    )
    assert session.hint()
    result = session.answer(NONSENSE)
    session.mark_last(True)
    assert result.score == pytest.approx(1 - hint_penalty(1))


def test_a_concepts_session_offers_its_misses_again():
    """Wrong or partly right conceptual questions are missed, and offered again by id."""
    free, choice = FREE[0], CHOICE[0]
    session = new_session(
        SessionConfig(
            count=3,
            seed=4,
            topic="mixed",
            plan=[("concept", free), ("concept", choice), ("skill", "ridge-point")],
        ),
        CATALOG,
        BANK,
        clock=FakeClock(),
    )
    session.answer(NONSENSE)  # wrong
    wrong_letter = next(
        letter for letter, option in session.current._choices() if not option.correct
    )
    session.answer(wrong_letter)
    session.skip()
    summary = session.summary()
    assert summary.missed_questions == sorted([free, choice])
    assert summary.missed_skills == ["ridge-point"]
    assert summary.again_command() == (
        f"drill start --count 3 --skill ridge-point --question {min(free, choice)} "
        f"--question {max(free, choice)}"
    )
    data = summary.to_json()
    assert data["missed_skills"] == ["ridge-point"]
    assert data["missed_questions"] == sorted([free, choice])


def test_the_offered_command_asks_exactly_the_missed_items():
    first = run_drill("start", "--plain", "--question", FREE[0], input=f"{NONSENSE}\n\n")
    offer = next(line for line in first.stdout.splitlines() if line.startswith("Practise what you"))
    command = offer.split(": ", 1)[1].split()
    assert command[:2] == ["drill", "start"]
    again = run_drill(*command[1:], "--jsonl", input="skip\n")
    events = [json.loads(line) for line in again.stdout.splitlines()]
    assert [e["skill"] for e in events if e["type"] == "question"] == [FREE[0]]


@pytest.mark.parametrize(
    ("lang", "one", "three"),
    [("en", "1 question, ", "3 questions, "), ("zh", "共 1 题，", "共 3 题，")],
)
def test_summary_plurals(lang, one, three):
    single = run_drill("start", "--plain", "--question", FREE[0], "--lang", lang, input="skip\n")
    assert one in single.stdout and "1 questions" not in single.stdout
    args = ["--question", FREE[0], "--question", FREE[1], "--question", CHOICE[0]]
    several = run_drill("start", "--plain", *args, "--lang", lang, input="skip\n" * 3)
    assert three in several.stdout


def test_practise_again_asks_each_missed_item_once():
    """A missed roofline case and a missed concept make a session of two items, not ten."""
    from drill.runs.factory import open_practice
    from drill.runs.items import ItemRef
    from drill.runs.options import PracticeOptions
    from drill.runs.summary import Summary

    summary = Summary(
        questions=5,
        answered=5,
        skipped=0,
        correct=3,
        score=3.0,
        seconds=60.0,
        still_missed=frozenset({ItemRef("skill", "roofline-case"), ItemRef("concept", FREE[0])}),
    )
    again = summary.again_options(PracticeOptions(count=10, seed=3))
    assert again.count == 2
    assert summary.again_command().startswith("drill start --count 2 ")
    session = open_practice(again, "en", catalog=CATALOG, record=False)
    assert sorted(session.config.plan) == sorted([("skill", "roofline-case"), ("concept", FREE[0])])
