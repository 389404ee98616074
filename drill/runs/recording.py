"""Writes a run into the history as it happens: one commit per graded answer.

The recorder follows a run's events (drill.runs.protocol): each ``ResultRecorded`` commits the
attempt and its review card's new state (drill.learning.srs), so the schedule never runs ahead
of or behind the answers; a ``ResultUpdated`` rewrites the attempt of that result's uid;
``RunFinished`` ends the session row and closes the history. A failing write never stops the
run; it is reported once through ``on_error``, and what could not be written stays in memory,
is tried again with every later write and at the end, and is then written to a recovery file
in the export format (``drill history import FILE`` reads it back).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from drill.learning.srs import Reviewer
from drill.store.history import History
from drill.store.records import Attempt, SessionRecord
from drill.store.timeutil import parse_utc, utc_iso

if TYPE_CHECKING:
    from drill.runs.protocol import Event, Listener


def _warn(message: str) -> None:
    print(f"drill: warning: {message}", file=sys.stderr)


_writer: ThreadPoolExecutor | None = None
_writer_lock = threading.Lock()


def _writer_pool() -> ThreadPoolExecutor:
    global _writer
    with _writer_lock:
        if _writer is None:
            _writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="history")
        return _writer


def in_background(listener: Listener) -> Listener:
    """``listener`` run on one history thread, in order, off the caller's (UI) thread."""

    def submit(event: Event) -> None:
        _writer_pool().submit(listener, event)

    return submit


def flush() -> None:
    """Wait until every event handed to the history thread is written."""
    with _writer_lock:
        pool = _writer
    if pool is not None:
        pool.submit(lambda: None).result()


def attempt_of(result, answered_utc: str) -> Attempt:
    """The stored form of a drill.runs.practice.Result: the score that counts (the user's
    self-mark applied) and, for a free answer, the rubric's own score beside it."""
    from drill.runs.summary import mistake_key  # with the first answer, not at start-up

    question = result.question
    grade = result.grade
    key = mistake_key(result)
    return Attempt(
        item_kind=question.item.kind,
        skill=question.item.id,  # the column holds a skill id or a bank question's id
        score=float(result.score),
        correct=bool(result.correct),
        seconds=max(0.0, float(result.seconds)),
        answered_utc=answered_utc,
        question=question.id,
        ask=question.ask_key,
        kind=question.kind,
        scenario=question.scenario_json(),
        answer=result.answer,
        parsed=(
            {"rubric_score": grade.score, "points": point_rows(result)}
            if question.kind == "free" and not grade.skipped
            else grade.parsed
        ),
        expected=question.expected_json(),
        skipped=bool(grade.skipped),
        relative_error=grade.relative_error,
        self_mark=result.self_mark,
        mistakes=() if key is None else (key,),  # one event, counted once
        hints_used=int(result.hints_used),
    )


def point_rows(result) -> list[dict]:
    """Each rubric point as stored: its labels, whether it is required (or key), the grader's
    mark, whether the answer said it the other way round, and the user's own mark where they
    flipped it (None otherwise; a whole-answer right / wrong is the attempt's self_mark)."""
    return [
        {
            "label": dict(p.label),
            "required": p.required,
            "key": p.key,
            "grader": p.said,
            "denied": p.denied,
            "user": result.flips.get(k),
        }
        for k, p in enumerate(result.points)
    ]


class Recorder:
    """Subscribe ``handle`` to a run (drill.runs.factory does); the run's end closes it.

    The session row is written with the first answer, so a run quit before any answer leaves
    nothing behind. ``unsaved`` counts the results not in the history; after the end,
    ``recovery`` is the file they were written to instead (None if none was needed or it
    could not be written either).
    """

    def __init__(
        self,
        history: History,
        mode: str,
        config,
        seed: int | None,
        app_version: str,
        clock: Callable[[], datetime] | None = None,
        on_error: Callable[[str], None] = _warn,
        scheduler=None,
        zone=None,
    ) -> None:
        self.history = history
        self.mode = mode
        self.config = config
        self.seed = seed
        self.app_version = app_version
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.on_error = on_error
        self.started_utc = utc_iso(self.clock())
        self.session_id: int | None = None
        self.session = SessionRecord(
            mode, self.started_utc, seed=seed, settings=self._settings(), app_version=app_version
        )
        self._rows: dict[int, tuple[int, Attempt]] = {}  # result uid -> row id, attempt
        # result uid -> (its latest state, when it was answered): not in the history yet
        self._pending: dict[int, tuple[object, datetime]] = {}
        self.reviewer = Reviewer(history, scheduler, zone)
        self.recovery: Path | None = None
        self._warned = bool(getattr(history, "read_only", False))  # the factory said so
        self._refused = False  # the file is damaged: write nothing
        self._closed = False

    @property
    def unsaved(self) -> int:
        """Results (answers, skips, unanswered items) not in the history (yet)."""
        return len(self._pending)

    def _settings(self) -> dict:
        try:
            return {k: v for k, v in asdict(self.config).items() if v is not None}
        except TypeError:
            return dict(vars(self.config))

    def handle(self, event: Event) -> None:
        """One event of the run this recorder follows."""
        from drill.runs.protocol import ResultRecorded, ResultUpdated, RunFinished

        if isinstance(event, RunFinished):
            marks: dict = {"ended_early": True} if event.ended_early else {}
            if event.score is not None:
                marks["score"] = event.score
            marks.update(event.marks)
            if marks:
                self._mark(marks)
            self.close()
        elif isinstance(event, ResultUpdated):
            self._update(event.result)
        elif isinstance(event, ResultRecorded):
            self._insert(event.result)

    def _writable(self) -> bool:
        """Start the session row with the first answer; False when nothing may be written."""
        if self._closed or self._refused:
            return False
        if self.session_id is None:
            problems = self.history.quick_check()
            if problems:
                self._refused = True
                self.on_error(
                    f"{self.history.path} is damaged ({problems[0]}); answers will "
                    "not be saved and the file was left untouched (run drill "
                    "history check)"
                )
                return False
            self.session_id = self.history.start_session(self.session)
        return True

    def _insert(self, result) -> None:
        if self._closed:
            return
        self._pending[result.uid] = (result, self.clock())
        self._save()

    def _update(self, result) -> None:
        if self._closed:
            return
        if result.uid in self._pending:  # not written yet: write its latest state
            self._pending[result.uid] = (result, self._pending[result.uid][1])
        elif result.uid in self._rows:
            answered = parse_utc(self._rows[result.uid][1].answered_utc)
            self._pending[result.uid] = (result, answered)
        else:
            return
        self._save()

    def _save(self) -> None:
        """Write every pending result, oldest first; stop at the first failure (the rest
        waits for the next write or the end)."""
        try:
            if not self._pending or not self._writable():
                return
            for uid, (result, when) in list(self._pending.items()):
                self._write(result, when)
                del self._pending[uid]
        except (sqlite3.Error, OSError) as exc:
            self._rollback()
            self._fail(exc)

    def _write(self, result, when: datetime) -> None:
        known = self._rows.get(result.uid)
        if known is None:
            if self.session_id is None:  # _save writes only after _writable started the row
                raise ValueError("an answer is written only after its session's row")
            attempt = attempt_of(result, utc_iso(when))
            row = self.history.add_attempt(self.session_id, attempt, self._review(result, when))
        else:
            row, before = known
            attempt = replace(attempt_of(result, before.answered_utc), uuid=before.uuid)
            self.history.update_attempt(row, attempt, self._review(result, when))
        self._rows[result.uid] = (row, attempt)

    def _rollback(self) -> None:
        """A failed COMMIT (a full disk) can leave the transaction open: end it, so the next
        try starts clean."""
        with contextlib.suppress(sqlite3.Error, AttributeError):
            if self.history.conn.in_transaction:
                self.history.conn.execute("ROLLBACK")

    def _review(self, result, when: datetime):
        """The card's new row; a card that cannot be scheduled never costs the answer."""
        try:
            return self.reviewer.review(result, when)
        except (sqlite3.Error, OSError):
            raise  # the history's own failure: the answer stays pending (see _save)
        except Exception as exc:  # noqa: BLE001 - whatever the scheduler raises, the answer stays
            self._fail(exc, "update the review schedule in")
            return None

    def _fail(self, exc: Exception, what: str = "save an answer to") -> None:
        if not self._warned:
            self._warned = True
            self.on_error(
                f"could not {what} {self.history.path} ({exc}); answers are kept and tried again"
            )

    def _mark(self, marks: dict) -> None:
        """What the session row keeps of its end: a mock's score (its questions never shown
        count 0 but are no attempts) and whether it was left early (the trend leaves it out)."""
        if self.session_id is None or self._closed or self._refused:
            return
        try:
            self.history.mark_session(self.session_id, marks)
        except (sqlite3.Error, OSError) as exc:
            self._fail(exc, "mark the end of")

    def close(self) -> None:
        """Try the unsaved results once more, mark the session's end and close the database
        (a refused one too); what is still unsaved goes to a recovery file. Safe to call
        twice."""
        if self._closed:
            return
        try:
            self._save()
            if self.session_id is not None:
                self.history.end_session(self.session_id, utc_iso(self.clock()))
        except (sqlite3.Error, OSError) as exc:
            self._rollback()
            self._fail(exc)
        finally:
            self._closed = True
            self.history.close()
        if self._pending:
            self._recover()

    # -- recovery ---------------------------------------------------------------------------
    def _recover(self) -> None:
        """Write the unsaved results as an export file: one session (the same uuid as the one
        in the history, if that was started), read back by ``drill history import``."""
        from drill.store.transfer import to_json

        attempts = []
        for uid, (result, when) in self._pending.items():
            known = self._rows.get(uid)
            attempt = attempt_of(result, utc_iso(when))
            if known is not None:
                attempt = replace(attempt, uuid=known[1].uuid)
            attempts.append(attempt)
        session = replace(self.session, ended_utc=utc_iso(self.clock()), attempts=attempts)
        text = to_json([session], [])
        name = f"unsaved-{self.started_utc.replace(':', '')}-{session.uuid[:8]}.json"
        errors = []
        for folder in _recovery_folders(self.history.path):
            target = folder / name
            created = False
            try:
                folder.mkdir(parents=True, exist_ok=True, mode=0o700)
                # only the user may read their answers; never over another file
                fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                created = True
                with open(fd, "w", encoding="utf-8") as out:
                    out.write(text)
                    out.flush()
                    os.fsync(out.fileno())
            except OSError as exc:
                errors.append(f"{folder}: {exc.strerror or exc}")
                if created:  # a half-written file would only mislead
                    with contextlib.suppress(OSError):
                        target.unlink()
                continue
            self.recovery = target
            self.on_error(
                f"{self.unsaved} result(s) could not be saved to {self.history.path}; they "
                f"are kept in {target} (run drill history import {target} once the history "
                "can be written again)"
            )
            return
        self.on_error(
            f"{self.unsaved} result(s) could not be saved to {self.history.path}, nor to a "
            f"recovery file ({'; '.join(errors)})"
        )


def _recovery_folders(database: Path) -> list[Path]:
    """Where a recovery file may go, most private first: beside the history, the user's
    cache folder, and the shared temp folder only when neither can be written."""
    from drill.config import paths

    folders = [database.parent / "recovery", paths.cache_dir() / "recovery"]
    folders.append(Path(tempfile.gettempdir()) / f"roofline-drill-{os.getuid()}")
    return list(dict.fromkeys(folders))


def saving_of(run) -> tuple[int, Path | None]:
    """(results not saved, their recovery file) for a run's summary; (0, None) when the run
    has no recorder or everything was saved."""
    recorder = getattr(run, "recorder", None)
    if recorder is None:
        return 0, None
    return recorder.unsaved, recorder.recovery
