"""The argument parser: one sub-parser per command, the calc operators built only when
``calc`` is on the command line."""

from __future__ import annotations

import argparse

from drill import __version__
from drill.cli import argtypes, parsers_adaptive

DTYPE_CHOICES = ("fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8")


def _lang_flag(parser: argparse.ArgumentParser) -> None:
    """``--lang`` on a subcommand; when absent it keeps ``drill --lang`` given before it."""
    parser.add_argument(
        "--lang",
        choices=("en", "zh"),
        default=argparse.SUPPRESS,
        help="language (default: drill --lang, your setting, or the locale)",
    )


def _card_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--gpu",
        default=None,
        metavar="ID",
        type=argtypes.name,
        help="card id or alias (default: your setting, else a100); see drill gpus",
    )
    parser.add_argument(
        "--dtype",
        default=None,
        choices=DTYPE_CHOICES,
        help="precision; fp64/tf32/fp16/bf16/fp8/int8 use the dense "
        "tensor-core peak where the card has one, fp32 never (default "
        "fp16, or fp32 on a card without fp16)",
    )
    parser.add_argument(
        "--cuda-cores",
        action="store_true",
        help="use the non-tensor (CUDA core / vector) peak instead",
    )
    parser.add_argument(
        "--peak",
        type=argtypes.flop_rate,
        metavar="RATE",
        help="override the peak, e.g. 19.5T (no card needed with --bandwidth)",
    )
    parser.add_argument(
        "--bandwidth",
        type=argtypes.byte_rate,
        metavar="RATE",
        help="override the memory bandwidth, e.g. 1555GB/s",
    )
    _lang_flag(parser)


def _add_calc(sub: argparse._SubParsersAction, full: bool) -> None:
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
    from drill.core.engine.calc_ops import OPERATORS

    for spec in OPERATORS.values():
        p = ops.add_parser(spec.name, help=spec.en, description=spec.en)
        for param in spec.params:
            if param.kind == "flag":
                p.add_argument(*param.flags, dest=param.name, action="store_true", help=param.en)
            else:
                kind = argtypes.count if param.kind == "count" else argtypes.number
                default = "" if param.default is None else f" (default {param.default:g})"
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

    kv = ops.add_parser(
        "kv-cache",
        help="KV cache size (and time to stream it with --gpu)",
        description="KV cache bytes = 2·L·H_kv·D·T·B·s",
    )
    kv.add_argument("--layers", type=argtypes.count, required=True, metavar="L")
    kv.add_argument("--kv-heads", type=argtypes.count, required=True, metavar="H")
    kv.add_argument("--head-dim", type=argtypes.count, required=True, metavar="D")
    kv.add_argument("--tokens", type=argtypes.count, required=True, metavar="T")
    kv.add_argument("--batch", type=argtypes.count, default=1, metavar="B")
    kv.add_argument("--dtype", choices=DTYPE_CHOICES, default="fp16")
    kv.add_argument(
        "--gpu", metavar="ID", type=argtypes.name, help="also show the time to read it once"
    )
    kv.add_argument("--json", action="store_true")
    _lang_flag(kv)

    peak = ops.add_parser("peak", help="peak FLOP/s = units × lanes × 2 × clock")
    peak.add_argument("--units", type=argtypes.count, required=True, help="SMs or CUs")
    peak.add_argument("--lanes", type=argtypes.count, required=True, help="FP32 lanes per unit")
    peak.add_argument(
        "--clock", type=argtypes.frequency, required=True, help="boost clock, e.g. 1.41GHz"
    )
    peak.add_argument("--json", action="store_true")
    _lang_flag(peak)

    bw = ops.add_parser("bandwidth", help="bandwidth = bus width / 8 × per-pin data rate")
    bw.add_argument("--bus-width", type=argtypes.count, required=True, help="bits")
    bw.add_argument(
        "--data-rate",
        type=argtypes.data_rate,
        required=True,
        help="per-pin Gb/s (already double data rate: do not double it)",
    )
    bw.add_argument("--json", action="store_true")
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
        p.add_argument("--json", action="store_true")

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
    waves.add_argument("--json", action="store_true")
    _lang_flag(waves)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    parser = argtypes.Parser(
        prog="drill",
        description="roofline-drill: practise GPU performance reasoning (roofline, intensity, "
        "ridge point, bound, efficiency). With no command, opens the app.",
    )
    parser.add_argument("--version", action="version", version=f"roofline-drill {__version__}")
    parser.add_argument("--lang", choices=("en", "zh"), help="language (default from locale)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=argtypes.Parser)

    start = sub.add_parser(
        "start",
        help="practice session (the app; --plain or --jsonl for lines)",
        description="A practice session. By default it is planned from your history with "
        "spaced repetition: reviews due today, your weakest items, a few new ones. "
        "--skill or --seed give a fixed plan instead.",
    )
    lines = start.add_mutually_exclusive_group()
    lines.add_argument("--plain", action="store_true", help="line mode for any terminal")
    lines.add_argument("--jsonl", action="store_true", help="JSON lines mode for scripts")
    start.add_argument(
        "--seed",
        type=argtypes.seed,
        help="reproducible questions (a fixed plan instead of the smart one)",
    )
    start.add_argument(
        "--count",
        type=argtypes.session_count,
        help="questions in the session, 1 to 100 (default 10)",
    )
    start.add_argument(
        "--skill", action="append", metavar="ID", type=argtypes.name, help="only these skills"
    )
    start.add_argument("--difficulty", type=int, choices=(1, 2, 3))
    start.add_argument("--gpu", metavar="ID", type=argtypes.name, help="use only this card")
    start.add_argument(
        "--topic",
        choices=("numeric", "concepts", "mixed"),
        default=None,
        help="numeric scenarios, conceptual questions, or both (default mixed)",
    )
    modes = start.add_mutually_exclusive_group()
    modes.add_argument(
        "--review",
        dest="mode",
        action="store_const",
        const="review",
        help="only the review cards due today",
    )
    modes.add_argument(
        "--mistakes",
        dest="mode",
        action="store_const",
        const="mistakes",
        help="what you got wrong recently, and items with the same mistakes",
    )
    modes.add_argument(
        "--cram",
        dest="mode",
        action="store_const",
        const="cram",
        help="your weakest items first, whatever their due dates",
    )
    modes.add_argument(
        "--new",
        dest="mode",
        action="store_const",
        const="new",
        help="only items you have not seen yet",
    )
    _lang_flag(start)

    mock = sub.add_parser(
        "mock",
        help="a timed mock interview with a scorecard",
        description="A timed, one-way mock interview: a case worked step by "
        "step, follow-up questions, a system-design question, "
        "and a scorecard at the end.",
    )
    mock.add_argument(
        "--minutes",
        type=argtypes.minutes,
        default=30.0,
        help="length of the interview (default 30)",
    )
    mock.add_argument("--gpu", metavar="ID", type=argtypes.name, help="the card of the case")
    mock.add_argument("--seed", type=argtypes.seed, help="reproducible interview")
    mock.add_argument(
        "--feedback",
        choices=("end", "each"),
        default="end",
        help="feedback at the end (default, as in an interview) or after each",
    )
    mock.add_argument("--report", metavar="FILE.md", help="write a Markdown report at the end")
    mock_lines = mock.add_mutually_exclusive_group()
    mock_lines.add_argument("--plain", action="store_true", help="line mode for any terminal")
    mock_lines.add_argument("--jsonl", action="store_true", help="JSON lines mode for scripts")
    _lang_flag(mock)

    stats = sub.add_parser("stats", help="your progress: accuracy, speed, skills, mistakes")
    stats.add_argument("--json", action="store_true", help="the same figures as JSON")
    stats.add_argument(
        "--since", metavar="DATE", type=argtypes.date, help="only attempts on or after YYYY-MM-DD"
    )
    stats.add_argument(
        "--skill", metavar="ID", type=argtypes.name, help="only this skill or question id"
    )
    _lang_flag(stats)

    _add_calc(sub, full=argv is None or "calc" in argv)

    gpus = sub.add_parser("gpus", help="the GPU catalog, or one card in full")
    gpus.add_argument("id", nargs="?", type=argtypes.name, help="card id or alias")
    gpus.add_argument("--json", action="store_true")
    _lang_flag(gpus)

    plot = sub.add_parser("plot", help="draw a card's roofline in the terminal")
    _card_flags(plot)
    plot.add_argument(
        "--ai",
        type=argtypes.intensity,
        action="append",
        metavar="X",
        help="arithmetic intensity (FLOP/B) of an operator to place; repeatable",
    )
    plot.add_argument(
        "--measured",
        type=argtypes.flop_rate,
        action="append",
        metavar="RATE",
        help="measured throughput for the --ai point(s), same order",
    )
    plot.add_argument("--width", type=argtypes.plot_size, help="columns (default: terminal width)")
    plot.add_argument("--height", type=argtypes.plot_size, help="rows (default: fits the terminal)")

    measure = sub.add_parser(
        "measure",
        help="measure this machine's roofline and save it as a card",
        description="Measure the roofline of this machine: peak FLOP/s from large matrix "
        "multiplications, memory bandwidth from STREAM-style copy and triad, and an "
        "intensity sweep. The result is saved as a card you can drill on.",
    )
    measure.add_argument(
        "--device",
        choices=("cpu", "cuda"),
        default="cpu",
        help="cpu (numpy) or cuda (needs PyTorch or CuPy with a GPU)",
    )
    measure.add_argument("--quick", action="store_true", help="smaller sizes, under 20 s")
    measure.add_argument(
        "--name",
        default="my-machine",
        metavar="ID",
        type=argtypes.name,
        help="card id to save the result as (default my-machine)",
    )
    measure.add_argument("--no-save", action="store_true", help="measure only, save no card")
    measure.add_argument(
        "--force",
        action="store_true",
        help="replace an existing card of the same name in your folder",
    )
    measure.add_argument("--json", action="store_true", help="print the figures as JSON")
    _lang_flag(measure)

    validate = sub.add_parser("validate", help="check GPU cards and question packs")
    validate.add_argument(
        "paths",
        nargs="*",
        type=argtypes.name,
        help="files or folders (default: built-in and yours)",
    )

    reference = sub.add_parser("reference", help="quick reference: symptom → bound → check → fix")
    reference.add_argument("--json", action="store_true")
    _lang_flag(reference)

    history = sub.add_parser("history", help="export, import or check your answer history")
    hsub = history.add_subparsers(dest="action", metavar="ACTION", parser_class=argtypes.Parser)
    hsub.required = True
    export = hsub.add_parser("export", help="write every session and attempt to a file")
    export.add_argument("--format", choices=("csv", "json"), default="json")
    export.add_argument(
        "file", nargs="?", type=argtypes.name, help="output file (default: standard output)"
    )
    imp = hsub.add_parser("import", help="merge an exported file; importing twice adds nothing")
    imp.add_argument("file", type=argtypes.name)
    hsub.add_parser("check", help="run an integrity check on the history database")
    sub.add_parser("paths", help="where your cards, packs, settings and history live")
    parsers_adaptive.extend(sub)  # placement, daily, serve, --slow, export flags

    return parser


_NUMBER_TYPES = {
    "count",
    "session_count",
    "number",
    "flop_rate",
    "byte_rate",
    "frequency",
    "positive_float",
    "intensity",
    "data_rate",
    "minutes",
    "plot_size",
    "seed",
}


def value_options(parser: argparse.ArgumentParser) -> set[str]:
    """Option strings, in any subcommand, whose value is a number."""
    found: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                found |= value_options(child)
        elif getattr(action.type, "__name__", "") in _NUMBER_TYPES:
            found.update(o for o in action.option_strings if o.startswith("--"))
    return found


def join_negatives(argv: list[str], options: set[str]) -> list[str]:
    """``--peak -1T`` becomes ``--peak=-1T`` so the type check says "must be positive"
    instead of argparse taking ``-1T`` for an option."""
    result: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--":
            return result + argv[i:]
        following = argv[i + 1] if i + 1 < len(argv) else ""
        if (
            word in options
            and len(following) > 1
            and following[0] == "-"
            and (following[1].isdigit() or following[1] in ".,")
        ):
            result.append(f"{word}={following}")
            i += 2
            continue
        result.append(word)
        i += 1
    return result
