"""Grade an answer to any question on screen: a scenario's ask or a conceptual question."""

from __future__ import annotations

from dataclasses import dataclass

from drill.errors import AnswerError
from drill.grading.choices import Presentation, grade_choice
from drill.grading.marks import PointMark, labels
from drill.grading.numbers import Grade
from drill.grading.rubric import grade_free, point_marks


@dataclass(frozen=True)
class Feedback:
    """Every rubric point with the grader's mark, in rubric order, for the user to confirm or
    flip; ``found``, ``missed`` (required) and ``also`` (optional, not said: never counted)
    are their labels in the user's language."""

    points: tuple[PointMark, ...] = ()
    lang: str = "en"

    def _labels(self) -> tuple[tuple[str, ...], ...]:
        return labels(self.points, [p.said for p in self.points], self.lang)

    @property
    def found(self) -> tuple[str, ...]:
        return self._labels()[0]

    @property
    def missed(self) -> tuple[str, ...]:
        return self._labels()[1]

    @property
    def also(self) -> tuple[str, ...]:
        return self._labels()[2]


def grade_concept(
    q, text: str, lang: str, shown: Presentation | None = None
) -> tuple[Grade, Feedback]:
    """Grade a bank question; ``shown`` is the option order the learner saw (choice/multi)."""
    if q.type == "free":
        if not text.strip():
            raise AnswerError("type your answer in a sentence or two", "请用一两句话写下你的答案")
        rubric = grade_free(q, text)
        feedback = Feedback(point_marks(q.rubric, rubric.hit, rubric.denied), lang)
        return Grade(round(rubric.score, 4), rubric.score >= 0.999, parsed=text), feedback
    choice = grade_choice(q, text, shown)
    return Grade(
        round(choice.score, 4), choice.score >= 0.999, parsed=tuple(choice.selected)
    ), Feedback()
