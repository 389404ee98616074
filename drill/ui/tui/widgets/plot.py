"""A roofline drawn to fit the widget: plotext text rendered as rich Text."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from drill.ui.render.plot import Figure, render


class PlotView(Static):
    """Shows ``figure`` at the widget's size; renders nothing when too small."""

    DEFAULT_CSS = """
    PlotView { height: 22; width: 1fr; }
    """

    def __init__(self, figure: Figure | None = None, **kwargs) -> None:
        super().__init__("", **kwargs)
        self._figure = figure
        self._drawn: tuple | None = None

    def show(self, figure: Figure | None) -> None:
        if figure is not self._figure:
            self._figure = figure
            self._drawn = None
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        """Draw once per figure and size: plotting and ANSI parsing cost ~10 ms a time."""
        width, height = self.size.width, self.size.height
        if not width and self._figure is not None:
            # Not laid out yet: draw at the size it will most likely get, so the plot is in
            # the first frame; a different final size redraws it on resize.
            width = self.app.size.width - 2
            height = self.styles.height.value if self.styles.height else 22
            height = int(height)
        if self._figure is None or not width:
            self.update("")
            return
        if self._drawn == (id(self._figure), width, height):
            return
        self._drawn = (id(self._figure), width, height)
        text = render(self._figure, width, height, color=True)
        self.update(Text.from_ansi(text) if text else Text(""))


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
