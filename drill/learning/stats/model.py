"""What ``drill stats`` reports: overview, trend, skills, mistakes, reviews, as plain data."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

RECENT_DAYS = 30  # mistakes: the last 30 days against everything before
RECENT_ATTEMPTS = 10  # skills: accuracy over the last 10 attempts
DAILY_TREND_DAYS = 60  # longer spans are charted per week
CALENDAR_DAYS = 365
FORECAST_DAYS = 14


@dataclass
class ReviewStats:
    """The spaced-repetition side: cards, what falls due, and recall when due."""

    cards: int = 0
    due_today: int = 0  # overdue included
    forecast: list[tuple[date, int]] = field(default_factory=list)  # today first
    due_reviews: int = 0  # reviews made when the card was due
    due_correct: int = 0

    @property
    def retention(self) -> float | None:
        return self.due_correct / self.due_reviews if self.due_reviews else None


@dataclass
class Overview:
    sessions: int = 0
    attempts: int = 0
    answered: int = 0
    skipped: int = 0
    correct: int = 0
    accuracy: float = 0.0  # mean score, skips counting as 0 (as the session summary does)
    median_seconds: float | None = None  # over answered questions
    current_streak: int = 0
    longest_streak: int = 0
    days_last_365: int = 0
    first_day: date | None = None
    last_day: date | None = None


@dataclass
class Period:
    start: date  # the day, or the Monday of the week
    attempts: int
    accuracy: float
    median_seconds: float | None


@dataclass
class MockScore:
    session: str
    day: date
    questions: int
    score: float

    @property
    def accuracy(self) -> float:
        return self.score / self.questions if self.questions else 0.0


@dataclass
class SkillStats:
    id: str
    kind: str  # "skill" or "concept"
    attempts: int
    accuracy: float
    recent_accuracy: float
    median_seconds: float | None
    last_practised: date
    due_reviews: int = 0  # reviews when due (drill.learning.srs)
    retention: float | None = None  # share of those answered correctly


@dataclass
class MistakeStats:
    tag: str  # a mistake tag, or the key of an ambiguous event: "dtype-bytes|fma-factor"
    count: int
    recent: int
    earlier: int
    recent_rate: float | None  # share of attempts in the recent window
    earlier_rate: float | None

    @property
    def one_of(self) -> list[str]:
        """The candidate tags of an ambiguous mistake event (empty for a single tag)."""
        tags = self.tag.split("|")
        return tags if len(tags) > 1 else []

    @property
    def trend(self) -> str | None:
        """fading / growing / steady / gone / new; None when one window has no attempts."""
        if self.recent_rate is None or self.earlier_rate is None:
            return None
        if self.earlier == 0:
            return "new"
        if self.recent == 0:
            return "gone"
        if self.recent_rate < self.earlier_rate * 0.67:
            return "fading"
        if self.recent_rate > self.earlier_rate * 1.5:
            return "growing"
        return "steady"


@dataclass
class Stats:
    today: date
    zone: str
    since: date | None = None
    skill: str | None = None
    overview: Overview = field(default_factory=Overview)
    period: str = "day"
    trend: list[Period] = field(default_factory=list)
    mock: list[MockScore] = field(default_factory=list)
    skills: list[SkillStats] = field(default_factory=list)
    mistakes: list[MistakeStats] = field(default_factory=list)
    calendar: dict[date, int] = field(default_factory=dict)  # days with attempts, last year
    recent_days: int = RECENT_DAYS
    review: ReviewStats = field(default_factory=ReviewStats)

    @property
    def calendar_start(self) -> date:
        return self.today - timedelta(days=CALENDAR_DAYS - 1)

    def to_json(self) -> dict:
        o = self.overview
        return {
            "filter": {"since": _iso(self.since), "skill": self.skill},
            "timezone": self.zone,
            "today": self.today.isoformat(),
            "overview": {
                "sessions": o.sessions,
                "attempts": o.attempts,
                "answered": o.answered,
                "skipped": o.skipped,
                "correct": o.correct,
                "accuracy": _r(o.accuracy),
                "median_seconds": _r(o.median_seconds, 3),
                "current_streak": o.current_streak,
                "longest_streak": o.longest_streak,
                "days_last_365": o.days_last_365,
                "first_day": _iso(o.first_day),
                "last_day": _iso(o.last_day),
                "review": {
                    "cards": self.review.cards,
                    "due_today": self.review.due_today,
                    "due_reviews": self.review.due_reviews,
                    "due_correct": self.review.due_correct,
                    "retention": _r(self.review.retention),
                    "forecast": [{"day": d.isoformat(), "due": n} for d, n in self.review.forecast],
                },
            },
            "trend": {
                "period": self.period,
                "points": [
                    {
                        "start": p.start.isoformat(),
                        "attempts": p.attempts,
                        "accuracy": _r(p.accuracy),
                        "median_seconds": _r(p.median_seconds, 3),
                    }
                    for p in self.trend
                ],
            },
            "mock": [
                {
                    "session": m.session,
                    "day": m.day.isoformat(),
                    "questions": m.questions,
                    "score": _r(m.score),
                    "accuracy": _r(m.accuracy),
                }
                for m in self.mock
            ],
            "skills": [
                {
                    "id": s.id,
                    "kind": s.kind,
                    "attempts": s.attempts,
                    "accuracy": _r(s.accuracy),
                    "recent_accuracy": _r(s.recent_accuracy),
                    "median_seconds": _r(s.median_seconds, 3),
                    "last_practised": s.last_practised.isoformat(),
                    "due_reviews": s.due_reviews,
                    "retention": _r(s.retention),
                }
                for s in self.skills
            ],
            "mistakes": {
                "recent_days": self.recent_days,
                "tags": [
                    {
                        "tag": m.tag,
                        "count": m.count,
                        "recent": m.recent,
                        "earlier": m.earlier,
                        "recent_rate": _r(m.recent_rate),
                        "earlier_rate": _r(m.earlier_rate),
                        "trend": m.trend,
                        "one_of": m.one_of,
                    }
                    for m in self.mistakes
                ],
            },
            "calendar": {
                "start": self.calendar_start.isoformat(),
                "end": self.today.isoformat(),
                "days": {d.isoformat(): n for d, n in sorted(self.calendar.items())},
            },
        }


def _r(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def _iso(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


def calendar_weeks(stats: Stats) -> list[list[tuple[date, int] | None]]:
    """The last year as Monday-first weeks of (day, attempts); None outside the year."""
    start = stats.calendar_start
    monday = start - timedelta(days=start.weekday())
    weeks = []
    while monday <= stats.today:
        week = []
        for i in range(7):
            day = monday + timedelta(days=i)
            inside = start <= day <= stats.today
            week.append((day, stats.calendar.get(day, 0)) if inside else None)
        weeks.append(week)
        monday += timedelta(days=7)
    return weeks
