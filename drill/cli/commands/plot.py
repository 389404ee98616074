"""``drill plot``: a card's roofline in the terminal, with optional operator points."""

from __future__ import annotations

import argparse
import shutil

from drill.cli import argtypes
from drill.cli.commands.common import roof_for, settle_dtype
from drill.cli.flags import card_flags, export_flags, lang_of
from drill.core.engine.roofline import ABOVE_ROOF
from drill.core.units import format_si, math_units
from drill.errors import UsageError
from drill.i18n import tr


def add_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> None:
    card_flags(parser)
    parser.add_argument(
        "--ai",
        type=argtypes.intensity,
        action="append",
        metavar="X",
        help="arithmetic intensity (FLOP/B) of an operator to place; repeatable",
    )
    parser.add_argument(
        "--measured",
        type=argtypes.flop_rate,
        action="append",
        metavar="RATE",
        help="measured throughput for the --ai point(s), same order",
    )
    parser.add_argument(
        "--width", type=argtypes.plot_size, help="columns (default: terminal width)"
    )
    parser.add_argument(
        "--height", type=argtypes.plot_size, help="rows (default: fits the terminal)"
    )
    export_flags(parser, csv=True)


def run(args) -> int:
    from rich.text import Text

    from drill.ui.render.export import Exporter, roofline_rows
    from drill.ui.render.plot import Figure, Point, RoofLine, card_figure, render
    from drill.ui.render.safe_output import console as console_for_output

    lang = lang_of(args)
    exporter = Exporter.of(args)  # refuses an existing file before drawing anything
    roof = roof_for(args, settle_dtype(args))
    ais = args.ai or []
    measured = args.measured or []
    if len(measured) > len(ais):
        raise UsageError("each --measured needs an --ai before it (the point's intensity)")
    if roof.card is not None:
        figure = card_figure(
            roof.card, args.dtype, args.cuda_cores, peak=roof.peak, bandwidth=roof.bandwidth
        )
    else:
        figure = Figure(
            tr("plot-custom", lang), [RoofLine(args.dtype, roof.peak, roof.bandwidth, True)]
        )
    figure.lang = lang
    units = math_units(args.dtype)[0]
    above = []  # the --ai values whose measured point lies above the roof
    for i, ai in enumerate(ais):
        on_roof = min(roof.peak, ai * roof.bandwidth)
        figure.points.append(Point(tr("plot-ai-point", lang, ai=f"{ai:g}"), ai, on_roof))
        if i < len(measured):
            if measured[i] > on_roof * (1 + 1e-9):
                above.append(ai)
            figure.points.append(
                Point(
                    f"{tr('plot-measured', lang)} {format_si(measured[i], units)}",
                    ai,
                    measured[i],
                    "x",
                    "red",
                )
            )
    size = shutil.get_terminal_size((100, 30))
    width = args.width or size.columns
    height = args.height or max(size.lines - 2, 10)
    console = console_for_output()
    text = render(figure, width, height, color=console.is_terminal)
    if not text:
        console.print(tr("plot-too-small", lang, w=width, h=height))
        return 0
    console.print(Text.from_ansi(text), soft_wrap=True)
    for ai in above:
        warning = tr("plot-above-roof", lang, ai=f"{ai:g}", why=ABOVE_ROOF(lang))
        console.print(warning, style="yellow")
    exporter.save_csv(roofline_rows(figure))
    if exporter.wanted:
        colored = Text.from_ansi(render(figure, width, height, color=True))
        exporter.save([colored], figure.title, width)
    exporter.report(lang)
    return 0
