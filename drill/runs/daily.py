"""The daily challenge: the same five questions for everyone on a UTC date.

The seed is the date itself (20261130 for 30 November 2026) and the questions come from the
built-in cards only, so two people on the same version get the same scenarios whatever
cards they added. The result is a line to share (score, time, a square per question) and the
streak of days played, read from the history's "daily" sessions.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone

from drill.learning.planner import SEEDED, seeded_plan
from drill.runs.options import DailyOptions
from drill.runs.practice import Session, SessionConfig

COUNT = 5
LEVEL = 2  # the middle difficulty: a challenge, not a wall


def seed_of(day: date) -> int:
    return day.year * 10000 + day.month * 100 + day.day


def day_of(seed: int) -> date | None:
    try:
        return date(seed // 10000, seed // 100 % 100, seed % 100)
    except (TypeError, ValueError):
        return None


def today_utc() -> date:
    return datetime.now(timezone.utc).date()


class Daily(Session):
    """Five seeded questions; a missed one does not come back (everyone gets the same five)."""

    mode = "daily"

    def __init__(self, day: date, catalog, lang: str, clock: Callable[[], float] = time.monotonic):
        from drill.content.skills.registry import CURRICULUM

        seed = seed_of(day)
        plan = seeded_plan(seed, COUNT, list(CURRICULUM), [])
        config = SessionConfig(
            count=COUNT,
            seed=seed,
            difficulty=LEVEL,
            lang=lang,
            topic="numeric",
            plan=plan.items,
            mode=SEEDED,
        )
        super().__init__(config, catalog, None, clock=clock)
        self.day = day

    def marks(self) -> list[str]:
        """Per question (all its parts): correct, partial, wrong, or unanswered (skipped or
        never reached)."""
        by_number: dict[int, list] = {}
        for result in self.results:
            by_number.setdefault(result.question.number, []).append(result)
        marks = []
        for number in range(1, self.total + 1):
            results = by_number.get(number, [])
            parts = results[0].question.parts if results else 1
            if len(results) == parts and all(r.correct for r in results):
                marks.append("correct")
            elif any(r.score > 0 for r in results):
                marks.append("partial")
            elif not results or all(r.grade.skipped for r in results):
                marks.append("unanswered")  # left or skipped: not a wrong answer
            else:
                marks.append("wrong")
        return marks

    def to_json(self, streak: int) -> dict:
        marks = self.marks()
        return {
            "type": "daily",
            "date": self.day.isoformat(),
            "right": marks.count("correct"),
            "total": len(marks),
            "seconds": round(self.elapsed, 1),
            "marks": marks,
            "streak": streak,
        }


def streak(history, day: date) -> int:
    """Days in a row with a daily challenge answered, ending on ``day`` (or the day before,
    when ``day`` is not played yet)."""
    conn = getattr(history, "conn", history)
    if conn is None:
        return 0
    try:
        rows = conn.execute(
            "SELECT DISTINCT s.seed FROM sessions s WHERE s.mode = 'daily' AND s.seed IS NOT NULL "
            "AND EXISTS (SELECT 1 FROM attempts a WHERE a.session_id = s.id)"
        ).fetchall()
    except sqlite3.Error:
        return 0
    played = {d for (seed,) in rows if (d := day_of(seed)) is not None}
    current = day if day in played else day - timedelta(days=1)
    count = 0
    while current in played:
        count += 1
        current -= timedelta(days=1)
    return count


def played(history, day: date) -> bool:
    """Whether ``day``'s challenge has answers in the history already."""
    conn = getattr(history, "conn", history)
    if conn is None:
        return False
    try:
        row = conn.execute(
            "SELECT 1 FROM sessions s WHERE s.mode = 'daily' AND s.seed = ? "
            "AND EXISTS (SELECT 1 FROM attempts a WHERE a.session_id = s.id) LIMIT 1",
            (seed_of(day),),
        ).fetchone()
    except sqlite3.Error:
        return False
    return row is not None


def _in_user_history(read: Callable, day: date, nothing):
    """``read(history, day)`` on the user's history, or ``nothing`` when there is none to
    read."""
    from drill.config import paths
    from drill.store.history import History, HistoryError, exists

    path = paths.database_file()
    if not exists(path):
        return nothing
    try:
        with History.open(path) as history:
            return read(history, day)
    except HistoryError:
        return nothing


def user_played(day: date) -> bool:
    """``played`` in the user's history (False when there is none to read)."""
    return _in_user_history(played, day, False)


def user_streak(day: date) -> int:
    """The streak in the user's history, as the run just wrote it (0 when there is none to
    read)."""
    return _in_user_history(streak, day, 0)


# -- the factory's hook (drill.runs.factory.open_run) -----------------------------------------
def build(
    options: DailyOptions, lang: str, clock: Callable[[], float], history=None
) -> tuple[Daily, SessionConfig]:
    from drill.content.catalog import load_catalog

    day = options.day or today_utc()
    run = Daily(day, load_catalog(include_user=False), lang, clock=clock)
    return run, run.config


def listeners(run: Daily, history, on_warning) -> list:
    return []
