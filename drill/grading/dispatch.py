"""Grade an answer to any question on screen: a scenario's ask or a conceptual question."""

from __future__ import annotations

from dataclasses import dataclass

from drill.errors import AnswerError
from drill.grading.choices import Presentation, grade_choice
from drill.grading.numbers import Grade
from drill.grading.rubric import PointMark, RubricResult, grade_free


@dataclass(frozen=True)
class Feedback:
    """Rubric points as labels in the user's language: found, missed (required), and the
    optional ones not said ("also worth saying", never counted against the score); and every
    point with the grader's mark, in rubric order, for the user to confirm or flip."""

    found: tuple[str, ...] = ()
    missed: tuple[str, ...] = ()
    also: tuple[str, ...] = ()
    points: tuple[PointMark, ...] = ()


def _label(point, lang: str) -> str:
    return point.label.get(lang) or point.label["en"]


def point_marks(rubric: RubricResult, q) -> tuple[PointMark, ...]:
    return tuple(
        PointMark(
            label=dict(p.label),
            required=not p.optional,
            said=p in rubric.hit,
            denied=p in rubric.denied,
            key=p.key,
        )
        for p in q.rubric
    )


def grade_concept(
    q, text: str, lang: str, shown: Presentation | None = None
) -> tuple[Grade, Feedback]:
    """Grade a bank question; ``shown`` is the option order the learner saw (choice/multi)."""
    if q.type == "free":
        if not text.strip():
            raise AnswerError("type your answer in a sentence or two", "请用一两句话写下你的答案")
        rubric = grade_free(q, text)
        feedback = Feedback(
            tuple(_label(p, lang) for p in rubric.hit),
            tuple(_label(p, lang) for p in rubric.missed),
            tuple(_label(p, lang) for p in rubric.also),
            point_marks(rubric, q),
        )
        return Grade(round(rubric.score, 4), rubric.score >= 0.999, parsed=text), feedback
    choice = grade_choice(q, text, shown)
    return Grade(
        round(choice.score, 4), choice.score >= 0.999, parsed=tuple(choice.selected)
    ), Feedback()
