"""What practice and the mock interview share: the clock, the hint ladder, recording results
and telling listeners about them."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from drill.runs.items import Question, Result

if TYPE_CHECKING:
    from drill.grading.numbers import Grade
    from drill.runs.protocol import Event, Listener

# The graders and the events load with the first answer, not on the way to the first question.


class RunBase:
    """The shared half of a run; subclasses say which question is current and what comes next.

    Subclasses set ``mode``, ``lang`` and ``seed`` and implement ``current``, ``_over`` (the
    message when nothing is left) and ``_recorded`` (move on after a result).
    """

    mode = "practice"
    lang: str  # the language questions and hints are shown in, set by each subclass
    OVER = ("the session is over", "本次练习已结束")
    self_marking = False  # whether the user may mark a free answer right themselves
    recorder = None  # the drill.runs.recording.Recorder writing it, set by the factory

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.results: list[Result] = []
        self._listeners: list[Listener] = []
        self._started = clock()
        self._shown_at = self._started
        self._hints: list[str] = []
        self._finished_sent = False

    # -- events -----------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _emit(self, event: Event) -> None:
        for listener in list(self._listeners):
            listener(event)

    # -- time -------------------------------------------------------------------------
    @property
    def elapsed(self) -> float:
        """Seconds since the run started."""
        return self.clock() - self._started

    def tick(self) -> bool:
        """Call regularly; True when the run just ended on its own (a deadline)."""
        return False

    @property
    def current(self) -> Question | None:
        raise NotImplementedError

    @property
    def finished(self) -> bool:
        return self.current is None

    @property
    def retries(self) -> int:
        """Items asked once more because they were missed (practice adds them to its total)."""
        return 0

    @property
    def group_now(self) -> tuple[int, int, str] | None:
        """(1-based group, groups, its name) where a run walks skill groups (placement)."""
        return None

    def group_of(self, question) -> tuple[int, int, str] | None:
        """``group_now`` for the group ``question`` was asked in (its feedback may stay on
        screen after the run moved on to the next group)."""
        return self.group_now

    # -- hints ------------------------------------------------------------------------
    @property
    def hints_used(self) -> int:
        return len(self._hints)

    @property
    def hints_shown(self) -> tuple[str, ...]:
        """The rungs of the current question's ladder shown so far, in order."""
        return tuple(self._hints)

    def _hint_limit(self) -> int | None:
        return None

    @property
    def hints_total(self) -> int:
        """How many rungs the current question's ladder has here (a mode may cap them), so
        "Hint 1/2" counts what there is, never a rung that will not come."""
        question = self.current
        if question is None:
            return 0
        total = len(question.hints(self.lang))
        limit = self._hint_limit()
        return total if limit is None else min(total, limit)

    @property
    def hints_left(self) -> int:
        """Rungs of the current question's ladder not yet shown: F1 is offered while any is."""
        return max(0, self.hints_total - self.hints_used)

    def hint(self) -> str | None:
        """The next rung of the current question's hint ladder, or None when none is left."""
        question = self.current
        if question is None:
            return None
        ladder = question.hints(self.lang)
        limit = self._hint_limit()
        if len(self._hints) >= len(ladder) or (limit is not None and len(self._hints) >= limit):
            return None
        self._hints.append(ladder[len(self._hints)])
        return self._hints[-1]

    # -- answers ----------------------------------------------------------------------
    def _check_open(self) -> Question:
        question = self.current
        if question is None:
            from drill.grading.numbers import AnswerError

            raise AnswerError(*self.OVER)
        return question

    def answer(self, text: str) -> Result:
        """Grade the answer to the current question; AnswerError leaves everything as it was."""
        from drill.grading.numbers import grade, with_hints

        question = self._check_open()
        if question.is_concept:  # the options in the order shown; rubric points by name
            from drill.grading.dispatch import grade_concept  # the rubric grader: not at start-up

            result_grade, feedback = grade_concept(
                question.concept, text, self.lang, question.shown
            )
            points = feedback.points
        else:
            result_grade, points = grade(question.numeric_ask, text), ()
        return self._record(question, text, with_hints(result_grade, len(self._hints)), points)

    def skip(self) -> Result:
        from drill.grading.numbers import Grade

        question = self._check_open()
        return self._record(question, "", Grade(0.0, False, skipped=True))

    def _record(self, question: Question, text: str, result_grade: Grade, points=()) -> Result:
        from drill.runs.protocol import ResultRecorded

        result = Result(
            question,
            text,
            result_grade,
            self.clock() - self._shown_at,
            len(self._hints),
            points=tuple(points),
        )
        self.results.append(result)
        self._recorded(result)
        self._emit(ResultRecorded(result))
        self._next_question()
        return result

    def _recorded(self, result: Result) -> None:
        """Move past ``result``'s question (before listeners hear of it)."""
        raise NotImplementedError

    def question_shown(self) -> None:
        """The current question is on screen now: its answer time counts from here, not from
        the last answer (the user may have read, flipped or marked its feedback first)."""
        self._shown_at = self.clock()

    def _next_question(self) -> None:
        self._shown_at = self.clock()
        self._hints = []

    def _updated(self, result: Result) -> None:
        from drill.runs.protocol import ResultUpdated

        self._emit(ResultUpdated(result))

    def _finished(
        self, ended_early: bool = False, score: float | None = None, marks: dict | None = None
    ) -> None:
        """Tell listeners once that the run is over."""
        if not self._finished_sent:
            from drill.runs.protocol import RunFinished

            self._finished_sent = True
            self._emit(RunFinished(self.mode, ended_early, score, tuple((marks or {}).items())))
