"""Per-point confirmation in the line modes: ``flip N`` (``--plain``) and ``{"flip": [N]}``
(``--jsonl``) change a rubric point's mark; the score, the summary, the stored per-point
marks and ``drill stats --rubrics`` follow, and export/import carry the marks."""

from __future__ import annotations

import json
import sqlite3

from drill.config import paths
from tests.helpers import run_drill

QUESTION = "peak-flops-formula"  # three required points: formula, FMA = 2 FLOPs, 19.5 TFLOP/s
PARTIAL = "108 SMs x 64 lanes x 1.41 GHz"  # the formula only


def stored_points() -> list[list[tuple[bool, bool | None]]]:
    conn = sqlite3.connect(paths.database_file())
    try:
        rows = conn.execute("SELECT parsed_json FROM attempts ORDER BY id").fetchall()
    finally:
        conn.close()
    parsed = [json.loads(r[0]) for r in rows]  # a skipped answer has no points
    return [[(p["grader"], p["user"]) for p in d["points"]] for d in parsed if d]


def events(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


def test_plain_flip_changes_the_marks_score_and_summary():
    result = run_drill("start", "--plain", "--question", QUESTION, input=f"{PARTIAL}\nflip 2 3\n\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "  1 ✓ SMs x FP32 lanes per SM x clock (x 2, the next point)" in out
    assert "  2 ✗ an FMA counts as 2 FLOPs" in out
    assert "Marks changed by you: correct (1)" in out
    assert "  2 ✓ an FMA counts as 2 FLOPs (your mark)" in out
    assert "1 question, 1 correct" in out
    assert stored_points() == [[(True, None), (False, True), (False, True)]]


def test_plain_flip_of_a_point_that_does_not_exist_is_refused_and_nothing_changes():
    result = run_drill("start", "--plain", "--question", QUESTION, input=f"{PARTIAL}\nflip 7\n\n")
    assert "flip a point by its number, 1 to 3" in result.stdout
    assert stored_points() == [[(True, None), (False, None), (False, None)]]


def test_plain_flip_after_a_full_answer_at_the_next_prompt_and_in_chinese():
    full = "108 × 64 × 2 (FMA = 2 FLOPs) × 1.41 GHz ≈ 19.5 TFLOP/s"
    result = run_drill(
        "start",
        "--plain",
        "--lang",
        "zh",
        "--question",
        QUESTION,
        "--question",
        "peak-boost-vs-sustained",
        input=f"{full}\n翻转 3\nskip\n",
    )
    assert result.returncode == 0, result.stderr
    assert "已按你的判定改分" in result.stdout
    assert stored_points()[0] == [(True, None), (True, None), (True, False)]


def test_jsonl_flip_answers_with_the_grade_again():
    result = run_drill(
        "start", "--jsonl", "--question", QUESTION, input=f'{PARTIAL}\n{{"flip": [2, 3]}}\n'
    )
    assert result.returncode == 0, result.stderr
    grades = [e for e in events(result.stdout) if e["type"] == "grade"]
    assert [g["score"] for g in grades] == [round(1 / 3, 4), 1.0]
    assert grades[1]["flipped"] is True and grades[1]["correct"] is True
    assert [(p["n"], p["grader"], p["mark"]) for p in grades[1]["points"]] == [
        (1, True, True),
        (2, False, True),
        (3, False, True),
    ]
    summary = events(result.stdout)[-1]
    assert summary["type"] == "summary" and summary["correct"] == 1
    assert stored_points() == [[(True, None), (False, True), (False, True)]]


def test_jsonl_bad_flip_is_an_error_event():
    result = run_drill(
        "start", "--jsonl", "--question", QUESTION, input=f'{PARTIAL}\n{{"flip": [0]}}\n'
    )
    errors = [e for e in events(result.stdout) if e["type"] == "error"]
    assert errors and "1 to 3" in errors[0]["message"]


def test_stats_rubrics_lists_the_flipped_points_both_ways(tmp_path):
    run_drill("start", "--plain", "--question", QUESTION, input=f"{PARTIAL}\nflip 2\n\n")
    run_drill("start", "--plain", "--question", QUESTION, input=f"{PARTIAL}\nflip 2 1\n\n")
    run_drill("start", "--plain", "--question", QUESTION, input=f"{PARTIAL}\n\n")
    data = json.loads(run_drill("stats", "--rubrics", "--json").stdout)
    rows = {(p["question"], p["number"]): p for p in data["points"]}
    assert rows[(QUESTION, 2)]["to_said"] == 2 and rows[(QUESTION, 2)]["answers"] == 3
    assert rows[(QUESTION, 1)]["to_missed"] == 1 and rows[(QUESTION, 1)]["to_said"] == 0
    assert (QUESTION, 3) not in rows  # never flipped
    assert data["points"][0]["number"] == 2  # most flipped first
    text = run_drill("stats", "--rubrics").stdout
    assert "2 an FMA counts as 2 FLOPs" in text and "2 / 3" in text
    zh = run_drill("stats", "--rubrics", "--lang", "zh").stdout
    assert "一次 FMA 算 2 次浮点运算" in zh and "你改判过的评分要点" in zh
    exported = tmp_path / "history.json"
    assert run_drill("history", "export", str(exported)).returncode == 0
    points = [
        a["parsed"]["points"]
        for s in json.loads(exported.read_text())["sessions"]
        for a in s["attempts"]
    ]
    assert [p[1]["user"] for p in points] == [True, True, None]


def test_stats_rubrics_without_flips_says_how_to_flip():
    out = run_drill("stats", "--rubrics").stdout
    assert "No rubric point flipped yet" in out


def test_a_mistyped_flip_is_refused_never_taken_for_an_answer():
    two = f"{PARTIAL}\nflip two\n\nflip\nanswer two\n"
    result = run_drill(
        "start", "--plain", "--question", QUESTION, "--question", "ridge-point-meaning", input=two
    )
    # refused on the feedback, then on question 2 (a flip names a point of the last answer)
    assert result.stdout.count("flip a point by its number, 1 to 3") == 2
    conn = sqlite3.connect(paths.database_file())
    try:
        answers = [r[0] for r in conn.execute("SELECT answer FROM attempts ORDER BY id")]
    finally:
        conn.close()
    assert answers == [PARTIAL, "answer two"]  # "flip" on question 2 was refused, then asked again


def test_jsonl_a_malformed_flip_is_an_error_never_an_answer():
    lines = [
        PARTIAL,
        '{"flip": ["two"]}',
        '{"flip": null}',
        "{flip: [2]}",
        '{"flip": [3], "id": "9"}',
    ]
    result = run_drill(
        "start",
        "--jsonl",
        "--question",
        QUESTION,
        "--question",
        "ridge-point-meaning",
        input="\n".join(lines) + "\nridge = peak / bandwidth\n",
    )
    out = events(result.stdout)
    errors = [e["message"] for e in out if e["type"] == "error"]
    assert len(errors) == 4 and "last answer only" in errors[-1]
    grades = [e for e in out if e["type"] == "grade"]
    assert [g["id"] for g in grades] == ["1", "2"]  # no flip line was graded as question 2
    assert grades[0]["missed"] and grades[1]["points"]


def test_flipped_lists_and_back_to_the_graders_marks():
    result = run_drill(
        "start", "--jsonl", "--question", QUESTION, input=f'{PARTIAL}\n{{"flip": [2]}}\n'
    )
    grade = [e for e in events(result.stdout) if e["type"] == "grade"][-1]
    assert "an FMA counts as 2 FLOPs" in grade["hit"] and grade["missed"] == ["about 19.5 TFLOP/s"]
    back = run_drill(
        "start", "--plain", "--question", QUESTION, input=f"{PARTIAL}\nflip 2\nflip 2\n\n"
    )
    assert "All marks are the grader's again:" in back.stdout


def test_the_last_prompt_takes_a_whole_answer_mark_and_refuses_other_words():
    full = "108 × 64 × 2 (FMA = 2 FLOPs) × 1.41 GHz ≈ 19.5 TFLOP/s"
    result = run_drill("start", "--plain", "--question", QUESTION, input=f"{full}\nnope\nwrong\n")
    assert "here type flip N, right or wrong" in result.stdout
    assert "Marked wrong by you." in result.stdout and "1 question, 0 correct" in result.stdout


def test_answer_time_runs_from_when_the_question_is_shown():
    from drill.content.bank.cache import cached_bank
    from drill.content.catalog import load_catalog
    from drill.runs.factory import new_session
    from drill.runs.practice import SessionConfig
    from tests.helpers import FakeClock

    clock = FakeClock()
    plan = [("concept", QUESTION), ("concept", "ridge-point-meaning")]
    session = new_session(
        SessionConfig(count=2, seed=1, topic="concepts", plan=plan),
        load_catalog(include_user=False),
        cached_bank(),
        clock=clock,
    )
    session.question_shown()
    clock.now += 3
    session.answer(PARTIAL)
    clock.now += 60  # a minute reading and flipping the feedback
    session.flip_last([2])
    session.question_shown()
    clock.now += 4
    second = session.answer("ridge = peak / bandwidth")
    assert second.seconds == 4
