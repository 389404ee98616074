"""The key bar tells the truth: every key it shows does what it says, in every kind of
question, and no command letter ever lands in an answer box."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from drill.runs.options import MockOptions, PracticeOptions
from drill.ui.render.plotpoints import plot_spec
from drill.ui.tui.app import make_app
from drill.ui.tui.screens.dialogs import ConfirmScreen, HelpScreen
from drill.ui.tui.screens.practice import PracticeScreen
from drill.ui.tui.widgets.keybar import KeyBar
from drill.ui.tui.widgets.paging import in_view
from tests.tui.helpers import START, frozen, text_of, wait_for_question

PRESS = {"Enter": "enter", "F1": "f1", "F2": "f2", "F3": "f3", "F4": "f4", "Esc": "escape"}
PRESS.update({"PgUp/PgDn": "pagedown", "r": "r", "w": "w", "r/w": "r", "1-9": "1"})

# (session options, question number) that open on each kind of question.
KINDS = {
    "number": (START, 1),
    "choice (scenario)": (PracticeOptions(seed=3, count=1, skills=("bound",)), 1),
    "free": (PracticeOptions(seed=1, questions=("peak-flops-formula",)), 1),
    "choice (bank)": (PracticeOptions(seed=1, questions=("tensor-core-peak",)), 1),
    "truefalse": (PracticeOptions(seed=1, questions=("peak-depends-on-op",)), 1),
    "multi": (PracticeOptions(seed=1, questions=("intensity-ranking",)), 1),
}


def shown(screen) -> list[str]:
    return list(screen.query_one(KeyBar).keys)


async def reach(pilot, number: int) -> PracticeScreen:
    screen = await wait_for_question(pilot)
    while screen.session.current.number < number:
        await pilot.press("f2", "enter")
        await pilot.pause()
    return screen


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(KINDS))
async def test_every_key_shown_works_and_types_nothing(drill_home, kind):
    options, number = KINDS[kind]
    app = make_app(lang="en", start=options, clock=frozen)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await reach(pilot, number)
        question = screen.session.current
        assert question.kind == kind.split()[0]
        box = screen.query_one("#answer", Input)
        for _ in range(40):  # focus lands with the question's first refresh
            if box.has_focus:
                break
            await pilot.pause(0.05)
        assert box.has_focus
        # Letters that were commands once are typed like any other.
        await pilot.press(*"hspqn?")
        assert box.value == "hspqn?"
        keys = shown(screen)
        # F1 is on the bar where the question has a rung of hints to give
        hint = ["hint"] if question.hints("en") else []
        plot = ["plot"] if plot_spec(question, None) is not None else []  # F3 where one is
        assert keys == ["enter", *hint, "skip", *plot, "help", "leave", "scroll"]
        typed = box.value
        bar = screen.query_one(KeyBar)
        for name in keys:
            if name in ("enter", "skip", "scroll"):
                continue  # below: they end the question
            plot_was_in_view = in_view(
                screen.query_one("#practice-body"), screen.query_one("#plot")
            )
            await pilot.press(PRESS[bar.key_for(name)])
            await pilot.pause()
            assert box.value == typed, (name, box.value)  # nothing typed by a command
            if name == "hint":
                assert text_of(app, "#message").strip()
            elif name == "plot":
                message = text_of(app, "#message").strip().splitlines()[-1]  # under the hint
                body, plot = screen.query_one("#practice-body"), screen.query_one("#plot")
                if plot_spec(question, None) is None:
                    assert message.startswith("No plot"), message
                elif plot_was_in_view:
                    assert message == "Plot hidden (F3 shows it).", message
                else:  # below the fold: F3 goes to the plot rather than hiding it
                    assert screen.show_plot and in_view(body, plot)
            elif name == "help":
                assert isinstance(app.screen, HelpScreen)
                await pilot.press("escape")
                await pilot.pause()
            elif name == "leave":
                assert isinstance(app.screen, ConfirmScreen)
                await pilot.press("n")
                await pilot.pause()
            assert app.screen is screen
        # Enter on an empty box asks for an answer instead of quoting nothing.
        box.value = ""
        await pilot.press("enter")
        await pilot.pause()
        assert "Type an answer" in text_of(app, "#message")
        await pilot.press("f2")  # skip: the feedback, with its own keys
        await pilot.pause()
        assert screen.feedback_for is not None
        body = screen.query_one("#practice-body")
        assert body.has_focus and not box.has_focus
        keys = shown(screen)
        plot = ["plot"] if plot_spec(question, screen.feedback_for) is not None else []
        assert keys[:1] == ["next"] and keys[-3 - len(plot) :] == [*plot, "help", "leave", "scroll"]
        for name in ("help", "leave", *plot):
            await pilot.press(PRESS[bar.key_for(name)])
            await pilot.pause()
            if name == "help":
                assert isinstance(app.screen, HelpScreen)
                await pilot.press("escape")
            elif name == "leave":
                assert isinstance(app.screen, ConfirmScreen)
                await pilot.press("n")
            await pilot.pause()
            assert app.screen is screen
        # Keys the bar does not show do nothing: no hint or skip on the feedback.
        result = screen.feedback_for
        await pilot.press("f1", "f2")
        await pilot.pause()
        assert screen.feedback_for is result and len(screen.session.results) == number
        assert box.value == ""
        last = number == screen.session.total
        await pilot.press("enter")  # next
        await pilot.pause()
        if last:
            assert not isinstance(app.screen, PracticeScreen)  # the run ended: its summary
        else:
            assert app.screen is screen and screen.feedback_for is None


async def test_feedback_is_reached_by_keyboard_at_80x24(drill_home):
    app = make_app(lang="en", start=START, clock=frozen)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_question(pilot)
        await pilot.press(*"12", "enter")
        await pilot.pause()
        body = screen.query_one("#practice-body")
        assert body.max_scroll_y > 0  # the feedback does not fit: it has to be scrolled
        for _ in range(20):
            if body.scroll_y >= body.max_scroll_y:
                break
            await pilot.press("pagedown")
            await pilot.pause()
        assert body.scroll_y == body.max_scroll_y
        # The last line of the feedback, "Enter or n: next question", is on screen.
        feedback = screen.query_one("#solution")
        assert feedback.region.bottom <= screen.region.bottom - 1
        assert app.screen.get_widget_at(2, feedback.region.bottom - 1)[0] is feedback
        await pilot.press("pageup")
        await pilot.pause()
        assert body.scroll_y < body.max_scroll_y
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.current.number == 2 and screen.feedback_for is None


async def test_mock_keys_type_nothing(drill_home):
    app = make_app(lang="en", clock=frozen, mock=MockOptions(seed=7, minutes=30))
    async with app.run_test(size=(100, 34)) as pilot:
        for _ in range(200):
            screen = app.screen
            if getattr(screen, "interview", None) is not None:
                break
            await pilot.pause(0.02)
        box = screen.query_one("#answer", Input)
        await pilot.press(*"hsqn")
        assert box.value == "hsqn"
        assert shown(screen) == ["enter", "hint", "skip", "leave", "scroll"]
        await pilot.press("f1")
        await pilot.pause()
        assert "Hint 1/3" in text_of(app, "#message") and box.value == "hsqn"
