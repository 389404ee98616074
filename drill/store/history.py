"""The answer history: one SQLite file of sessions, attempts and review state.

Every write is its own short transaction, so killing the program loses at most the question
on screen; WAL mode and a busy timeout let two terminals record at the same time. A file that
is not a drill history, is damaged, or was written by a newer version is refused and never
written to: the user's answers matter more than a working recorder.
"""

from __future__ import annotations

import json
import math
import sqlite3
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
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
    "uuid", "item_kind", "skill", "question", "ask", "kind", "scenario_json", "answer",
    "parsed_json", "expected_json", "score", "correct", "skipped", "relative_error", "self_mark",
    "mistakes_json", "hints_used", "seconds", "answered_utc",
)


class HistoryError(Exception):
    """The database cannot be used; the message says why and that the file was left alone."""


def utc_iso(moment: datetime | None = None) -> str:
    """Fixed-width UTC timestamps, so text order is time order in SQL."""
    moment = moment or datetime.now(timezone.utc)
    if moment.tzinfo is None:
        raise ValueError("timestamps must carry a time zone")
    moment = moment.astimezone(timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_utc(text: str) -> datetime:
    """An ISO-8601 timestamp with an offset or 'Z', as an aware UTC datetime."""
    moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError(f"timestamp {text!r} has no time zone")
    return moment.astimezone(timezone.utc)


def new_uuid() -> str:
    return str(uuid.uuid4())


@dataclass
class Attempt:
    """One graded answer (or skip), as stored and as exported."""

    item_kind: str  # "skill" or "concept"
    skill: str  # the skill id, or the conceptual question's id
    score: float
    correct: bool
    seconds: float
    answered_utc: str
    question: str = ""  # position in the session, e.g. "3b"
    ask: str = ""  # what was asked: the ask key, or the question type
    kind: str = ""  # number, choice, multi, free, truefalse
    scenario: dict = field(default_factory=dict)
    answer: str = ""
    parsed: object = None
    expected: object = None
    skipped: bool = False
    relative_error: float | None = None
    self_mark: bool | None = None
    mistakes: tuple[str, ...] = ()
    hints_used: int = 0
    uuid: str = field(default_factory=new_uuid)

    def row(self) -> tuple:
        rel = self.relative_error
        if rel is not None and not math.isfinite(rel):
            rel = None
        return (
            self.uuid, self.item_kind, self.skill, self.question, self.ask, self.kind,
            _dumps(self.scenario), self.answer, _dumps(self.parsed), _dumps(self.expected),
            float(self.score), int(bool(self.correct)), int(bool(self.skipped)), rel,
            None if self.self_mark is None else int(bool(self.self_mark)),
            _dumps(list(self.mistakes)), int(self.hints_used), float(self.seconds),
            self.answered_utc,
        )

    def to_json(self) -> dict:
        data = asdict(self)
        data["mistakes"] = list(self.mistakes)
        return data


@dataclass
class SessionRecord:
    mode: str
    started_utc: str
    ended_utc: str | None = None
    seed: int | None = None
    settings: dict = field(default_factory=dict)
    app_version: str = ""
    uuid: str = field(default_factory=new_uuid)
    attempts: list[Attempt] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"uuid": self.uuid, "mode": self.mode, "started_utc": self.started_utc,
                "ended_utc": self.ended_utc, "seed": self.seed, "settings": self.settings,
                "app_version": self.app_version,
                "attempts": [a.to_json() for a in self.attempts]}


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_jsonable)


def _jsonable(value: object) -> object:
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    return str(value)


class History:
    """An open history database. Use :meth:`open`; every write commits before returning."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path

    @classmethod
    def open(cls, path: Path | str | None = None) -> History:
        """Open (creating or upgrading) the history, or raise HistoryError without writing."""
        if path is None:
            from drill.config import paths

            path = paths.database_file()
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                   check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise HistoryError(f"{path}: cannot open the history ({exc})") from None
        try:
            _prepare(conn, path)
        except HistoryError:
            conn.close()
            raise
        except sqlite3.Error as exc:
            conn.close()
            raise HistoryError(f"{path}: cannot be read as a drill history ({exc}); "
                               "the file was left untouched") from None
        return cls(conn, path)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE takes the write lock up front, so a busy peer makes us wait, not fail."""
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
            conn.execute("UPDATE sessions SET ended_utc = ? WHERE id = ?",
                         (ended_utc or utc_iso(), session_id))

    def add_attempt(self, session_id: int, attempt: Attempt,
                    review: tuple[str, str, dict, str | None] | None = None) -> int:
        """Insert an answer and, in the same commit, its review card's new state."""
        with self.transaction() as conn:
            row = _insert_attempt(conn, session_id, attempt)
            if review is not None:
                _put_review(conn, *review)
            return row

    def update_attempt(self, attempt_id: int, attempt: Attempt,
                       review: tuple[str, str, dict, str | None] | None = None) -> None:
        sets = ", ".join(f"{c} = ?" for c in ATTEMPT_COLUMNS)
        with self.transaction() as conn:
            conn.execute(f"UPDATE attempts SET {sets} WHERE id = ?", (*attempt.row(), attempt_id))
            if review is not None:
                _put_review(conn, *review)

    # -- review state ---------------------------------------------------------------------
    def put_review_card(self, card_id: str, kind: str, state: dict,
                        due_utc: str | None) -> None:
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

    def sessions(self) -> list[SessionRecord]:
        """Every session with its attempts, oldest first (for export)."""
        by_id: dict[int, SessionRecord] = {}
        for row in self.conn.execute("SELECT id, uuid, mode, started_utc, ended_utc, seed, "
                                     "settings_json, app_version FROM sessions "
                                     "ORDER BY started_utc, id"):
            by_id[row[0]] = SessionRecord(row[2], row[3], row[4], row[5], json.loads(row[6]),
                                          row[7], row[1])
        cols = ", ".join(ATTEMPT_COLUMNS)
        for row in self.conn.execute(f"SELECT session_id, {cols} FROM attempts "
                                     "ORDER BY answered_utc, id"):
            by_id[row[0]].attempts.append(_attempt_from_row(row[1:]))
        return list(by_id.values())

    def review_rows(self) -> list[dict]:
        """Every review card as plain data (for export)."""
        rows = self.conn.execute("SELECT card_id, kind, state_json, due_utc, updated_utc "
                                 "FROM review_cards ORDER BY card_id")
        return [{"card_id": r[0], "kind": r[1], "state": json.loads(r[2] or "{}"),
                 "due_utc": r[3], "updated_utc": r[4]} for r in rows]

    def merge(self, sessions: list[SessionRecord],
              reviews: list[dict] = ()) -> tuple[int, int]:
        """Add what is new, by uuid, in one transaction; returns (sessions, attempts) added.

        A review card is taken when it is new here or was updated later than ours.
        """
        added_sessions = added_attempts = 0
        with self.transaction() as conn:
            for card in reviews:
                conn.execute(
                    "INSERT INTO review_cards VALUES (?, ?, ?, ?, ?) ON CONFLICT(card_id) DO "
                    "UPDATE SET kind = excluded.kind, state_json = excluded.state_json, "
                    "due_utc = excluded.due_utc, updated_utc = excluded.updated_utc "
                    "WHERE excluded.updated_utc > review_cards.updated_utc",
                    (card["card_id"], card["kind"], _dumps(card["state"]), card["due_utc"],
                     card["updated_utc"]))
            for session in sessions:
                row = conn.execute("SELECT id FROM sessions WHERE uuid = ?",
                                   (session.uuid,)).fetchone()
                if row is None:
                    session_id = _insert_session(conn, session)
                    added_sessions += 1
                else:
                    session_id = row[0]
                    if session.ended_utc:
                        conn.execute("UPDATE sessions SET ended_utc = ? WHERE id = ? AND "
                                     "ended_utc IS NULL", (session.ended_utc, session_id))
                for attempt in session.attempts:
                    before = conn.total_changes
                    _insert_attempt(conn, session_id, attempt, ignore=True)
                    added_attempts += conn.total_changes - before
        return added_sessions, added_attempts

    def check(self) -> list[str]:
        return check(self.conn)

    def quick_check(self) -> list[str]:
        """SQLite's quick check (~50 ms per 100k attempts): run before the first write."""
        return [r[0] for r in self.conn.execute("PRAGMA quick_check(5)") if r[0] != "ok"]


def _prepare(conn: sqlite3.Connection, path: Path) -> None:
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
        "(SELECT count(*) FROM sqlite_master)").fetchone()
    if app_id == 0 and version == 0 and tables == 0:
        return True
    if app_id != APPLICATION_ID:
        raise HistoryError(f"{path} is not a roofline-drill history database; "
                           "it was left untouched (move it away or set DRILL_HOME)")
    if version > SCHEMA_VERSION:
        raise HistoryError(f"{path} was written by a newer roofline-drill (schema {version}; "
                           f"this version reads up to {SCHEMA_VERSION}); it was left untouched")
    return False


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    if conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]  # a peer may have done it
        if version > SCHEMA_VERSION:
            raise HistoryError(f"{path} was written by a newer roofline-drill "
                               f"(schema {version}); it was left untouched")
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


def _put_review(conn: sqlite3.Connection, card_id: str, kind: str, state: dict,
                due_utc: str | None) -> None:
    conn.execute("INSERT INTO review_cards VALUES (?, ?, ?, ?, ?) ON CONFLICT(card_id) "
                 "DO UPDATE SET kind = excluded.kind, state_json = excluded.state_json, "
                 "due_utc = excluded.due_utc, updated_utc = excluded.updated_utc",
                 (card_id, kind, _dumps(state), due_utc, utc_iso()))


def _insert_session(conn: sqlite3.Connection, s: SessionRecord) -> int:
    cur = conn.execute("INSERT INTO sessions (uuid, mode, started_utc, ended_utc, seed, "
                       "settings_json, app_version) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (s.uuid, s.mode, s.started_utc, s.ended_utc, s.seed, _dumps(s.settings),
                        s.app_version))
    return cur.lastrowid


def _insert_attempt(conn: sqlite3.Connection, session_id: int, attempt: Attempt,
                    ignore: bool = False) -> int:
    cols = ", ".join(("session_id", *ATTEMPT_COLUMNS))
    marks = ", ".join("?" * (len(ATTEMPT_COLUMNS) + 1))
    verb = "INSERT OR IGNORE" if ignore else "INSERT"
    cur = conn.execute(f"{verb} INTO attempts ({cols}) VALUES ({marks})",
                       (session_id, *attempt.row()))
    return cur.lastrowid


def _attempt_from_row(row: tuple) -> Attempt:
    d = dict(zip(ATTEMPT_COLUMNS, row, strict=True))
    return Attempt(
        item_kind=d["item_kind"], skill=d["skill"], score=d["score"], correct=bool(d["correct"]),
        seconds=d["seconds"], answered_utc=d["answered_utc"], question=d["question"],
        ask=d["ask"], kind=d["kind"], scenario=json.loads(d["scenario_json"]),
        answer=d["answer"], parsed=json.loads(d["parsed_json"]),
        expected=json.loads(d["expected_json"]), skipped=bool(d["skipped"]),
        relative_error=d["relative_error"],
        self_mark=None if d["self_mark"] is None else bool(d["self_mark"]),
        mistakes=tuple(json.loads(d["mistakes_json"])), hints_used=d["hints_used"],
        uuid=d["uuid"],
    )


def check(conn: sqlite3.Connection) -> list[str]:
    """Problems found by SQLite's integrity and foreign-key checks; empty when healthy."""
    problems = [r[0] for r in conn.execute("PRAGMA integrity_check") if r[0] != "ok"]
    for table, rowid, parent, _ in conn.execute("PRAGMA foreign_key_check"):
        problems.append(f"{table} row {rowid} points to a missing {parent} row")
    return problems


def check_file(path: Path | str) -> tuple[int | None, list[str]]:
    """(schema version, problems) of a history file, read-only: a damaged file stays as it is."""
    path = Path(path)
    if not path.is_file():
        return None, [f"{path}: no history yet (nothing recorded)"]
    uri = path.resolve().as_uri() + "?mode=ro"
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
