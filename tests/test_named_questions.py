"""``drill start --question ID`` and the options of choice questions, shuffled per presentation:
what a user types is the letter shown; the history keeps the pack's option ids."""

from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter

import pytest

from drill.config import paths
from drill.content.bank.cache import cached_bank
from tests.helpers import run_drill

BANK = cached_bank()
FREE = sorted(q.id for q in BANK.questions.values() if q.type == "free")
CHOICE = sorted(q.id for q in BANK.questions.values() if q.type == "choice")
TRUEFALSE = sorted(q.id for q in BANK.questions.values() if q.type == "truefalse")


def jsonl(*args: str, input: str) -> list[dict]:
    result = run_drill("start", "--jsonl", *args, input=input)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def stored() -> list[sqlite3.Row]:
    conn = sqlite3.connect(paths.database_file())
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute("SELECT * FROM attempts ORDER BY id").fetchall()
    finally:
        conn.close()


def test_jsonl_question_grades_one_typed_answer():
    q = BANK.get(FREE[0])
    events = jsonl("--question", q.id, input=q.answer["en"] + "\n")
    assert [e["type"] for e in events] == ["question", "grade", "summary"]
    question, grade, summary = events
    assert question["skill"] == q.id and question["item_kind"] == "concept"
    assert grade["correct"] is True and grade["score"] == 1.0
    assert grade["missed"] == [] and grade["hit"]
    assert summary["questions"] == 1 and summary["missed_questions"] == []


def test_question_is_repeatable_and_asks_exactly_those_in_order():
    wanted = [CHOICE[0], FREE[1], TRUEFALSE[0]]
    args = [arg for ident in wanted for arg in ("--question", ident)]
    events = jsonl(*args, "--count", "10", input="skip\n" * 5)
    assert [e["skill"] for e in events if e["type"] == "question"] == wanted
    plain = run_drill("start", "--plain", *args, input="skip\n" * 3)
    assert plain.returncode == 0, plain.stderr
    assert [f"[{ident}]" in plain.stdout for ident in wanted] == [True] * 3
    assert "3 questions, 0 correct, 3 skipped" in plain.stdout


def test_question_beside_skill_fills_the_count_with_that_skill():
    args = ("--question", FREE[0], "--skill", "ridge-point", "--count", "3")
    asked = [e["skill"] for e in jsonl(*args, input="skip\n" * 3) if e["type"] == "question"]
    assert asked == [FREE[0], "ridge-point", "ridge-point"]


@pytest.mark.parametrize("mode", ["--plain", "--jsonl"])
def test_an_unknown_question_is_one_line_saying_where_ids_are(mode):
    result = run_drill("start", mode, "--question", FREE[0][:-1] + "zz")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert "unknown question" in lines[0] and "'id:'" in lines[0]
    assert f"did you mean {FREE[0]!r}" in lines[0]
    assert result.stdout == ""


def test_question_and_a_planned_mode_do_not_mix():
    result = run_drill("start", "--plain", "--question", FREE[0], "--review")
    assert result.returncode == 2 and "--question" in result.stderr


# -- shuffled options ------------------------------------------------------------------------
def right_letters(seed: int) -> list[str]:
    """The shown letter of the right option of every single-choice question in a seeded
    concepts session of 100 questions."""
    events = jsonl(
        "--topic", "concepts", "--seed", str(seed), "--count", "100", input="skip\n" * 100
    )
    kinds = {e["id"]: e["kind"] for e in events if e["type"] == "question"}
    letters = []
    for e in events:
        if e["type"] == "grade" and kinds[e["id"]] == "choice":
            (letter,) = e["expected"]
            letters.append(letter)
    return letters


def test_the_right_letter_is_spread_over_three_seeded_sessions():
    letters = [letter for seed in (1, 2, 3) for letter in right_letters(seed)]
    assert len(letters) >= 30
    share = {letter: n / len(letters) for letter, n in Counter(letters).items()}
    assert max(share.values()) <= 0.40, share
    assert share.get("c", 0) >= 0.10 and share.get("d", 0) >= 0.10, share


def test_the_same_seed_shows_the_same_order_and_the_history_keeps_option_ids():
    q = BANK.get(CHOICE[0])
    first = jsonl("--question", q.id, "--seed", "5", input="skip\n")
    again = jsonl("--question", q.id, "--seed", "5", input="skip\n")
    assert first[0]["choices"] == again[0]["choices"]
    orders = {
        tuple(
            c["option"] for c in jsonl("--question", q.id, "--seed", str(s), input="")[0]["choices"]
        )
        for s in range(1, 9)
    }
    assert len(orders) > 1  # shuffled, not fixed
    shown = first[0]["choices"]
    right_id = next(c.id for c in q.choices if c.correct)
    right_letter = next(c["id"] for c in shown if c["option"] == right_id)
    assert [c["id"] for c in shown] == ["a", "b", "c", "d"]
    assert first[0]["prompt"].count(") ") >= 4
    events = jsonl("--question", q.id, "--seed", "5", input=right_letter + "\n")
    grade = events[1]
    assert grade["correct"] is True and grade["expected"] == [right_letter]
    assert grade["expected_options"] == [right_id]
    row = stored()[-1]
    assert json.loads(row["parsed_json"]) == [right_id]
    assert json.loads(row["expected_json"]) == [right_id]
    assert row["correct"] == 1
    assert json.loads(row["scenario_json"])["shown"] == [c["option"] for c in shown]


def test_a_shown_letter_that_is_not_the_pack_letter_grades_by_what_was_shown():
    """Typing the pack's own letter of the right option is wrong when the shuffle moved it."""
    q = BANK.get(CHOICE[0])
    right_id = next(c.id for c in q.choices if c.correct)
    for seed in range(1, 30):
        shown = jsonl("--question", q.id, "--seed", str(seed), input="")[0]["choices"]
        if next(c["id"] for c in shown if c["option"] == right_id) != right_id:
            break
    else:
        raise AssertionError("the right option never moved")
    events = jsonl("--question", q.id, "--seed", str(seed), input=right_id + "\n")
    assert events[1]["correct"] is False


# -- rubric points: found, missed and "also worth saying" -----------------------------------
def test_optional_points_are_shown_apart_and_never_lower_the_score():
    q = BANK.get("bandwidth-formula")
    optional = next(p.label["en"] for p in q.rubric if p.optional)
    answer = "5120 / 8 x 2.43 Gbps per pin = 1555 GB/s"
    plain = run_drill("start", "--plain", "--question", q.id, input=answer + "\n")
    lines = plain.stdout.splitlines()
    assert any(line.startswith("correct (1)") for line in lines)
    number = next(k + 1 for k, p in enumerate(q.rubric) if p.optional)
    assert f"  {number} ✗ {optional} (optional)" in lines  # listed, never counted
    numbered = [line for line in lines if re.match(r"  \d+ [✓✗] ", line)]
    assert not any(" ✗ " in line for line in numbered if "(optional)" not in line)
    grade = jsonl("--question", q.id, input=answer + "\n")[1]
    assert grade["score"] == 1.0 and grade["also"] == [optional] and grade["missed"] == []
    both = jsonl("--question", q.id, input=answer + "; the Gbps rate already includes DDR\n")[1]
    assert both["score"] == 1.0 and both["also"] == [] and optional in both["hit"]
    zh = run_drill("start", "--plain", "--question", q.id, "--lang", "zh", input=answer + "\n")
    optional_zh = next(p.label["zh"] for p in q.rubric if p.optional)
    assert f"  {number} ✗ {optional_zh}（可选）" in zh.stdout.splitlines()
