"""``drill serve``: the same app in a browser, through textual-serve (the optional ``web``
extra). Each browser tab runs ``drill`` in a terminal on this machine, so the history stays in
the local SQLite file. Bound to loopback unless ``--host`` says otherwise, with a warning."""

from __future__ import annotations

import ipaddress
import shlex
import sys

from drill.cli.flags import lang_of
from drill.errors import UsageError


def is_loopback(host: str) -> bool:
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def run(args) -> int:
    from drill.i18n import tr

    lang = lang_of(args)
    try:
        from textual_serve.server import Server  # aiohttp ~150 ms; only serving needs it
    except ImportError:
        raise UsageError(tr("serve-needs-extra", lang)) from None
    if not is_loopback(args.host):
        print(f"drill: {tr('serve-exposed', lang, host=args.host)}", file=sys.stderr)
    command = f"{shlex.quote(sys.executable)} -m drill --lang {lang}"
    server = Server(command, host=args.host, port=args.port, title=tr("app-title", lang))
    print(tr("serve-open", lang, host=args.host, port=args.port), file=sys.stderr, flush=True)
    try:
        server.serve()
    except OSError as exc:  # the port is taken, or the address is not this machine's
        raise UsageError(
            f"cannot serve on {args.host}:{args.port}: {exc.strerror or exc}"
        ) from None
    return 0
