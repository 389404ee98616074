"""The argument parser: one sub-parser per command, built only for the command on the command
line (all of them for the overview), and the calc operators only when ``calc`` is there."""

from __future__ import annotations

import argparse

from drill import __version__
from drill.cli import argtypes, parsers_adaptive
from drill.cli.flags import card_flags as _card_flags
from drill.cli.flags import lang_flag as _lang_flag
from drill.cli.skill_help import skill_help


def command_of(argv: list[str] | None) -> str | None:
    """The command on the command line, or None when every sub-parser is needed: the
    overview (``--help``), or a word that is not a command (the error lists them).
    A bare ``drill`` runs ``start`` (the home screen)."""
    if argv is None:
        return None
    words = iter(argv)
    for word in words:
        if word in ("-h", "--help"):
            return None
        if word == "--lang":
            next(words, None)
        elif not word.startswith("-"):
            return word if word in _BUILDERS else None
    return "start"


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv``: only the sub-parser of the command it names is built (a
    few ms each on the way to the app), all of them when ``command_of`` says so."""
    parser = argtypes.Parser(
        prog="drill",
        description="roofline-drill: practise GPU performance reasoning (roofline, intensity, "
        "ridge point, bound, efficiency). With no command, opens the app.",
    )
    parser.add_argument("--version", action="version", version=f"roofline-drill {__version__}")
    parser.add_argument("--lang", choices=("en", "zh"), help="language (default from locale)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=argtypes.Parser)
    wanted = command_of(argv)
    for name, add in _BUILDERS.items():
        if wanted is None or wanted == name:
            add(sub, argv)
    return parser


def _start(sub: argparse._SubParsersAction, argv: list[str] | None) -> None:
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
        "--skill", action="append", metavar="ID", type=argtypes.name, help=skill_help(argv)
    )
    start.add_argument(
        "--question",
        action="append",
        metavar="ID",
        type=argtypes.name,
        help="ask exactly these bank questions (repeatable; --skill adds scenarios)",
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
    start.add_argument(
        "--no-save", action="store_true", help="record nothing in your history (scripted runs)"
    )
    parsers_adaptive.add_slow(modes)


def _mock(sub: argparse._SubParsersAction, argv: list[str] | None) -> None:
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
    mock.add_argument(
        "--force", action="store_true", help="let --report replace an existing file or link"
    )
    from drill.cli.parsers_multigpu import add_case_flag

    add_case_flag(mock)
    mock_lines = mock.add_mutually_exclusive_group()
    mock_lines.add_argument("--plain", action="store_true", help="line mode for any terminal")
    mock_lines.add_argument("--jsonl", action="store_true", help="JSON lines mode for scripts")
    _lang_flag(mock)
    mock.add_argument(
        "--no-save", action="store_true", help="record nothing in your history (scripted runs)"
    )
    parsers_adaptive.export_flags(mock)


def _stats(sub: argparse._SubParsersAction, argv: list[str] | None) -> None:
    stats = sub.add_parser("stats", help="your progress: accuracy, speed, skills, mistakes")
    stats.add_argument("--json", action="store_true", help="the same figures as JSON")
    stats.add_argument(
        "--since", metavar="DATE", type=argtypes.date, help="only attempts on or after YYYY-MM-DD"
    )
    stats.add_argument(
        "--skill", metavar="ID", type=argtypes.name, help="only this skill or question id"
    )
    stats.add_argument(
        "--rubrics",
        action="store_true",
        help="the rubric points you flip most: where a rubric and you disagree",
    )
    _lang_flag(stats)
    parsers_adaptive.export_flags(stats)


def _calc(sub: argparse._SubParsersAction, argv: list[str] | None) -> None:
    from drill.cli.parsers_calc import add_calc

    add_calc(sub, full=argv is None or "calc" in argv)


def _gpus(sub: argparse._SubParsersAction, argv: list[str] | None) -> None:
    gpus = sub.add_parser("gpus", help="the GPU catalog, or one card in full")
    gpus.add_argument("id", nargs="?", type=argtypes.name, help="card id or alias")
    gpus.add_argument("--json", action="store_true", help="the cards (or the one card) as JSON")
    _lang_flag(gpus)


def _plot(sub: argparse._SubParsersAction, argv: list[str] | None) -> None:
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
    parsers_adaptive.export_flags(plot, csv=True)


def _measure(sub: argparse._SubParsersAction, argv: list[str] | None) -> None:
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
    parsers_adaptive.export_flags(measure)


def _validate(sub: argparse._SubParsersAction, argv: list[str] | None) -> None:
    validate = sub.add_parser("validate", help="check GPU cards and question packs")
    validate.add_argument(
        "paths",
        nargs="*",
        type=argtypes.name,
        help="files or folders (default: built-in and yours)",
    )


def _reference(sub: argparse._SubParsersAction, argv: list[str] | None) -> None:
    reference = sub.add_parser("reference", help="quick reference: symptom → bound → check → fix")
    reference.add_argument("--json", action="store_true", help="the quick reference as JSON")
    _lang_flag(reference)


def _history(sub: argparse._SubParsersAction, argv: list[str] | None) -> None:
    history = sub.add_parser("history", help="export, import or check your answer history")
    hsub = history.add_subparsers(dest="action", metavar="ACTION", parser_class=argtypes.Parser)
    hsub.required = True
    export = hsub.add_parser("export", help="write every session and attempt to a file")
    export.add_argument("--format", choices=("csv", "json"), default="json")
    export.add_argument(
        "file", nargs="?", type=argtypes.name, help="output file (default: standard output)"
    )
    export.add_argument("--force", action="store_true", help="replace an existing file")
    imp = hsub.add_parser("import", help="merge an exported file; importing twice adds nothing")
    imp.add_argument("file", type=argtypes.name)
    hsub.add_parser("check", help="run an integrity check on the history database")


def _paths(sub: argparse._SubParsersAction, argv: list[str] | None) -> None:
    sub.add_parser("paths", help="where your cards, packs, settings and history live")


def _ncu(sub: argparse._SubParsersAction, argv: list[str] | None) -> None:
    from drill.cli.parsers_ncu import add_ncu

    add_ncu(sub, _lang_flag)


# Every command's sub-parser, in the order ``drill --help`` lists them.
_BUILDERS = {
    "start": _start,
    "mock": _mock,
    "stats": _stats,
    "calc": _calc,
    "gpus": _gpus,
    "plot": _plot,
    "measure": _measure,
    "validate": _validate,
    "reference": _reference,
    "history": _history,
    "paths": _paths,
    "placement": parsers_adaptive.add_placement,
    "daily": parsers_adaptive.add_daily,
    "serve": parsers_adaptive.add_serve,
    "ncu": _ncu,
}


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
