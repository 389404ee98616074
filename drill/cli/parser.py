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
    if argv is not None and ("-h" in argv or "--help" in argv) and help_lang(argv) == "zh":
        translate(parser)
    return parser


def help_lang(argv: list[str]) -> str:
    """The language help is shown in: a --lang on the line, else the user's setting."""
    for i, word in enumerate(argv):
        if word == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--lang="):
            return word.split("=", 1)[1]
    from drill.config import settings

    return settings.load().lang()


class ChineseHelp(argparse.HelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, "用法：" if prefix is None else prefix)

    def start_section(self, heading):
        super().start_section(heading)
        # argparse ends a heading with an ASCII colon: the full-width one follows the heading
        self._current_section.heading = f"{heading}："

    def format_help(self) -> str:
        return super().format_help().replace("：:\n", "：\n")

    # Chinese has no spaces to break at: lines break by display cells, between words
    def _split_lines(self, text, width):
        from drill.ui.render.cjk import fit

        return fit(" ".join(text.split()), width)

    def _fill_text(self, text, width, indent):
        return "\n".join(indent + line for line in self._split_lines(text, width))


def translate(parser: argparse.ArgumentParser) -> None:
    """Every help text, description and heading of ``parser`` and its sub-parsers in Chinese
    (the English text is the key of drill.i18n.cli_help; one missing stays English)."""
    from drill.i18n.cli_help import CLI_HELP, HEADINGS

    def said(text):
        if not isinstance(text, str) or text in CLI_HELP:
            return CLI_HELP.get(text, text)
        head, colon, rest = text.partition(": ")  # "only these skills: roofline-case, …"
        return f"{CLI_HELP[head]}：{rest}" if colon and head in CLI_HELP else text

    parser.formatter_class = ChineseHelp
    parser.description = said(parser.description)
    for group in parser._action_groups:
        group.title = HEADINGS.get(group.title, group.title)
    for action in parser._actions:
        action.help = said(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                choice.help = said(choice.help)
            for child in action.choices.values():
                translate(child)


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
