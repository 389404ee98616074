"""The mock interview in the app, under Pilot with a fake clock."""

from __future__ import annotations

import contextlib

import pytest
from textual.widgets import Input

from drill.runs.options import MockOptions
from drill.ui.tui.app import make_app
from drill.ui.tui.screens.mock import MockScreen, ScorecardScreen
from tests.helpers import FakeClock, right_answer
from tests.tui.helpers import text_of

SIZE = (110, 36)


async def started(pilot) -> MockScreen:
    for _ in range(300):
        screen = pilot.app.screen
        if isinstance(screen, MockScreen) and screen.interview is not None:
            return screen
        await pilot.pause(0.02)
    raise AssertionError("the interview never started")


async def answer(pilot, text: str) -> None:
    pilot.app.screen.query_one("#answer", Input).value = text
    await pilot.press("enter")
    await pilot.pause()


@pytest.mark.slow
async def test_a_perfect_interview_reaches_the_top_band(drill_home):
    clock = FakeClock()
    app = make_app(lang="en", clock=clock, mock=MockOptions(seed=5, minutes=30))
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        while not screen.interview.finished:
            clock.now += 20
            await answer(pilot, right_answer(screen.interview.current))
        await pilot.pause()
        assert isinstance(app.screen, ScorecardScreen)
        card = text_of(app, "#scorecard")
        assert "100 % — ready" in card
        assert "unanswered" not in card
        await pilot.press("m")
        await pilot.pause()
        assert "Report written to" in text_of(app, "#report-note")


@contextlib.asynccontextmanager
async def one_answer_in():
    """A 10-minute interview in the app with its first question answered right."""
    clock = FakeClock()
    app = make_app(lang="en", clock=clock, mock=MockOptions(seed=6, minutes=10))
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await answer(pilot, right_answer(screen.interview.current))
        yield app, pilot, screen, clock


async def test_time_running_out_ends_the_interview(drill_home):
    async with one_answer_in() as (app, pilot, screen, clock):
        clock.now += 10 * 60 + 5
        screen.tick()
        await pilot.pause()
        assert isinstance(app.screen, ScorecardScreen)
        statuses = [item.status for item in app.screen.card.items]
        assert statuses.count("unanswered") == len(statuses) - 1 == 8
        assert "Time is up" in text_of(app, "#scorecard")


async def test_hints_cost_and_feedback_each(drill_home):
    clock = FakeClock()
    app = make_app(lang="en", clock=clock, mock=MockOptions(seed=7, minutes=30, feedback="each"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        await pilot.press("f1")
        assert "Hint 1/3 (−15 %)" in text_of(app, "#message")
        await answer(pilot, right_answer(screen.interview.current))
        feedback = text_of(app, "#feedback")
        assert "correct (0.85)" in feedback and "Expected" in feedback
        await pilot.press("n")
        await pilot.pause()
        assert text_of(app, "#feedback").strip() == ""


async def test_feedback_waits_for_the_end_by_default(drill_home):
    clock = FakeClock()
    app = make_app(lang="en", clock=clock, mock=MockOptions(seed=7, minutes=30))
    async with app.run_test(size=SIZE) as pilot:
        screen = await started(pilot)
        first = screen.interview.current
        await answer(pilot, "1")
        assert text_of(app, "#feedback").strip() == ""
        assert screen.interview.current is not first  # one way: on to the next question
        noted = f"Answer to question {first.id} noted."
        assert text_of(app, "#message").strip() == noted  # it names the answer it is about
        await pilot.press("4")  # the first keystroke of the next answer clears it
        await pilot.pause()
        assert text_of(app, "#message").strip() == ""


async def test_a_mock_left_early_says_so_on_its_scorecard_and_in_its_report(drill_home):
    async with one_answer_in() as (app, pilot, _, _):
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        for _ in range(100):
            if isinstance(app.screen, ScorecardScreen):
                break
            await pilot.pause(0.02)
        card = " ".join(text_of(app, "#scorecard").split())
        assert "Ended early: this interview is kept out of your mock trend" in card
        await pilot.press("m")
        await pilot.pause()
        written = app.screen.written
        assert written is not None and "Ended early" in written.read_text(encoding="utf-8")
