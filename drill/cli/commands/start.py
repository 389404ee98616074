"""``drill start``: a practice session in the app, or line by line (--plain, --jsonl)."""

from __future__ import annotations

import argparse
import os
import sys

from drill.cli import argtypes
from drill.cli.flags import lang_flag, lang_of, line_modes, no_save_flag
from drill.cli.skill_help import skill_help
from drill.errors import UsageError
from drill.runs.options import PracticeOptions


def options_of(args) -> PracticeOptions:
    """What ``drill start`` asked for, as the options a session is built from."""
    return PracticeOptions(
        count=args.count,
        seed=args.seed,
        skills=tuple(args.skill or ()),
        questions=tuple(getattr(args, "question", None) or ()),
        difficulty=args.difficulty,
        gpu=args.gpu,
        topic=args.topic,
        mode=getattr(args, "mode", None),
    )


def open_session(args, lang: str):
    """The session the line modes drive, recording into the user's history."""
    from drill.errors import NothingToPractise, SetupError
    from drill.runs.factory import open_practice

    try:
        return open_practice(options_of(args), lang, record=not getattr(args, "no_save", False))
    except NothingToPractise as exc:
        print(f"drill: {exc}", file=sys.stderr)  # not an error: there is nothing to do now
        raise SystemExit(0) from None
    except SetupError as exc:
        raise UsageError(str(exc)) from None


def served_to_a_browser() -> bool:
    """Whether a web server (``drill serve``, ``textual serve``) runs this process.

    Such a server sets TEXTUAL_DRIVER to Textual's web driver, which speaks its own protocol
    over the pipes on stdin and stdout. Reading the variable Textual itself reads to choose
    that driver means the app and the driver cannot disagree, whichever server started us.
    """
    return "web_driver" in os.environ.get("TEXTUAL_DRIVER", "")


def add_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> None:
    parser.description = (
        "A practice session. By default it is planned from your history with spaced "
        "repetition: reviews due today, your weakest items, a few new ones. --skill or --seed "
        "give a fixed plan instead."
    )
    line_modes(parser)
    parser.add_argument(
        "--seed",
        type=argtypes.seed,
        help="reproducible questions (a fixed plan instead of the smart one)",
    )
    parser.add_argument(
        "--count",
        type=argtypes.session_count,
        help="questions in the session, 1 to 100 (default 10)",
    )
    parser.add_argument(
        "--skill", action="append", metavar="ID", type=argtypes.name, help=skill_help(argv)
    )
    parser.add_argument(
        "--question",
        action="append",
        metavar="ID",
        type=argtypes.name,
        help="ask exactly these bank questions (repeatable; --skill adds scenarios)",
    )
    parser.add_argument(
        "--difficulty",
        type=int,
        choices=(1, 2, 3),
        help="1 to 3 for every scenario (default: each skill's own level)",
    )
    parser.add_argument("--gpu", metavar="ID", type=argtypes.name, help="use only this card")
    parser.add_argument(
        "--topic",
        choices=("numeric", "concepts", "mixed"),
        default=None,
        help="numeric scenarios, conceptual questions, or both (default mixed)",
    )
    modes = parser.add_mutually_exclusive_group()
    for flag, mode, text in (
        ("--review", "review", "only the review cards due today"),
        ("--mistakes", "mistakes", "what you got wrong recently, and items with the same mistakes"),
        ("--cram", "cram", "your weakest items first, whatever their due dates"),
        ("--new", "new", "only items you have not seen yet"),
        ("--slow", "slow", "items you answered right but slowly (1.5 × your median or more)"),
    ):
        modes.add_argument(flag, dest="mode", action="store_const", const=mode, help=text)
    lang_flag(parser)
    no_save_flag(parser)


def run(args) -> int:
    lang = lang_of(args)
    not_a_terminal = not sys.stdin.isatty() or not sys.stdout.isatty()
    if args.jsonl or args.plain or (not_a_terminal and not served_to_a_browser()):
        from drill.ui.lines.driver import drive

        if args.jsonl:
            from drill.ui.lines.jsonl import JsonlFormatter as Formatter
        else:
            from drill.ui.lines.plain import PlainFormatter as Formatter
        session = open_session(args, lang)
        out = Formatter(sys.stdout, lang)
        drive(session, sys.stdin, out)
        out.end(session)
        return 0
    from drill.ui.tui.startup import hold_collection

    hold_collection()  # until the first frame (drill.ui.tui.startup says why)
    options = None if getattr(args, "home", False) else options_of(args)
    prepared = None
    record = not getattr(args, "no_save", False)
    if options is not None:
        from drill.runs.prefetch import prepare_practice

        # The first session is built, and the plot modules imported, while Textual loads.
        prepared = prepare_practice(options, lang, record=record, warm=("plotext", "rich.ansi"))
    from drill.ui.tui.app import run_app  # textual ~100 ms; only the app needs it

    return run_app(options, lang=lang, prepared=prepared, record=record)
