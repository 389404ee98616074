"""``drill ncu FILE``: an Nsight Compute report read as a roofline diagnosis, per kernel."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from drill.cli import argtypes
from drill.cli.commands.common import load_card, print_json
from drill.cli.flags import lang_flag, lang_of
from drill.core.printable import printable
from drill.errors import UsageError
from drill.i18n import tr

MAX_BYTES = 50 * 1024 * 1024  # a details page of a few thousand launches stays far below
TOP = 20  # kernels shown by default, the longest first


def _rules(values: list[str] | None) -> tuple:
    from drill.core.ncu.mma import ShapeError, parse_rule

    try:
        return tuple(parse_rule(v) for v in values or ())
    except ShapeError as exc:
        raise UsageError(str(exc)) from None


def read(path_text: str, lang: str = "en"):
    """The report in FILE, or a UsageError naming what is wrong with it in one line."""
    from drill.content.yamlio import read_limited
    from drill.core.ncu.ncurep import read_report
    from drill.core.ncu.parse import ReportError, parse_csv

    path = Path(path_text)
    try:
        if path.suffix == ".ncu-rep":
            return read_report(str(path))
        data = read_limited(path, MAX_BYTES)
        if b"\x00" in data[:4096]:
            raise ReportError(
                "a binary file, not ncu --csv output", "这是二进制文件，不是 ncu --csv 的输出"
            )
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ReportError(
                "not UTF-8 text, so not ncu --csv output",
                "不是 UTF-8 文本，因此不是 ncu --csv 的输出",
            ) from None
        return parse_csv(text)
    except ReportError as exc:
        raise UsageError(f"{path_text}: {exc.message(lang)}") from None
    except OSError as exc:
        raise UsageError(f"cannot read {path_text}: {exc.strerror or exc}") from None


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _names(card) -> set[str]:
    return {_norm(n) for n in (card.name, card.id, *card.aliases, *card.device_names)}


def pick_card(args, kernels, lang: str = "en") -> tuple[object | None, str]:
    """The card named by --gpu (refused when it cannot be the report's: another compute
    capability, or not NVIDIA), else the one the report's device name matches; a device
    drill does not know, or a report naming none, is refused with what to give instead
    (--peak and --bandwidth place the kernels on a roof of those figures, no card)."""
    from drill.content.catalog import load_catalog

    cc = next((k.cc for k in kernels if k.cc), "")
    cards = load_catalog()
    same = [c.id for c in cards if cc and c.compute_capability == cc]
    if args.gpu:
        card = load_card(args.gpu)
        if card.vendor.upper() != "NVIDIA":
            raise UsageError(tr("ncu-not-nvidia", lang, card=card.id))
        if cc and card.compute_capability and card.compute_capability != cc:
            card_cc = tr("ncu-cc", lang, cc=card.compute_capability)
            cards_text = ", ".join(same) or tr("ncu-choices-all", lang)
            raise UsageError(
                tr("ncu-wrong-card", lang, card=card.id, card_cc=card_cc, cc=cc, cards=cards_text)
            )
        return card, "ncu-card-given"
    if args.peak and args.bandwidth:
        return None, "ncu-card-custom"
    device = next((k.device for k in kernels if k.device), "")
    if device:
        for card in cards:
            if _norm(device) in _names(card):
                return card, "ncu-card-matched"
    if device:
        where = tr("ncu-cc", lang, cc=cc) if cc else ""
    else:
        where = tr("ncu-cc-only", lang, cc=cc) if cc else ""
    if cc and not same:
        if device:
            head = tr("ncu-head-unknown", lang, device=printable(device))
        else:
            head = tr("ncu-head-unnamed", lang)
        raise UsageError(tr("ncu-no-card-for-cc", lang, head=head, cc=cc))
    if same:
        choices = tr("ncu-choices-cc", lang, cc=cc, cards=", ".join(same))
    else:
        choices = tr("ncu-choices-all", lang)
    nvidia = [c for c in cards if c.vendor.upper() == "NVIDIA"]
    fits = _best_fit(kernels, [c for c in cards if c.id in same] if same else nvidia, lang)
    if fits:
        choices += tr("ncu-best-fit", lang, **fits)
    if device:
        raise UsageError(
            tr("ncu-unknown-device", lang, device=printable(device), cc=where, choices=choices)
        )
    raise UsageError(tr("ncu-no-name", lang, cc=where, choices=choices))


def _best_fit(kernels, cards, lang: str) -> dict | None:
    """The cards among ``cards`` (those of the report's compute capability, or every NVIDIA
    card when it names none) whose bandwidth ncu's DRAM % points to, nearest first, within
    MISMATCH; None where there is no choice to narrow or nothing fits."""
    from drill.core.ncu.analysis import MISMATCH, report_bandwidth
    from drill.core.units import format_si

    implied = report_bandwidth(kernels)
    if implied is None or len(cards) < 2:
        return None
    near = sorted(
        (c for c in cards if abs(c.bandwidth / implied - 1) <= MISMATCH),
        key=lambda c: abs(c.bandwidth / implied - 1),
    )
    if not near:
        return None
    names = tr("sep-names", lang).join(c.id for c in near)
    return {"implied": format_si(implied, "B/s"), "cards": names}


def _nothing_read(kernels) -> bool:
    """No kernel has any figure drill reads: a table of empty cells would say nothing."""
    return all(
        k.duration is None
        and k.flops is None
        and k.dram_bytes is None
        and k.sm_pct is None
        and k.mem_pct is None
        for k in kernels
    )


def roof(card, k, args) -> tuple[float, str, float | None]:
    """The peak a kernel runs against and the SM clock it assumes (MHz): the tensor peak
    of the tensor ops' type (fp16 for MMA instructions), the non-tensor (vector) peak of
    its precision otherwise, fp32 where the card lists none; --peak instead of any."""
    from drill.content.catalog import CatalogError

    if args.peak:
        return args.peak, "given", None
    precision = k.precision
    try:
        if precision == "tensor":
            dtype = k.tensor_dtype if k.tensor_dtype in card.tensor else "fp16"
            choice = card.peak(dtype)
        elif precision in ("fp64", "fp16"):
            choice = card.peak(precision, cuda_cores=True)
        else:
            choice = card.peak("fp32")
    except CatalogError:
        choice = card.peak("fp32")
    return choice.value, choice.path, choice.clock_mhz


def analyse(args, everything: bool = False, lang: str = "en"):
    """The report, the card (None for --peak/--bandwidth), how it was chosen, the placed
    kernels shown, and the kernels left out of view (by --all or TOP)."""
    from drill.core.ncu.analysis import place
    from drill.core.ncu.kernels import every_metric
    from drill.core.ncu.kernels import kernels as group

    if bool(args.peak) != bool(args.bandwidth) and not args.gpu:
        raise UsageError("--peak and --bandwidth go together without --gpu (or give --gpu)")
    report = read(args.file, lang)
    rules = _rules(args.mma)
    found = group(report.launches, rules)
    if _nothing_read(found):  # before asking for a card it could not use
        cc = next((k.cc for k in found if k.cc), "")
        metrics = ",".join(every_metric(cc))
        raise UsageError(tr("ncu-nothing", lang, file=printable(args.file), metrics=metrics))
    card, how = pick_card(args, found, lang)
    card_cc = getattr(card, "compute_capability", None)
    if card_cc and not any(k.cc for k in found):  # the MMA shape by the card given
        found = group(report.launches, rules, card_cc)
    listed = found if everything else shown(found)
    keep = {id(k) for k in listed}
    bandwidth = args.bandwidth or card.bandwidth
    placements = []
    for k in found:
        if id(k) in keep:
            peak, path, clock = roof(card, k, args)
            placements.append(place(k, peak, bandwidth, path, clock * 1e6 if clock else None))
    hidden = [k for k in found if id(k) not in keep]
    return report, card, how, placements, hidden


def shown(found: list) -> list:
    """The TOP longest kernels, in the report's order (the first TOP where none has a time)."""
    if len(found) <= TOP:
        return found
    longest = sorted(range(len(found)), key=lambda i: -(found[i].duration or 0.0))[:TOP]
    return [found[i] for i in sorted(longest)]


def add_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> None:
    parser.description = (
        "Read ncu --csv output (--page raw or --page details; .ncu-rep with NVIDIA's "
        "ncu_report module): per kernel the duration, DRAM bytes, FLOPs from the SASS "
        "counters, achieved FLOP/s and bandwidth, intensity, the roofline of the card and "
        "the Speed-of-Light reading. Make the CSV with: ncu --csv --page raw --metrics "
        "gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,"
        "sm__sass_thread_inst_executed_op_ffma_pred_on.sum,... ./app > report.csv"
    )
    parser.add_argument("file", type=argtypes.name, help="ncu --csv output, or a .ncu-rep file")
    parser.add_argument(
        "--gpu",
        default=None,
        metavar="ID",
        type=argtypes.name,
        help="card to place the kernels on (default: matched from the report's device name)",
    )
    parser.add_argument(
        "--mma",
        action="append",
        metavar="[NAME=]MxNxK",
        help="FLOPs per counted tensor instruction from this MMA shape, for every kernel or, "
        "as NAME=MxNxK, for kernels whose name contains NAME (repeatable; default: the shape "
        "in the kernel's name, else the architecture's: 8x8x4 on Volta, 16x8x8 on Turing, "
        "16x8x16 on Ampere and later; none on Hopper and B200, use sm__ops_path_tensor_*)",
    )
    parser.add_argument(
        "--peak",
        type=argtypes.flop_rate,
        metavar="RATE",
        help="place every kernel under this peak, e.g. 19.5T (no card needed with --bandwidth)",
    )
    parser.add_argument(
        "--bandwidth",
        type=argtypes.byte_rate,
        metavar="RATE",
        help="the memory bandwidth to place them under, e.g. 1555GB/s",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="show every kernel (default: the 20 longest, with a count of the rest)",
    )
    parser.add_argument("--json", action="store_true", help="the figures as JSON, in base units")
    parser.add_argument("--plot", action="store_true", help="draw the kernels on the roofline")
    parser.add_argument(
        "--quiz", action="store_true", help="drill on your own kernels (recorded in history)"
    )
    lang_flag(parser)


def run(args) -> int:
    lang = lang_of(args)
    if args.quiz and args.json:
        raise UsageError("--quiz asks questions, --json prints figures: choose one")
    report, card, how, placements, hidden = analyse(args, args.all or args.quiz, lang)
    if args.quiz:
        if card is None:
            raise UsageError("--quiz needs a card: give --gpu ID")
        return _quiz(args, lang, card, placements)
    if args.json:
        from drill.core.ncu.analysis import to_json

        print_json(
            {
                "file": args.file,
                "format": report.format,
                "gpu": card.id if card else None,
                "card_from": {
                    "ncu-card-given": "gpu",
                    "ncu-card-matched": "device",
                    "ncu-card-custom": "peak and bandwidth",
                }[how],
                "peak_flops": args.peak,
                "bandwidth": args.bandwidth or (card.bandwidth if card else None),
                "launches": len(report.launches),
                "kernels_total": len(placements) + len(hidden),
                "kernels_not_shown": len(hidden),
                "kernels": [to_json(p) for p in placements],
            }
        )
        return 0
    from drill.ui.render.ncu_report import print_report

    device = next((p.kernel.device for p in placements if p.kernel.device), "")
    card_line = tr(how, lang, name=card.name if card else "", device=printable(device))
    print_report(args.file, report, card_line, placements, lang, args.plot, card, hidden)
    return 0


def _quiz(args, lang: str, card, placements) -> int:
    from drill.content.skills.ncu_quiz import kernel_scenario
    from drill.runs.factory import open_given
    from drill.ui.lines.driver import drive
    from drill.ui.lines.plain import PlainFormatter

    scenarios = [s for s in (kernel_scenario(p, card) for p in placements) if s is not None]
    if not scenarios:
        raise UsageError(tr("ncu-quiz-none", lang))
    session = open_given(scenarios, lang, gpu=card.id)
    out = PlainFormatter(sys.stdout, lang)
    drive(session, sys.stdin, out)
    out.end(session)
    return 0
