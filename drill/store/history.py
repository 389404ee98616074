"""The answer history: one SQLite file of sessions, attempts and review state.

Every write is its own short transaction, so killing the program loses at most the question
on screen; WAL mode and a busy timeout let two terminals record at the same time. A file that
is not a drill history, is damaged, or was written by a newer version is refused and never
written to: the user's answers matter more than a working recorder.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from drill.store.records import (
    Attempt,
    SessionRecord,
    attempt_from_row,
    dumps,
    json_object,
    stored_time,
)
from drill.store.schema import (
    ATTEMPT_COLUMNS,
    BUSY_TIMEOUT_S,
    HistoryError,
    _identify,
    _uri,
    check,
    inspect,
    prepare,
    writable,
)
from drill.store.timeutil import parse_stored, utc_iso

# What History.mark_session writes, as queries over ``sessions s`` read it: a mock's score as
# its scorecard gave it (None before these marks), and whether it was left early.
_SETTINGS = "CASE WHEN json_valid(s.settings_json) THEN s.settings_json END"
SESSION_SCORE = f"json_extract({_SETTINGS}, '$.score')"
SESSION_ENDED_EARLY = f"coalesce(json_extract({_SETTINGS}, '$.ended_early'), 0)"


class History:
    """An open history database. Use :meth:`open`; every write commits before returning."""

    def __init__(
        self, conn: sqlite3.Connection, path: Path, read_only: bool = False, why: str = ""
    ) -> None:
        self.conn = conn
        self.path = path
        self.read_only = read_only  # a read-only folder or a full disk: nothing is saved
        self.why = why or (f"{path.parent} is read-only" if read_only else "")

    @classmethod
    def open(cls, path: Path | str | None = None) -> History:
        """Open (creating or upgrading) the history, or raise HistoryError without writing.

        A file that is not ours is refused before SQLite opens it for writing; a history in
        a read-only folder is opened read-only (see :attr:`read_only`).
        """
        if path is None:
            from drill.config import paths

            path = paths.database_file()
        path = Path(path)
        if not exists(path):
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise HistoryError(
                    f"{path.parent}: cannot create the data folder ({exc.strerror or exc})"
                ) from None
        inspect(path)
        if not writable(path):
            return cls._open_read_only(path)
        try:
            conn = sqlite3.connect(
                path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
        except (OSError, sqlite3.Error) as exc:
            raise HistoryError(f"{path}: cannot open the history ({exc})") from None
        try:
            prepare(conn, path)
        except HistoryError:
            conn.close()
            raise
        except sqlite3.Error as exc:
            conn.close()
            if _write_failed(exc):
                return cls._unwritable(path, exc)
            raise HistoryError(
                f"{path}: cannot be read as a drill history ({exc}); the file was left untouched"
            ) from None
        return cls(conn, path)

    @classmethod
    def _unwritable(cls, path: Path, exc: sqlite3.Error) -> History:
        """A disk that takes no more bytes (full, a quota, a file-size limit): the history is
        read as it is, or an empty one stands in, and nothing is written; a recorder keeps
        its answers for a recovery file, as in a read-only folder."""
        why = _why_unwritable(path, exc)
        if path.exists():
            try:
                history = cls._open_read_only(path)
            except HistoryError:
                history = None
            if history is not None:
                history.why = why
                return history
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        prepare(conn, path)
        return cls(conn, path, read_only=True, why=why)

    @classmethod
    def _open_read_only(cls, path: Path) -> History:
        if not path.exists():
            raise HistoryError(f"{path.parent} is read-only: no history can be created there")
        try:
            conn = sqlite3.connect(
                _uri(path, immutable=True), uri=True, isolation_level=None, check_same_thread=False
            )
            _identify(conn, path)
        except sqlite3.Error as exc:
            raise HistoryError(
                f"{path}: cannot be read as a drill history ({exc}); the file was left untouched"
            ) from None
        return cls(conn, path, read_only=True)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE takes the write lock up front, so a busy peer makes us wait, not fail."""
        if self.read_only:
            raise sqlite3.OperationalError(f"{self.why}: nothing can be saved there")
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # -- recording ------------------------------------------------------------------------
    def start_session(self, session: SessionRecord) -> int:
        with self.transaction() as conn:
            return _insert_session(conn, session)

    def end_session(self, session_id: int, ended_utc: str | None = None) -> None:
        with self.transaction() as conn:
            conn.execute(
                "UPDATE sessions SET ended_utc = ? WHERE id = ?",
                (ended_utc or utc_iso(), session_id),
            )

    def mark_session(self, session_id: int, marks: dict) -> None:
        """Fields added to a session's settings at its end: ``ended_early`` (left with
        questions and time left), ``score`` (a mock's, as its scorecard gave it)."""
        with self.transaction() as conn:
            conn.execute(
                "UPDATE sessions SET settings_json = json_patch(CASE WHEN json_valid(settings_json)"
                " THEN settings_json ELSE '{}' END, ?) WHERE id = ?",
                (json.dumps(marks), session_id),
            )

    def add_attempt(
        self,
        session_id: int,
        attempt: Attempt,
        review: tuple[str, str, dict, str | None] | None = None,
    ) -> int:
        """Insert an answer and, in the same commit, its review card's new state."""
        with self.transaction() as conn:
            row = _insert_attempt(conn, session_id, attempt)
            if review is not None:
                _put_review(conn, *review)
            return row

    def update_attempt(
        self,
        attempt_id: int,
        attempt: Attempt,
        review: tuple[str, str, dict, str | None] | None = None,
    ) -> None:
        sets = ", ".join(f"{c} = ?" for c in ATTEMPT_COLUMNS)
        with self.transaction() as conn:
            conn.execute(f"UPDATE attempts SET {sets} WHERE id = ?", (*attempt.row(), attempt_id))
            if review is not None:
                _put_review(conn, *review)

    def last_marks(self, mode: str) -> tuple[str, dict] | None:
        """The start and the end marks of the latest session of ``mode`` (None: no such
        session): placement reads which groups the last one placed."""
        row = self.conn.execute(
            f"SELECT s.started_utc, {_SETTINGS} FROM sessions s WHERE s.mode = ?"
            " ORDER BY s.started_utc DESC, s.id DESC LIMIT 1",
            (mode,),
        ).fetchone()
        if row is None:
            return None
        try:
            marks = json.loads(row[1] or "{}")
        except ValueError:
            marks = {}
        return row[0], marks if isinstance(marks, dict) else {}

    # -- review state ---------------------------------------------------------------------
    def put_review_card(self, card_id: str, kind: str, state: dict, due_utc: str | None) -> None:
        with self.transaction() as conn:
            _put_review(conn, card_id, kind, state, due_utc)

    def review_cards(self) -> dict[str, tuple[str, dict, str | None]]:
        rows = self.conn.execute("SELECT card_id, kind, state_json, due_utc FROM review_cards")
        return {r[0]: (r[1], json.loads(r[2] or "{}"), r[3]) for r in rows}

    # -- whole-history operations ---------------------------------------------------------
    def counts(self) -> tuple[int, int]:
        sessions = self.conn.execute("SELECT count(*) FROM sessions").fetchone()[0]
        attempts = self.conn.execute("SELECT count(*) FROM attempts").fetchone()[0]
        return sessions, attempts

    def sessions(self, problems: list[str] | None = None) -> list[SessionRecord]:
        """Every session with its attempts, oldest first (for export).

        With ``problems`` given, a row that cannot be read (bad JSON, a bad timestamp, an
        attempt whose session is gone, a missing table) is left out and described there, so
        a damaged history still exports everything readable; without it, such a row raises.
        """

        def skip(what: str, exc: Exception) -> None:
            if problems is None:
                raise exc
            problems.append(f"{what}: {exc}; left out")

        by_id: dict[int, SessionRecord] = {}
        try:
            for row in self.conn.execute(
                "SELECT id, uuid, mode, started_utc, ended_utc, seed, "
                "settings_json, app_version FROM sessions "
                "ORDER BY started_utc, id"
            ):
                try:
                    if row[4] is not None:
                        parse_stored(row[4])
                    by_id[row[0]] = SessionRecord(
                        row[2],
                        stored_time(row[3]),
                        row[4],
                        row[5],
                        json_object(row[6]),
                        row[7],
                        row[1],
                    )
                except (ValueError, TypeError, AttributeError) as exc:
                    skip(f"session row {row[0]}", exc)
        except sqlite3.DatabaseError as exc:
            skip("sessions", exc)
        cols = ", ".join(ATTEMPT_COLUMNS)
        try:
            for row in self.conn.execute(
                f"SELECT session_id, id, {cols} FROM attempts ORDER BY answered_utc, id"
            ):
                try:
                    if row[0] not in by_id:
                        raise ValueError(f"its session (row {row[0]}) is missing or unreadable")
                    by_id[row[0]].attempts.append(attempt_from_row(row[2:]))
                except (ValueError, TypeError, AttributeError) as exc:
                    skip(f"attempt row {row[1]}", exc)
        except sqlite3.DatabaseError as exc:
            skip("attempts", exc)
        return list(by_id.values())

    def review_rows(self, problems: list[str] | None = None) -> list[dict]:
        """Every review card as plain data (for export); ``problems`` as in :meth:`sessions`."""
        result: list[dict] = []
        try:
            rows = self.conn.execute(
                "SELECT card_id, kind, state_json, due_utc, updated_utc "
                "FROM review_cards ORDER BY card_id"
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            if problems is None:
                raise
            problems.append(f"review cards: {exc}; left out")
            return result
        for r in rows:
            try:
                result.append(
                    {
                        "card_id": r[0],
                        "kind": r[1],
                        "state": json_object(r[2] or "{}"),
                        "due_utc": r[3] and stored_time(r[3]),
                        "updated_utc": stored_time(r[4]),
                    }
                )
            except (ValueError, TypeError, AttributeError) as exc:
                if problems is None:
                    raise
                problems.append(f"review card {r[0]!r}: {exc}; left out")
        return result

    def merge(self, items: Iterable[SessionRecord | dict]) -> tuple[int, int, int]:
        """Add the sessions and review cards (dicts) that are new, by uuid, in one transaction,
        taking them one at a time; returns (sessions added, attempts added, attempts given).

        A review card is taken when it is new here or was updated later than ours.
        """
        added_sessions = added_attempts = given = 0
        with self.transaction() as conn:
            for item in items:
                if isinstance(item, dict):
                    _merge_review(conn, item)
                    continue
                row = conn.execute(
                    "SELECT id FROM sessions WHERE uuid = ?", (item.uuid,)
                ).fetchone()
                if row is None:
                    session_id = _insert_session(conn, item)
                    added_sessions += 1
                else:
                    session_id = row[0]
                    if item.ended_utc:
                        conn.execute(
                            "UPDATE sessions SET ended_utc = ? WHERE id = ? AND ended_utc IS NULL",
                            (item.ended_utc, session_id),
                        )
                for attempt in item.attempts:
                    before = conn.total_changes
                    _insert_attempt(conn, session_id, attempt, ignore=True)
                    added_attempts += conn.total_changes - before
                given += len(item.attempts)
        return added_sessions, added_attempts, given

    def check(self) -> list[str]:
        return check(self.conn)

    def quick_check(self) -> list[str]:
        """SQLite's quick check (~50 ms per 100k attempts): run before the first write."""
        return [r[0] for r in self.conn.execute("PRAGMA quick_check(5)") if r[0] != "ok"]


def _merge_review(conn: sqlite3.Connection, card: dict) -> None:
    conn.execute(
        "INSERT INTO review_cards VALUES (?, ?, ?, ?, ?) ON CONFLICT(card_id) DO "
        "UPDATE SET kind = excluded.kind, state_json = excluded.state_json, "
        "due_utc = excluded.due_utc, updated_utc = excluded.updated_utc "
        "WHERE excluded.updated_utc > review_cards.updated_utc",
        (card["card_id"], card["kind"], dumps(card["state"]), card["due_utc"], card["updated_utc"]),
    )


def _put_review(
    conn: sqlite3.Connection, card_id: str, kind: str, state: dict, due_utc: str | None
) -> None:
    conn.execute(
        "INSERT INTO review_cards VALUES (?, ?, ?, ?, ?) ON CONFLICT(card_id) "
        "DO UPDATE SET kind = excluded.kind, state_json = excluded.state_json, "
        "due_utc = excluded.due_utc, updated_utc = excluded.updated_utc",
        (card_id, kind, dumps(state), due_utc, utc_iso()),
    )


def _insert_session(conn: sqlite3.Connection, s: SessionRecord) -> int:
    cur = conn.execute(
        "INSERT INTO sessions (uuid, mode, started_utc, ended_utc, seed, "
        "settings_json, app_version) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (s.uuid, s.mode, s.started_utc, s.ended_utc, s.seed, dumps(s.settings), s.app_version),
    )
    return _rowid(cur)


def _insert_attempt(
    conn: sqlite3.Connection, session_id: int, attempt: Attempt, ignore: bool = False
) -> int:
    cols = ", ".join(("session_id", *ATTEMPT_COLUMNS))
    marks = ", ".join("?" * (len(ATTEMPT_COLUMNS) + 1))
    verb = "INSERT OR IGNORE" if ignore else "INSERT"
    cur = conn.execute(
        f"{verb} INTO attempts ({cols}) VALUES ({marks})", (session_id, *attempt.row())
    )
    return _rowid(cur)


def _rowid(cur: sqlite3.Cursor) -> int:
    """The last row id: sqlite3 sets it after every execute (None only before the first)."""
    if cur.lastrowid is None:
        raise HistoryError("the history database gave no row id for an insert")
    return cur.lastrowid


def exists(path: Path) -> bool:
    """Whether a history file is there; False when nothing was recorded yet. A location that
    cannot hold one (the data folder is a file, a dangling link) raises HistoryError."""
    path = Path(path)
    for place in (path.parent, path):
        if place.is_symlink() and not place.exists():
            raise HistoryError(
                f"{place} is a link to {os.readlink(place)}, which does not "
                "exist; fix or remove the link"
            )
    for place in path.parents:  # DRILL_HOME itself may be the file
        if place.exists():
            if not place.is_dir():
                raise HistoryError(
                    f"{place} is a file, not a folder, so it cannot hold the data folder "
                    f"{path.parent}; move it away or set DRILL_HOME"
                )
            break
    if path.exists() and not path.is_file():
        raise HistoryError(f"{path} is not a file")
    return path.exists()


def _write_failed(exc: sqlite3.Error) -> bool:
    """SQLite's I/O error or full-disk error: the file is fine, the disk takes no more."""
    if sys.version_info >= (3, 11):  # the error codes and their constants came in 3.11
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None:
            return code & 0xFF in (sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL)
    text = str(exc).lower()
    return "disk i/o error" in text or "disk is full" in text


def _why_unwritable(path: Path, exc: sqlite3.Error) -> str:
    import shutil

    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:
        free = None
    if free is not None and free < 1024 * 1024:
        return f"the disk holding {path.parent} is full"
    return f"{path.parent} takes no more data ({exc}: a full disk, a quota or a file-size limit)"
