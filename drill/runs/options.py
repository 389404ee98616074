"""What a run is asked for, typed: the CLI's flags and the app's choices build these, and the
factory (drill.runs.factory) reads them. ``None`` means "as the settings or the plan say".

Light on purpose: ``drill start`` builds its options before the app is imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True, kw_only=True)
class PracticeOptions:
    """A practice session: ``drill start``'s flags, the home screen's practice, "again"."""

    count: int | None = None
    seed: int | None = None
    skills: tuple[str, ...] = ()
    questions: tuple[str, ...] = ()
    difficulty: int | None = None
    gpu: str | None = None
    topic: str | None = None  # "numeric", "concepts" or "mixed"
    mode: str | None = None  # a planner mode; None: smart, or seeded when items or a seed are named


@dataclass(frozen=True, kw_only=True)
class MockOptions:
    """A mock interview: ``drill mock``'s flags or the home screen's mock setup."""

    minutes: float = 30.0
    gpu: str | None = None
    seed: int | None = None
    feedback: str = "end"  # "end" as in a real interview, or "each"
    case: str = "kernel"  # "kernel", "serving" or "random"
    report: str | None = None  # a Markdown report written at the end
    force: bool = False  # the report may replace an existing file


@dataclass(frozen=True, kw_only=True)
class PlacementOptions:
    seed: int | None = None
    restart: bool = False  # place every group again, not only those a run left early missed


@dataclass(frozen=True, kw_only=True)
class DailyOptions:
    day: date | None = None  # None: today (UTC)


RunOptions = PlacementOptions | DailyOptions
