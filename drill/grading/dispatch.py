"""Grade an answer to any question on screen: a scenario's ask or a conceptual question."""

from __future__ import annotations

from dataclasses import dataclass

from drill.errors import AnswerError
from drill.grading.choices import Presentation, grade_choice
from drill.grading.numbers import Grade, grade
from drill.grading.rubric import grade_free

ALSO_WORTH = {"en": "also worth saying: ", "zh": "还值得一提："}


@dataclass(frozen=True)
class Feedback:
    """Rubric points as labels in the user's language: found, missed (required), and the
    optional ones not said ("also worth saying", never counted against the score)."""

    found: tuple[str, ...] = ()
    missed: tuple[str, ...] = ()
    also: tuple[str, ...] = ()


def _label(point, lang: str) -> str:
    return point.label.get(lang) or point.label["en"]


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
        )
        return Grade(round(rubric.score, 4), rubric.score >= 0.999, parsed=text), feedback
    choice = grade_choice(q, text, shown)
    return Grade(
        round(choice.score, 4), choice.score >= 0.999, parsed=tuple(choice.selected)
    ), Feedback()


def grade_question(
    question, text: str, lang: str, shown: Presentation | None = None
) -> tuple[Grade, tuple[str, ...], tuple[str, ...]]:
    """The grade, and for free answers the points covered and missed (as labels); optional
    points not said follow the missed ones, marked "also worth saying"."""
    if not question.is_concept:
        return grade(question.ask, text), (), ()
    result, feedback = grade_concept(question.concept, text, lang, shown)
    prefix = ALSO_WORTH.get(lang, ALSO_WORTH["en"])
    return result, feedback.found, feedback.missed + tuple(prefix + a for a in feedback.also)
