"""Sub-parsers and flags for adaptive practice and sharing: ``drill placement``, ``drill
daily``, ``drill serve``, ``drill start --slow`` and the export flags (``--svg``, ``--txt``,
``--csv``) on the commands that draw something: plot, stats, measure, mock and every calc
operator with --plot. drill.cli.parsers calls them as it builds each command."""

from __future__ import annotations

import argparse

from drill.cli import argtypes


def port(text: str) -> int:
    """A TCP port, 1 to 65535."""
    try:
        value = int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text.strip()!r} is not a whole number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value}: a port is a whole number from 1 to 65535")
    return value


def _lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        choices=("en", "zh"),
        default=argparse.SUPPRESS,
        help="language (default: drill --lang, your setting, or the locale)",
    )


def _lines(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--plain", action="store_true", help="line mode for any terminal")
    group.add_argument("--jsonl", action="store_true", help="JSON lines mode for scripts")


def export_flags(parser: argparse.ArgumentParser, csv: bool = False) -> None:
    """``--svg``/``--txt`` (what the terminal shows, as a file), ``--csv`` for roofline data."""
    parser.add_argument(
        "--svg", metavar="FILE", type=argtypes.name, help="also save what is shown as SVG"
    )
    parser.add_argument(
        "--txt", metavar="FILE", type=argtypes.name, help="also save what is shown as text"
    )
    if csv:
        parser.add_argument(
            "--csv",
            metavar="FILE",
            type=argtypes.name,
            help="save the roofline data (roofs, ridge, points) as CSV",
        )
    if not any("--force" in a.option_strings for a in parser._actions):
        parser.add_argument("--force", action="store_true", help="replace files that already exist")


def add_slow(modes: argparse._MutuallyExclusiveGroup) -> None:
    """``drill start --slow``, one of start's plan modes."""
    modes.add_argument(
        "--slow",
        dest="mode",
        action="store_const",
        const="slow",
        help="items you answered right but slowly (1.5 × your median or more)",
    )


def add_placement(sub: argparse._SubParsersAction, argv: list[str] | None = None) -> None:
    placement = sub.add_parser(
        "placement",
        help="a 15-minute placement test that sets where practice starts",
        description="About 15 minutes: three questions in each skill group, adaptive within "
        "the group (a right answer moves up a difficulty level, a wrong one down). Each "
        "finished group sets where its skills start; it ends with a profile. A placement "
        "left early goes on at the first group it did not place.",
    )
    _lines(placement)
    placement.add_argument("--seed", type=argtypes.seed, help="reproducible questions")
    placement.add_argument(
        "--restart",
        action="store_true",
        help="place every group again, not only those a placement left early did not reach",
    )
    _lang(placement)


def add_daily(sub: argparse._SubParsersAction, argv: list[str] | None = None) -> None:
    daily = sub.add_parser(
        "daily",
        help="the daily challenge: the same 5 questions for everyone today",
        description="Five questions seeded by the UTC date, the same for everyone on that "
        "day, with a short result you can share and your streak.",
    )
    _lines(daily)
    daily.add_argument(
        "--date", metavar="YYYY-MM-DD", type=argtypes.date, help="another day's challenge"
    )
    _lang(daily)


def add_serve(sub: argparse._SubParsersAction, argv: list[str] | None = None) -> None:
    serve = sub.add_parser(
        "serve",
        help="the app in a browser (needs the web extra)",
        description="Serve the app to a browser through textual-serve (pip install "
        "'roofline-drill[web]'). Each tab runs its own drill on this machine, with your "
        "history. Bound to loopback: another --host needs --public, and only pages served "
        "from this address may connect.",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        type=argtypes.name,
        help="default 127.0.0.1; an address other machines reach needs --public",
    )
    serve.add_argument("--port", default=8000, type=port, help="default 8000")
    serve.add_argument(
        "--public",
        action="store_true",
        help="allow a --host that is not loopback: anyone who can reach it can use the app "
        "and your history (no password)",
    )
    _lang(serve)
