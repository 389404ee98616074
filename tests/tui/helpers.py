"""Plain helpers for driving the real app under Pilot (kept apart so other tests skip Textual)."""

from __future__ import annotations

import asyncio
import io

from rich.console import Console
from textual.widgets import Input, Static

from drill.runs.options import PracticeOptions
from drill.ui.tui.screens.practice import PracticeScreen

# A fixed practice session: two GEMM-intensity questions, seed 7.
START = PracticeOptions(seed=7, count=2, skills=("gemm-intensity",), difficulty=1, topic="numeric")


def frozen() -> float:
    return 0.0


def text_of(app, selector: str) -> str:
    """What a Static shows, as plain text."""
    widget = app.screen.query_one(selector, Static)
    console = Console(width=160, file=io.StringIO(), record=True)
    console.print(widget.content)
    return console.export_text()


async def until(pilot, condition, what: object = "", seconds: float = 10.0) -> None:
    """Wait until ``condition()`` holds: what the screen shows after async work, however
    loaded the machine, instead of a fixed pause."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"never happened: {what}")


async def workers_done(pilot, seconds: float = 10.0) -> None:
    """Wait for the app's workers (a run being built, plots being drawn), then for the
    messages they posted to be handled."""
    await asyncio.wait_for(pilot.app.workers.wait_for_complete(), seconds)
    await pilot.pause()


async def wait_for_question(pilot) -> PracticeScreen:
    await workers_done(pilot)
    screen = pilot.app.screen
    for _ in range(200):
        if isinstance(screen, PracticeScreen) and screen.session is not None:
            await plots_drawn(pilot)
            return screen
        await pilot.pause(0.02)
        screen = pilot.app.screen
    raise AssertionError("the first question never appeared")


async def plots_drawn(pilot) -> None:
    """Wait until every plot on the screen shows its newest drawing (drawn on a thread)."""
    from drill.ui.tui.widgets.plot import PlotView

    for _ in range(250):
        if not any(plot.drawing for plot in pilot.app.screen.query(PlotView)):
            await pilot.pause()
            return
        await pilot.pause(0.02)
    raise AssertionError("a plot never finished drawing")


async def type_answer(pilot, text: str) -> None:
    box = pilot.app.screen.query_one("#answer", Input)
    box.value = text
    await pilot.press("enter")
    await pilot.pause()


async def settle(pilot, selector: str = "#practice-body") -> None:
    """Wait until the plots are drawn and a scrolled view stops moving: the feedback scrolls
    to the answer after a refresh, which comes later on a loaded machine than one pause allows."""
    await plots_drawn(pilot)
    view = pilot.app.screen.query_one(selector)
    last, still = None, 0
    for _ in range(100):
        await pilot.pause(0.02)
        still = still + 1 if view.scroll_y == last else 0
        last = view.scroll_y
        if still >= 3:
            return
