"""The ``calc`` sub-parser: one sub-command per operator, built from the engine's registry
only when ``calc`` is on the command line."""

from __future__ import annotations

import argparse

from drill.cli import argtypes, parsers_multigpu
from drill.cli.flags import DTYPE_CHOICES
from drill.cli.flags import card_flags as _card_flags
from drill.cli.flags import lang_flag as _lang_flag
from drill.cli.parsers_adaptive import export_flags


def add_calc(sub: argparse._SubParsersAction, full: bool) -> None:
    """The calc operators are only built when ``calc`` is on the command line (~15 ms)."""
    calc = sub.add_parser(
        "calc",
        help="roofline calculator for an operator, or peak / bandwidth from specs",
        description="Place an operator on a card's roofline: FLOPs, bytes, intensity, ridge, "
        "bound, attainable throughput and minimum time, with every step shown. "
        "Units are decimal SI (1 TFLOP/s = 1e12 FLOP/s, 1 GB/s = 1e9 B/s); one FMA "
        "= 2 FLOPs. Numbers accept 4096, 4k (= 4000), 4Ki (= 4096), 52e9, 1,024.",
    )
    ops = calc.add_subparsers(dest="op", metavar="OP", parser_class=argtypes.Parser)
    ops.required = True
    if not full:
        return
    from drill.core.engine.calc_ops import CONTEXT_NEEDS, DECODE_CONTEXT, OPERATORS

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
        _card_flags(p)
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
    _lang_flag(kv)

    peak = ops.add_parser("peak", help="peak FLOP/s = units × lanes × 2 × clock")
    peak.add_argument("--units", type=argtypes.count, required=True, help="SMs or CUs")
    peak.add_argument("--lanes", type=argtypes.count, required=True, help="FP32 lanes per unit")
    peak.add_argument(
        "--clock", type=argtypes.frequency, required=True, help="boost clock, e.g. 1.41GHz"
    )
    peak.add_argument("--json", action="store_true", help="one JSON object in base SI units")
    _lang_flag(peak)

    bw = ops.add_parser("bandwidth", help="bandwidth = bus width / 8 × per-pin data rate")
    bw.add_argument("--bus-width", type=argtypes.count, required=True, help="bits")
    bw.add_argument(
        "--data-rate",
        type=argtypes.data_rate,
        required=True,
        help="per-pin Gb/s (already double data rate: do not double it)",
    )
    bw.add_argument("--json", action="store_true", help="one JSON object in base SI units")
    _lang_flag(bw)

    for name, text in (
        ("ridge", "ridge point of a card for a dtype"),
        ("critical-batch", "decode batch size where it turns compute-bound"),
        ("ops-per-element", "FLOPs per element at which an element-wise op turns compute-bound"),
    ):
        p = ops.add_parser(name, help=text, description=text)
        _card_flags(p)
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
    _lang_flag(waves)
    parsers_multigpu.add_multigpu_ops(ops, _lang_flag)
    from drill.cli.parsers_hierarchy import add_hierarchy_ops

    add_hierarchy_ops(ops, DTYPE_CHOICES, _lang_flag)
    for op in ops.choices.values():  # last, so --svg/--txt/--csv end each op's help
        if any("--plot" in a.option_strings for a in op._actions):
            export_flags(op, csv=True)
