"""``drill history export|import|check``: move the answer history between machines, safely.

The file format lives in drill.store.transfer; importing merges by UUID, so importing the
same file twice adds nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from drill.errors import UsageError
from drill.store import transfer


def run(args) -> int:
    if args.action == "check":
        return check()
    if args.action == "export":
        return export(args.format, args.file)
    return import_file(args.file)


def _open():
    from drill.config import paths
    from drill.store.history import History, HistoryError

    try:
        return History.open(paths.database_file())
    except HistoryError as exc:
        print(f"drill: error: {exc}", file=sys.stderr)
        return None


def check() -> int:
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
        print(f"drill: {len(problems)} problem(s) found; the file was not changed. Keep a copy "
              "of it; the sqlite3 shell's .recover command can rescue what is readable.",
              file=sys.stderr)
        return 1
    note = "" if version == SCHEMA_VERSION else f" (upgraded to {SCHEMA_VERSION} on next use)"
    print(f"{path}: ok, schema {version}{note}")
    return 0


# -- export -------------------------------------------------------------------------------
def export(fmt: str, file: str | None) -> int:
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
        print(f"wrote {len(sessions)} session(s) and {attempts} attempt(s) to {file}",
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


# -- import -------------------------------------------------------------------------------
def import_file(file: str) -> int:
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
    print(f"imported {added_sessions} new session(s) and {added_attempts} new attempt(s) from "
          f"{file} ({total - added_attempts} already present)")
    return 0


