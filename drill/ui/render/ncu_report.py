"""What ``drill ncu`` prints: per kernel the derivation table, the Speed-of-Light and roofline
readings, what the report lacks (with the metrics to collect), and an optional roofline."""

from __future__ import annotations

import shutil

from rich.text import Text

from drill.core.ncu.analysis import Placement
from drill.core.ncu.kernels import ALL_METRICS, collect
from drill.core.printable import printable
from drill.core.units import format_si, sig
from drill.i18n import tr
from drill.ui.render.cjk import cut
from drill.ui.render.safe_output import console as console_for_output
from drill.ui.render.tables import steps_table

SHORT = 10e-6  # the scenario rule: no bound verdict on a kernel under 10 µs


def _words(bound: str, lang: str) -> str:
    from drill.core.engine.steps import WORDS

    return WORDS[bound](lang)


def kernel_lines(p: Placement, lang: str) -> list[str]:
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
    if p.clock_peak is not None and k.sm_clock:
        lines.append(
            tr(
                "ncu-clock",
                lang,
                clock=format_si(k.sm_clock, "Hz"),
                peak_at=format_si(p.clock_peak, "FLOP/s"),
                peak=format_si(p.peak, "FLOP/s"),
                boost=format_si(p.peak / p.clock_peak * k.sm_clock, "Hz"),
            )
        )
    lines.append(_verdict_line(p, lang))
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
    if p.above:
        what = {"flops": "FLOP/s", "bandwidth": "DRAM B/s"}
        lines.append(tr("ncu-above", lang, what=", ".join(what[a] for a in p.above)))
    if k.duration is not None and k.duration / max(k.launches, 1) < SHORT:
        lines.append(tr("ncu-short", lang))
    lines.extend(_flop_notes(k, lang))
    if k.dram_from_rate:
        lines.append(tr("ncu-dram-from-rate", lang))
    lines.extend(tr("ncu-excluded", lang, problem=problem) for problem in k.problems)
    if "duration" in k.unread and k.duration is None:
        word = tr("ncu-duration-word", lang)
        lines.append(tr("ncu-unread-unit", lang, figure=word, cell=k.unread["duration"]))
    for group, key in (
        ("flops", "ncu-missing-flops"),
        ("dram", "ncu-missing-dram"),
        ("duration", "ncu-missing-duration"),
    ):
        if group == "duration" and "duration" in k.unread:
            continue
        if group == "flops" and k.tensor_inst and k.mma is None:
            continue
        if group in k.missing and not (group == "dram" and k.dram_from_rate):
            lines.append(tr(key, lang, metrics=",".join(collect(group, k.cc))))
    return lines


def _verdict_line(p: Placement, lang: str) -> str:
    k = p.kernel
    if p.verdict is not None:
        return tr(
            "ncu-verdict",
            lang,
            verdict=_words(p.verdict, lang),
            compute=sig(p.compute_pct, 3) if p.compute_pct is not None else "?",
            memory=sig(p.memory_pct, 3) if p.memory_pct is not None else "?",
            source="" if p.sol_from_report else tr("ncu-derived", lang),
        )
    known = p.compute_pct if p.compute_pct is not None else p.memory_pct
    why = (
        tr("ncu-partial", lang, known=sig(known, 3))
        if known is not None
        else tr("ncu-no-verdict-why", lang)
    )
    return tr("ncu-no-verdict", lang, why=why, metrics=",".join(collect("sol", k.cc)))


def _flop_notes(k, lang: str) -> list[str]:
    if k.tensor_ops:
        return [tr("ncu-tensor-ops", lang, dtype=k.tensor_dtype or "?")]
    if not k.tensor_inst:
        return []
    if k.mma is None:
        return [
            tr(
                "ncu-tensor-no-shape",
                lang,
                count=f"{k.tensor_inst:.0f}",
                cc=k.cc or "?",
                metrics=",".join(collect("flops", k.cc)),
            )
        ]
    source = {
        "name": tr("ncu-mma-from-name", lang),
        "cc": tr("ncu-mma-from-cc", lang, cc=k.cc),
        "default": tr("ncu-mma-from-default", lang),
        "--mma": tr("ncu-mma-from-flag", lang),
    }[k.mma_from]
    m, n, kk = k.mma
    return [tr("ncu-mma", lang, m=m, n=n, k=kk, source=source)]


def print_report(
    file: str,
    report,
    card_line: str,
    placements: list[Placement],
    lang: str,
    plot: bool = False,
    card=None,
    hidden: list | None = None,  # the kernels not shown
) -> None:
    console = console_for_output()
    console.print(
        Text(
            tr(
                "ncu-header",
                lang,
                file=printable(file),
                format=report.format,
                launches=len(report.launches),
                kernels=len(placements) + len(hidden or ()),
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
                    name=printable(k.name),
                    launches=k.launches,
                    grid=k.grid or "?",
                    block=k.block or "?",
                ),
                style="bold cyan",
            )
        )
        console.print(steps_table(p.steps, lang))
        for line in kernel_lines(p, lang):  # cells and metric names come from the file
            console.print(printable(line), soft_wrap=True, highlight=False, markup=False)
    if hidden:
        console.print()
        console.print(
            tr("ncu-more", lang, more=len(hidden), share=_share(placements, hidden)),
            soft_wrap=True,
            highlight=False,
            markup=False,
        )
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


def _share(listed: list[Placement], hidden: list) -> str:
    """The part of the measured time the kernels not shown take, e.g. "3.2 %"."""
    rest = sum(k.duration or 0.0 for k in hidden)
    whole = rest + sum(p.kernel.duration or 0.0 for p in listed)
    return f"{sig(rest / whole * 100, 2)} %" if whole else "?"


def _plot(console, card, placements: list[Placement], lang: str) -> None:
    from drill.ui.render.plot import Figure, Point, RoofLine, card_figure, render

    points = [p for p in placements if p.intensity and p.achieved_flops]
    if not points:
        console.print(tr("ncu-plot-none", lang))
        return
    main = max(points, key=lambda p: p.peak)
    if card is None:
        figure = Figure("", [RoofLine("--peak / --bandwidth", main.peak, main.bandwidth, True)])
    else:
        dtype = "fp16" if main.roof.startswith("tensor") else main.roof.split(".")[-1]
        figure = card_figure(card, dtype, cuda_cores=not main.roof.startswith("tensor"))
    figure.lang = lang
    markers = "x+*o#@"
    for i, p in enumerate(points):
        name = printable(short_kernel_name(p.kernel.name))
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
