"""A roofline drawn to fit the widget: plotext text rendered as rich Text, off the UI thread."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.message import Message
from textual.widgets import Static

from drill.ui.render.plot import Figure, render


class PlotView(Static):
    """Shows ``figure`` at the widget's size; renders nothing when too small.

    Drawing (plotext, then parsing its ANSI text) takes ~10 ms, so it runs on a worker
    thread: a screen that has just been filled waits for its next frame meanwhile, and the
    plot is usually ready by then. Only the newest figure and size are ever shown.
    """

    DEFAULT_CSS = """
    PlotView { height: 22; width: 1fr; }
    """

    class Drawn(Message, bubble=False):
        """A drawing is ready for the figure and size in ``key`` (figure, width, height)."""

        def __init__(self, key: tuple, text: Text) -> None:
            super().__init__()
            self.key = key
            self.text = text

    def __init__(self, figure: Figure | None = None, **kwargs) -> None:
        super().__init__("", **kwargs)
        self._figure = figure
        self._drawn: tuple | None = None  # the figure and size shown, or on their way
        self._shown: tuple | None = None  # the figure and size shown

    @property
    def drawing(self) -> bool:
        """A drawing for the current figure and size is still on its way."""
        return self._drawn is not None and self._drawn != self._shown

    def show(self, figure: Figure | None) -> None:
        if figure is not self._figure:
            self._figure = figure
            self._drawn = None
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        """Draw once per figure and size."""
        width, height = self.size.width, self.size.height
        if not width and self._figure is not None:
            # Not laid out yet: draw at the size it will most likely get, so the plot is in
            # the first frame; a different final size redraws it on resize.
            width = self.app.size.width - 2
            height = self.styles.height.value if self.styles.height else 22
            height = int(height)
        if self._figure is None or not width:
            self._drawn = self._shown = None  # a drawing on its way is not wanted any more
            self.update("", layout=False)
            return
        key = (self._figure, width, height)  # the figure itself: an id could be reused
        if self._drawn == key:
            return
        self._drawn = key
        self._draw_in_thread(self._figure, width, height, key)

    @work(thread=True, group="plot")
    def _draw_in_thread(self, figure: Figure, width: int, height: int, key: tuple) -> None:
        text = render(figure, width, height, color=True)
        # cropped, never wrapped: until a resize's drawing arrives the old one is too wide
        drawn = Text.from_ansi(text, no_wrap=True, overflow="crop") if text else Text("")
        self.post_message(self.Drawn(key, drawn))

    def on_plot_view_drawn(self, message: Drawn) -> None:
        if message.key == self._drawn:  # else a newer figure or size has been asked for
            self._shown = message.key
            # The size is the stylesheet's, never the drawing's: repaint without a layout pass.
            self.update(message.text, layout=False)


def figure_for(spec, catalog, lang: str):
    """The card's roofs with the question's points, labelled in the user's language."""
    from drill.ui.render.plot import Figure, Point, RoofLine, add_move, card_figure

    labels = {
        "truth": ("the operator", "算子位置"),
        "measured": ("measured", "实测"),
        "answer": ("your answer", "你的答案"),
    }
    style = {"truth": ("●", "green"), "measured": ("x", "red"), "answer": ("▲", "magenta")}
    try:
        card = catalog.get(spec.gpu)
        figure = card_figure(card, spec.dtype, peak=spec.peak, bandwidth=spec.bandwidth)
    except LookupError:
        figure = Figure(spec.gpu, [RoofLine(spec.dtype, spec.peak, spec.bandwidth, True)])
    for role, ai, rate in spec.points:
        marker, color = style[role]
        figure.points.append(Point(labels[role][1 if lang == "zh" else 0], ai, rate, marker, color))
    figure.lang = lang
    figure.show_ridge = spec.ridge
    add_move(figure, spec.move, lang)
    return figure
