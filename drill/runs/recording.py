"""Writes a practice session into the history as it happens: one commit per graded answer.

Each commit holds the attempt and its review card's new state (drill.learning.srs), so the schedule
never runs ahead of or behind the answers. A failing write never stops the session; it is
reported once through ``on_error``.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable
from dataclasses import asdict, replace
from datetime import datetime, timezone

from drill.learning.srs import Reviewer
from drill.store.history import Attempt, History, SessionRecord
from drill.store.timeutil import parse_utc, utc_iso


def _warn(message: str) -> None:
    print(f"drill: warning: {message}", file=sys.stderr)


def attempt_of(result, answered_utc: str) -> Attempt:
    """The stored form of a drill.runs.practice.Result."""
    question = result.question
    grade = result.grade
    if question.is_concept:
        ask = question.kind
    else:
        ask = question.ask.key if question.ask is not None else ""
    return Attempt(
        item_kind="concept" if question.is_concept else "skill",
        skill=question.skill,
        score=float(grade.score),
        correct=bool(grade.correct),
        seconds=max(0.0, float(result.seconds)),
        answered_utc=answered_utc,
        question=question.id,
        ask=ask,
        kind=question.kind,
        scenario=question.scenario_json(),
        answer=result.answer,
        parsed=grade.parsed,
        expected=question.expected_json(),
        skipped=bool(grade.skipped),
        relative_error=grade.relative_error,
        self_mark=result.self_mark,
        mistakes=tuple(grade.mistakes),
        hints_used=int(result.hints_used),
    )


class Recorder:
    """Pass ``on_result`` to a Session; call ``close`` when it ends (it closes the history too).

    The session row is written with the first answer, so a session quit before any answer
    leaves nothing behind.
    """

    def __init__(self, history: History, mode: str, config, seed: int | None,
                 app_version: str, clock: Callable[[], datetime] | None = None,
                 on_error: Callable[[str], None] = _warn, scheduler=None,
                 zone=None) -> None:
        self.history = history
        self.mode = mode
        self.config = config
        self.seed = seed
        self.app_version = app_version
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.on_error = on_error
        self.started_utc = utc_iso(self.clock())
        self.session_id: int | None = None
        self.saved = 0
        self._rows: dict[int, tuple[object, int, Attempt]] = {}
        self.reviewer = Reviewer(history, scheduler, zone)
        self._warned = False
        self._closed = False

    @classmethod
    def open(cls, mode: str, config, seed: int | None = None, path=None,
             on_error: Callable[[str], None] = _warn) -> Recorder:
        """A recorder on the user's history; raises drill.store.history.HistoryError if refused."""
        from drill import __version__

        history = History.open(path)
        return cls(history, mode, config, seed if seed is not None else config.seed,
                   __version__, on_error=on_error)

    def _settings(self) -> dict:
        try:
            return {k: v for k, v in asdict(self.config).items() if v is not None}
        except TypeError:
            return dict(vars(self.config))

    def on_result(self, result) -> None:
        """Insert the attempt, or update it when the same result comes again (a self-mark)."""
        if self._closed:
            return
        try:
            if self.session_id is None:
                problems = self.history.quick_check()
                if problems:
                    self._closed = True
                    self.on_error(f"{self.history.path} is damaged ({problems[0]}); answers will "
                                  "not be saved and the file was left untouched (run drill "
                                  "history check)")
                    return
                self.session_id = self.history.start_session(SessionRecord(
                    self.mode, self.started_utc, seed=self.seed, settings=self._settings(),
                    app_version=self.app_version))
            known = self._rows.get(id(result))
            if known is not None and known[0] is result:
                attempt = replace(attempt_of(result, known[2].answered_utc), uuid=known[2].uuid)
                review = self._review(result, parse_utc(attempt.answered_utc))
                self.history.update_attempt(known[1], attempt, review)
                self._rows[id(result)] = (result, known[1], attempt)
                return
            now = self.clock()
            attempt = attempt_of(result, utc_iso(now))
            row = self.history.add_attempt(self.session_id, attempt, self._review(result, now))
            self._rows[id(result)] = (result, row, attempt)
            self.saved += 1
        except (sqlite3.Error, OSError) as exc:
            self._fail(exc)

    def _review(self, result, when: datetime):
        """The card's new row; a card that cannot be scheduled never costs the answer."""
        try:
            return self.reviewer.review(result, when)
        except (ValueError, TypeError, KeyError, ImportError) as exc:
            self._fail(exc, "update the review schedule in")
            return None

    def _fail(self, exc: Exception, what: str = "save an answer to") -> None:
        if not self._warned:
            self._warned = True
            self.on_error(f"could not {what} {self.history.path} ({exc})")

    def close(self) -> None:
        """Mark the session's end and close the database; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        try:
            if self.session_id is not None:
                self.history.end_session(self.session_id, utc_iso(self.clock()))
        except (sqlite3.Error, OSError) as exc:
            self._fail(exc)
        finally:
            self.history.close()
