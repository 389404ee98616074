"""What a review card's stored scheduler state must hold before the scheduler may use it.

fsrs's ``Card.from_dict`` accepts a negative stability or a NaN difficulty, and the scheduler
then fails on the first review (a complex power, an assertion). So every state is checked where
it enters (``history import``), where it is read for a review, and by ``history check``; a state
that fails starts its card afresh instead of failing a session.
"""

from __future__ import annotations

import math

from drill.store.timeutil import parse_stored

FSRS_STATES = (1, 2, 3)  # fsrs.State: Learning, Review, Relearning
DIFFICULTY = (1.0, 10.0)  # the range FSRS keeps a difficulty in (fsrs.scheduler)
MAX_STABILITY_DAYS = 1e6  # far past any interval the scheduler gives (it caps them at a year)


def fsrs_problem(card: object) -> str | None:
    """Why the scheduler cannot use ``card`` (an ``fsrs.Card.to_dict()``), or None when it can."""
    if not isinstance(card, dict):
        return "the fsrs state is not an object"
    missing = [k for k in ("card_id", "state", "due") if k not in card]
    if missing:
        return f"the fsrs state lacks {', '.join(missing)}"
    if not _whole(card["card_id"]):
        return "card_id is not a whole number"
    if card["state"] not in FSRS_STATES or isinstance(card["state"], bool):
        return f"state {card['state']!r} is not one of {', '.join(map(str, FSRS_STATES))}"
    step = card.get("step")
    if step is not None and not (_whole(step) and 0 <= step < 100):
        return f"step {step!r} is not a small whole number"
    stability = card.get("stability")
    if stability is not None and not _within(stability, 1e-9, MAX_STABILITY_DAYS):
        return f"stability {stability!r} is not a positive number of days"
    difficulty = card.get("difficulty")
    if difficulty is not None and not _within(difficulty, *DIFFICULTY):
        return f"difficulty {difficulty!r} is not within {DIFFICULTY[0]:g} to {DIFFICULTY[1]:g}"
    if card["state"] != 1 and (stability is None or difficulty is None):
        return "a reviewed card needs a stability and a difficulty"
    for key in ("due", "last_review"):
        value = card.get(key)
        if value is None and key == "last_review":
            continue
        if not isinstance(value, str):
            return f"{key} is not a timestamp"
        try:
            parse_stored(value)
        except ValueError:
            return f"{key} {value[:40]!r} is not a timestamp between 1970 and 2200"
    return None


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _within(value: object, low: float, high: float) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return math.isfinite(value) and low <= value <= high
