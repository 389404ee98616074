"""The real app under Pilot: every screen flow a user takes, with a temporary DRILL_HOME."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from textual.widgets import DataTable, Input

from drill.content.catalog import load_catalog
from drill.runs.factory import new_session
from drill.runs.options import PracticeOptions
from drill.runs.practice import SessionConfig
from drill.ui.tui.app import make_app
from drill.ui.tui.screens.calculator import CalculatorScreen
from drill.ui.tui.screens.catalog import CardScreen, CatalogScreen
from drill.ui.tui.screens.home import HomeScreen
from drill.ui.tui.screens.practice import PracticeScreen
from drill.ui.tui.screens.summary import SummaryScreen
from drill.ui.tui.widgets.points import PointList
from tests.helpers import right_answer, typed
from tests.tui.helpers import (
    START,
    frozen,
    text_of,
    type_answer,
    until,
    wait_for_question,
    workers_done,
)

SIZE = (100, 34)


def expected_questions():
    session = new_session(
        SessionConfig(count=2, seed=7, skills=["gemm-intensity"], difficulty=1, topic="numeric"),
        load_catalog(include_user=False),
    )
    asks = []
    while not session.finished:
        asks.append(session.current.ask)
        session.skip()
    return asks


async def test_home_opens_a_practice_session(drill_home):
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, HomeScreen)
        app.screen.action_open("practice")
        await wait_for_question(pilot)
        assert text_of(app, "#progress").startswith("Question 1 of ")
        assert text_of(app, "#scenario").strip()


async def test_practice_right_then_wrong_then_summary(drill_home):
    asks = expected_questions()
    app = make_app(lang="en", start=START, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_question(pilot)
        assert "arithmetic intensity" in text_of(app, "#scenario")
        await type_answer(pilot, right_answer(asks[0]))
        feedback = text_of(app, "#feedback")
        assert "correct" in feedback and "Worked solution" in text_of(app, "#solution")
        await pilot.press("n")
        await pilot.pause()
        wrong = dict(asks[1].mistakes)["fma-factor"]
        await type_answer(pilot, typed(asks[1], wrong))
        feedback = text_of(app, "#feedback")
        assert "any one of these gives your answer" in feedback and "multiply-add" in feedback
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        summary = text_of(app, "#summary")
        assert "2 questions, 1 correct" in summary
        assert "FMA counted as 1 FLOP" in summary and "fma-factor" not in summary


async def test_unparseable_answer_stays_inline(drill_home):
    app = make_app(lang="en", start=START, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        first = screen.session.current
        await type_answer(pilot, "a lot")
        assert "number" in text_of(app, "#message")
        assert screen.session.current is first and not screen.session.results


async def test_hint_skip_and_leave_with_confirmation(drill_home):
    app = make_app(lang="en", start=START, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        await pilot.press("f1")
        assert "Formula" in text_of(app, "#message")
        await pilot.press("f2")
        await pilot.pause()
        assert "skipped" in text_of(app, "#feedback")
        await pilot.press("n")
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("n")  # stay
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)


@pytest.mark.slow
async def test_calculator_updates_when_a_shape_changes(drill_home):
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, CalculatorScreen)
        await pilot.pause(0.1)
        before = text_of(app, "#calc-result")
        assert "1365 FLOP/B" in before  # 4096³ fp16 on the A100
        app.screen.query_one("#p-m", Input).value = "1"
        await pilot.pause(0.1)
        after = text_of(app, "#calc-result")
        assert "memory-bound" in after and after != before
        app.screen.query_one("#p-m", Input).value = "zero"
        await pilot.pause(0.1)
        assert "-M" in text_of(app, "#calc-result")


async def test_catalog_opens_a_card(drill_home):
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, CatalogScreen)
        table = app.screen.query_one(DataTable)
        assert table.row_count >= 16
        await pilot.press("3")  # sort by bandwidth, largest first
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CardScreen)
        assert app.screen.card.id == "b200"
        assert "Sources" in text_of(app, "#card-panel")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, CatalogScreen)


async def test_language_switch_shows_chinese(drill_home):
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        await pilot.pause()
        from textual.widgets import Select

        app.screen.query_one("#set-language", Select).value = "zh"
        await pilot.press("ctrl+s")
        await pilot.pause(0.2)
        assert app.lang == "zh"
        assert isinstance(app.screen, HomeScreen)
        assert "练习" in str(app.screen.query_one("#home-options").render_line(0))
    from drill.config import settings

    assert settings.load().language == "zh"
    app = make_app(start=START, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_question(pilot)
        assert "算术强度" in text_of(app, "#scenario")
        assert "第 1 题" in text_of(app, "#progress")


async def test_small_terminal_hides_the_plot(drill_home):
    app = make_app(lang="en", start=replace(START, skills=("ridge-point",)), clock=frozen)
    async with app.run_test(size=(70, 19)) as pilot:  # above the app's minimum of 60x18
        screen = await wait_for_question(pilot)
        await pilot.pause()  # the plot comes one frame after the question
        assert not screen.query_one("#plot").display
        assert "enlarge" in text_of(app, "#plot-note")


async def test_answers_in_the_app_reach_the_history(drill_home):
    from drill.learning.stats.queries import compute
    from drill.store.history import History

    asks = expected_questions()
    app = make_app(lang="en", start=START, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_question(pilot)
        await type_answer(pilot, right_answer(asks[0]))
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
    history = History.open()
    stats = compute(history)
    history.close()
    assert stats.overview.attempts == 2 and stats.overview.skipped == 1
    assert stats.overview.accuracy == 0.5


async def test_stats_screen_shows_the_history(drill_home):
    # A known history: one session with a wrong, a right and a skipped answer.
    from drill.store.history import History
    from drill.store.records import Attempt, SessionRecord
    from drill.store.timeutil import utc_iso

    now = utc_iso()
    with History.open() as history:
        session = history.start_session(SessionRecord(mode="plain", started_utc=now, seed=3))
        for skill, score, skipped in (
            ("decode-latency", 0.0, False),
            ("sol-diagnosis", 1.0, False),
            ("gemv-intensity", 0.0, True),
        ):
            history.add_attempt(
                session,
                Attempt(
                    item_kind="skill",
                    skill=skill,
                    score=score,
                    correct=score == 1.0,
                    seconds=20.0,
                    answered_utc=now,
                    skipped=skipped,
                ),
            )
        history.end_session(session)
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("s")
        for _ in range(100):
            await pilot.pause(0.05)
            if "Overview" in text_of(app, "#stats"):  # not "Reading": a skill is named so
                break
        raw = text_of(app, "#stats").splitlines()
        lines = [" ".join(line.split()) for line in raw]
    overview = lines[lines.index("Overview") :][:4]
    assert overview == [
        "Overview",
        "Sessions 1",
        "Answers (a case's steps each count) 3 (1 correct, 1 skipped)",
        "Mean score 33 %",
    ]
    # Per-skill table, weakest first: name, attempts, accuracy, … (columns apart by spaces)
    rows = [
        re.split(r"\s{2,}", line.strip())[:3]
        for line in raw
        if line.strip().startswith(("Decode", "GEMV", "Speed-of-Light"))
    ]
    assert rows == [
        ["Decode latency lower bound", "1", "0 %"],
        ["GEMV arithmetic intensity", "1", "0 %"],
        ["Speed-of-Light diagnosis", "1", "100 %"],
    ]


async def test_quick_reference_opens_from_home(drill_home):
    app = make_app(lang="zh", clock=frozen)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        shown = text_of(app, "#reference")
        assert "速查表" in shown and "现象" in shown


async def test_conceptual_questions_and_self_mark(drill_home):
    app = make_app(
        lang="en", clock=frozen, start=PracticeOptions(seed=2, count=6, topic="concepts")
    )
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        for _ in range(6):
            question = screen.session.current
            if question.kind == "free":
                break
            await type_answer(pilot, "a" if question.kind != "truefalse" else "true")
            await pilot.press("n")
            await pilot.pause()
        else:
            raise AssertionError("no free-text question in six")
        await pilot.press("s")  # a letter in a free-text answer is typed, not a command
        assert screen.query_one("#answer", Input).value == "s"
        await type_answer(pilot, "it depends on the bandwidth")
        points = screen.query_one("#points", PointList)
        assert points.display and "✗" in str(points.get_option_at_index(1).prompt)
        assert "r: mark it all right" in text_of(app, "#solution")
        await pilot.press("r")
        await pilot.pause()
        assert screen.session.results[-1].self_mark is True
        assert "Marked right" in text_of(app, "#message")


async def visible_cells(pilot, selector: str) -> int:
    """How many cells of the widget lie inside the terminal once layout and scrolling settle
    (0: cut off or hidden)."""
    app = pilot.app
    cells = 0
    for _ in range(50):
        widget = app.screen.query_one(selector)
        cells = app.screen.region.intersection(widget.region).area if widget.display else 0
        if cells:
            break
        await pilot.pause(0.02)
    return cells


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (60, 18)])
async def test_every_screen_shows_its_content_on_small_terminals(drill_home, size):
    from drill.ui.tui.screens.reference import ReferenceScreen
    from drill.ui.tui.screens.settings import SettingsScreen
    from drill.ui.tui.screens.stats import StatsScreen

    app = make_app(lang="zh", start=START, clock=frozen)
    async with app.run_test(size=size) as pilot:
        await wait_for_question(pilot)
        assert text_of(app, "#progress").startswith("第 1 题 / 共 2 题")
        assert await visible_cells(pilot, "#progress") == size[0]
        assert "它的算术强度是多少？" in text_of(app, "#scenario")
        assert await visible_cells(pilot, "#scenario") > 0
        await type_answer(pilot, "12")
        feedback = text_of(app, "#feedback")
        assert feedback.startswith("错误") and "标准答案：473.9 FLOP/B" in feedback
        if size == (80, 24):  # at 60x18 the question alone fills the body; feedback is below
            assert await visible_cells(pilot, "#feedback") > 0
        screens = [
            (CalculatorScreen(), "#calc-op", None),
            (CatalogScreen(), "#catalog", None),
            (SettingsScreen(), "#set-language", None),
            (StatsScreen(), "#stats", "概览"),
            (ReferenceScreen(), "#reference", "速查表"),  # its name, then the formulas
            (CardScreen("h100"), "#card-title", "NVIDIA H100 SXM5 80GB"),
        ]
        for screen, selector, title in screens:
            app.push_screen(screen)
            for _ in range(100):  # the stats page is read by a worker
                await pilot.pause(0.02)
                if title is None or text_of(app, selector).startswith(title):
                    break
            assert app.screen is screen
            assert await visible_cells(pilot, selector) > 0, (type(screen).__name__, selector)
            if title is not None:
                assert text_of(app, selector).startswith(title)
            if isinstance(screen, CatalogScreen):
                assert screen.query_one(DataTable).row_count >= 16
            app.pop_screen()
            await pilot.pause()
        assert isinstance(app.screen, PracticeScreen)


async def test_home_shows_cards_due_and_review_with_nothing_due_goes_home(drill_home):
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(pilot)  # the count, posted by its worker
        assert "New here? l runs the placement test" in text_of(app, "#home-due")
    app = make_app(lang="en", clock=frozen, start=PracticeOptions(mode="review"))
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(pilot)  # the run's worker fails: said, then home
        await workers_done(pilot)  # the home screen's own count
        assert isinstance(app.screen, HomeScreen)
        assert "New here?" in text_of(app, "#home-due")


async def test_help_states_the_rating_rule(drill_home):
    app = make_app(lang="en", start=START, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_question(pilot)
        await pilot.press("f4")
        await pilot.pause()
        shown = str(app.screen.query_one("#help Static").content)
        assert "Again" in shown and "Easy" in shown and "Grading" in shown


@pytest.mark.slow
async def test_each_feedback_opens_on_the_answer_row_and_then_stays_where_the_user_scrolls(
    drill_home,
):
    from rich.text import Text

    from tests.tui.helpers import settle

    start = replace(START, skills=("ridge-point",), count=4)
    app = make_app(lang="en", start=start, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        body, row = screen.query_one("#practice-body"), screen.query_one("#answer-row")
        for _ in range(3):
            await type_answer(pilot, "12.5")
            await settle(pilot)
            assert body.scroll_y > 0
            assert row.region.y - row.styles.margin.top == body.region.y  # the row leads
            await pilot.press("pageup")  # the user scrolls; the content then changes
            await settle(pilot)
            where = body.scroll_y
            screen.query_one("#message").show(Text("\n".join(["more"] * 8)))
            await settle(pilot)
            assert body.scroll_y == where
            await pilot.press("enter")
            await wait_for_question(pilot)


async def test_a_skip_made_up_later_is_not_called_nothing_missed(drill_home):
    """The round-7 repro: one skipped ridge point, the next one right. Nothing is left to
    practise again, but the summary does not say "Nothing missed: well done."."""
    start = PracticeOptions(skills=("ridge-point",), seed=3, count=2)
    app = make_app(lang="en", start=start, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        await pilot.press("f2")
        await pilot.pause()
        await pilot.press("enter")
        await until(
            pilot, lambda: screen.session.current is not None and screen.feedback_for is None, "q2"
        )
        await type_answer(pilot, right_answer(screen.session.current))
        await until(pilot, lambda: screen.feedback_for is not None, "feedback")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "summary")
        summary = " ".join(text_of(app, "#summary").split())
        assert "1 skipped" in summary and "Nothing missed" not in summary
        assert "Nothing to practise again" in summary


async def answer_one_and_leave(start: PracticeOptions):
    """The first question answered right, then Esc and y: the item it asked, the summary's
    text and the summary itself."""
    app = make_app(lang="en", start=start, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        first = screen.session.current.item
        await type_answer(pilot, right_answer(screen.session.current))
        await until(pilot, lambda: screen.feedback_for is not None, "feedback")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "summary")
        return first, " ".join(text_of(app, "#summary").split()), app.screen.summary


async def test_a_run_left_early_names_what_it_never_asked(drill_home):
    """The run-through's repro: practise-again left after its first item said "Nothing
    missed: well done." though two missed items were never asked."""
    start = PracticeOptions(skills=("ridge-point", "peak-from-specs", "bound"), seed=3, count=3)
    first, said, summary = await answer_one_and_leave(start)
    assert "Nothing missed" not in said
    assert "Not asked or not finished, as the session was left first:" in said
    assert len(summary.not_asked) == 2 and first not in summary.not_asked


async def test_an_internal_error_ends_the_app_with_one_line_and_a_report_file(drill_home, capfd):
    """A bug must not put a traceback with locals (answers, paths, settings) on the terminal:
    the app says in one line what stopped it and where the details are."""
    from drill.config import paths

    app = make_app(lang="en", clock=frozen)
    with pytest.raises(ZeroDivisionError):
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app.call_later(lambda: 1 / 0)
            await pilot.pause()
    (report,) = paths.data_dir().glob("crash-*.txt")
    assert "ZeroDivisionError" in report.read_text(encoding="utf-8")
    shown = capfd.readouterr()
    assert "Traceback" not in shown.out + shown.err  # nothing raw on the terminal
    said = app.crash_line
    assert said.startswith("drill stopped on an internal error (ZeroDivisionError: division")
    assert str(report) in said and "\n" not in said


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_daily_challenge_runs_from_home_and_ends_on_its_result(drill_home, lang):
    """d on the home screen: the day's five questions under their intro, then the line to
    share, a square per question and the streak, as drill daily prints them."""
    from drill.i18n import tr
    from drill.ui.tui.screens.daily import DailyResultScreen, DailyScreen

    app = make_app(lang=lang, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        screen = await wait_for_question(pilot)
        assert isinstance(screen, DailyScreen)
        assert tr("daily-intro", lang, day=screen.session.day.isoformat()) in " ".join(
            text_of(app, "#scenario").split()
        )
        for _ in range(20):
            if isinstance(app.screen, DailyResultScreen):
                break
            if screen.feedback_for is None and screen.session.current is not None:
                await pilot.press("f2")  # skip
            else:
                await pilot.press("enter")
            await pilot.pause()
        await until(pilot, lambda: isinstance(app.screen, DailyResultScreen), "result")
        shown = text_of(app, "#daily-result")
        assert tr("daily-share", lang, day=screen.session.day.isoformat(), right=0, total=5,
                  time="0:00").split(" · ")[0] in shown  # fmt: skip
        assert tr("daily-streak", lang, days=1) in shown  # today's answers count
        assert tr("daily-legend", lang) in shown
        listed = [line for line in shown.splitlines() if line[:1] in "🟩🟨🟥⬜" and ". " in line]
        assert [line.split()[1] for line in listed] == ["1.", "2.", "3.", "4.", "5."]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_a_case_left_after_its_first_step_is_not_called_clean(drill_home):
    """The second run-through's repro: one step of six answered right, then Esc: the summary
    said "1 question, 1 correct … Nothing missed: well done."."""
    start = PracticeOptions(skills=("roofline-case",), seed=5, count=1)
    case, said, summary = await answer_one_and_leave(start)
    assert "Nothing missed" not in said
    assert "Not asked or not finished, as the session was left first:" in said
    assert summary.not_asked == (case,)


async def test_a_long_chinese_answer_is_shown_as_typed(drill_home):
    """The second run-through: "位宽除以8" came back as "位宽除以 8", spaced by the app."""
    start = PracticeOptions(questions=("achievable-bandwidth",), seed=1, count=1)
    typed_text = "带宽等于位宽除以8再乘每引脚速率，HBM是DDR的不要再乘2，" * 3
    app = make_app(lang="zh", start=start, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        await type_answer(pilot, typed_text)
        await until(pilot, lambda: screen.feedback_for is not None, "feedback")
        shown = "".join(text_of(app, "#feedback").split("\n"))
        assert "位宽除以8再乘" in shown and "HBM是DDR的" in shown
