"""``drill serve``: the same app in a browser, through textual-serve (the optional ``web``
extra). Each browser tab runs ``drill`` on this machine, so the history stays in the local
SQLite file. Loopback only unless ``--public`` allows another ``--host``; the server itself is
drill.cli.serving."""

from __future__ import annotations

import argparse
import sys

from drill.cli import argtypes
from drill.cli.addresses import is_loopback
from drill.cli.flags import lang_flag, lang_of
from drill.errors import UsageError


def add_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> None:
    parser.description = (
        "Serve the app to a browser through textual-serve (pip install 'roofline-drill[web]'). "
        "Each tab runs its own drill on this machine, with your history. Bound to loopback: "
        "another --host needs --public, and only pages served from this address may connect."
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        type=argtypes.name,
        help="default 127.0.0.1; an address other machines reach needs --public",
    )
    parser.add_argument("--port", default=8000, type=argtypes.port, help="default 8000")
    parser.add_argument(
        "--public",
        action="store_true",
        help="allow a --host that is not loopback: anyone who can reach it can use the app "
        "and your history (no password)",
    )
    lang_flag(parser)


def run(args) -> int:
    from drill.i18n import tr

    lang = lang_of(args)
    if not is_loopback(args.host) and not args.public:
        raise UsageError(tr("serve-needs-public", lang, host=args.host))
    try:
        from drill.cli.serving import DrillServer  # aiohttp ~150 ms; only serving needs it
    except ImportError:
        raise UsageError(tr("serve-needs-extra", lang)) from None
    if not is_loopback(args.host):
        print(f"drill: {tr('serve-exposed', lang, host=args.host)}", file=sys.stderr)
    shown_host = f"[{args.host}]" if ":" in args.host else args.host
    messages = {
        "open": tr("serve-open", lang, host=shown_host, port=args.port),
        "refused": tr("serve-refused-origin", lang, origin="{origin}"),
    }
    server = DrillServer(
        [sys.executable, "-m", "drill", "--lang", lang],
        host=args.host,
        port=args.port,
        title=f"{tr('app-title', lang)} — {tr('app-sub', lang)}",
        messages=messages,
    )
    try:
        server.serve()
    except OSError as exc:  # the port is taken, or the address is not this machine's
        raise UsageError(
            f"cannot serve on {args.host}:{args.port}: {exc.strerror or exc}"
        ) from None
    return 0
