"""``drill history export|import|check``: move the answer history between machines, safely.

The file format lives in drill.store.transfer; importing merges by UUID, so importing the
same file twice adds nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from drill.cli.commands.common import lang_of
from drill.errors import UsageError
from drill.i18n import tr
from drill.store import transfer


def run(args) -> int:
    lang = lang_of(args)
    if args.action == "check":
        return check(lang)
    if args.action == "export":
        return export(args.format, args.file, lang)
    return import_file(args.file, lang)


def _open():
    from drill.config import paths
    from drill.store.history import History, HistoryError

    try:
        return History.open(paths.database_file())
    except HistoryError as exc:
        print(f"drill: error: {exc}", file=sys.stderr)
        return None


def check(lang: str) -> int:
    from drill.config import paths
    from drill.store.schema import SCHEMA_VERSION, check_file

    path = paths.database_file()
    version, problems = check_file(path)
    if version is None and not path.exists():
        print(problems[0])
        return 0
    if problems:
        for problem in problems:
            print(problem)
        print(tr("history-problems", lang, count=len(problems)), file=sys.stderr)
        return 1
    note = "" if version == SCHEMA_VERSION else tr("history-upgrade", lang,
                                                   version=SCHEMA_VERSION)
    print(tr("history-ok", lang, path=path, version=version, note=note))
    return 0


# -- export -------------------------------------------------------------------------------
def export(fmt: str, file: str | None, lang: str) -> int:
    from drill.config import paths

    sessions = []
    reviews: list[dict] = []
    if paths.database_file().exists():
        history = _open()
        if history is None:
            return 1
        with history:
            sessions = history.sessions()
            reviews = history.review_rows()
    text = transfer.to_json(sessions, reviews) if fmt == "json" else transfer.to_csv(sessions)
    if file and file != "-":
        try:
            Path(file).write_text(text, encoding="utf-8", newline="")
        except OSError as exc:
            raise UsageError(f"cannot write {file}: {exc.strerror or exc}") from None
        attempts = sum(len(s.attempts) for s in sessions)
        print(tr("history-wrote", lang, sessions=len(sessions), attempts=attempts, file=file),
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


# -- import -------------------------------------------------------------------------------
def import_file(file: str, lang: str) -> int:
    path = Path(file)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise UsageError(f"cannot read {file}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{file}: not a text file (expected a drill history export)") from None
    try:
        sessions, reviews = transfer.read(text)
    except transfer.TransferError as exc:
        raise UsageError(f"{file}: {exc}") from None
    history = _open()
    if history is None:
        return 1
    with history:
        added_sessions, added_attempts = history.merge(sessions, reviews)
    total = sum(len(s.attempts) for s in sessions)
    print(tr("history-imported", lang, sessions=added_sessions, attempts=added_attempts,
             file=file, present=total - added_attempts))
    return 0


