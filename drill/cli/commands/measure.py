"""``drill measure``: this machine's empirical roofline, saved as a card to drill on."""

from __future__ import annotations

import shutil
import sys

from drill.cli.commands.common import lang_of, print_json
from drill.errors import UsageError

TEXT: dict[str, tuple[str, str]] = {
    "title": ("Measured roofline", "实测 Roofline"),
    "kernel": ("Kernel", "内核"),
    "best": ("Best", "最佳"),
    "median": ("Median", "中位数"),
    "worst": ("Worst", "最差"),
    "spread": ("Spread", "波动"),
    "size": ("Size", "规模"),
    "datasheet": ("Datasheet", "数据手册"),
    "of-datasheet": ("Share", "占比"),
    "spread-note": ("Median and worst: how far those runs fell below the best one.",
                    "中位数与最差：相对最佳一次低了多少。"),
    "unknown": ("unknown", "未知"),
    "gemm": ("GEMM {dtype}", "GEMM {dtype}"),
    "copy": ("copy (memory)", "copy（内存）"),
    "triad": ("triad (memory)", "triad（内存）"),
    "cache_copy": ("copy (L2, 1 core)", "copy（L2，单核）"),
    "cpu-theory": (
        "Datasheet: unknown for a CPU. Its peak would need cores × FLOPs per cycle × the "
        "all-core clock, and its bandwidth the memory channels and speed; drill does not guess "
        "them, so only measured figures are shown.",
        "数据手册：CPU 未知。CPU 峰值需要核数 × 每周期 FLOPs × 全核频率，带宽需要内存通道数和速率；"
        "drill 不去猜，只给实测值。",
    ),
    "no-card": ("Datasheet: no catalog card matches {name!r}.",
                "数据手册：目录里没有与 {name!r} 对应的显卡。"),
    "roofline": ("Roofline of this machine: {peaks}; memory {bw} (best of copy and triad); "
                 "ridge {ridges}.",
                 "本机 Roofline：{peaks}；内存带宽 {bw}（copy 与 triad 中的最佳值）；拐点 {ridges}。"),
    "sweep-title": ("Intensity sweep: Y = X·W, X of M×k, W of k×k ({dtype})",
                    "强度扫描：Y = X·W，X 为 M×k，W 为 k×k（{dtype}）"),
    "intensity": ("Intensity", "强度"),
    "measured": ("Measured", "实测"),
    "roof": ("Roof", "屋顶"),
    "of-roof": ("Of roof", "占屋顶"),
    "sweep-note": ("Bytes count X and Y once (compulsory traffic); the roof is "
                   "min(peak, intensity × bandwidth) from the measured figures.",
                   "字节数按 X、Y 各读写一次（必需流量）计；屋顶 = min(峰值, 强度 × 带宽)，均为实测值。"),
    "method": ("Method: {method}. Took {seconds:.1f} s.", "方法：{method}。用时 {seconds:.1f} 秒。"),
    "saved": ("Saved as card {id}: {path}", "已保存为显卡 {id}：{path}"),
    "try": ("Try: drill calc gemm -M 4096 -N 4096 -K 4096 --gpu {id} --dtype {dtype} · "
            "drill plot --gpu {id} --dtype {dtype} · drill start --gpu {id}",
            "试试：drill calc gemm -M 4096 -N 4096 -K 4096 --gpu {id} --dtype {dtype} · "
            "drill plot --gpu {id} --dtype {dtype} · drill start --gpu {id}"),
    "not-saved": ("Not saved (--no-save).", "未保存（--no-save）。"),
    "invalid": ("warning: the saved card has problems: {problem}", "警告：保存的显卡有问题：{problem}"),
    "plot-title": ("{name}: measured roofline and sweep", "{name}：实测 Roofline 与扫描点"),
    "sweep-label": ("sweep X·W ({dtype})", "扫描 X·W（{dtype}）"),
    "triad-label": ("triad", "triad"),
    "plot-small": ("(enlarge the terminal to see the plot)", "（终端太小，放大后可显示图）"),
    "measuring": ("measuring", "测量中"),
}


def tr(key: str, lang: str, **values: object) -> str:
    en, zh = TEXT[key]
    return (zh if lang == "zh" else en).format(**values)


def run(args) -> int:
    lang = lang_of(args)
    from drill import measure as m  # numpy stays out of `drill --help`

    if not args.no_save and (why := m.check_card_id(args.name, getattr(args, "force", False))):
        raise UsageError(why)
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
            print(f"drill: {tr('invalid', lang, problem=problem)}", file=sys.stderr)
    if args.json:
        print_json({**result.to_json(), "theoretical": theory, "card": card})
        return 0
    _show(result, theory, card, lang)
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
    with Progress(SpinnerColumn(), TextColumn("{task.description:<18}"), BarColumn(),
                  TaskProgressColumn(), TimeElapsedColumn(), console=console, transient=True,
                  refresh_per_second=4) as bar:
        task = bar.add_task(tr("measuring", lang), total=1.0)

        def report(label: str, done: float, total: float) -> None:
            if label:
                bar.update(task, description=label, completed=done, total=total)
            else:
                bar.update(task, completed=done, total=total)

        return m.measure(plan, backend, progress=report)


def _show(result, theory: dict | None, card: dict | None, lang: str) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from drill.core.units import format_si, sig

    console = Console(highlight=False)
    peaks_theory = (theory or {}).get("peaks_flops", {})
    table = Table(title=f"{tr('title', lang)} · {result.processor} · {result.library}",
                  title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  caption=tr("spread-note", lang), caption_justify="left")
    for key in ("kernel", "best", "median", "worst", "size", "datasheet"):
        table.add_column(tr(key, lang), justify="left" if key in ("kernel", "size") else "right",
                         style="bold cyan" if key == "best" else None, no_wrap=True)
    if theory:
        table.add_column(tr("of-datasheet", lang), justify="right")
    rows = [(tr("gemm", lang, dtype=d), k, "FLOP/s", peaks_theory.get(d, {}).get("value"))
            for d, k in result.gemm.items()]
    rows += [(tr(name, lang), k, "B/s", theory["bandwidth"] if theory and name != "cache_copy"
              else None) for name, k in result.streams.items()]
    for label, kernel, unit, sheet in rows:
        s = kernel.sample
        cells = [label, format_si(s.best, unit), _below(s.median, s.best),
                 _below(s.worst, s.best), kernel.size,
                 format_si(sheet, unit) if sheet else "—" if theory else tr("unknown", lang)]
        if theory:
            cells.append(f"{s.best / sheet * 100:.0f}%" if sheet else "")
        table.add_row(*cells)
    console.print(table)
    if result.device == "cpu":
        console.print(tr("cpu-theory", lang), style="dim")
    elif theory is None:
        console.print(tr("no-card", lang, name=result.processor), style="dim")
    peaks = ", ".join(f"{d} {format_si(v, 'FLOP/s')}" for d, v in result.peaks.items())
    ridges = ", ".join(f"{d} {sig(v, 3)} FLOP/B" for d, v in result.ridges().items())
    console.print(tr("roofline", lang, peaks=peaks, bw=format_si(result.bandwidth, "B/s"),
                     ridges=ridges))
    if result.sweep:
        _sweep_table(console, result, lang)
    console.print(tr("method", lang, method=result.method(lang), seconds=result.elapsed_s),
                  style="dim")
    for note in result.notes:
        console.print(note, style="yellow", markup=False)
    if card is not None:
        console.print(tr("saved", lang, id=card["id"], path=card["path"]), markup=False)
        console.print(tr("try", lang, id=card["id"], dtype=_main_dtype(result)), style="dim",
                      markup=False)
    else:
        console.print(tr("not-saved", lang), style="dim")
    size = shutil.get_terminal_size((100, 30))
    text = _plot(result, lang, size.columns, min(24, max(size.lines - 4, 16)),
                 console.is_terminal)
    console.print(Text.from_ansi(text) if text else tr("plot-small", lang), soft_wrap=True)


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
    table = Table(title=tr("sweep-title", lang, dtype=result.sweep_dtype), title_justify="left",
                  caption=tr("sweep-note", lang), caption_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False)
    for key in ("k", "intensity", "measured", "roof", "of-roof"):
        table.add_column(key if key == "k" else tr(key, lang), justify="right")
    for point in result.sweep:
        roof = min(peak, point.intensity * result.bandwidth)
        table.add_row(str(point.k), f"{sig(point.intensity, 3)} FLOP/B",
                      format_si(point.sample.best, "FLOP/s"), format_si(roof, "FLOP/s"),
                      f"{point.sample.best / roof * 100:.0f}%" if roof else "")
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
    figure = Figure(tr("plot-title", lang, name=result.processor), roofs, lang=lang)
    for i, point in enumerate(result.sweep):
        label = tr("sweep-label", lang, dtype=result.sweep_dtype) if i == 0 else ""
        figure.points.append(Point(label, point.intensity, point.sample.best, "●", "green"))
    triad = result.streams.get("triad")
    if triad is not None:
        word = {"fp64": 8, "fp32": 4}.get(result.stream_dtype, 8)
        intensity = 2 / (3 * word)
        figure.points.append(Point(tr("triad-label", lang), intensity,
                                   triad.sample.best * intensity, "x", "red"))
    return render(figure, width, height, color)
