"""``drill start --no-save`` holds for every run the app starts, not only the first one."""

from __future__ import annotations

import pytest

from drill.runs.recording import flush
from drill.ui.tui.app import make_app
from drill.ui.tui.screens.home import HomeScreen
from drill.ui.tui.screens.placement import PlacementScreen, ProfileScreen
from drill.ui.tui.screens.practice import PracticeScreen
from drill.ui.tui.screens.summary import SummaryScreen
from tests.helpers import right_answer
from tests.reliability.helpers import stored_sessions
from tests.tui.helpers import START, frozen, type_answer, until, wait_for_question

SIZE = (100, 34)


async def answer_one_and_leave(pilot, kind: type, ends_on: type) -> None:
    screen = await wait_for_question(pilot)
    assert type(screen) is kind
    await type_answer(pilot, right_answer(screen.session.current))
    await pilot.press("escape")
    await pilot.pause()
    await pilot.press("y")
    for _ in range(100):
        if isinstance(pilot.app.screen, ends_on):
            break
        await pilot.pause(0.02)
    assert isinstance(pilot.app.screen, ends_on)
    await pilot.press("escape")
    await pilot.pause()
    assert isinstance(pilot.app.screen, HomeScreen)


@pytest.mark.slow
@pytest.mark.parametrize("record", [False, True], ids=["no-save", "saved"])
async def test_no_save_holds_for_practice_and_placement_started_from_home(drill_home, record):
    app = make_app(lang="en", start=START, clock=frozen, record=record)
    async with app.run_test(size=SIZE) as pilot:
        await answer_one_and_leave(pilot, PracticeScreen, SummaryScreen)
        await pilot.press("p")
        await answer_one_and_leave(pilot, PracticeScreen, SummaryScreen)
        await pilot.press("l")
        await answer_one_and_leave(pilot, PlacementScreen, ProfileScreen)
    flush()
    attempts = [attempt for session in stored_sessions() for attempt in session.attempts]
    assert len(attempts) == (3 if record else 0)


@pytest.mark.parametrize("record", [False, True], ids=["no-save", "saved"])
async def test_the_leave_dialog_says_whether_answers_are_kept(drill_home, record):
    from drill.ui.tui.screens.dialogs import ConfirmScreen

    app = make_app(lang="en", start=START, clock=frozen, record=record)
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        said = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "Nothing is answered yet" in said and "leave for the home screen" in said
        await pilot.press("n")
        await pilot.pause()
        await type_answer(pilot, right_answer(screen.session.current))
        await until(pilot, lambda: screen.feedback_for is not None, "feedback")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        said = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert ("Answers so far are kept" in said) is record
        assert ("nothing is kept" in said) is not record
        assert "see the summary" in said
