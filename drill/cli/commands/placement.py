"""``drill placement``: about ten minutes that set where practice starts, line by line
(--jsonl for scripts); the app's home screen offers the same run."""

from __future__ import annotations

import json
import sys

from drill.cli.flags import lang_of
from drill.errors import UsageError


def run(args) -> int:
    lang = lang_of(args)
    options = {"seed": args.seed}
    from drill.errors import SetupError
    from drill.runs.factory import open_run
    from drill.ui.lines.driver import drive

    if args.jsonl:
        from drill.ui.lines.jsonl import JsonlFormatter as Formatter
    else:
        from drill.ui.lines.plain import PlainFormatter as Formatter
    try:
        placement = open_run("placement", options, lang)
    except SetupError as exc:
        raise UsageError(str(exc)) from None
    out = Formatter(sys.stdout, lang)
    drive(placement, sys.stdin, out)
    if args.jsonl:
        out.end(placement)
        print(json.dumps(placement.to_json(), ensure_ascii=False), flush=True)
        return 0
    from drill.ui.render.profile import profile_lines

    print()
    for line in profile_lines(placement.profile(), lang):
        print(line)
    return 0
