"""The mock interview: the chain, the clock, hints, the scorecard, the report, the history."""

from __future__ import annotations

import json

from drill.content.bank import load_bank
from drill.content.catalog import load_catalog
from drill.grading.numbers import HINT_COSTS
from drill.runs.interview import MockConfig, MockInterview
from drill.runs.protocol import ResultRecorded, RunFinished
from drill.ui.render.report_md import report
from tests.helpers import FakeClock, right_answer, run_drill

CATALOG = load_catalog(include_user=False)
BANK = load_bank(include_user=False)


def interview(seed: int = 4, minutes: float = 30, clock=None, previous=None, **kw) -> MockInterview:
    return MockInterview(
        MockConfig(minutes=minutes, seed=seed, **kw),
        CATALOG,
        BANK,
        clock=clock or FakeClock(),
        previous=previous,
    )


def test_the_chain_case_then_follow_ups_then_design():
    mock = interview()
    stages = []
    while not mock.finished:
        stages.append(mock.current_item.stage)
        mock.answer(right_answer(mock.current))
    assert stages[:6] == ["case"] * 6
    assert [mock.items[i].question.ask.key for i in range(6)] == [
        "intensity",
        "ridge",
        "bound",
        "attainable",
        "efficiency",
        "direction",
    ]
    assert stages[6:-1] == ["follow-up"] * 3 and stages[-1] == "design"
    card = mock.scorecard()
    assert card.score == 1.0 and card.band == "ready"


def test_the_count_every_header_shows_is_the_count_asked():
    """ "Question 1 of N" is the interview's N before the follow-ups are picked, whatever the
    case, the length and the answers."""
    for seed, minutes, case in [(1, 30, "kernel"), (2, 10, "serving"), (3, 15, "kernel")]:
        mock = interview(seed, minutes, case=case)
        counts = []
        while not mock.finished:
            counts.append(mock.question_count)
            mock.skip() if seed % 2 else mock.answer(right_answer(mock.current))
        assert set(counts) == {len(mock.items)} and len(counts) == len(mock.items)


def test_a_wrong_bound_leads_to_a_bound_follow_up():
    for seed in range(30):
        mock = interview(seed=seed)
        while mock.current_item.stage == "case":
            key = mock.current.ask.key
            if key == "bound":
                wrong = "a" if mock.current.ask.expected == "compute" else "b"
                mock.answer(wrong)
            else:
                mock.answer(right_answer(mock.current))
        follow = [i.question.concept for i in mock.items if i.stage == "follow-up"]
        assert "bound" in follow[0].skills, (seed, follow[0].id)


def test_a_follow_up_never_works_out_a_figure_the_case_already_asked_for():
    """A missed intensity step leads to an intensity question, but not to the case's own GEMM
    again (the round-8 reader got "Estimate the intensity of a 4096 GEMM" after a 4096 GEMM)."""
    from drill.grading.text import numbers_in

    repeats = []
    for seed in range(40):
        mock = interview(seed=seed)
        figures = [a.expected for a in mock.items[0].question.scenario.asks]
        figures = [f for f in figures if isinstance(f, float) and f]
        while mock.current_item.stage == "case":
            mock.answer("a" if mock.current.ask.options else "1")
        for item in mock.items:
            if item.stage == "follow-up":
                said = [n.value for n in numbers_in(item.question.concept.answer["en"])]
                if any(abs(v - f) <= 0.01 * abs(f) for v in said for f in figures):
                    repeats.append((seed, item.question.concept.id))
    assert not repeats


def test_the_serving_case_leads_on_to_serving_questions():
    """A missed KV-capacity step brings a KV-cache follow-up; a serving case with nothing
    missed still follows with system design, and its design question is another serving one
    (the kernel case's is the decode latency)."""
    for seed in range(12):
        mock = interview(seed=seed, case="serving")
        while mock.current_item.stage == "case":
            key = mock.current.ask.key
            mock.answer("1" if key == "kv-capacity" else right_answer(mock.current))
        follow = [i.question.concept for i in mock.items if i.stage == "follow-up"]
        assert {"kv-cache", "kv-bound"} & set(follow[0].skills), (seed, follow[0].id)
        assert mock.items[-1].question.item.id == "sla-batch"
    mock = interview(seed=3, case="serving")
    while mock.current_item.stage == "case":
        mock.answer(right_answer(mock.current))
    topics = {i.question.concept.topic for i in mock.items if i.stage == "follow-up"}
    assert topics <= {"system-design", "batch-slower", "bigger-card"}
    kernel = interview(seed=3)
    while not kernel.finished:
        kernel.skip()
    assert kernel.items[-1].question.item.id == "decode-latency"


def test_a_wrong_bound_is_not_ready_whatever_the_total():
    """Everything right but the bound: 90 % or more, which the score alone calls ready; the
    scorecard says close, and why, in both languages and the JSON."""
    mock = interview(seed=5)
    while not mock.finished:
        ask = mock.current.ask
        if ask is not None and ask.key == "bound" and mock.current_item.stage == "case":
            mock.answer("a" if ask.expected == "compute" else "b")
        else:
            mock.answer(right_answer(mock.current))
    card = mock.scorecard()
    assert card.score >= 0.8 and card.band == "close" and card.capped
    assert card.band_text("en") == "close (80 % or more, but the bound was called wrong)"
    assert "瓶颈判断错误" in card.band_text("zh")
    assert card.to_json()["band"] == "close" and card.to_json()["capped"] is True
    assert "with the bound called right" in card.to_json()["band_rule"]


def test_the_serving_case_states_no_bound_clause_in_its_rule():
    """The serving case has no bound step: its rule says nothing of one."""
    mock = interview(seed=2, case="serving")
    while not mock.finished:
        mock.answer(right_answer(mock.current))
    card = mock.scorecard()
    assert not card.gated and "bound" not in card.band_rule("en")
    assert "瓶颈" not in card.band_rule("zh") and "bound" not in card.to_json()["band_rule"]


def test_the_change_is_the_difference_of_the_scores_shown():
    """88.5 % then 90.6 %: shown as 89 % and 91 %, so the change reads +2, as the two
    numbers on screen give it (88.5 % was shown as 88 % and the change as +2 beside 91)."""
    from drill.runs.interview import whole_percent
    from drill.ui.render.scorecard import change_line, score_line

    assert whole_percent(0.885) == 89 and whole_percent(0.906) == 91
    mock = interview(previous=0.885)
    while not mock.finished:
        mock.answer(right_answer(mock.current))
    card = mock.scorecard()
    card.score = 0.906
    assert score_line(card, "en").startswith("Score: 91 %")
    assert card.change_points == 2 and change_line(card, "en").endswith(": +2")


def test_time_running_out_ends_it_and_the_rest_is_unanswered():
    clock = FakeClock()
    recorded = []
    mock = interview(clock=clock, minutes=10)
    mock.subscribe(recorded.append)
    mock.answer(right_answer(mock.current))
    clock.now += 10 * 60 + 1
    assert mock.tick() and mock.finished and mock.timed_out
    card = mock.scorecard()
    assert [i.status for i in card.items].count("unanswered") == len(card.items) - 1
    assert len(card.items) == 6 + 2 + 1  # a 10-minute interview has two follow-ups
    assert card.score == 1 / len(card.items)
    assert all(isinstance(e, ResultRecorded) for e in recorded)
    # the question on screen when the time ran out is recorded; those never shown are not
    assert [e.result.unanswered for e in recorded] == [False, True]
    mock.finish()
    assert isinstance(recorded[-1], RunFinished) and len(recorded) == 3
    assert recorded[-1].score == card.score and not recorded[-1].ended_early


def test_hints_cost_the_stated_share():
    mock = interview()
    assert mock.hint() and mock.hint()
    result = mock.answer(right_answer(mock.current))
    assert result.score == round(1 - HINT_COSTS[0] - HINT_COSTS[1], 4)
    assert mock.items[0].hints and len(mock.items[0].hints) == 2


def test_report_has_its_sections():
    mock = interview(previous=0.5)
    mock.answer(right_answer(mock.current))
    mock.answer("12")
    mock.finish()
    text = report(mock.scorecard(), "en")
    for heading in ("# Mock interview report", "## Summary", "## Questions", "## Solutions"):
        assert heading in text
    assert "| 1 | case |" in text and "unanswered" in text
    assert "Ended early" in text and "Change since the previous mock" not in text  # left
    mock.ended_early = False  # had it run to its end, the change since the last one shows
    assert "Change since the previous mock" in report(mock.scorecard(), "en")
    mock.previous = None
    zh = report(mock.scorecard(), "zh")
    assert "## 总结" in zh and "## 参考解答" in zh


def test_plain_interview_from_a_file_is_scored_and_kept(tmp_path, drill_home):
    mock = interview(seed=8)
    answers = []
    while not mock.finished:
        answers.append(right_answer(mock.current))
        mock.answer(answers[-1])
    report_file = tmp_path / "mock.md"
    feed = tmp_path / "answers.txt"
    feed.write_text("\n".join(answers) + "\n", encoding="utf-8")
    with feed.open() as stdin:
        import subprocess
        import sys

        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "drill",
                "mock",
                "--plain",
                "--seed",
                "8",
                "--report",
                str(report_file),
            ],
            stdin=stdin,
            capture_output=True,
            text=True,
            env={**__import__("os").environ, "DRILL_HOME": str(drill_home)},
        )
    assert result.returncode == 0, result.stderr
    assert "== Scorecard ==" in result.stdout
    assert "100 % — ready" in result.stdout
    assert report_file.read_text().startswith("# Mock interview report")
    stats = json.loads(run_drill("stats", "--json").stdout)
    assert stats["overview"]["sessions"] == 1
    assert stats["overview"]["attempts"] == len(answers)
    assert stats["mock"] and stats["mock"][-1]["accuracy"] == 1.0


def test_jsonl_interview_and_time_left():
    result = run_drill("mock", "--jsonl", "--seed", "3", "--minutes", "15", input="skip\n" * 4)
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    questions = [e for e in events if e["type"] == "question"]
    assert questions[0]["stage"] == "case" and questions[0]["time_left_s"] > 800
    assert events[-1]["type"] == "summary" and events[-1]["mode"] == "mock"
    statuses = [q["status"] for q in events[-1]["questions"]]
    assert statuses.count("skipped") == 4 and "unanswered" in statuses


def test_bad_options_are_one_line_errors():
    result = run_drill("mock", "--plain", "--gpu", "mi300x")
    assert result.returncode == 2 and "NVIDIA" in result.stderr
    result = run_drill("mock", "--plain", "--report", "/nonexistent/dir/x.md")
    assert result.returncode == 2 and "does not exist" in result.stderr


def test_a_mock_left_early_is_kept_but_stays_out_of_the_trend(drill_home):
    """Left after one answer: the answers are in the history, the session says it ended
    early, and neither the stats' mock chart nor the next scorecard's change counts it."""
    from drill.learning.stats.queries import compute
    from drill.runs.interview import previous_mock_score
    from drill.runs.recording import Recorder
    from drill.store.history import History

    def taken(seed: int, leave_after: int | None) -> None:
        history = History.open()
        mock = interview(seed=seed)
        recorder = Recorder(history, "mock", mock.config, seed, "test")
        mock.subscribe(recorder.handle)
        answered = 0
        while not mock.finished and (leave_after is None or answered < leave_after):
            mock.answer(right_answer(mock.current))
            answered += 1
        mock.finish()

    taken(1, None)
    taken(2, 1)
    with History.open() as history:
        flags = [r[0] for r in history.conn.execute("SELECT settings_json FROM sessions")]
        assert sum('"ended_early":true' in f.replace(" ", "") for f in flags) == 1
        assert history.conn.execute("SELECT count(*) FROM attempts").fetchone()[0] > 10
        assert previous_mock_score(history) == 1.0  # the finished one, not the 13 % one
        assert [m.accuracy for m in compute(history).mock] == [1.0]


def test_the_review_of_a_free_answer_lists_the_points_it_covered_and_missed():
    """A scorecard's 0.25 on a conceptual answer names which rubric points counted: the
    review shows each point with its mark, as practice does, in both languages."""
    mock = interview(seed=1)  # its question 7 is a free answer
    free = None
    while mock.current is not None:
        question = mock.current
        if getattr(question, "concept", None) is not None and question.concept.rubric:
            free = mock.answer("the intensity is low so it is memory bound")
            break
        mock.skip()
    assert free is not None and free.points
    mock.finish()
    card = mock.scorecard()
    from drill.ui.render.scorecard import solutions

    for lang, head in (("en", "Rubric points"), ("zh", "评分要点")):
        (lines,) = [extra for qid, _, _, extra in solutions(card, lang) if qid == free.question.id]
        marked = [line for line in lines if line.lstrip()[:1].isdigit()]
        assert len(marked) >= len(free.points), lines
        assert any("✓" in line or "✗" in line for line in marked)
        assert any(head in line for line in lines), lines
        assert not any("flip" in line or "翻转" in line for line in lines)  # the mock is over
        contest = f"drill start --question {free.question.concept.id}"
        assert any(contest in line for line in lines), lines  # where the marks can be changed


def test_the_apps_chinese_review_spaces_latin_words_as_its_prose_does():
    """The app's scorecard puts a space between Chinese and a Latin word ("kernel 达到"), as
    the line mode and the practice screen do."""
    import io
    import re

    from rich.console import Console

    from drill.ui.render.scorecard import scorecard_view

    mock = interview(seed=3)
    while mock.current is not None:
        mock.skip()
    mock.finish()
    console = Console(width=100, file=io.StringIO(), color_system=None, record=True)
    console.print(scorecard_view(mock.scorecard(), "zh"))
    review = console.export_text().split("解题过程", 1)[1]
    assert "kernel 达到" in review or "kernel 已" in review or "kernel" not in review
    assert not re.search(r"[\u4e00-\u9fff][A-Za-z]|[A-Za-z][\u4e00-\u9fff]", review)


def test_a_score_shown_as_80_percent_is_ready_as_its_rule_says():
    """5.6 of 7 is 0.7999… in floating point: shown as 80 %, it is judged as 80 %."""
    from drill.runs.interview import band_for

    score = sum([1, 1, 1, 1, 1, 0.6, 0]) / 7
    assert score < 0.8 and round(score * 100) == 80
    assert band_for(score) == "ready"
    assert band_for(score, gate_missed=True) == "close"
    assert band_for(0.794) == "close" and band_for(0.5949) == "not-yet"
