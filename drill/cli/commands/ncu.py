"""``drill ncu FILE``: an Nsight Compute report read as a roofline diagnosis, per kernel."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from drill.cli.commands.common import load_card, print_json
from drill.cli.flags import lang_of
from drill.errors import UsageError
from drill.i18n import tr

MAX_BYTES = 50 * 1024 * 1024  # a details page of a few thousand launches stays far below
MMA = re.compile(r"^(\d{1,3})[x×](\d{1,3})[x×](\d{1,3})$")


def _mma(text: str | None) -> tuple[int, int, int]:
    from drill.core.ncu.kernels import DEFAULT_MMA

    if not text:
        return DEFAULT_MMA
    match = MMA.match(text.strip().lower().removeprefix("m").replace("n", "x").replace("k", "x"))
    if not match or 0 in (shape := tuple(int(g) for g in match.groups())):
        raise UsageError(f"--mma {text!r}: give the MMA shape as MxNxK, e.g. 16x8x16")
    return shape  # type: ignore[return-value]


def read(path_text: str):
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
            raise ReportError("a binary file, not ncu --csv output")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ReportError("not UTF-8 text, so not ncu --csv output") from None
        return parse_csv(text)
    except ReportError as exc:
        raise UsageError(f"{path_text}: {exc}") from None
    except OSError as exc:
        raise UsageError(f"cannot read {path_text}: {exc.strerror or exc}") from None


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def pick_card(args, kernels) -> tuple[object, str]:
    """The card named by --gpu, else the one the report's device name matches, else the
    default; with the line saying which."""
    from drill.content.catalog import load_catalog

    if args.gpu:
        card = load_card(args.gpu)
        return card, "ncu-card-given"
    device = next((k.device for k in kernels if k.device), "")
    if device:
        for card in load_catalog():
            if _norm(device) in {_norm(card.name), *(_norm(a) for a in card.aliases)}:
                return card, "ncu-card-matched"
    return load_card(None), "ncu-card-default"


def roof(card, precision: str) -> tuple[float, str]:
    """The peak a kernel runs against: tensor fp16 for MMA instructions, the non-tensor
    (vector) peak of its precision otherwise, fp32 where the card lists none."""
    from drill.content.catalog import CatalogError

    try:
        if precision == "tensor":
            choice = card.peak("fp16")
        elif precision in ("fp64", "fp16"):
            choice = card.peak(precision, cuda_cores=True)
        else:
            choice = card.peak("fp32")
    except CatalogError:
        choice = card.peak("fp32")
    return choice.value, choice.path


def analyse(args):
    from drill.core.ncu.analysis import place
    from drill.core.ncu.kernels import kernels as group

    report = read(args.file)
    mma = _mma(args.mma)
    found = group(report.launches, mma)
    card, how = pick_card(args, found)
    placements = []
    for k in found:
        peak, path = roof(card, k.precision)
        placements.append(place(k, peak, card.bandwidth, path, mma))
    return report, card, how, mma, placements


def run(args) -> int:
    lang = lang_of(args)
    report, card, how, mma, placements = analyse(args)
    if args.quiz:
        return _quiz(args, lang, card, placements)
    if args.json:
        from drill.core.ncu.analysis import to_json

        print_json(
            {
                "file": args.file,
                "format": report.format,
                "gpu": card.id,
                "card_from": {"ncu-card-given": "gpu", "ncu-card-matched": "device"}.get(
                    how, "default"
                ),
                "launches": len(report.launches),
                "kernels": [to_json(p, mma) for p in placements],
            }
        )
        return 0
    from drill.ui.render.ncu_report import print_report

    device = next((p.kernel.device for p in placements if p.kernel.device), "")
    card_line = tr(how, lang, name=card.name, device=device)
    print_report(args.file, report, card_line, placements, mma, lang, plot=args.plot, card=card)
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
