"""``drill gpus``: the catalog as a table, or one card in full."""

from __future__ import annotations

import argparse

from drill.cli import argtypes
from drill.cli.commands.common import load_card, print_json
from drill.cli.flags import lang_flag, lang_of
from drill.i18n import tr


def add_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> None:
    parser.add_argument("id", nargs="?", type=argtypes.name, help="card id or alias")
    parser.add_argument("--json", action="store_true", help="the cards (or the one card) as JSON")
    lang_flag(parser)


def run(args) -> int:
    lang = lang_of(args)
    if args.id:
        card = load_card(args.id)
        if args.json:
            print_json(card.to_json())
            return 0
        from drill.ui.render.cards import card_panel
        from drill.ui.render.safe_output import console as console_for_output

        console_for_output().print(card_panel(card, lang))
        return 0
    from drill.content.catalog import load_catalog

    catalog = load_catalog()
    if args.json:
        print_json([card.to_json() for card in catalog])
        return 0
    from drill.ui.render.cards import catalog_table
    from drill.ui.render.safe_output import console as console_for_output

    console = console_for_output()
    console.print(catalog_table(list(catalog), lang, wide=console.width >= 130))
    for problem in catalog.problems:
        console.print(tr("gpus-skipped", lang, problem=problem), style="yellow", markup=False)
    return 0
