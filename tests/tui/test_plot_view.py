"""The plot widget draws on a worker thread: only the newest figure and size reach the
screen, and drawings on several threads at once never mix (plotext has one figure)."""

from __future__ import annotations

import threading

from rich.text import Text
from textual.app import App

from drill.ui.render.plot import Figure, RoofLine, render
from drill.ui.tui.widgets.plot import PlotView
from tests.tui.helpers import plots_drawn


def _figure(title: str, peak: float) -> Figure:
    return Figure(title, [RoofLine("fp16", peak, 2e12, main=True)])


class _OnePlot(App):
    def compose(self):
        yield PlotView(id="plot")


async def test_only_the_newest_figure_is_shown():
    app = _OnePlot()
    async with app.run_test(size=(100, 30)) as pilot:
        plot = app.query_one(PlotView)
        figures = [_figure(f"card number {n}", 1e14 * (n + 1)) for n in range(6)]
        for figure in figures:  # each replaces the last before its drawing can arrive
            plot.show(figure)
        await plots_drawn(pilot)
        shown = str(plot.render())
        assert "card number 5" in shown
        assert not any(f"card number {n}" in shown for n in range(5))
        # a drawing of an older figure that arrives late is dropped
        stale = (figures[0], plot.size.width, plot.size.height)
        plot.post_message(PlotView.Drawn(stale, Text("card number 0, late")))
        await pilot.pause()
        assert str(plot.render()) == shown
        plot.show(None)
        await plots_drawn(pilot)
        assert not str(plot.render()).strip()


def test_drawings_on_several_threads_at_once_do_not_mix():
    figures = [_figure(f"card {n}", 1e13 * (n + 2)) for n in range(6)]
    alone = [render(f, 90, 22) for f in figures]
    together: list[str | None] = [None] * len(figures)

    def draw(i: int) -> None:
        for _ in range(3):
            together[i] = render(figures[i], 90, 22)

    threads = [threading.Thread(target=draw, args=(i,)) for i in range(len(figures))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert together == alone
