"""A review card's state and how one review moves it: fsrs's card plus our counters.

A card's id is ``skill:<skill id>`` or ``concept:<question id>``; numeric skills come back with
fresh numbers each time, so the card tracks the skill, not one scenario. The stored state is
the library's own ``Card.to_dict()`` plus a few counters of ours (the difficulty level the skill
is drilled at, and how often it was answered correctly when due). Every time is UTC: a change
of time zone or a clock set back cannot corrupt a schedule.

fsrs is imported on the first review, never by planning (which reads ``due_utc`` in SQL).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta, timezone, tzinfo
from functools import lru_cache

from drill.learning.srs.rating import AGAIN, GOOD, HARD
from drill.store.review_state import fsrs_problem
from drill.store.timeutil import parse_utc, utc_iso

LEVEL_UP_AFTER = 3  # successes in a row at a skill's level raise it
LEVEL_DOWN_AFTER = 2  # misses in a row at a skill's level lower it
MIN_LEVEL, MAX_LEVEL = 1, 3
MAX_INTERVAL_DAYS = 365
DESIRED_RETENTION = 0.9


def card_id(kind: str, ident: str) -> str:
    return f"{kind}:{ident}"


def split_card_id(cid: str) -> tuple[str, str]:
    kind, _, ident = cid.partition(":")
    return kind, ident


def make_scheduler(fuzz: bool = True):
    """The scheduler for a once-a-day trainer: no minute-long learning steps (the session's own
    retry plays that part), intervals in days, at most a year."""
    import fsrs  # ~10 ms; only reviews need it

    return fsrs.Scheduler(
        desired_retention=DESIRED_RETENTION,
        learning_steps=(),
        relearning_steps=(),
        maximum_interval=MAX_INTERVAL_DAYS,
        enable_fuzzing=fuzz,
    )


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
        return {
            "fsrs": self.fsrs,
            "level": self.level,
            "run": self.run,
            "reviews": self.reviews,
            "lapses": self.lapses,
            "due_reviews": self.due_reviews,
            "due_correct": self.due_correct,
        }

    @classmethod
    def from_json(cls, data: object) -> CardState:
        """A stored state; anything unreadable starts the card afresh rather than failing."""
        if not isinstance(data, dict):
            return cls()
        card = data.get("fsrs")
        try:
            state = cls(
                card if isinstance(card, dict) else None,
                _int(data.get("level")),
                int(data.get("run") or 0),
                int(data.get("reviews") or 0),
                int(data.get("lapses") or 0),
                int(data.get("due_reviews") or 0),
                int(data.get("due_correct") or 0),
            )
        except (TypeError, ValueError):
            return cls()
        if state.fsrs is not None and fsrs_problem(state.fsrs) is not None:
            state.fsrs = None  # a state the scheduler cannot use: the card starts afresh
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


def advance(
    state: CardState,
    rating: int,
    when: datetime,
    seconds: float = 0.0,
    correct: bool = False,
    shown_level: int | None = None,
    scheduler=None,
    zone: tzinfo | None = None,
) -> CardState:
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
    card, _ = scheduler.review_card(
        card,
        fsrs.Rating(rating),
        review_datetime=when,
        review_duration=max(0, int(round(seconds * 1000))),
    )
    new = CardState(
        card.to_dict(),
        state.level,
        state.run,
        state.reviews + 1,
        state.lapses + (rating == AGAIN),
        state.due_reviews,
        state.due_correct,
    )
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
