"""Turns each graded result into its card's new row, for the same commit as the attempt."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, tzinfo

from drill.learning.srs.card import CardState, advance, card_id, due_utc_of
from drill.learning.srs.queries import load_state, median_seconds
from drill.learning.srs.rating import with_speed

ReviewRow = tuple[str, str, dict, str]  # card_id, kind, state, due_utc


@dataclass
class _Pending:
    """One scenario's card before its first part was answered, and the parts so far."""

    before: CardState
    when: datetime
    parts: dict[int, tuple[int, float, bool]] = field(default_factory=dict)
    medians: dict[int, float | None] = field(default_factory=dict)


class Reviewer:
    """Turns each graded result into its card's new row, for the same commit as the attempt.

    The parts of one multi-part scenario (one ``question.group``) are one review: each part
    re-applies the review to the card as it was before the scenario, with the worst rating so
    far and the time summed, so quitting half-way still counts what was answered. An updated
    result (a self-mark) re-applies it the same way. A result that was never on screen (a mock
    interview that ran out of time) leaves its card alone.
    """

    def __init__(self, history, scheduler=None, zone: tzinfo | None = None) -> None:
        self.history = history
        self.scheduler = scheduler
        self.zone = zone
        self._pending: dict[tuple[str, str], _Pending] = {}

    def review(self, result, when: datetime) -> ReviewRow | None:
        """The card's new row for a drill.runs Result, rated by the run (``result.rating``)."""
        question = result.question
        if result.unanswered:
            return None
        item = question.item
        cid = card_id(item.kind, item.id)
        key = (question.group, cid)
        pending = self._pending.get(key)
        if pending is None:
            pending = _Pending(load_state(self.history, cid) or CardState(), when)
            self._pending[key] = pending
        part = question.part
        if part not in pending.medians:
            pending.medians[part] = median_seconds(self.history, item.id, question.ask_key)
        pending.parts[part] = (
            with_speed(result.rating, result.seconds, pending.medians[part]),
            max(0.0, float(result.seconds)),
            result.correct,
        )
        rating = min(r for r, _, _ in pending.parts.values())
        seconds = sum(s for _, s, _ in pending.parts.values())
        correct = all(c for _, _, c in pending.parts.values())
        shown = None
        if item.kind == "skill" and question.scenario is not None:
            shown = question.scenario.difficulty
        state = advance(
            pending.before, rating, pending.when, seconds, correct, shown, self.scheduler, self.zone
        )
        return cid, item.kind, state.to_json(), due_utc_of(state)
