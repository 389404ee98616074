"""What a run shows and records: the item a question asks about, the question, its result.

A question names its item explicitly (``ItemRef``: a numeric skill or a bank question, each
with its own id), so no consumer has to guess which kind an id is.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Literal

from drill.content.skills.model import Ask, Scenario
from drill.grading.numbers import Grade
from drill.learning.srs.rating import AGAIN, is_correct, rating_of

_UIDS = itertools.count(1)


@dataclass(frozen=True)
class ItemRef:
    """What a question drills: a numeric skill (``skill``) or a bank question (``concept``)."""

    kind: Literal["skill", "concept"]
    id: str

    @classmethod
    def skill(cls, ident: str) -> ItemRef:
        return cls("skill", ident)

    @classmethod
    def concept(cls, ident: str) -> ItemRef:
        return cls("concept", ident)

    @property
    def is_skill(self) -> bool:
        return self.kind == "skill"

    def as_tuple(self) -> tuple[str, str]:
        """The planner's and the history's form: (kind, id)."""
        return self.kind, self.id


@dataclass
class Question:
    """What is on screen: one ask of a scenario, or one conceptual question."""

    id: str
    number: int  # 1-based position in the session
    part: int  # 1-based ask within the scenario
    parts: int
    item: ItemRef
    scenario: Scenario | None = None
    ask: Ask | None = None
    concept: object | None = None  # drill.content.bank.model.Question
    group: str = ""  # shared by the parts of one scenario within a run (one review)

    def __post_init__(self) -> None:
        if not self.group:
            self.group = str(self.number)

    @property
    def kind(self) -> str:
        if self.concept is not None:
            return self.concept.type
        return self.ask.kind

    @property
    def is_concept(self) -> bool:
        return self.item.kind == "concept"

    @property
    def ask_key(self) -> str:
        """The ask's key for numeric questions, the question type for bank questions."""
        if self.is_concept:
            return self.kind
        return self.ask.key if self.ask is not None else ""

    def unit(self) -> str:
        if self.ask is not None and self.ask.unit is not None:
            return self.ask.unit.label
        return ""

    def text(self, lang: str) -> str:
        """Prompt as shown: the scenario, the sub-question, the convention."""
        if self.concept is not None:
            lines = [self.concept.prompt.get(lang) or self.concept.prompt["en"]]
            for choice in self.concept.choices:
                lines.append(f"  {choice.id}) {choice.text.get(lang) or choice.text['en']}")
            if self.concept.type == "truefalse":
                lines.append("  (true / false)" if lang != "zh" else "  （对 / 错）")
            return "\n".join(lines)
        parts = [self.scenario.intro(lang)]
        if self.parts > 1:
            parts.append(f"({chr(96 + self.part)}) {self.ask.prompt(lang)}")
        else:
            parts.append(self.ask.prompt(lang))
        if self.scenario.convention(lang):
            parts.append(
                ("约定：" if lang == "zh" else "Convention: ") + self.scenario.convention(lang)
            )
        return "\n".join(parts)

    def prompt(self, lang: str) -> str:
        if self.concept is not None:
            return self.text(lang)
        return self.ask.prompt(lang)

    def hints(self, lang: str) -> tuple[str, ...]:
        if self.ask is not None:
            return self.ask.hints(lang)
        rubric = getattr(self.concept, "rubric", ())
        labels = tuple(p.label.get(lang) or p.label["en"] for p in rubric)
        if labels:
            lead = "Cover: " if lang != "zh" else "要点："
            return tuple(lead + label for label in labels[:3])
        return ()

    def expected_text(self, lang: str) -> str:
        if self.ask is not None:
            return self.ask.expected_text(lang)
        q = self.concept
        if q.type == "truefalse":
            return (
                ("true" if q.correct else "false")
                if lang != "zh"
                else ("对" if q.correct else "错")
            )
        if q.choices:
            return ", ".join(
                f"{c.id}) {c.text.get(lang) or c.text['en']}" for c in q.choices if c.correct
            )
        return q.answer.get(lang) or q.answer["en"]

    def expected_json(self):
        if self.ask is not None:
            return self.ask.expected_json()
        q = self.concept
        if q.type == "truefalse":
            return "true" if q.correct else "false"
        if q.choices:
            return [c.id for c in q.choices if c.correct]
        return q.answer.get("en", "")

    def solution(self, lang: str) -> list[str]:
        """The worked solution, step by step, in the user's language."""
        if self.ask is not None:
            lines = [step.text(lang) for step in self.ask.steps]
            extra = self.ask.explain_zh if lang == "zh" else self.ask.explain_en
            if extra and extra not in " ".join(lines):
                lines.append(extra)
            return lines
        q = self.concept
        lines = [q.answer.get(lang) or q.answer["en"]]
        for choice in q.choices:
            mark = "✓" if choice.correct else "✗"
            lines.append(f"{mark} {choice.id}) {choice.why.get(lang) or choice.why['en']}")
        return lines

    def scenario_json(self) -> dict:
        if self.scenario is not None:
            data = dict(self.scenario.params)
            data.update(
                skill=self.item.id, difficulty=self.scenario.difficulty, seed=self.scenario.seed
            )
            return data
        q = self.concept
        return {
            "question": q.id,
            "topic": q.topic,
            "difficulty": q.difficulty,
            "skills": list(q.skills),
        }

    def choices_json(self, lang: str) -> list[dict]:
        if self.ask is not None:
            return [
                {"id": o.id, "value": o.value, "text": o.zh if lang == "zh" else o.en}
                for o in self.ask.options
            ]
        if self.concept is not None:
            return [
                {"id": c.id, "text": c.text.get(lang) or c.text["en"]} for c in self.concept.choices
            ]
        return []


@dataclass
class Result:
    """One graded answer. ``uid`` names it for its whole life (a self-mark updates it);
    ``rating`` is computed once by the run that records it."""

    question: Question
    answer: str
    grade: Grade
    seconds: float
    hints_used: int = 0
    hit: tuple[str, ...] = ()  # rubric points covered (free questions)
    missed: tuple[str, ...] = ()
    self_mark: bool | None = None
    unanswered: bool = False  # never on screen: a mock interview's time ran out first
    uid: int = field(default_factory=lambda: next(_UIDS))
    rating: int = 0

    def __post_init__(self) -> None:
        if not self.rating:
            self.rating = rating_of(self)

    @property
    def score(self) -> float:
        return self.grade.score

    @property
    def correct(self) -> bool:
        """Right by the grader, or by the user's own mark on a free answer."""
        return is_correct(self)

    @property
    def needs_retry(self) -> bool:
        """Rated Again: a smart session shows the item once more, later."""
        return self.rating == AGAIN

    @property
    def can_self_mark(self) -> bool:
        """A free answer the rubric did not accept may be marked right by its author."""
        return (
            self.question.is_concept
            and self.question.kind == "free"
            and not self.grade.correct
            and not self.grade.skipped
        )

    def mark(self, right: bool) -> None:
        """The user's own verdict on a free answer; the rating follows it."""
        self.self_mark = right
        self.rating = rating_of(self)

    def verdict(self) -> str:
        if self.unanswered:
            return "unanswered"
        if self.grade.skipped:
            return "skipped"
        if self.grade.correct:
            return "correct"
        return "partial" if self.grade.score > 0 else "wrong"


@dataclass
class Summary:
    questions: int
    answered: int
    skipped: int
    correct: int
    score: float  # sum of scores
    seconds: float
    per_item: dict[ItemRef, tuple[int, float]] = field(default_factory=dict)  # n, score sum
    mistakes: dict[str, int] = field(default_factory=dict)

    @property
    def accuracy(self) -> float:
        return self.score / self.questions if self.questions else 0.0

    @property
    def per_skill(self) -> dict[str, tuple[int, float]]:
        """Per item id (skills and bank questions), as the JSON summary has always keyed it."""
        return {item.id: value for item, value in self.per_item.items()}

    @property
    def missed_skills(self) -> list[str]:
        """Numeric skills not answered fully right: what "practise again" offers."""
        return sorted(
            item.id for item, (n, score) in self.per_item.items() if item.is_skill and score < n
        )

    def to_json(self) -> dict:
        return {
            "type": "summary",
            "questions": self.questions,
            "answered": self.answered,
            "skipped": self.skipped,
            "correct": self.correct,
            "score": round(self.score, 4),
            "accuracy": round(self.accuracy, 4),
            "seconds": round(self.seconds, 3),
            "per_skill": {
                k: {"questions": n, "score": round(s, 4)} for k, (n, s) in self.per_skill.items()
            },
            "mistakes": self.mistakes,
            "missed_skills": self.missed_skills,
        }


def summarize(results: list[Result], seconds: float) -> Summary:
    per_item: dict[ItemRef, list[float]] = {}
    mistakes: dict[str, int] = {}
    for r in results:
        per_item.setdefault(r.question.item, []).append(r.score)
        for tag in r.grade.mistakes:
            mistakes[tag] = mistakes.get(tag, 0) + 1
    return Summary(
        questions=len(results),
        answered=sum(1 for r in results if not r.grade.skipped),
        skipped=sum(1 for r in results if r.grade.skipped),
        correct=sum(1 for r in results if r.grade.correct),
        score=sum(r.score for r in results),
        seconds=seconds,
        per_item={k: (len(v), sum(v)) for k, v in per_item.items()},
        mistakes=mistakes,
    )
