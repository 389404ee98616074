"""The argument parser: every command from the command table, with its flags built (by its
module's ``add_arguments``) only for the command on the command line, so the overview and
an unknown word import no command module."""

from __future__ import annotations

import argparse
import importlib

from drill import __version__
from drill.cli import argtypes
from drill.cli.commands import COMMANDS


def command_of(argv: list[str] | None) -> str | None:
    """The command on the command line, or None when none is named: the overview
    (``--help``), or a word that is not a command (the error lists them). A bare ``drill``
    runs ``start`` (the home screen)."""
    if argv is None:
        return None
    words = iter(argv)
    for word in words:
        if word in ("-h", "--help"):
            return None
        if word == "--lang":
            next(words, None)
        elif not word.startswith("-"):
            return word if word in COMMANDS else None
    return "start"


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv``: every command is listed, and the one ``argv`` names gets its
    flags (``argv`` None: every command gets them, for tests and completion)."""
    parser = argtypes.Parser(
        prog="drill",
        description="roofline-drill: practise GPU performance reasoning (roofline, intensity, "
        "ridge point, bound, efficiency). With no command, opens the app.",
    )
    parser.add_argument("--version", action="version", version=f"roofline-drill {__version__}")
    parser.add_argument("--lang", choices=("en", "zh"), help="language (default from locale)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=argtypes.Parser)
    wanted = command_of(argv)
    for command in COMMANDS.values():
        child = sub.add_parser(command.name, help=command.help)
        if command.arguments and (argv is None or wanted == command.name):
            module = importlib.import_module(f"drill.cli.commands.{command.module}")
            module.add_arguments(child, argv)
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
