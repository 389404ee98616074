"""Placement in the app: the first question comes under the intro, and leaving early ends on
a page that says what happened and what to do, under Pilot at 80×24."""

from __future__ import annotations

import pytest

from drill.ui.tui.app import make_app
from drill.ui.tui.screens.home import HomeScreen
from drill.ui.tui.screens.placement import ProfileScreen
from tests.tui.conftest import screen_text
from tests.tui.helpers import frozen, text_of, until, wait_for_question


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_intro_then_early_quit_page(drill_home, lang):
    app = make_app(lang=lang, clock=frozen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        screen = await wait_for_question(pilot)
        run = screen.session
        scenario = " ".join(text_of(app, "#scenario").split())
        prompt = "".join(run.current.ask.prompt(lang).split())[:20]
        if lang == "en":
            assert scenario.startswith(
                "Placement · 33 questions, 3 from each of 11 skill groups, about 15 minutes."
            )
            assert "Each answer is final (no going back); F2 skips one you do not know." in scenario
            assert "Stop at any time: finished groups are kept" in scenario
        else:
            assert scenario.startswith("定级测试 · 共 33 题，11 个技能组各 3 题，大约 15 分钟。")
            assert "不能回头修改；不会的题按 F2 跳过。" in scenario
        assert prompt in "".join(scenario.split())  # the first question under the intro
        answer = screen.query_one("#answer")
        assert answer.region.bottom <= 23  # the answer box is on screen under the intro
        for _ in range(2):
            await pilot.press("f2")
            await until(pilot, lambda: screen.feedback_for is not None, "feedback")
            await pilot.press("enter")
            await until(pilot, lambda: screen.feedback_for is None, "next question")
        title = "定级测试 · 共 33 题" if lang == "zh" else "Placement · 33 questions"
        assert title not in text_of(app, "#scenario")  # the intro comes once
        await pilot.press("escape")
        await pilot.pause()
        asked = " ".join(screen_text(app).split())
        assert ("Stop the placement test?" if lang == "en" else "停止定级测试？") in asked
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen), "the stop page")
        await pilot.pause()
        page = " ".join(screen_text(app).split())
        if lang == "en":
            assert page.startswith("Placement stopped You answered 2 of 33 questions.")
            assert "nothing was placed: every skill starts where it did before." in page
            assert "Your answers are kept in your history, like practice answers." in page
            assert "press l on the home screen: the placement goes on at the first group" in page
            assert page.endswith("Esc home")
        else:
            assert page.startswith("定级测试已停止 你回答了 33 题中的 2 题。")
            assert "在主页按l：定级测试会从第一个还没定级的组接着做" in page.replace(" ", "")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
