"""``drill mock``: a timed mock interview in the app, or line by line (--plain, --jsonl)."""

from __future__ import annotations

import sys
from pathlib import Path

from drill.cli.commands.common import lang_of
from drill.errors import UsageError


def options_of(args) -> dict:
    return {"minutes": args.minutes, "gpu": args.gpu, "seed": args.seed, "feedback": args.feedback}


def check_report_path(path: str | None) -> Path | None:
    """Fail before the interview, not after it, when the report cannot be written there."""
    if path is None:
        return None
    target = Path(path).expanduser()
    if target.is_dir():
        raise UsageError(f"--report {path}: is a folder; give a file name such as mock.md")
    if not target.parent.exists():
        raise UsageError(f"--report {path}: the folder {target.parent} does not exist")
    return target


def write_report(target: Path, scorecard, lang: str, plot: Path | None = None) -> None:
    """The Markdown report; with ``plot`` (the --svg file) it links the scorecard's SVG."""
    import os

    from drill.i18n import tr
    from drill.ui.render.report_md import report

    text = report(scorecard, lang)
    if plot is not None:
        link = Path(os.path.relpath(plot.resolve(), target.resolve().parent)).as_posix()
        text += f"\n## {tr('report-plot', lang)}\n\n![{tr('report-plot', lang)}]({link})\n"
    target.write_text(text, encoding="utf-8")


def run(args) -> int:
    lang = lang_of(args)
    target = check_report_path(args.report)
    from drill.ui.render.export import Exporter

    exporter = Exporter.of(args)  # an existing --svg/--txt file is refused before the interview
    if not args.plain and not args.jsonl and sys.stdin.isatty() and sys.stdout.isatty():
        from drill.ui.tui.app import run_mock_app  # textual ~100 ms; only the app needs it

        return run_mock_app(args, lang, target)
    from drill.errors import SetupError
    from drill.runs.factory import open_interview
    from drill.ui.lines.driver import drive

    if args.jsonl:
        from drill.ui.lines.jsonl import JsonlFormatter as Formatter
    else:
        from drill.ui.lines.plain import PlainFormatter as Formatter
    try:
        interview = open_interview(options_of(args), lang)
    except SetupError as exc:
        raise UsageError(str(exc)) from None
    out = Formatter(sys.stdout, lang)
    drive(interview, sys.stdin, out)
    if exporter.wanted:
        from drill.ui.render.export import mock_view

        exporter.save(mock_view(interview.scorecard(), interview.catalog, lang), "drill mock")
    if target is not None:
        write_report(target, interview.scorecard(), lang, exporter.svg)
        if not args.jsonl:
            print(f"report: {target}")
    out.end(interview)
    exporter.report(lang)
    return 0
