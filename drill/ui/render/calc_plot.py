"""The roofline under a calculator result, for ``drill calc … --plot`` and the app's calculator.

The front roof is the one the analysis was worked against (``Analysis.peak``, which came from
``Card.op_peak``): a GEMV's plot then shows the vector roof its table's ridge comes from,
never the tensor roof of its precision.
"""

from __future__ import annotations

from drill.i18n import tr
from drill.ui.render.plot import Figure, Point, RoofLine, card_figure


def operator_figure(analysis, card, lang: str, cuda_cores: bool = False) -> Figure:
    """The analysis's roof in front (the card's other roofs behind it, when there is a card),
    the operator on it, and the measured rate when one was given."""
    if card is not None:
        figure = card_figure(
            card, analysis.dtype, cuda_cores, peak=analysis.peak, bandwidth=analysis.bandwidth
        )
    else:
        roof = RoofLine(analysis.dtype, analysis.peak, analysis.bandwidth, True)
        figure = Figure(tr("calc-custom", lang), [roof])
    figure.lang = lang
    figure.points.append(
        Point(
            f"{analysis.cost.op}（{tr('plot-on-roof', lang)}）"
            if lang == "zh"
            else f"{analysis.cost.op} ({tr('plot-on-roof', lang)})",
            analysis.intensity,
            analysis.attainable,
        )
    )
    if analysis.measured:
        figure.points.append(
            Point(tr("plot-measured", lang), analysis.intensity, analysis.measured, "x", "red")
        )
    return figure
