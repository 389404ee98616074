"""``drill history export|import|check``: move the answer history between machines, safely.

The file format lives in drill.store.transfer; importing merges by UUID, so importing the
same file twice adds nothing.
"""

from __future__ import annotations

import argparse
import sys

from drill.cli import argtypes
from drill.cli.flags import lang_flag, lang_of
from drill.errors import UsageError
from drill.i18n import tr
from drill.store import transfer


def add_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> None:
    lang_flag(parser)  # drill history --lang zh export …, as well as after the action
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=argtypes.Parser)
    actions.required = True
    export = actions.add_parser("export", help="write every session and attempt to a file")
    export.add_argument("--format", choices=("csv", "json"), default="json")
    export.add_argument(
        "file", nargs="?", type=argtypes.name, help="output file (default: standard output)"
    )
    export.add_argument("--force", action="store_true", help="replace an existing file")
    imported = actions.add_parser(
        "import", help="merge an exported file; importing twice adds nothing"
    )
    imported.add_argument("file", type=argtypes.name)
    actions.add_parser("check", help="run an integrity check on the history database")


def run(args) -> int:
    lang = lang_of(args)
    if args.action == "check":
        return check(lang)
    if args.action == "export":
        return export(args.format, args.file, lang, getattr(args, "force", False))
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
    from drill.store.history import HistoryError, exists
    from drill.store.schema import SCHEMA_VERSION, check_file, writable

    path = paths.database_file()
    try:
        present = exists(path)
    except HistoryError as exc:
        print(f"drill: error: {exc}", file=sys.stderr)
        return 1
    version, problems = check_file(path)
    if version is None and not present:
        print(problems[0])
        return 0
    if problems:
        for problem in problems:
            print(problem)
        print(tr("history-problems", lang, count=len(problems)), file=sys.stderr)
        return 1
    note = "" if version == SCHEMA_VERSION else tr("history-upgrade", lang, version=SCHEMA_VERSION)
    if not writable(path):
        note += tr("history-read-only", lang, folder=path.parent)
    print(tr("history-ok", lang, path=path, version=version, note=note))
    return 0


# -- export -------------------------------------------------------------------------------
def export(fmt: str, file: str | None, lang: str, force: bool = False) -> int:
    from drill.config import paths
    from drill.store.history import HistoryError, exists
    from drill.ui.render.export import output_target, write_file

    target = output_target(file, force) if file and file != "-" else None

    sessions = []
    reviews: list[dict] = []
    problems: list[str] = []
    try:
        present = exists(paths.database_file())
    except HistoryError as exc:
        print(f"drill: error: {exc}", file=sys.stderr)
        return 1
    if present:
        history = _open()
        if history is None:
            return 1
        with history:
            if history.read_only:
                print(
                    f"drill: note: {history.why}; the history is read as it is",
                    file=sys.stderr,
                )
            sessions = history.sessions(problems)
            reviews = history.review_rows(problems)
    text = transfer.to_json(sessions, reviews) if fmt == "json" else transfer.to_csv(sessions)
    if target is not None:
        write_file(target, text)
        attempts = sum(len(s.attempts) for s in sessions)
        print(
            tr("history-wrote", lang, sessions=len(sessions), attempts=attempts, file=file),
            file=sys.stderr,
        )
    else:
        sys.stdout.write(text)
    for problem in problems:
        print(f"drill: unreadable: {problem}", file=sys.stderr)
    if problems:
        print(
            f"drill: {len(problems)} part(s) of the history could not be read and were left "
            "out of the export; they stay in the database (see drill history check)",
            file=sys.stderr,
        )
        return 1
    return 0


# -- import -------------------------------------------------------------------------------
def import_file(file: str, lang: str) -> int:
    """Merge an export of any size: it is read one session at a time inside one transaction,
    so a file that turns out to be damaged half way adds nothing."""
    import io
    import sqlite3
    from itertools import chain

    from drill.content.yamlio import open_regular

    try:
        handle = io.TextIOWrapper(open_regular(file), encoding="utf-8-sig", newline="")
    except OSError as exc:
        raise UsageError(f"cannot read {file}: {exc.strerror or exc}") from None
    skipped: list[str] = []
    history = None
    with handle:
        items = transfer.read(handle, skipped)
        try:
            # Reading up to the first session checks what the file is before the history
            # is opened, so a file that is not an export leaves no data folder behind.
            first = next(items, None)
            history = _open()
            if history is None:
                return 1
            with history:
                added_sessions, added_attempts, total = history.merge(
                    items if first is None else chain((first,), items)
                )
        except (transfer.TransferError, UnicodeDecodeError, OSError) as exc:
            if isinstance(exc, UnicodeDecodeError):
                problem = f"{file}: not a text file (expected a drill history export)"
            elif isinstance(exc, OSError):
                problem = f"cannot read {file}: {exc.strerror or exc}"
            else:
                problem = f"{file}: {exc}"
            raise UsageError(problem + ("; nothing was imported" if history else "")) from None
        except sqlite3.Error as exc:
            assert history is not None
            print(
                f"drill: error: cannot import into {history.path} ({exc}); nothing was added",
                file=sys.stderr,
            )
            return 1
    print(
        tr(
            "history-imported",
            lang,
            sessions=added_sessions,
            attempts=added_attempts,
            file=file,
            present=total - added_attempts,
        )
    )
    for problem in skipped:
        print(tr("history-skipped", lang, file=file, problem=problem), file=sys.stderr)
    if skipped:
        print(tr("history-skipped-count", lang, count=len(skipped), file=file), file=sys.stderr)
        return 1
    return 0
