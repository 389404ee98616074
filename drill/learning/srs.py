"""Spaced repetition on top of fsrs: one review card per numeric skill and per question.

A card's id is ``skill:<skill id>`` or ``concept:<question id>``; numeric skills come back with
fresh numbers each time, so the card tracks the skill, not one scenario. The stored state is
the library's own ``Card.to_dict()`` plus a few counters of ours (the difficulty level the skill
is drilled at, and how often it was answered correctly when due). Every time is UTC: a change
of time zone or a clock set back cannot corrupt a schedule.

fsrs is imported on the first review, never by planning (which reads ``due_utc`` in SQL).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta, timezone, tzinfo
from functools import lru_cache
from pathlib import Path

from drill.store.timeutil import parse_utc, utc_iso

AGAIN, HARD, GOOD, EASY = 1, 2, 3, 4  # the values of fsrs.Rating
SLOW_FACTOR = 2.0  # slower than twice your median time for that question: Hard
FAST_FACTOR = 0.5  # faster than half your median time, and correct: Easy
MIN_TIMED = 5  # answers needed before your median time counts
TIMED_WINDOW = 20  # the median is over your last 20 answers to the same question
LEVEL_UP_AFTER = 3  # successes in a row at a skill's level raise it
LEVEL_DOWN_AFTER = 2  # misses in a row at a skill's level lower it
MIN_LEVEL, MAX_LEVEL = 1, 3
MAX_INTERVAL_DAYS = 365
DESIRED_RETENTION = 0.9

RATING_RULE: dict[str, str] = {
    "en": (
        "How an answer schedules its next review (FSRS):\n"
        "  Again: wrong, skipped, or a named mistake; a smart session asks it once more, a "
        "few questions later.\n"
        "  Hard: partly right, right with a hint, or more than twice your usual time for it.\n"
        "  Good: right.\n"
        "  Easy: right in under half your usual time.\n"
        "Your usual time is the median of your last 20 answers to that question (after 5). "
        "A skill's difficulty rises after 3 successes in a row and falls after 2 misses in a row."
    ),
    "zh": (
        "每次作答如何安排下次复习（FSRS）：\n"
        "  重来（Again）：答错、跳过，或被识别出某类错误；智能练习会在几题之后再问一次。\n"
        "  困难（Hard）：部分正确、用了提示才答对，或用时超过你平时的两倍。\n"
        "  良好（Good）：答对。\n"
        "  简单（Easy）：答对且用时不到你平时的一半。\n"
        "“平时用时”是你最近 20 次回答同一问题的用时中位数（满 5 次后才计算）。"
        "某项技能连续答对 3 次难度升一级，连续答错 2 次降一级。"
    ),
}

ReviewRow = tuple[str, str, dict, str]  # card_id, kind, state, due_utc


def card_id(kind: str, ident: str) -> str:
    return f"{kind}:{ident}"


def split_card_id(cid: str) -> tuple[str, str]:
    kind, _, ident = cid.partition(":")
    return kind, ident


def rate(*, correct: bool, score: float, skipped: bool = False, mistakes: tuple = (),
         hints: int = 0, seconds: float | None = None, median: float | None = None) -> int:
    """The rating of one answer; the rule is RATING_RULE, in words."""
    if skipped or mistakes or (not correct and score <= 0):
        return AGAIN
    if not correct or hints > 0:
        return HARD
    if median and seconds is not None:
        if seconds > SLOW_FACTOR * median:
            return HARD
        if seconds < FAST_FACTOR * median:
            return EASY
    return GOOD


def is_correct(result) -> bool:
    """Right by the grader, or by the user's own mark on a free answer."""
    if result.self_mark is not None and not result.grade.skipped:
        return bool(result.self_mark)
    return bool(result.grade.correct)


def rating_of(result, median: float | None = None) -> int:
    """The rating of a drill.runs.practice.Result (a self-mark overrides the rubric)."""
    grade = result.grade
    correct = is_correct(result)
    return rate(correct=correct, score=1.0 if correct else grade.score, skipped=grade.skipped,
                mistakes=() if correct else tuple(grade.mistakes), hints=result.hints_used,
                seconds=result.seconds, median=median)


def missed(result) -> bool:
    """Rated Again: the session shows the item once more, later."""
    return rating_of(result) == AGAIN


def item_of(result) -> tuple[str, str]:
    question = result.question
    return ("concept" if question.is_concept else "skill"), question.skill


def make_scheduler(fuzz: bool = True):
    """The scheduler for a once-a-day trainer: no minute-long learning steps (the session's own
    retry plays that part), intervals in days, at most a year."""
    import fsrs  # ~10 ms; only reviews need it

    return fsrs.Scheduler(desired_retention=DESIRED_RETENTION, learning_steps=(),
                          relearning_steps=(), maximum_interval=MAX_INTERVAL_DAYS,
                          enable_fuzzing=fuzz)


@lru_cache(maxsize=1)
def default_scheduler():
    return make_scheduler()


@dataclass
class CardState:
    """What the review_cards row holds: the fsrs card and our counters."""

    fsrs: dict | None = None  # fsrs.Card.to_dict(); None before the first review
    level: int | None = None  # difficulty a numeric skill is drilled at
    run: int = 0  # > 0: successes in a row at the level; < 0: misses in a row
    reviews: int = 0
    lapses: int = 0  # reviews rated Again
    due_reviews: int = 0  # reviews made when the card was due
    due_correct: int = 0  # ... and answered correctly

    def to_json(self) -> dict:
        return {"fsrs": self.fsrs, "level": self.level, "run": self.run,
                "reviews": self.reviews, "lapses": self.lapses,
                "due_reviews": self.due_reviews, "due_correct": self.due_correct}

    @classmethod
    def from_json(cls, data: object) -> CardState:
        """A stored state; anything unreadable starts the card afresh rather than failing."""
        if not isinstance(data, dict):
            return cls()
        card = data.get("fsrs")
        try:
            state = cls(card if isinstance(card, dict) else None,
                        _int(data.get("level")), int(data.get("run") or 0),
                        int(data.get("reviews") or 0), int(data.get("lapses") or 0),
                        int(data.get("due_reviews") or 0), int(data.get("due_correct") or 0))
        except (TypeError, ValueError):
            return cls()
        if state.fsrs is not None:
            try:
                _card(state.fsrs)
            except (KeyError, TypeError, ValueError):
                state.fsrs = None
        return state

    @property
    def due(self) -> datetime | None:
        return parse_utc(self.fsrs["due"]) if self.fsrs else None


def _int(value: object) -> int | None:
    return None if value is None else int(value)


def _card(data: dict):
    import fsrs

    return fsrs.Card.from_dict(data)


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("review times must carry a time zone")
    return moment.astimezone(timezone.utc)


def end_of_day(now: datetime, zone: tzinfo) -> datetime:
    """The end of the local day of ``now``, in UTC: cards due before it are due today."""
    local = now.astimezone(zone).date() + timedelta(days=1)
    return datetime.combine(local, time(), zone).astimezone(timezone.utc)


def advance(state: CardState, rating: int, when: datetime, seconds: float = 0.0,
            correct: bool = False, shown_level: int | None = None, scheduler=None,
            zone: tzinfo | None = None) -> CardState:
    """The card after one review; ``state`` is left as it was."""
    import fsrs

    scheduler = scheduler or default_scheduler()
    when = _utc(when)
    zone = zone or timezone.utc
    if state.fsrs is None:
        card = fsrs.Card(card_id=int(when.timestamp() * 1000), due=when)
        due_before = None
    else:
        card = _card(state.fsrs)
        due_before = card.due
        if card.last_review is not None and when < card.last_review:
            when = card.last_review  # a clock set back never makes time run backwards
    card, _ = scheduler.review_card(card, fsrs.Rating(rating), review_datetime=when,
                                    review_duration=max(0, int(round(seconds * 1000))))
    new = CardState(card.to_dict(), state.level, state.run, state.reviews + 1,
                    state.lapses + (rating == AGAIN), state.due_reviews, state.due_correct)
    if due_before is not None and due_before < end_of_day(when, zone):
        new.due_reviews += 1
        new.due_correct += bool(correct)
    if shown_level is not None:
        _adapt_level(new, rating, shown_level)
    return new


def _adapt_level(state: CardState, rating: int, shown: int) -> None:
    """Successes at (or above) the level raise it; misses at (or below) it lower it."""
    if state.level is None:
        state.level = max(MIN_LEVEL, min(MAX_LEVEL, shown))
    if rating >= GOOD and shown >= state.level:
        state.run = max(state.run, 0) + 1
        if state.run >= LEVEL_UP_AFTER and state.level < MAX_LEVEL:
            state.level += 1
            state.run = 0
    elif rating == AGAIN and shown <= state.level:
        state.run = min(state.run, 0) - 1
        if -state.run >= LEVEL_DOWN_AFTER and state.level > MIN_LEVEL:
            state.level -= 1
            state.run = 0
    elif rating == HARD:
        state.run = 0


def due_utc_of(state: CardState) -> str:
    return utc_iso(state.due)


# -- reading the history ---------------------------------------------------------------------
def _conn(history) -> sqlite3.Connection:
    return getattr(history, "conn", history)


def load_state(history, cid: str) -> CardState | None:
    row = _conn(history).execute("SELECT state_json FROM review_cards WHERE card_id = ?",
                                 (cid,)).fetchone()
    if row is None:
        return None
    try:
        return CardState.from_json(json.loads(row[0] or "{}"))
    except ValueError:
        return CardState()


def median_seconds(history, item: str, ask: str) -> float | None:
    """Median time of the last TIMED_WINDOW answers to this item and ask (None under MIN_TIMED)."""
    rows = _conn(history).execute(
        "SELECT seconds FROM attempts WHERE skill = ? AND ask = ? AND skipped = 0 "
        "ORDER BY answered_utc DESC LIMIT ?", (item, ask, TIMED_WINDOW)).fetchall()
    if len(rows) < MIN_TIMED:
        return None
    values = sorted(r[0] for r in rows)
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2


@dataclass
class _Pending:
    """One scenario's card before its first part was answered, and the parts so far."""

    before: CardState
    when: datetime
    anchor: object = None  # the scenario (or question) the key's id() belongs to
    parts: dict[int, tuple[int, float, bool]] = field(default_factory=dict)
    medians: dict[int, float | None] = field(default_factory=dict)


class Reviewer:
    """Turns each graded result into its card's new row, for the same commit as the attempt.

    The parts of one multi-part scenario are one review: each part re-applies the review to
    the card as it was before the scenario, with the worst rating so far and the time summed,
    so quitting half-way still counts what was answered. A self-mark re-sends a result and
    re-applies it the same way. A result skipped in no time at all was never on screen (a
    mock interview that ran out of time) and leaves its card alone.
    """

    def __init__(self, history, scheduler=None, zone: tzinfo | None = None) -> None:
        self.history = history
        self.scheduler = scheduler
        self.zone = zone
        self._pending: dict[tuple[int, str], _Pending] = {}

    def review(self, result, when: datetime) -> ReviewRow | None:
        question = result.question
        if result.grade.skipped and result.seconds <= 0:
            return None
        kind, ident = item_of(result)
        cid = card_id(kind, ident)
        anchor = question.scenario if question.scenario is not None else question
        key = (id(anchor), cid)
        pending = self._pending.get(key)
        if pending is None:
            pending = _Pending(load_state(self.history, cid) or CardState(), when, anchor)
            self._pending[key] = pending
        part = question.part
        if part not in pending.medians:
            ask = question.kind if question.is_concept else (
                question.ask.key if question.ask is not None else "")
            pending.medians[part] = median_seconds(self.history, ident, ask)
        pending.parts[part] = (rating_of(result, pending.medians[part]),
                               max(0.0, float(result.seconds)), is_correct(result))
        rating = min(r for r, _, _ in pending.parts.values())
        seconds = sum(s for _, s, _ in pending.parts.values())
        correct = all(c for _, _, c in pending.parts.values())
        shown = None
        if kind == "skill" and question.scenario is not None:
            shown = question.scenario.difficulty
        state = advance(pending.before, rating, pending.when, seconds, correct, shown,
                        self.scheduler, self.zone)
        return cid, kind, state.to_json(), due_utc_of(state)


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
        return _conn(history).execute("SELECT count(*) FROM review_cards WHERE due_utc < ?",
                                      (horizon,)).fetchone()[0]
    except sqlite3.Error:
        return 0
    finally:
        if opened:
            history.close()


def forecast(history, now: datetime, zone: tzinfo, days: int = 14,
             item: str | None = None) -> list[tuple[object, int]]:
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
    sql = ("SELECT card_id, json_extract(state_json, '$.due_reviews'), "
           "json_extract(state_json, '$.due_correct') FROM review_cards "
           "WHERE json_valid(state_json)")
    args: tuple = ()
    if item:
        sql += " AND card_id IN (?, ?)"
        args = (card_id("skill", item), card_id("concept", item))
    out = {}
    for cid, n, right in _conn(history).execute(sql, args):
        if isinstance(n, int) and n > 0:
            out[split_card_id(cid)[1]] = (n, int(right or 0))
    return out
