"""``drill mock``: a timed mock interview in the app, or line by line (--plain, --jsonl)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from drill.cli import argtypes
from drill.cli.flags import export_flags, lang_flag, lang_of, line_modes, no_save_flag
from drill.errors import UsageError
from drill.runs.options import MockOptions


def options_of(args, report: Path | None = None) -> MockOptions:
    """What ``drill mock`` asked for; the report's path once it has been checked."""
    return MockOptions(
        minutes=args.minutes or 30.0,
        gpu=args.gpu,
        seed=args.seed,
        feedback=args.feedback or "end",
        case=getattr(args, "case", None) or "kernel",
        report=str(report) if report else None,
        force=getattr(args, "force", False),
    )


def check_report_path(path: str | None, force: bool = False) -> Path | None:
    """Fail before the interview, not after it, when the report cannot be written there."""
    if path is None:
        return None
    from drill.ui.render.report_file import ReportRefused, check_target

    target = Path(path).expanduser()
    if target.is_dir():
        raise UsageError(f"--report {path}: is a folder; give a file name such as mock.md")
    if not target.parent.exists():
        raise UsageError(f"--report {path}: the folder {target.parent} does not exist")
    try:
        check_target(target, force)
    except ReportRefused as exc:
        raise UsageError(f"--report: {exc}") from None
    return target


def write_report(
    target: Path, scorecard, lang: str, force: bool = False, plot: Path | None = None
) -> str | None:
    """Write the report (with ``plot``, the --svg file, it links the scorecard's SVG); the
    reason in one line when it could not be written."""
    import os

    from drill.i18n import tr
    from drill.ui.render.report_file import ReportRefused
    from drill.ui.render.report_file import write_report as write
    from drill.ui.render.report_md import report

    text = report(scorecard, lang)
    if plot is not None:
        link = Path(os.path.relpath(plot.resolve(), target.resolve().parent)).as_posix()
        text += f"\n## {tr('report-plot', lang)}\n\n![{tr('report-plot', lang)}]({link})\n"
    try:
        write(target, text, force)
    except ReportRefused as exc:
        return str(exc)
    except OSError as exc:
        return f"{target}: {exc.strerror or exc}"
    return None


def add_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> None:
    parser.description = (
        "A timed, one-way mock interview: a case worked step by step, follow-up questions, a "
        "system-design question, and a scorecard at the end."
    )
    parser.add_argument(
        "--minutes",
        type=argtypes.minutes,
        default=30.0,
        help="length of the interview (default 30)",
    )
    parser.add_argument("--gpu", metavar="ID", type=argtypes.name, help="the card of the case")
    parser.add_argument("--seed", type=argtypes.seed, help="reproducible interview")
    parser.add_argument(
        "--feedback",
        choices=("end", "each"),
        default="end",
        help="feedback at the end (default, as in an interview) or after each",
    )
    parser.add_argument("--report", metavar="FILE.md", help="write a Markdown report at the end")
    parser.add_argument(
        "--force", action="store_true", help="let --report replace an existing file or link"
    )
    parser.add_argument(
        "--case",
        choices=("kernel", "serving", "random"),
        default="kernel",
        help="the opening case: a kernel on one GPU (default), serving a model on a node "
        "(TP degree, KV capacity, decode step, all-reduce time), or random",
    )
    line_modes(parser)
    lang_flag(parser)
    no_save_flag(parser)
    export_flags(parser)


def run(args) -> int:
    lang = lang_of(args)
    force = getattr(args, "force", False)
    target = check_report_path(args.report, force)
    from drill.ui.render.export import Exporter

    exporter = Exporter.of(args)  # an existing --svg/--txt file is refused before the interview
    if not args.plain and not args.jsonl and sys.stdin.isatty() and sys.stdout.isatty():
        from drill.ui.tui.startup import hold_collection

        hold_collection()  # until the first frame (drill.ui.tui.startup says why)
        from drill.ui.tui.app import run_app  # textual ~100 ms; only the app needs it

        options = options_of(args, target)
        if options.gpu:  # a card the case cannot take is refused here, not inside the app
            from drill.content.catalog import load_catalog
            from drill.errors import SetupError
            from drill.runs.factory import mock_card

            try:
                mock_card(options, load_catalog())
            except SetupError as exc:
                raise UsageError(str(exc)) from None
        return run_app(mock=options, lang=lang, record=not args.no_save)
    from drill.errors import SetupError
    from drill.runs.factory import open_interview
    from drill.ui.lines.driver import drive

    if args.jsonl:
        from drill.ui.lines.jsonl import JsonlFormatter as Formatter
    else:
        from drill.ui.lines.plain import PlainFormatter as Formatter
    try:
        interview = open_interview(options_of(args), lang, record=not args.no_save)
    except SetupError as exc:
        raise UsageError(str(exc)) from None
    out = Formatter(sys.stdout, lang)
    drive(interview, sys.stdin, out)
    out.end(interview)  # the scorecard first: a report that cannot be written never hides it
    if exporter.wanted:
        from drill.ui.render.export import mock_view

        exporter.save(mock_view(interview.scorecard(), interview.catalog, lang), "drill mock")
    exporter.report(lang)
    if target is None:
        return 0
    sys.stdout.flush()
    problem = write_report(target, interview.scorecard(), lang, force, exporter.svg)
    if problem is not None:
        print(f"drill: error: the report was not written: {problem}", file=sys.stderr)
        return 1
    if not args.jsonl:
        print(f"report: {target}")
    return 0
