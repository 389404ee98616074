"""What ``drill ncu`` prints: per kernel the derivation table, the Speed-of-Light and roofline
readings, what the report lacks (with the metrics to collect), and an optional roofline."""

from __future__ import annotations

import shutil

from rich.text import Text

from drill.core.ncu.analysis import Placement
from drill.core.ncu.kernels import ALL_METRICS, COLLECT
from drill.core.units import format_si, sig
from drill.i18n import tr
from drill.ui.render.cjk import cut
from drill.ui.render.safe_output import console as console_for_output
from drill.ui.render.tables import steps_table

SHORT = 10e-6  # the scenario rule: no bound verdict on a kernel under 10 µs


def _words(bound: str, lang: str) -> str:
    from drill.core.engine.steps import WORDS

    return WORDS[bound](lang)


def kernel_lines(p: Placement, mma: tuple[int, int, int], lang: str) -> list[str]:
    """The readings under a kernel's table, and what is missing, one line each."""
    k = p.kernel
    lines = [
        tr(
            "ncu-roof",
            lang,
            roof=p.roof,
            peak=format_si(p.peak, "FLOP/s"),
            bandwidth=format_si(p.bandwidth, "B/s"),
        )
    ]
    source = "" if p.sol_from_report else tr("ncu-derived", lang)
    lines.append(
        tr(
            "ncu-verdict",
            lang,
            verdict=_words(p.verdict, lang),
            compute=sig(p.compute_pct, 3),
            memory=sig(p.memory_pct, 3),
            source=source,
        )
    )
    if p.intensity is not None and p.achieved_flops is not None and p.efficiency is not None:
        lines.append(
            tr(
                "ncu-roofline",
                lang,
                intensity=sig(p.intensity),
                ridge=sig(p.ridge),
                bound=_words(p.bound, lang),
                achieved=format_si(p.achieved_flops, "FLOP/s"),
                efficiency=sig(p.efficiency * 100, 3),
                attainable=format_si(p.attainable, "FLOP/s"),
            )
        )
    if p.achieved_bandwidth is not None:
        lines.append(
            tr(
                "ncu-bandwidth",
                lang,
                bandwidth=format_si(p.achieved_bandwidth, "B/s"),
                pct=sig(p.achieved_bandwidth / p.bandwidth * 100, 3),
                peak=format_si(p.bandwidth, "B/s"),
            )
        )
    if k.duration is not None and k.duration / max(k.launches, 1) < SHORT:
        lines.append(tr("ncu-short", lang))
    if k.tensor_inst:
        lines.append(tr("ncu-mma", lang, m=mma[0], n=mma[1], k=mma[2]))
    if k.dram_from_rate:
        lines.append(tr("ncu-dram-from-rate", lang))
    for group, key in (
        ("flops", "ncu-missing-flops"),
        ("dram", "ncu-missing-dram"),
        ("duration", "ncu-missing-duration"),
    ):
        if group in k.missing and not (group == "dram" and k.dram_from_rate):
            lines.append(tr(key, lang, metrics=",".join(COLLECT[group])))
    return lines


def print_report(
    file: str,
    report,
    card_line: str,
    placements: list[Placement],
    mma: tuple[int, int, int],
    lang: str,
    plot: bool = False,
    card=None,
) -> None:
    console = console_for_output()
    console.print(
        Text(
            tr(
                "ncu-header",
                lang,
                file=file,
                format=report.format,
                launches=len(report.launches),
                kernels=len(placements),
                card=card_line,
            ),
            style="bold",
        )
    )
    for i, p in enumerate(placements, start=1):
        k = p.kernel
        console.print()
        console.print(
            Text(
                tr(
                    "ncu-kernel",
                    lang,
                    index=i,
                    name=k.name,
                    launches=k.launches,
                    grid=k.grid or "?",
                    block=k.block or "?",
                ),
                style="bold cyan",
            )
        )
        console.print(steps_table(p.steps, lang))
        for line in kernel_lines(p, mma, lang):
            console.print(line, soft_wrap=True, highlight=False, markup=False)
    if any(k for p in placements for k in p.kernel.missing if k in ("flops", "dram")):
        console.print()
        console.print(
            tr("ncu-collect", lang, metrics=",".join(ALL_METRICS)),
            soft_wrap=True,
            highlight=False,
            markup=False,
        )
    if plot:
        _plot(console, card, placements, lang)


def _plot(console, card, placements: list[Placement], lang: str) -> None:
    from drill.ui.render.plot import Point, card_figure, render

    points = [p for p in placements if p.intensity and p.achieved_flops]
    if not points:
        console.print(tr("ncu-plot-none", lang))
        return
    main = max(points, key=lambda p: p.peak)
    dtype = "fp16" if main.roof.startswith("tensor") else main.roof.split(".")[-1]
    figure = card_figure(card, dtype, cuda_cores=not main.roof.startswith("tensor"))
    figure.lang = lang
    markers = "x+*o#@"
    for i, p in enumerate(points):
        name = short_kernel_name(p.kernel.name)
        figure.points.append(
            Point(
                f"{i + 1} {name}", p.intensity, p.achieved_flops, markers[i % len(markers)], "red"
            )
        )
    size = shutil.get_terminal_size((100, 30))
    text = render(figure, size.columns, max(size.lines - 2, 20), color=console.is_terminal)
    if text:
        console.print(Text.from_ansi(text), soft_wrap=True)
    else:
        console.print(tr("plot-too-small", lang, w=size.columns, h=size.lines))


def short_kernel_name(name: str, width: int = 28) -> str:
    """A kernel's name for the plot's legend: no return type, arguments, namespaces or
    template arguments ("sgemm_kernel<…>"), and an ellipsis where it is still too long; the
    number before it points to the full name above."""
    name = name.split("(")[0].removeprefix("void ").strip()
    head, angle, _ = name.partition("<")
    head = head.rsplit("::", 1)[-1]
    short = head + ("<…>" if angle else "")
    return cut(short, width)
