"""``drill daily``: the day's five questions, the same for everyone, and a result to share."""

from __future__ import annotations

import argparse
import json
import sys

from drill.cli import argtypes
from drill.cli.flags import lang_flag, lang_of, line_modes


def add_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> None:
    parser.description = (
        "Five questions seeded by the UTC date, the same for everyone on that day, with a "
        "short result you can share and your streak."
    )
    line_modes(parser)
    parser.add_argument(
        "--date", metavar="YYYY-MM-DD", type=argtypes.date, help="another day's challenge"
    )
    lang_flag(parser)


def run(args) -> int:
    from datetime import date

    from drill.i18n import tr
    from drill.runs.factory import open_run
    from drill.runs.options import DailyOptions
    from drill.ui.lines.driver import drive

    lang = lang_of(args)
    if args.jsonl:
        from drill.ui.lines.jsonl import JsonlFormatter as Formatter
    else:
        from drill.ui.lines.plain import PlainFormatter as Formatter
    from drill.runs.daily import today_utc, user_played

    day = date.fromisoformat(args.date) if args.date else None  # checked by the parser
    replay = user_played(day or today_utc())
    daily = open_run(DailyOptions(day=day), lang)
    out = Formatter(sys.stdout, lang)
    if not args.jsonl:
        print(tr("daily-intro", lang, day=daily.day.isoformat()))
        if replay:
            print(tr("daily-replayed", lang))
    drive(daily, sys.stdin, out)
    out.end(daily)
    from drill.runs.daily import user_streak

    days = user_streak(daily.day)
    if args.jsonl:
        from drill.core.printable import json_safe

        print(json_safe(json.dumps(daily.to_json(days), ensure_ascii=False)), flush=True)
        return 0
    from drill.ui.render.profile import daily_lines

    marks = daily.marks()
    print()
    if replay:  # the line below is this replay's, not the day's first result
        print(tr("daily-replay-result", lang))
    for line in daily_lines(
        daily.day.isoformat(), marks, marks.count("correct"), daily.elapsed, days, lang
    ):
        print(line)
    return 0
