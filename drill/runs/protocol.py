"""What every run of questions offers its front ends, and the events it tells its listeners.

A front end drives a ``Run`` (practice or the mock interview) and renders it; the recorder
and anything else that follows a run subscribes to its events instead of being called back
through a slot set from outside.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from drill.runs.items import Question, Result


@dataclass(frozen=True)
class ResultRecorded:
    """A new graded (or skipped, or unanswered) result."""

    result: Result


@dataclass(frozen=True)
class ResultUpdated:
    """A result recorded earlier changed (the user marked a free answer); same ``uid``."""

    result: Result


@dataclass(frozen=True)
class RunFinished:
    """The run is over: no more results will come."""

    mode: str  # "practice" or "mock"
    ended_early: bool = False  # a mock the user left with questions and time left
    score: float | None = None  # a mock's score, its questions never shown counted 0
    marks: tuple[tuple[str, object], ...] = ()  # more the session row keeps of its end


Event = ResultRecorded | ResultUpdated | RunFinished
Listener = Callable[[Event], None]


@runtime_checkable
class Run(Protocol):
    """One run of questions, one way: the current question, answered or skipped in turn."""

    mode: str
    lang: str
    seed: int

    @property
    def current(self) -> Question | None: ...

    @property
    def finished(self) -> bool: ...

    @property
    def elapsed(self) -> float: ...

    def subscribe(self, listener: Listener) -> None: ...

    def hint(self) -> str | None: ...

    def answer(self, text: str) -> Result: ...

    def skip(self) -> Result: ...

    def finish(self) -> None: ...

    def summary(self): ...
