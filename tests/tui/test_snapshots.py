"""The main screens as text (tests/tui/__screens__; pytest --update-screens rewrites them)."""

from __future__ import annotations

from dataclasses import replace

from drill.ui.tui.app import make_app
from tests.tui.helpers import (
    START,
    frozen,
    plots_drawn,
    settle,
    text_of,
    type_answer,
    wait_for_question,
)

SIZE = (100, 34)


def app_for(lang: str, start: dict | None = None):
    return make_app(lang=lang, start=start, clock=frozen)


async def _home(pilot) -> None:
    for _ in range(100):  # the count of due cards arrives from a worker
        if text_of(pilot.app, "#home-due").strip():
            return
        await pilot.pause(0.02)


def test_home(screen_compare, drill_home):
    assert screen_compare(app_for("en"), terminal_size=SIZE, run_before=_home)


async def _question(pilot) -> None:
    await wait_for_question(pilot)
    await pilot.pause()


def test_practice_question_en(screen_compare, drill_home):
    start = replace(START, skills=("ridge-point",))
    assert screen_compare(app_for("en", start), terminal_size=SIZE, run_before=_question)


def test_practice_question_zh(screen_compare, drill_home):
    start = replace(START, skills=("ridge-point",))
    assert screen_compare(app_for("zh", start), terminal_size=SIZE, run_before=_question)


async def _feedback(pilot) -> None:
    await wait_for_question(pilot)
    await type_answer(pilot, "12.5")
    await settle(pilot)


def test_practice_feedback_en(screen_compare, drill_home):
    start = replace(START, skills=("ridge-point",))
    assert screen_compare(app_for("en", start), terminal_size=SIZE, run_before=_feedback)


def test_practice_feedback_zh(screen_compare, drill_home):
    start = replace(START, skills=("ridge-point",))
    assert screen_compare(app_for("zh", start), terminal_size=SIZE, run_before=_feedback)


async def _summary(pilot) -> None:
    await wait_for_question(pilot)
    for _ in range(2):
        await pilot.press("f2")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()


def test_summary(screen_compare, drill_home):
    assert screen_compare(app_for("en", START), terminal_size=SIZE, run_before=_summary)


async def _open(pilot, key: str) -> None:
    await pilot.press(key)
    await pilot.pause(0.2)
    await plots_drawn(pilot)


def test_calculator(screen_compare, drill_home):
    async def run_before(pilot):
        await _open(pilot, "c")

    assert screen_compare(app_for("en"), terminal_size=(120, 40), run_before=run_before)


def test_catalog(screen_compare, drill_home):
    async def run_before(pilot):
        await _open(pilot, "g")

    assert screen_compare(app_for("en"), terminal_size=(100, 30), run_before=run_before)
