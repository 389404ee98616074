"""``drill placement``: a quarter of an hour that sets where practice starts: in the app in a
terminal (as ``l`` on the home screen opens it), line by line with --plain or without one,
--jsonl for scripts."""

from __future__ import annotations

import argparse
import json
import sys

from drill.cli import argtypes
from drill.cli.flags import lang_flag, lang_of, line_modes
from drill.errors import UsageError


def add_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> None:
    parser.description = (
        "About 15 minutes: three questions in each skill group, adaptive within the group (a "
        "right answer moves up a difficulty level, a wrong one down). Each finished group sets "
        "where its skills start; it ends with a profile. A placement left early goes on at the "
        "first group it did not place."
    )
    line_modes(parser)
    parser.add_argument("--seed", type=argtypes.seed, help="reproducible questions")
    parser.add_argument(
        "--restart",
        action="store_true",
        help="place every group again, not only those a placement left early did not reach",
    )
    lang_flag(parser)


def run(args) -> int:
    lang = lang_of(args)
    from drill.cli.commands.start import served_to_a_browser
    from drill.runs.options import PlacementOptions

    options = PlacementOptions(seed=args.seed, restart=args.restart)
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if not (args.jsonl or args.plain) and (terminal or served_to_a_browser()):
        from drill.ui.tui.app import run_app

        return run_app(lang=lang, placement=options)
    from drill.errors import SetupError
    from drill.runs.factory import open_run
    from drill.ui.lines.driver import drive

    if args.jsonl:
        from drill.ui.lines.jsonl import JsonlFormatter as Formatter
    else:
        from drill.ui.lines.plain import PlainFormatter as Formatter
    try:
        placement = open_run(options, lang)
    except SetupError as exc:
        raise UsageError(str(exc)) from None
    out = Formatter(sys.stdout, lang)
    if not args.jsonl:
        from drill.ui.render.placement_text import intro_lines

        title, *lines = intro_lines(placement, lang, "plain")
        for line in [f"== {title} ==", *lines, ""]:
            out.say(line)  # wrapped between words at the terminal's width
    drive(placement, sys.stdin, out)
    if args.jsonl:
        out.end(placement)
        from drill.core.printable import json_safe

        print(json_safe(json.dumps(placement.to_json(), ensure_ascii=False)), flush=True)
        return 0
    from drill.ui.render.placement_text import stopped_lines
    from drill.ui.render.profile import profile_lines

    lines = profile_lines(placement.profile(), lang) if placement.profile() else []
    if placement.answered < placement.total:
        saved = getattr(placement, "recorder", None) is not None
        lines += stopped_lines(placement, lang, "plain", saved)
    from drill.i18n import tr

    titles = {tr("profile-title", lang), tr("placement-stopped-title", lang)}
    out.say()
    for n, line in enumerate(lines):
        out.say(f"== {line} ==" if n == 0 and line in titles else line)  # as line mode heads
    return 0
