"""``drill measure``: this machine's empirical roofline, saved as a card to drill on."""

from __future__ import annotations

import argparse
import shutil
import sys

from drill.cli import argtypes
from drill.cli.commands.common import print_json
from drill.cli.flags import export_flags, lang_flag, lang_of
from drill.errors import UsageError
from drill.i18n import tr


def add_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> None:
    parser.description = (
        "Measure the roofline of this machine: peak FLOP/s from large matrix multiplications, "
        "memory bandwidth from STREAM-style copy and triad, and an intensity sweep. The result "
        "is saved as a card you can drill on."
    )
    parser.add_argument(
        "--device",
        choices=("cpu", "cuda"),
        default="cpu",
        help="cpu (numpy) or cuda (needs PyTorch or CuPy with a GPU)",
    )
    parser.add_argument("--quick", action="store_true", help="smaller sizes, under 20 s")
    parser.add_argument(
        "--name",
        default="my-machine",
        metavar="ID",
        type=argtypes.name,
        help="card id to save the result as (default my-machine)",
    )
    parser.add_argument("--no-save", action="store_true", help="measure only, save no card")
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace an existing card of the same name in your folder",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    lang_flag(parser)
    export_flags(parser)


def run(args) -> int:
    lang = lang_of(args)
    from drill import measure as m  # numpy stays out of `drill --help`

    if not args.no_save and (why := m.check_card_id(args.name, getattr(args, "force", False))):
        raise UsageError(why)
    from drill.ui.render.export import Exporter

    exporter = Exporter.of(args)  # an existing --svg/--txt file is refused before measuring
    try:
        scale = m.scale_from_env()
        backend = m.open_backend(args.device)
    except m.MeasureError as exc:
        raise UsageError(str(exc)) from None
    plan = m.make_plan(args.device, args.quick, scale, memory_bytes=backend.memory_bytes)
    reference = None
    if args.device == "cuda":
        from drill.content.catalog import load_catalog

        reference = m.match_card(backend.processor, backend.memory_bytes, load_catalog())
    result = _run_with_progress(m, plan, backend, lang)
    theory = m.theoretical(result, reference)
    card = None
    if not args.no_save:
        try:
            data = m.card_data(result, args.name, reference)
        except m.MeasureError as exc:
            raise UsageError(str(exc)) from None
        path, problems = m.save_card(data)
        card = {"id": args.name, "path": str(path), "problems": [str(p) for p in problems]}
        for problem in problems:
            print(f"drill: {tr('measure-invalid', lang, problem=problem)}", file=sys.stderr)
    if args.json:
        print_json({**result.to_json(), "theoretical": theory, "card": card})
        return 0
    console = _show(result, theory, card, lang)
    exporter.save_recorded(console, f"drill measure · {result.processor}")
    exporter.report(lang)
    return 0


def _run_with_progress(m, plan, backend, lang: str):
    """A rich progress bar on stderr, so that stdout (and --json) stays clean."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        SpinnerColumn,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    console = Console(stderr=True)
    if not console.is_terminal:
        return m.measure(plan, backend)
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description:<18}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        refresh_per_second=4,
    ) as bar:
        task = bar.add_task(tr("measure-measuring", lang), total=1.0)

        def report(label: str, done: float, total: float) -> None:
            if label:
                bar.update(task, description=label, completed=done, total=total)
            else:
                bar.update(task, completed=done, total=total)

        return m.measure(plan, backend, progress=report)


def _show(result, theory: dict | None, card: dict | None, lang: str):
    """Print the measurement; returns the console, which recorded it (for --svg/--txt)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from drill.core.units import format_si, sig

    console = Console(highlight=False, record=True)
    peaks_theory = (theory or {}).get("peaks_flops", {})
    table = Table(
        title=f"{tr('measure-title', lang)} · {result.processor} · {result.library}",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        caption=tr("measure-spread-note", lang),
        caption_justify="left",
    )
    for key in ("kernel", "best", "median", "worst", "size", "datasheet"):
        table.add_column(
            tr(f"measure-{key}", lang),
            justify="left" if key in ("kernel", "size") else "right",
            style="bold cyan" if key == "best" else None,
            no_wrap=True,
        )
    if theory:
        table.add_column(tr("measure-of-datasheet", lang), justify="right")
    rows = [
        (tr("measure-gemm", lang, dtype=d), k, "FLOP/s", peaks_theory.get(d, {}).get("value"))
        for d, k in result.gemm.items()
    ]
    rows += [
        (
            tr(f"measure-{name}", lang),
            k,
            "B/s",
            theory["bandwidth"] if theory and name != "cache_copy" else None,
        )
        for name, k in result.streams.items()
    ]
    for label, kernel, unit, sheet in rows:
        s = kernel.sample
        cells = [
            label,
            format_si(s.best, unit),
            _below(s.median, s.best),
            _below(s.worst, s.best),
            kernel.size,
            format_si(sheet, unit) if sheet else "—" if theory else tr("measure-unknown", lang),
        ]
        if theory:
            cells.append(f"{s.best / sheet * 100:.0f}%" if sheet else "")
        table.add_row(*cells)
    console.print(table)
    if result.device == "cpu":
        console.print(tr("measure-cpu-theory", lang), style="dim")
    elif theory is None:
        console.print(tr("measure-no-card", lang, name=result.processor), style="dim")
    peaks = ", ".join(f"{d} {format_si(v, 'FLOP/s')}" for d, v in result.peaks.items())
    ridges = ", ".join(f"{d} {sig(v, 3)} FLOP/B" for d, v in result.ridges().items())
    console.print(
        tr(
            "measure-roofline",
            lang,
            peaks=peaks,
            bw=format_si(result.bandwidth, "B/s"),
            ridges=ridges,
        )
    )
    if result.sweep:
        _sweep_table(console, result, lang)
    console.print(
        tr("measure-method", lang, method=result.method(lang), seconds=result.elapsed_s),
        style="dim",
    )
    for note in result.notes:
        console.print(note, style="yellow", markup=False)
    if card is not None:
        console.print(tr("measure-saved", lang, id=card["id"], path=card["path"]), markup=False)
        console.print(
            tr("measure-try", lang, id=card["id"], dtype=_main_dtype(result)),
            style="dim",
            markup=False,
        )
    else:
        console.print(tr("measure-not-saved", lang), style="dim")
    size = shutil.get_terminal_size((100, 30))
    text = _plot(result, lang, size.columns, min(24, max(size.lines - 4, 16)), console.is_terminal)
    console.print(Text.from_ansi(text) if text else tr("measure-plot-small", lang), soft_wrap=True)
    return console


def _below(value: float, best: float) -> str:
    """How far a run fell below the best one, as a signed percentage."""
    return f"{(value / best - 1) * 100:+.1f}%" if best else ""


def _main_dtype(result) -> str:
    """The dtype the sweep ran in: the roof drawn in front and suggested to drill on."""
    return result.sweep_dtype if result.sweep_dtype in result.gemm else "fp32"


def _sweep_table(console, result, lang: str) -> None:
    from rich import box
    from rich.table import Table

    from drill.core.units import format_si, sig

    dtype = _main_dtype(result)
    peak = result.peaks.get(dtype, 0.0)
    table = Table(
        title=tr("measure-sweep-title", lang, dtype=result.sweep_dtype),
        title_justify="left",
        caption=tr("measure-sweep-note", lang),
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    for key in ("k", "intensity", "measured", "roof", "of-roof"):
        table.add_column(key if key == "k" else tr(f"measure-{key}", lang), justify="right")
    for point in result.sweep:
        roof = min(peak, point.intensity * result.bandwidth)
        table.add_row(
            str(point.k),
            f"{sig(point.intensity, 3)} FLOP/B",
            format_si(point.sample.best, "FLOP/s"),
            format_si(roof, "FLOP/s"),
            f"{point.sample.best / roof * 100:.0f}%" if roof else "",
        )
    console.print(table)


def _plot(result, lang: str, width: int, height: int, color: bool) -> str:
    from drill.ui.render.plot import Figure, Point, RoofLine, render

    bw = result.bandwidth
    if bw <= 0 or not result.peaks:
        return ""
    main = _main_dtype(result)
    roofs = [RoofLine(main, result.peaks[main], bw, main=True)]
    for dtype, peak in sorted(result.peaks.items(), key=lambda item: -item[1]):
        if dtype != main and all(abs(peak - r.peak) > 0.02 * peak for r in roofs):
            roofs.append(RoofLine(dtype, peak, bw))
    figure = Figure(tr("measure-plot-title", lang, name=result.processor), roofs, lang=lang)
    for i, point in enumerate(result.sweep):
        label = tr("measure-sweep-label", lang, dtype=result.sweep_dtype) if i == 0 else ""
        figure.points.append(Point(label, point.intensity, point.sample.best, "●", "green"))
    triad = result.streams.get("triad")
    if triad is not None:
        word = {"fp64": 8, "fp32": 4}.get(result.stream_dtype, 8)
        intensity = 2 / (3 * word)
        figure.points.append(
            Point(
                tr("measure-triad-label", lang),
                intensity,
                triad.sample.best * intensity,
                "x",
                "red",
            )
        )
    return render(figure, width, height, color)
