"""``drill reference``: the quick-reference table (symptom → bound → check → fix)."""

from __future__ import annotations

import argparse

from drill.cli.commands.common import print_json
from drill.cli.flags import lang_flag, lang_of


def add_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> None:
    parser.add_argument("--json", action="store_true", help="the quick reference as JSON")
    lang_flag(parser)


def run(args) -> int:
    from drill.content.bank import load_quick_reference

    rows = load_quick_reference()
    lang = lang_of(args)
    if args.json:
        print_json(
            [
                {field: getattr(row, field) for field in ("symptom", "bound", "check", "fix")}
                for row in rows
            ]
        )
        return 0
    from rich.console import Console

    from drill.ui.render.reference import QuickReference

    Console(highlight=False).print(QuickReference(rows, lang))
    return 0
