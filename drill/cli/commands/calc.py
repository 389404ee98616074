"""``drill calc``: the roofline calculator on the command line."""

from __future__ import annotations

import argparse
import math
import shutil

from drill.cli import argtypes
from drill.cli.commands import calc_hierarchy, calc_multigpu
from drill.cli.commands.calc_hierarchy import gemm_levels
from drill.cli.commands.calc_multigpu import config_note
from drill.cli.commands.common import load_card, print_json, roof_for, settle_dtype
from drill.cli.flags import DTYPE_CHOICES, card_flags, export_flags, lang_flag, lang_of
from drill.core.engine import ShapeError, analyze
from drill.core.engine import roofline as rl
from drill.core.engine.calc_ops import CONTEXT_NEEDS, DECODE_CONTEXT, OPERATORS, check_values
from drill.core.engine.decoding import kv_cache_bytes
from drill.core.engine.operators import dtype_bytes
from drill.core.engine.steps import Step, num
from drill.core.units import format_si, math_units, sig
from drill.errors import UsageError
from drill.i18n import Text, tr


def add_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> None:
    """Every operator's sub-parser (built only when ``calc`` is on the command line)."""
    parser.description = (
        "Place an operator on a card's roofline: FLOPs, bytes, intensity, ridge, "
        "bound, attainable throughput and minimum time, with every step shown. "
        "Units are decimal SI (1 TFLOP/s = 1e12 FLOP/s, 1 GB/s = 1e9 B/s); one FMA "
        "= 2 FLOPs. Numbers accept 4096, 4k (= 4000), 4Ki (= 4096), 52e9, 1,024."
    )
    lang_flag(parser)  # drill calc --lang zh gemm …, as well as after the operator
    ops = parser.add_subparsers(dest="op", metavar="OP", parser_class=argtypes.Parser)
    ops.required = True

    for spec in OPERATORS.values():
        description = f"{spec.en}. {DECODE_CONTEXT}" if spec.name == "decode" else spec.en
        p = ops.add_parser(spec.name, help=spec.en, description=description)
        for param in spec.params:
            if param.kind == "flag":
                p.add_argument(*param.flags, dest=param.name, action="store_true", help=param.en)
            else:
                kind = argtypes.count if param.kind == "count" else argtypes.number
                # decode's attention fields have no default: --context asks for them all
                given = param.default is None or (
                    spec.name == "decode" and param.name in CONTEXT_NEEDS
                )
                default = "" if given else f" (default {param.default:g})"
                p.add_argument(
                    *param.flags,
                    dest=param.name,
                    type=kind,
                    default=None,
                    metavar="N",
                    help=param.en + default,
                )
        card_flags(p)
        p.add_argument(
            "--measured",
            type=argtypes.flop_rate,
            metavar="RATE",
            help="measured throughput, e.g. 200T, to get the efficiency",
        )
        p.add_argument(
            "--compare-gpu",
            metavar="ID",
            type=argtypes.name,
            help="also run on this card: speed-up",
        )
        p.add_argument(
            "--compare-dtype",
            choices=DTYPE_CHOICES,
            help="also run in this precision: speed-up of the precision change",
        )
        p.add_argument("--json", action="store_true", help="one JSON object in base SI units")
        p.add_argument("--plot", action="store_true", help="draw the roofline below the table")
        if spec.name == "gemm":
            p.add_argument(
                "--tile",
                metavar="BMxBN",
                type=argtypes.name,
                help="output tile, e.g. 128x128: also show L2 and shared-memory intensity",
            )

    kv = ops.add_parser(
        "kv-cache",
        help="KV cache size (and time to stream it with --gpu)",
        description="KV cache bytes = 2·L·H_kv·D·T·B·s",
    )
    kv.add_argument("--layers", type=argtypes.count, metavar="L")
    kv.add_argument("--kv-heads", type=argtypes.count, metavar="H")
    kv.add_argument("--head-dim", type=argtypes.count, metavar="D")
    kv.add_argument("--tokens", type=argtypes.count, metavar="T")
    kv.add_argument("--batch", type=argtypes.count, default=1, metavar="B")
    kv.add_argument(
        "--dtype",
        choices=DTYPE_CHOICES,
        default=None,
        help="element size (default: the config's torch_dtype, else fp16)",
    )
    kv.add_argument(
        "--gpu", metavar="ID", type=argtypes.name, help="also show the time to read it once"
    )
    kv.add_argument("--json", action="store_true", help="one JSON object in base SI units")
    lang_flag(kv)

    peak = ops.add_parser("peak", help="peak FLOP/s = units × lanes × 2 × clock")
    peak.add_argument("--units", type=argtypes.count, required=True, help="SMs or CUs")
    peak.add_argument("--lanes", type=argtypes.count, required=True, help="FP32 lanes per unit")
    peak.add_argument(
        "--clock", type=argtypes.frequency, required=True, help="boost clock, e.g. 1.41GHz"
    )
    peak.add_argument("--json", action="store_true", help="one JSON object in base SI units")
    lang_flag(peak)

    bw = ops.add_parser("bandwidth", help="bandwidth = bus width / 8 × per-pin data rate")
    bw.add_argument("--bus-width", type=argtypes.count, required=True, help="bits")
    bw.add_argument(
        "--data-rate",
        type=argtypes.data_rate,
        required=True,
        help="per-pin Gb/s (already double data rate: do not double it)",
    )
    bw.add_argument("--json", action="store_true", help="one JSON object in base SI units")
    lang_flag(bw)

    for name, text in (
        ("ridge", "ridge point of a card for a dtype"),
        ("critical-batch", "decode batch size where it turns compute-bound"),
        ("ops-per-element", "FLOPs per element at which an element-wise op turns compute-bound"),
    ):
        p = ops.add_parser(name, help=text, description=text)
        card_flags(p)
        if name == "ops-per-element":
            p.add_argument("--inputs", type=argtypes.count, default=1)
            p.add_argument("--outputs", type=argtypes.count, default=1)
        p.add_argument("--json", action="store_true", help="one JSON object in base SI units")

    waves = ops.add_parser("waves", help="wave quantization: thread blocks vs SMs")
    waves.add_argument(
        "--blocks", type=argtypes.count, required=True, help="thread blocks in the grid"
    )
    waves.add_argument("--units", type=argtypes.count, help="SMs (default: the card's)")
    waves.add_argument("--gpu", metavar="ID", type=argtypes.name)
    waves.add_argument(
        "--blocks-per-unit",
        type=argtypes.count,
        default=1,
        help="blocks resident per SM at once (occupancy)",
    )
    waves.add_argument("--json", action="store_true", help="one JSON object in base SI units")
    lang_flag(waves)
    calc_multigpu.add_arguments(ops)
    calc_hierarchy.add_arguments(ops)
    for op in ops.choices.values():  # last, so --svg/--txt/--csv end each op's help
        if any("--plot" in a.option_strings for a in op._actions):
            export_flags(op, csv=True)


def run(args) -> int:
    lang = lang_of(args)
    if args.op == "peak":
        value, step = rl.peak_from_specs(args.units, args.lanes, args.clock)
        return _emit_steps(args, lang, [step], {"peak_flops": value})
    if args.op == "bandwidth":
        value, step = rl.bandwidth_from_specs(args.bus_width, args.data_rate)
        return _emit_steps(args, lang, [step], {"bandwidth": value})
    if calc_multigpu.handles(args.op):
        return calc_multigpu.run(args, lang)
    if args.op in ("decode", "prefill", "kv-cache"):
        calc_multigpu.apply_config(args)
    if args.op == "kv-cache":
        calc_multigpu.require(args, "layers", "kv_heads", "head_dim", "tokens")
        return _kv_cache(args, lang)
    if args.op == "waves":
        return _waves(args, lang)
    if args.op in ("tile", "occupancy", "bytes-in-flight", "move"):
        return calc_hierarchy.run(args)
    settle_dtype(args)
    if args.op == "critical-batch" and (args.experts or args.active):
        return calc_multigpu.moe_critical_batch(args, lang, roof_for(args, args.dtype))
    if args.op in ("ridge", "critical-batch", "ops-per-element"):
        return _card_helper(args, lang)
    return _operator(args, lang)


def _analysis(spec, values, dtype, args, gpu=None, own_figures=False):
    """``own_figures``: a comparison uses the card's datasheet figures, not --peak/--bandwidth."""
    if own_figures:
        gpu = gpu or args.gpu
        if gpu is None and args.peak and args.bandwidth:
            raise UsageError("a comparison needs a card: add --gpu ID to --peak/--bandwidth")
    card_args = _with_gpu(args, gpu, own_figures)
    roof = (
        roof_for(card_args, dtype)
        if rl.uses_tensor_cores(spec.name)
        else _vector_roof(card_args, dtype, spec.name)
    )
    try:
        cost = spec.cost(values, dtype)
        return analyze(
            cost,
            roof.peak,
            roof.bandwidth,
            dtype,
            getattr(args, "measured", None),
            roof.gpu,
            roof.peak_label,
        ), roof
    except (ShapeError, ValueError) as exc:
        raise UsageError(str(exc)) from None


class _GpuArgs:
    def __init__(self, args, gpu, own_figures: bool):
        self.__dict__.update(vars(args))
        self.gpu = gpu
        if own_figures:
            self.peak = self.bandwidth = None


def _with_gpu(args, gpu, own_figures: bool = False):
    return args if gpu is None and not own_figures else _GpuArgs(args, gpu, own_figures)


def _config_values(args, values: dict) -> dict:
    """What a config adds to decode and prefill: the active parameters (FLOPs), the weights a
    batch touches and the KV cache the attention kind and window keep (bytes)."""
    shape = getattr(args, "config_shape", None)
    if shape is None or values.get("params") != shape.total_params():
        return values  # no config, or --params given on the line
    extra = {"active": float(shape.active_params())}
    if args.op == "prefill":
        extra["read"] = shape.weights_read(values["tokens"])
    if args.op == "decode":
        extra["read"] = shape.weights_read(values["batch"])
        if values.get("context") and values.get("kv_heads") == shape.kv_heads:
            extra["kv_elements"] = float(shape.kv_elements(values["context"]))
    return {**values, **extra}


def _operator(args, lang: str) -> int:
    spec = OPERATORS[args.op]
    try:
        values = check_values(spec, {p.name: getattr(args, p.name) for p in spec.params})
    except ShapeError as exc:
        raise UsageError(str(exc)) from None
    values = _config_values(args, values)
    analysis, roof = _analysis(spec, values, args.dtype, args)
    data = analysis.to_json()
    shape = getattr(args, "config_shape", None)
    if shape is not None:
        data["config"] = shape.to_json()
    extra_steps: list[Step] = []
    if args.compare_gpu:
        other, other_roof = _analysis(
            spec, values, args.dtype, args, gpu=args.compare_gpu, own_figures=True
        )
        speedup = analysis.min_time / other.min_time
        data["compare_gpu"] = {
            "gpu": other_roof.gpu,
            "min_time_s": other.min_time,
            "bound": other.bound,
            "speedup": speedup,
        }
        extra_steps.append(
            Step(
                "speedup",
                f"Speed-up on {other_roof.gpu}",
                f"换到 {other_roof.gpu} 的加速比",
                "t_this / t_other",
                f"{format_si(analysis.min_time, 's')} / {format_si(other.min_time, 's')}",
                speedup,
                "x",
            )
        )
    if args.compare_dtype:
        other, _ = _analysis(spec, values, args.compare_dtype, args, own_figures=True)
        speedup = analysis.min_time / other.min_time
        data["compare_dtype"] = {
            "dtype": args.compare_dtype,
            "min_time_s": other.min_time,
            "bound": other.bound,
            "intensity": other.intensity,
            "speedup": speedup,
        }
        extra_steps.append(
            Step(
                "precision",
                f"Speed-up in {args.compare_dtype}",
                f"改用 {args.compare_dtype} 的加速比",
                "t_this / t_other",
                f"{format_si(analysis.min_time, 's')} / {format_si(other.min_time, 's')}",
                speedup,
                "x",
            )
        )
    held = resident_bytes(analysis, args.dtype)
    if held is not None and roof.card is not None:
        data["resident_bytes"] = held
        data["gpus_to_hold"] = cards_to_hold(held, roof.card)
    if getattr(args, "tile", None):
        data["hierarchy"], level_steps = gemm_levels(args, analysis, roof.card)
        extra_steps.extend(level_steps)
    if args.json:
        print_json(data)
        return 0
    from drill.ui.render.safe_output import console as console_for_output
    from drill.ui.render.tables import steps_table, verdict

    console = console_for_output()
    title = roof_title(spec.name, roof, args.dtype, analysis.peak_label, lang)
    described = _config_line(args, lang)
    if described:
        console.print(described)
    console.print(steps_table(list(analysis.steps) + extra_steps, lang, title))
    console.print(verdict(analysis, lang))
    note = spec_note(analysis, lang)
    if note:
        console.print(note, style="dim")
    if data.get("gpus_to_hold", 1) > 1:
        console.print(too_big("calc-does-not-fit", held, roof.card, lang), style="yellow")
    console.print(tr("conventions", lang), style="dim")
    figure = _plot_analysis(console, analysis, roof, args, lang) if args.plot else None
    _export(
        args,
        lang,
        title,
        [steps_table(list(analysis.steps) + extra_steps, lang, title), verdict(analysis, lang)],
        figure,
    )
    return 0


def roof_title(op: str, roof, dtype: str, peak_label: str, lang: str) -> str:
    """ "gemm · NVIDIA H100 SXM5 80GB · fp16 (tensor.fp16, 989.4 TFLOP/s, 3.352 TB/s)": the
    card, the precision and the roof a table is worked against."""
    name = roof.name if roof.card is not None else tr("plot-custom", lang)
    return (
        f"{op} · {name} · {dtype} ({peak_label}, "
        f"{format_si(roof.peak, math_units(dtype)[0])}, {format_si(roof.bandwidth, 'B/s')})"
    )


def _export(args, lang: str, title: str, shown: list, figure) -> None:
    """``--svg``/``--txt``/``--csv`` (with ``--plot``): the table, the verdict and the plot."""
    from rich.text import Text

    from drill.ui.render.export import Exporter, roofline_rows
    from drill.ui.render.plot import render

    exporter = Exporter.of(args)
    if exporter.csv is not None and figure is None:
        raise UsageError("--csv writes the roofline's data: add --plot")
    if figure is not None:
        exporter.save_csv(roofline_rows(figure))
        shown.append(Text.from_ansi(render(figure, *_plot_size(args), color=True)))
    exporter.save(shown, title)
    exporter.report(lang)


def too_big(key: str, held: float, card, lang: str) -> str:
    """ "… (140 GB) do not fit in one h100-sxm5-80gb (85.52 GB): … at least 2 GPUs": how
    many cards of the memory a tool reports it takes to hold ``held`` bytes."""
    return tr(
        key,
        lang,
        held=format_si(held, "B"),
        gpu=card.id,
        capacity=format_si(card.capacity, "B"),
        n=cards_to_hold(held, card),
    )


def cards_to_hold(held: float, card) -> int:
    """Cards of the memory a tool reports for one (nvidia-smi's total) that ``held`` bytes take."""
    return math.ceil(held / card.capacity)


def resident_bytes(analysis, dtype: str) -> float | None:
    """What a decode or prefill keeps in GPU memory: all the weights (every expert of a
    mixture) and the KV cache; None for other operators."""
    cost = analysis.cost
    if cost.op not in ("decode", "prefill"):
        return None
    kv = next((float(s.value) for s in cost.steps if s.key == "kv-cache"), 0.0)
    return float(cost.params["params"]) * dtype_bytes(dtype) + kv


def spec_note(analysis, lang: str) -> str:
    cost = analysis.cost
    return Text(cost.note_en, cost.note_zh or cost.note_en)(lang)


def _plot_analysis(console, analysis, roof, args, lang: str):
    from rich.text import Text

    from drill.ui.render.calc_plot import operator_figure
    from drill.ui.render.plot import render

    figure = operator_figure(analysis, roof.card, lang, args.cuda_cores)
    width, height = _plot_size(args)
    text = render(figure, width, height, color=console.is_terminal)
    if text:
        console.print(Text.from_ansi(text))
    else:
        console.print(tr("plot-too-small", lang, w=width, h=height), style="dim")
    return figure


def _plot_size(args) -> tuple[int, int]:
    size = shutil.get_terminal_size((100, 30))
    width = getattr(args, "width", None) or min(size.columns, 120)
    height = getattr(args, "height", None) or max(min(size.lines - 4, 30), 12)
    return width, height


def _emit_steps(
    args,
    lang: str,
    steps: list[Step],
    data: dict,
    note: str = "",
    warning: str = "",
    title: str = "",
) -> int:
    if args.json:
        data["steps"] = [s.to_json() for s in steps]
        print_json(data)
        return 0
    from drill.ui.render.safe_output import console as console_for_output
    from drill.ui.render.tables import steps_table

    console = console_for_output()
    if note:
        console.print(note)
    console.print(steps_table(steps, lang, title))
    if warning:
        console.print(warning, style="yellow")
    console.print(tr("conventions", lang), style="dim")
    return 0


def _kv_cache(args, lang: str) -> int:
    args.dtype = args.dtype or "fp16"
    shape = getattr(args, "config_shape", None)
    if shape is not None and (args.layers, args.kv_heads) == (shape.layers, shape.kv_heads):
        elements = shape.kv_elements(args.tokens) * args.batch  # MLA and windows as configured
        s = dtype_bytes(args.dtype)
        value = float(elements * s)
        step = Step(
            "kv-cache",
            "KV cache size",
            "KV 缓存大小",
            "elements per sequence (from the config) · B·s",
            f"{num(shape.kv_elements(args.tokens))}·{num(args.batch)}·{s}",
            value,
            "B",
            formula_zh="每条序列的缓存元素数（来自配置）· B·s",
        )
    else:
        value, step = kv_cache_bytes(
            args.layers, args.kv_heads, args.head_dim, args.tokens, args.batch, args.dtype
        )
    steps = [step]
    data = {"bytes": value, "dtype": args.dtype}
    if shape is not None:
        data["config"] = shape.to_json()
    if args.gpu:
        card = load_card(args.gpu)
        seconds = value / card.bandwidth
        data.update(gpu=card.id, bandwidth=card.bandwidth, read_time_s=seconds)
        steps.append(
            Step(
                "read-time",
                f"Time to read it once on {card.id}",
                f"在 {card.id} 上读一遍的时间",
                "bytes / bandwidth",
                f"{format_si(value, 'B')} / {format_si(card.bandwidth, 'B/s')}",
                seconds,
                "s",
            )
        )
        data["gpus_to_hold"] = cards_to_hold(value, card)
        if data["gpus_to_hold"] > 1:
            over = too_big("calc-kv-does-not-fit", value, card, lang)
            return _emit_steps(args, lang, steps, data, _config_line(args, lang), over)
    return _emit_steps(args, lang, steps, data, _config_line(args, lang))


def _config_line(args, lang: str) -> str:

    return config_note(getattr(args, "config_shape", None), lang, args)


def _waves(args, lang: str) -> int:
    units = args.units
    if units is None:
        units = load_card(args.gpu).units
    w = rl.wave_quantization(args.blocks, units, args.blocks_per_unit)
    step = Step(
        "waves",
        "Waves",
        "波次",
        "ceil(blocks / (units × blocks per unit))",
        f"ceil({num(w.blocks)} / ({num(units)} × {args.blocks_per_unit}))",
        float(w.waves),
    )
    util = Step(
        "wave-util",
        "Useful share of the last-wave-padded work",
        "有效利用率",
        "blocks / (waves × slots)",
        f"{num(w.blocks)} / ({w.waves} × {num(w.slots)})",
        w.utilization,
        "%",
    )
    return _emit_steps(
        args,
        lang,
        [step, util],
        {"blocks": w.blocks, "slots": w.slots, "waves": w.waves, "utilization": w.utilization},
    )


def _vector_roof(args, dtype: str, op: str = "elementwise"):
    """Vector kernels run on the non-tensor units: the card's roof for ``op``
    (Card.op_peak), unless --peak overrides it."""
    if getattr(args, "peak", None):
        return roof_for(args, dtype)
    choice = load_card(args.gpu).op_peak(dtype, op)
    vector_args = _GpuArgs(args, args.gpu, False)
    vector_args.cuda_cores = True
    return roof_for(vector_args, choice.path.split(".")[1])


def _card_helper(args, lang: str) -> int:
    elementwise = args.op == "ops-per-element"
    roof = _vector_roof(args, args.dtype) if elementwise else roof_for(args, args.dtype)
    rid = rl.ridge(roof.peak, roof.bandwidth)
    en, zh = "Ridge point", "拐点"
    if elementwise:
        en, zh = (
            f"Ridge point, non-tensor roof ({roof.peak_label})",
            f"拐点，非 Tensor Core 屋顶（{roof.peak_label}）",
        )
    ridge_step = Step(
        "ridge",
        en,
        zh,
        "peak / bandwidth",
        f"{format_si(roof.peak, 'FLOP/s')} / {format_si(roof.bandwidth, 'B/s')}",
        rid,
        "FLOP/B",
    )
    data = {
        "gpu": roof.gpu,
        "dtype": args.dtype,
        "peak_flops": roof.peak,
        "bandwidth": roof.bandwidth,
        "ridge": rid,
        "peak_path": roof.peak_label,
    }
    steps = [ridge_step]
    s = dtype_bytes(args.dtype)
    if args.op == "critical-batch":
        value = rl.critical_batch(roof.peak, roof.bandwidth, s)
        data["critical_batch"] = value
        steps.append(
            Step(
                "critical-batch",
                "Critical decode batch",
                "临界 batch",
                "ridge × s / 2 (intensity of decode ≈ 2·B / s)",
                f"{sig(rid)} × {s} / 2",
                value,
            )
        )
    elif args.op == "ops-per-element":
        value = rl.ops_per_element_to_compute(
            roof.peak, roof.bandwidth, s, args.inputs, args.outputs
        )
        data["flops_per_element"] = value
        steps.append(
            Step(
                "ops-per-element",
                "FLOPs per element to reach the ridge",
                "达到拐点所需的每元素运算数",
                "ridge × s × (i + o)",
                f"{sig(rid)} × {s} × ({args.inputs} + {args.outputs})",
                value,
            )
        )
    title = roof_title(args.op, roof, args.dtype, roof.peak_label, lang)
    return _emit_steps(args, lang, steps, data, title=title)
