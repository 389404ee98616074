"""Reading review cards and answer times from the history (SQL only; fsrs is not needed)."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, time, timedelta, timezone, tzinfo
from pathlib import Path
from string import ascii_lowercase

from drill.learning.srs.card import CardState, card_id, end_of_day, split_card_id
from drill.store.timeutil import parse_utc, utc_iso

MIN_TIMED = 5  # answers needed before your median time counts
TIMED_WINDOW = 20  # the median is over your last 20 answers to the same question


def _conn(history) -> sqlite3.Connection:
    return getattr(history, "conn", history)


def load_state(history, cid: str) -> CardState | None:
    row = (
        _conn(history)
        .execute("SELECT state_json FROM review_cards WHERE card_id = ?", (cid,))
        .fetchone()
    )
    if row is None:
        return None
    try:
        return CardState.from_json(json.loads(row[0] or "{}"))
    except ValueError:
        return CardState()


def median_seconds(history, item: str, ask: str) -> float | None:
    """Median time of the last TIMED_WINDOW answers to this item and ask (None under MIN_TIMED)."""
    rows = (
        _conn(history)
        .execute(
            "SELECT seconds FROM attempts WHERE skill = ? AND ask = ? AND skipped = 0 "
            "ORDER BY answered_utc DESC LIMIT ?",
            (item, ask, TIMED_WINDOW),
        )
        .fetchall()
    )
    if len(rows) < MIN_TIMED:
        return None
    values = sorted(r[0] for r in rows)
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2


def rested_today(history, now: datetime, zone: tzinfo) -> set[tuple[str, str]]:
    """Items (kind, id) whose last showing today, the user's local day, was answered right:
    every part of its scenario right, none skipped. Like a card answered Good in Anki, they
    are not asked again before tomorrow; a wrong answer may come back the same day.

    Answers from every mode count (practice, mock, daily, placement): a right answer is one."""
    start = datetime.combine(now.astimezone(zone).date(), time(), zone)
    rows = _conn(history).execute(
        "SELECT item_kind, skill, session_id, question, correct, skipped FROM attempts "
        "WHERE answered_utc >= ? AND answered_utc < ? ORDER BY answered_utc",
        (utc_iso(start), utc_iso(end_of_day(now, zone))),
    )
    last: dict[tuple[str, str], tuple[tuple, bool]] = {}
    for kind, ident, session, question, correct, skipped in rows:
        # the parts of one scenario share the session and its number ("3a", "3b", ...)
        showing = (session, str(question).rstrip(ascii_lowercase))
        right = bool(correct) and not skipped
        held = last.get((kind, ident))
        if held is not None and held[0] == showing:
            right = right and held[1]
        last[(kind, ident)] = (showing, right)
    return {item for item, (_, right) in last.items() if right}


# -- figures for stats and the home screen ----------------------------------------------------
def _open_default(history):
    """The given history, or the user's (None when there is none yet or it is refused)."""
    if history is not None:
        return history, False
    from drill.config import paths
    from drill.store.history import History, HistoryError

    path: Path = paths.database_file()
    if not path.exists():
        return None, False
    try:
        return History.open(path), True
    except HistoryError:
        return None, False


def due_today(history=None, now: datetime | None = None, zone: tzinfo | None = None) -> int:
    """Cards due before the end of the user's local day (overdue ones included)."""
    from drill.store.timeutil import local_zone

    history, opened = _open_default(history)
    if history is None:
        return 0
    try:
        now = now or datetime.now(timezone.utc)
        horizon = utc_iso(end_of_day(now, zone or local_zone()))
        return (
            _conn(history)
            .execute("SELECT count(*) FROM review_cards WHERE due_utc < ?", (horizon,))
            .fetchone()[0]
        )
    except sqlite3.Error:
        return 0
    finally:
        if opened:
            history.close()


def answered_any(history=None) -> bool:
    """Whether the user's history holds an answer: a new user's home screen points to the
    placement test."""
    history, opened = _open_default(history)
    if history is None:
        return False
    try:
        return _conn(history).execute("SELECT 1 FROM attempts LIMIT 1").fetchone() is not None
    except sqlite3.Error:
        return True  # a history that cannot be read is not a new user's
    finally:
        if opened:
            history.close()


def resting_today(history=None, now: datetime | None = None, zone: tzinfo | None = None) -> int:
    """How many items answered right today rest until tomorrow (``rested_today``), for the
    home screen's line; the user's history when none is given."""
    from drill.store.timeutil import local_zone

    history, opened = _open_default(history)
    if history is None:
        return 0
    try:
        return len(rested_today(history, now or datetime.now(timezone.utc), zone or local_zone()))
    except sqlite3.Error:
        return 0
    finally:
        if opened:
            history.close()


def forecast(
    history, now: datetime, zone: tzinfo, days: int = 14, item: str | None = None
) -> list[tuple[object, int]]:
    """(local day, cards due that day) for today and the next days; today includes overdue."""
    today = now.astimezone(zone).date()
    horizon = utc_iso(datetime.combine(today + timedelta(days=days), time(), zone))
    sql = "SELECT due_utc FROM review_cards WHERE due_utc < ?"
    args: tuple = (horizon,)
    if item:
        sql += " AND card_id IN (?, ?)"
        args += (card_id("skill", item), card_id("concept", item))
    counts = [0] * days
    for (due,) in _conn(history).execute(sql, args):
        offset = (parse_utc(due).astimezone(zone).date() - today).days
        counts[max(0, offset)] += 1
    return [(today + timedelta(days=i), n) for i, n in enumerate(counts)]


def retention(history, item: str | None = None) -> dict[str, tuple[int, int]]:
    """Per item: (reviews made when due, of which answered correctly)."""
    sql = (
        "SELECT card_id, json_extract(state_json, '$.due_reviews'), "
        "json_extract(state_json, '$.due_correct') FROM review_cards "
        "WHERE json_valid(state_json)"
    )
    args: tuple = ()
    if item:
        sql += " AND card_id IN (?, ?)"
        args = (card_id("skill", item), card_id("concept", item))
    out = {}
    for cid, n, right in _conn(history).execute(sql, args):
        if isinstance(n, int) and n > 0:
            out[split_card_id(cid)[1]] = (n, int(right or 0))
    return out
