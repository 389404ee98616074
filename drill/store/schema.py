"""The history file's schema: identification, migrations and integrity checks.

A file that is not a drill history, is damaged, or was written by a newer version is refused
and never written to.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

APPLICATION_ID = 0x44524C4C  # "DRLL" in the file header marks a drill history
SCHEMA_VERSION = 2
BUSY_TIMEOUT_S = 15.0

_V1 = """
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    mode TEXT NOT NULL,
    started_utc TEXT NOT NULL,
    ended_utc TEXT,
    seed INTEGER,
    settings_json TEXT NOT NULL DEFAULT '{}',
    app_version TEXT NOT NULL DEFAULT ''
);
CREATE TABLE attempts (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    item_kind TEXT NOT NULL,
    skill TEXT NOT NULL,
    question TEXT NOT NULL DEFAULT '',
    ask TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL DEFAULT '',
    scenario_json TEXT NOT NULL DEFAULT '{}',
    answer TEXT NOT NULL DEFAULT '',
    parsed_json TEXT NOT NULL DEFAULT 'null',
    expected_json TEXT NOT NULL DEFAULT 'null',
    score REAL NOT NULL,
    correct INTEGER NOT NULL,
    skipped INTEGER NOT NULL DEFAULT 0,
    relative_error REAL,
    self_mark INTEGER,
    mistakes_json TEXT NOT NULL DEFAULT '[]',
    hints_used INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL,
    answered_utc TEXT NOT NULL
)
"""
# Covering indexes let each stats query walk a few small columns in the order it needs
# instead of reading whole rows or sorting them (medians come from LIMIT/OFFSET walks).
_V2 = """
CREATE TABLE review_cards (
    card_id TEXT PRIMARY KEY,
    kind TEXT,
    state_json TEXT,
    due_utc TEXT,
    updated_utc TEXT
);
CREATE INDEX attempts_time ON attempts (
    answered_utc, skill, session_id, score, correct, skipped, seconds
);
CREATE INDEX attempts_skill ON attempts (skill, answered_utc, score, skipped, item_kind);
CREATE INDEX attempts_skill_seconds ON attempts (skill, skipped, seconds, answered_utc);
CREATE INDEX attempts_seconds ON attempts (skipped, seconds, answered_utc);
CREATE INDEX attempts_mistakes ON attempts (answered_utc, skill, mistakes_json)
    WHERE mistakes_json <> '[]';
CREATE INDEX attempts_session ON attempts (session_id, answered_utc, skill);
CREATE INDEX sessions_mode ON sessions (mode, started_utc)
"""
MIGRATIONS: tuple[str, ...] = (_V1, _V2)  # MIGRATIONS[n] takes schema n to n + 1

ATTEMPT_COLUMNS = (
    "uuid",
    "item_kind",
    "skill",
    "question",
    "ask",
    "kind",
    "scenario_json",
    "answer",
    "parsed_json",
    "expected_json",
    "score",
    "correct",
    "skipped",
    "relative_error",
    "self_mark",
    "mistakes_json",
    "hints_used",
    "seconds",
    "answered_utc",
)


class HistoryError(Exception):
    """The database cannot be used; the message says why and that the file was left alone."""


def prepare(conn: sqlite3.Connection, path: Path) -> None:
    """Identify, switch to WAL, migrate; a peer doing the same at this moment makes us retry."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            fresh = _identify(conn, path)
            if fresh or conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            _migrate(conn, path)
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _identify(conn: sqlite3.Connection, path: Path) -> bool:
    """True for an empty file (to be set up); raise HistoryError for anything not ours."""
    app_id, version, tables = conn.execute(  # one statement: one consistent snapshot
        "SELECT (SELECT application_id FROM pragma_application_id), "
        "(SELECT user_version FROM pragma_user_version), "
        "(SELECT count(*) FROM sqlite_master)"
    ).fetchone()
    _judge(path, app_id, version, tables)
    return app_id == 0 and version == 0 and tables == 0


def _judge(path: Path, app_id: int, version: int, tables: int) -> None:
    if app_id == 0 and version == 0 and tables == 0:
        return
    if app_id != APPLICATION_ID:
        raise HistoryError(
            f"{path} is not a roofline-drill history database; "
            "it was left untouched (move it away or set DRILL_HOME)"
        )
    if version > SCHEMA_VERSION:
        raise HistoryError(
            f"{path} was written by a newer roofline-drill (schema {version}; "
            f"this version reads up to {SCHEMA_VERSION}); it was left untouched"
        )
    if version < 0:
        raise HistoryError(
            f"{path} has a damaged header (schema {version}); it was left "
            "untouched (run drill history check)"
        )


_MAGIC = b"SQLite format 3\x00"


def inspect(path: Path) -> None:
    """Refuse a file that is not ours before any read-write open could change its bytes.

    Opening read-write checkpoints and deletes a foreign WAL file, and creates -wal and -shm
    files; page 1 (the header and the schema table's root), read with plain file reads from
    the file or its -wal, decides without touching anything. A missing or empty file passes
    (it will be set up).
    """
    try:
        with open(path, "rb") as handle:
            header = handle.read(100)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise HistoryError(f"{path}: cannot read the history ({exc.strerror or exc})") from None
    if not header:
        return
    if len(header) < 100 or not header.startswith(_MAGIC):
        raise HistoryError(
            f"{path} cannot be read as a drill history (not an SQLite file); "
            "it was left untouched (move it away or set DRILL_HOME)"
        )
    page = _page_one(path, header)
    version = int.from_bytes(page[60:64], "big", signed=True)
    app_id = int.from_bytes(page[68:72], "big", signed=True)
    # The schema table's root is page 1: an interior page, or a leaf with cells, has tables.
    tables = 1 if page[100:101] == b"\x05" else int.from_bytes(page[103:105], "big")
    _judge(path, app_id, version, tables)


def _page_one(path: Path, header: bytes) -> bytes:
    """Page 1 as SQLite would read it: the last committed copy in the -wal file, if any, else
    the main file's. Read with plain file reads, so nothing (not even -shm) is touched."""
    size = int.from_bytes(header[16:18], "big")
    size = 65536 if size == 1 else size
    with open(path, "rb") as handle:
        page = handle.read(size)
    try:
        with open(f"{path}-wal", "rb") as wal:
            head = wal.read(32)
            if (
                len(head) < 32
                or head[:4] not in (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83")
                or int.from_bytes(head[8:12], "big") != size
            ):
                return page
            salts = head[16:24]
            latest = None
            while True:
                frame = wal.read(24)
                if len(frame) < 24 or frame[8:16] != salts:
                    break
                if int.from_bytes(frame[:4], "big") == 1:
                    latest = wal.read(size)
                    if len(latest) < size:
                        break
                else:
                    wal.seek(size, 1)
                if int.from_bytes(frame[4:8], "big") and latest is not None:  # a commit
                    page = latest
    except OSError:
        pass
    return page


def _uri(path: Path, immutable: bool = False) -> str:
    return Path(path).resolve().as_uri() + ("?immutable=1" if immutable else "?mode=ro")


def writable(path: Path) -> bool:
    """Whether the history and its folder can be written (WAL needs side files there)."""
    folder = Path(path).parent
    if not os.access(folder, os.W_OK | os.X_OK):
        return False
    return not Path(path).exists() or os.access(path, os.W_OK)


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    if conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]  # a peer may have done it
        if version > SCHEMA_VERSION:
            raise HistoryError(
                f"{path} was written by a newer roofline-drill "
                f"(schema {version}); it was left untouched"
            )
        for step in MIGRATIONS[version:]:
            for statement in step.split(";"):
                if statement.strip():
                    conn.execute(statement)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


# The fixed-width UTC form every stored timestamp has (drill.store.timeutil.utc_iso).
_STAMP = (
    "[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9].[0-9][0-9][0-9]Z"
)
_JSON_COLUMNS = {
    "sessions": ("settings_json",),
    "attempts": ("scenario_json", "parsed_json", "expected_json", "mistakes_json"),
    "review_cards": ("state_json",),
}
_TIME_COLUMNS = {
    "sessions": ("started_utc",),
    "attempts": ("answered_utc",),
    "review_cards": ("updated_utc",),
}
_ROW_LIMIT = 20  # rows named per kind of damage; the count says how many in all


def check(conn: sqlite3.Connection) -> list[str]:
    """Problems found by SQLite's integrity and foreign-key checks and by reading every row's
    JSON and timestamps; empty when healthy."""
    problems = [r[0] for r in conn.execute("PRAGMA integrity_check") if r[0] != "ok"]
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    expected = ("sessions", "attempts", "review_cards")[: 0 if version < 1 else version + 1]
    missing = [t for t in expected if t not in tables]
    problems += [f"table {t} is missing" for t in missing]
    if "sessions" in tables and "attempts" in tables:
        orphans = conn.execute(
            "SELECT count(*), group_concat(id) FROM (SELECT a.id FROM "
            "attempts a LEFT JOIN sessions s ON s.id = a.session_id "
            f"WHERE s.id IS NULL LIMIT {_ROW_LIMIT})"
        ).fetchone()
        if orphans[0]:
            problems.append(f"attempts rows {orphans[1]} point to a missing session")
    for table in tables & set(_JSON_COLUMNS):
        for column in _JSON_COLUMNS[table]:
            problems += _bad_rows(
                conn, table, column, f"json_valid({column}) = 0", "is not valid JSON"
            )
        for column in _TIME_COLUMNS[table]:
            problems += _bad_rows(
                conn, table, column, f"{column} NOT GLOB '{_STAMP}'", "is not a timestamp"
            )
    if "review_cards" in tables:
        problems += _unusable_states(conn)
    return problems


def _unusable_states(conn: sqlite3.Connection) -> list[str]:
    """Review cards whose scheduler state the scheduler cannot use (each starts afresh at its
    next review; named here so the user hears of it)."""
    import json

    from drill.store.review_state import fsrs_problem

    found = []
    try:
        rows = conn.execute(
            "SELECT card_id, state_json FROM review_cards WHERE json_valid(state_json)"
        )
        for card_id, text in rows:
            state = json.loads(text)
            fsrs = state.get("fsrs") if isinstance(state, dict) else None
            problem = fsrs_problem(fsrs) if fsrs is not None else None
            if problem is not None:
                found.append(
                    f"review_cards row {card_id}: {problem}; it starts afresh at its next review"
                )
    except sqlite3.OperationalError as exc:
        return [f"review_cards.state_json: cannot be read ({exc})"]
    return found[:_ROW_LIMIT] + (
        [f"… and {len(found) - _ROW_LIMIT} more"] if len(found) > _ROW_LIMIT else []
    )


def _bad_rows(
    conn: sqlite3.Connection, table: str, column: str, where: str, what: str
) -> list[str]:
    key = "card_id" if table == "review_cards" else "id"
    try:
        rows = [
            r[0]
            for r in conn.execute(f"SELECT {key} FROM {table} WHERE {where} LIMIT {_ROW_LIMIT + 1}")
        ]
    except sqlite3.OperationalError as exc:  # a column dropped or renamed
        return [f"{table}.{column}: cannot be read ({exc})"]
    if not rows:
        return []
    named = ", ".join(str(r) for r in rows[:_ROW_LIMIT]) + (" …" if len(rows) > _ROW_LIMIT else "")
    return [f"{table} rows {named}: {column} {what}"]


def check_file(path: Path | str) -> tuple[int | None, list[str]]:
    """(schema version, problems) of a history file, read-only: a damaged file stays as it is."""
    path = Path(path)
    if not path.is_file():
        return None, [f"{path}: no history yet (nothing recorded)"]
    try:
        inspect(path)  # a refused file is never opened by SQLite
    except HistoryError as exc:
        return None, [str(exc)]
    # A read-only folder cannot hold the -shm file a WAL reader needs: read the file as is.
    uri = _uri(path, immutable=not writable(path))
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    except sqlite3.Error as exc:
        return None, [f"{path}: cannot open ({exc})"]
    try:
        try:
            _identify(conn, path)
        except HistoryError as exc:
            return None, [str(exc)]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        return version, [f"{path}: {p}" for p in check(conn)]
    except sqlite3.Error as exc:
        return None, [f"{path}: damaged ({exc}); the file was left untouched"]
    finally:
        conn.close()
