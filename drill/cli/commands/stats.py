"""``drill stats``: progress over time from the answer history."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from datetime import date

from drill.cli import argtypes
from drill.cli.commands.common import print_json
from drill.cli.flags import export_flags, lang_flag, lang_of
from drill.content.skills.prerequisites import prerequisites_of
from drill.errors import UsageError


def parse_since(text: str | None) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"--since {text!r} is not a date; use YYYY-MM-DD") from None


def add_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> None:
    parser.add_argument("--json", action="store_true", help="the same figures as JSON")
    parser.add_argument(
        "--since", metavar="DATE", type=argtypes.date, help="only attempts on or after YYYY-MM-DD"
    )
    parser.add_argument(
        "--skill", metavar="ID", type=argtypes.name, help="only this skill or question id"
    )
    parser.add_argument(
        "--rubrics",
        action="store_true",
        help="the rubric points you flip most: where a rubric and you disagree",
    )
    lang_flag(parser)
    export_flags(parser)


def run(args) -> int:
    from drill.config import paths
    from drill.learning.stats.queries import compute
    from drill.store.history import History, HistoryError, exists

    since = parse_since(args.since)
    path = paths.database_file()
    try:
        history = History.open(path) if exists(path) else None
    except HistoryError as exc:
        print(f"drill: error: {exc}", file=sys.stderr)
        return 1
    if getattr(args, "rubrics", False):
        return _rubrics(args, history, since, path)
    read = _read(history, path, lambda h: (compute(h, since=since, skill=args.skill), _locked(h)))
    if read is None:
        return 1
    stats, locked = read
    if args.skill and not stats.overview.attempts:
        _check_skill(args.skill)
    if args.json:
        data = stats.to_json()
        data["locked"] = [
            {"skill": skill, "prerequisites": list(prerequisites_of(skill)), "missing": list(m)}
            for skill, m in locked.items()
        ]
        print_json(data)
        return 0
    from rich.console import Console  # ~50 ms; only the human view needs it

    from drill.ui.render.export import Exporter
    from drill.ui.render.profile import locked_lines
    from drill.ui.render.stats import stats_view

    lang = lang_of(args)
    exporter = Exporter.of(args)
    console = Console(highlight=False, record=exporter.wanted)
    lines = [] if args.skill else locked_lines(locked, lang)
    console.print(stats_view(stats, lang, console.width, console.is_terminal, lines))
    exporter.save_recorded(console, "drill stats")
    exporter.report(lang)
    return 0


def _read(history, path, query):
    """``query(history)``, then the history closed; None (and the error said) when the file
    cannot be read."""
    try:
        return query(history)
    except sqlite3.DatabaseError as exc:
        print(
            f"drill: error: {path}: cannot read the history ({exc}); run drill history check",
            file=sys.stderr,
        )
        return None
    finally:
        if history is not None:
            history.close()


def _rubrics(args, history, since: date | None, path) -> int:
    """``drill stats --rubrics``: the points users flip most, with how often and which way."""
    from drill.learning.stats.rubrics import flipped_points
    from drill.store.timeutil import local_zone

    rows = _read(history, path, lambda h: flipped_points(h, local_zone(), since))
    if rows is None:
        return 1
    if args.skill:
        rows = [r for r in rows if r.question == args.skill]
    if args.json:
        print_json(
            {"since": since.isoformat() if since else None, "points": [r.to_json() for r in rows]}
        )
        return 0
    from rich.console import Console

    from drill.ui.render.export import Exporter
    from drill.ui.render.rubric_flips import flips_view

    exporter = Exporter.of(args)
    console = Console(highlight=False, record=exporter.wanted)
    console.print(flips_view(rows, lang_of(args)))
    exporter.save_recorded(console, "drill stats --rubrics")
    exporter.report(lang_of(args))
    return 0


def _locked(history) -> dict[str, tuple[str, ...]]:
    """Skills smart practice does not introduce yet, with the prerequisites still missing."""
    from drill.content.skills.registry import CURRICULUM
    from drill.learning.planner import locked_skills

    return locked_skills(history, list(CURRICULUM))


def _check_skill(item: str) -> None:
    """An id that is neither a skill nor in the history is most likely a typo."""
    from drill.content.skills.registry import CURRICULUM

    if item not in CURRICULUM:
        raise UsageError(
            f"no attempts recorded for {item!r}, and it is not a skill id "
            f"(skills: {', '.join(CURRICULUM)})"
        )
