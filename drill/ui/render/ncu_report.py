"""What ``drill ncu`` prints: per kernel the derivation table, the Speed-of-Light and roofline
readings, what the report lacks (with the metrics to collect), and an optional roofline."""

from __future__ import annotations

import shutil

from rich.text import Text

from drill.core.ncu.analysis import Placement
from drill.core.ncu.kernels import every_metric
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
    given = p.roof == "given"
    if k.flops is None:
        if k.tensor_inst and k.mma is None:
            key = "ncu-no-roof-tensor"
        else:
            key = "ncu-no-roof-given" if given else "ncu-no-roof"
        lines = [tr(key, lang, bandwidth=format_si(p.bandwidth, "B/s"))]
    else:
        lines = [
            tr(
                "ncu-roof",
                lang,
                roof="--peak" if given else p.roof,
                peak=format_si(p.peak, "FLOP/s"),
                bandwidth=format_si(p.bandwidth, "B/s"),
            )
        ]
        if given and k.precision == "tensor":
            lines.append(tr("ncu-given-tensor", lang, dtype=k.tensor_dtype or "fp16"))
    if given and k.sm_clock and k.flops is not None:
        lines.append(tr("ncu-clock-given", lang, clock=format_si(k.sm_clock, "Hz")))
    if p.clock_peak is not None and k.sm_clock and k.flops is not None:
        lines.append(
            tr(
                "ncu-clock",
                lang,
                clock=format_si(k.sm_clock, "Hz"),
                weighted=tr("ncu-weighted", lang) if k.launches > 1 else "",
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
    disagree = _disagreement(p, lang)
    if disagree:
        lines.append(disagree)
    elif p.verdict == "latency" and p.bound is not None:
        lines.append(tr("ncu-latency-vs-roof", lang, bound=_words(p.bound, lang)))
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
        mismatch = _dram_mismatch(p, lang)
        if mismatch:
            lines.append(mismatch)
    if p.above:
        what = {"flops": "FLOP/s", "bandwidth": "DRAM B/s"}
        key = "ncu-above-given" if given else "ncu-above"
        lines.append(tr(key, lang, what=", ".join(what[a] for a in p.above)))
    if k.duration is not None and k.duration / max(k.launches, 1) < SHORT:
        lines.append(tr("ncu-short", lang, each=format_si(k.duration / k.launches, "s")))
    lines.extend(_flop_notes(k, lang))
    if k.dram_from_rate:
        lines.append(tr("ncu-dram-from-rate", lang))
    lines.extend(tr("ncu-excluded", lang, problem=problem) for problem in k.problems)
    if "duration" in k.unread and k.duration is None:
        word = tr("ncu-duration-word", lang)
        lines.append(tr("ncu-unread-unit", lang, figure=word, cell=k.unread["duration"]))
    keys = {
        "flops": "ncu-missing-flops",
        "dram": "ncu-missing-dram",
        "duration": "ncu-missing-duration",
    }
    lines.extend(tr(keys[group], lang) for group in gaps(k) if group in keys)
    return lines


def gaps(k) -> list[str]:
    """The figures a kernel lacks that more counters would give: not a duration in a unit
    drill does not read, not FLOPs whose counters are there but whose MMA shape is not,
    not DRAM bytes estimated from the throughput."""
    found = []
    for group in ("flops", "dram", "duration", "sol"):
        if group not in k.missing:
            continue
        if group == "duration" and "duration" in k.unread:
            continue
        if group == "flops" and k.tensor_inst and k.mma is None:
            continue
        if group == "dram" and k.dram_from_rate:
            continue
        found.append(group)
    return found


def collect_command(placements: list[Placement]) -> str | None:
    """The one ncu command that collects what any kernel lacks (everything drill reads,
    as the report's architecture names it), or None when more counters would add nothing."""
    if not any(gaps(p.kernel) for p in placements):
        return None
    cc = next((p.kernel.cc for p in placements if p.kernel.cc), "")
    return f"ncu --csv --page raw --metrics {','.join(every_metric(cc))} ./app > report.csv"


def _share_text(pct: float | None, source: str | None, derived: str, lang: str) -> str:
    """One share of the Speed-of-Light reading with where it came from."""
    if pct is None:
        return tr("ncu-share-none", lang)
    return tr("ncu-share-ncu" if source == "ncu" else derived, lang, pct=sig(pct, 3))


def _disagreement(p: Placement, lang: str) -> str | None:
    """One line when the roofline and the Speed-of-Light reading name different bounds:
    how far from the ridge the kernel is, and which reading to go by there."""
    if not p.readings_differ:
        return None
    pct = p.compute_pct if p.verdict == "compute" else p.memory_pct
    ratio = p.intensity / p.ridge
    near = 0.5 <= ratio <= 2.0
    return tr(
        "ncu-disagree",
        lang,
        intensity=sig(p.intensity),
        ratio=sig(ratio, 2),
        bound=_words(p.bound, lang),
        verdict_unit=tr(f"ncu-unit-{p.verdict}", lang),
        pct=sig(pct, 3),
        why=tr("ncu-disagree-near" if near else "ncu-disagree-far", lang),
    )


def _dram_mismatch(p: Placement, lang: str) -> str | None:
    """A line when ncu's own DRAM % implies another bandwidth than the card's: the report
    was measured on another model (an 80 GB A100 placed on the 40 GB one)."""
    if not p.bandwidth_mismatch:
        return None
    return tr(
        "ncu-dram-mismatch",
        lang,
        pct=sig(p.kernel.dram_pct, 3),
        bandwidth=format_si(p.achieved_bandwidth, "B/s"),
        implied=format_si(p.implied_bandwidth, "B/s"),
        given=format_si(p.bandwidth, "B/s"),
    )


def _verdict_line(p: Placement, lang: str) -> str:
    if p.verdict is not None:
        return tr(
            "ncu-verdict",
            lang,
            verdict=_words(p.verdict, lang),
            compute=_share_text(p.compute_pct, p.compute_from, "ncu-share-flops", lang),
            memory=_share_text(p.memory_pct, p.memory_from, "ncu-share-dram", lang),
        )
    known = p.compute_pct if p.compute_pct is not None else p.memory_pct
    why = (
        tr("ncu-partial", lang, known=sig(known, 3))
        if known is not None
        else tr("ncu-no-verdict-why", lang)
    )
    return tr("ncu-no-verdict", lang, why=why)


def _flop_notes(k, lang: str) -> list[str]:
    if k.tensor_ops:
        return [tr("ncu-tensor-ops", lang, dtype=k.tensor_dtype or "?")]
    if not k.tensor_inst:
        return []
    if k.mma is None and k.mma_from == "fp32":
        return [tr("ncu-tensor-fp32", lang, count=f"{k.tensor_inst:.0f}")]
    if k.mma is None:
        return [
            tr(
                "ncu-tensor-no-shape",
                lang,
                count=f"{k.tensor_inst:.0f}",
                cc=k.cc or "?",
            )
        ]
    source = {
        "name": tr("ncu-mma-from-name", lang),
        "cc": tr("ncu-mma-from-cc", lang, cc=k.cc),
        "default": tr("ncu-mma-from-default", lang),
        "--mma": tr("ncu-mma-from-flag", lang),
    }[k.mma_from]
    m, n, kk = k.mma
    if k.mma_from != "--mma":
        source += tr("ncu-mma-change", lang)
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
            console.print(printable(line), highlight=False, markup=False)
    if hidden:
        console.print()
        console.print(
            tr("ncu-more", lang, more=len(hidden), share=_share(placements, hidden)),
            soft_wrap=True,
            highlight=False,
            markup=False,
        )
    command = collect_command(placements)
    if command:
        console.print()
        console.print(tr("ncu-collect", lang), highlight=False, markup=False)
        # one unbroken line, to copy whole (a terminal wraps it, no newline is inserted)
        console.print(command, soft_wrap=True, highlight=False, markup=False)
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
    main = max(points, key=lambda p: p.roof_peak)
    if card is None:
        figure = Figure("", [RoofLine("--peak / --bandwidth", main.peak, main.bandwidth, True)])
    else:
        dtype = main.roof.split(".")[-1]
        cuda_cores = not main.roof.startswith("tensor")
        if main.clock_peak is not None and main.kernel.sm_clock:
            # the roof the kernels ran under, as the text places them, alone: the card's other
            # roofs are at its datasheet clocks, which this profile did not run at
            label = tr("ncu-plot-at-clock", lang, dtype=dtype, clock=_mhz(main.kernel.sm_clock))
            roof = RoofLine(label, main.roof_peak, main.bandwidth, main=True)
            figure = Figure(f"{card.name} · {label}", [roof])
        else:
            figure = card_figure(card, dtype, cuda_cores)
    figure.lang = lang
    markers = "x+*o#@"
    for number, p in enumerate(placements, start=1):  # numbered as the text numbers them
        if p not in points:
            continue
        name = printable(short_kernel_name(p.kernel.name))
        marker = markers[(number - 1) % len(markers)]
        figure.points.append(
            Point(f"{number} {name}", p.intensity, p.achieved_flops, marker, "red")
        )
    size = shutil.get_terminal_size((100, 30))
    text = render(figure, size.columns, max(size.lines - 2, 20), color=console.is_terminal)
    if text:
        console.print(Text.from_ansi(text), soft_wrap=True)
    else:
        console.print(tr("plot-too-small", lang, w=size.columns, h=size.lines))


def _mhz(hz: float) -> str:
    return f"{hz / 1e6:.0f} MHz"


def short_kernel_name(name: str, width: int = 28) -> str:
    """A kernel's name for the plot's legend: no return type, arguments, namespaces or
    template arguments ("sgemm_kernel<…>"), and an ellipsis where it is still too long; the
    number before it points to the full name above."""
    name = name.replace("(anonymous namespace)::", "").removeprefix("void ").strip()
    head, angle, rest = _outside_brackets(name).partition("<")
    head = head.rsplit("::", 1)[-1]
    if head.lower() in GENERIC and angle:  # cutlass::Kernel<cutlass_70_…_s884gemm_…>: the
        inner = rest.split(",")[0].strip()  # first argument names the work
        head, angle, _ = inner.partition("<")
        head = head.rsplit("::", 1)[-1]
    return cut(head + ("<…>" if angle else ""), width)


GENERIC = {"kernel", "device_kernel", "kernel_entry"}  # wrappers whose argument is the kernel


def _outside_brackets(name: str) -> str:
    """The name up to its argument list: the first "(" outside template brackets."""
    depth = 0
    for i, ch in enumerate(name):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth = max(0, depth - 1)
        elif ch == "(" and depth == 0:
            return name[:i]
    return name
