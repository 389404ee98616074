"""The app's answer box caps its length as text is pasted or typed, and says so."""

from __future__ import annotations

import html
import time

from textual import events

from drill.ui.tui.app import make_app
from drill.ui.tui.widgets.answer import MAX_ANSWER_CHARS, AnswerInput
from tests.tui.helpers import START, wait_for_question


async def test_a_huge_paste_is_cut_to_the_cap_with_a_note(drill_home):
    app = make_app(lang="en", start=START)
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for_question(pilot)
        box = app.screen.query_one("#answer", AnswerInput)
        box.focus()
        await pilot.press("1", "2")
        started = time.monotonic()
        app.post_message(events.Paste("9" * 100_000))
        await pilot.pause()
        assert time.monotonic() - started < 5
        assert len(box.value) == MAX_ANSWER_CHARS
        assert box.value.startswith("129")
        assert box.border_subtitle == "answers stop at 4,000 characters"
        shown = html.unescape(app.export_screenshot()).replace("\xa0", " ")
        assert "answers stop at 4,000 characters" in shown  # on the box's border
        await pilot.press("x", "y")  # typing at the cap adds nothing
        assert len(box.value) == MAX_ANSWER_CHARS and "x" not in box.value
        await pilot.press("backspace", "z")  # room again: typing works, the note goes
        assert box.value.endswith("z") and len(box.value) == MAX_ANSWER_CHARS
        await pilot.press("home", "delete", "delete", "a")
        assert box.border_subtitle == ""


async def test_the_note_is_in_chinese_in_the_chinese_app(drill_home):
    app = make_app(lang="zh", start=START)
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for_question(pilot)
        box = app.screen.query_one("#answer", AnswerInput)
        box.focus()
        app.post_message(events.Paste("8" * (MAX_ANSWER_CHARS + 1)))
        await pilot.pause()
        assert len(box.value) == MAX_ANSWER_CHARS
        assert box.border_subtitle == "答案最多 4,000 个字符"
