"""Spaced repetition on top of fsrs: one review card per numeric skill and per question.

Split by job: ``rating`` (how an answer rates), ``card`` (a card's state and one review),
``queries`` (reading cards and times from the history) and ``reviewer`` (results to rows).
"""

from drill.learning.srs.card import (
    DESIRED_RETENTION,
    LEVEL_DOWN_AFTER,
    LEVEL_UP_AFTER,
    MAX_INTERVAL_DAYS,
    MAX_LEVEL,
    MIN_LEVEL,
    CardState,
    advance,
    card_id,
    default_scheduler,
    due_utc_of,
    end_of_day,
    make_scheduler,
    split_card_id,
)
from drill.learning.srs.queries import (
    MIN_TIMED,
    TIMED_WINDOW,
    due_today,
    forecast,
    load_state,
    median_seconds,
    retention,
)
from drill.learning.srs.rating import (
    AGAIN,
    EASY,
    FAST_FACTOR,
    GOOD,
    HARD,
    RATING_RULE,
    SLOW_FACTOR,
    is_correct,
    rate,
    rating_of,
    with_speed,
)
from drill.learning.srs.reviewer import Reviewer, ReviewRow

__all__ = [
    "AGAIN", "DESIRED_RETENTION", "EASY", "FAST_FACTOR", "GOOD", "HARD", "LEVEL_DOWN_AFTER",
    "LEVEL_UP_AFTER", "MAX_INTERVAL_DAYS", "MAX_LEVEL", "MIN_LEVEL", "MIN_TIMED", "RATING_RULE",
    "SLOW_FACTOR", "TIMED_WINDOW", "CardState", "ReviewRow", "Reviewer", "advance", "card_id",
    "default_scheduler", "due_today", "due_utc_of", "end_of_day", "forecast", "is_correct",
    "load_state", "make_scheduler", "median_seconds", "rate", "rating_of", "retention",
    "split_card_id", "with_speed",
]
