"""Grade an answer to any question on screen: a scenario's ask or a conceptual question."""

from __future__ import annotations

from drill.grading.numbers import AnswerError, Grade, grade


def grade_question(question, text: str, lang: str) -> tuple[Grade, tuple[str, ...],
                                                               tuple[str, ...]]:
    """The grade, and for free answers the rubric points covered and missed (as labels)."""
    if not question.is_concept:
        return grade(question.ask, text), (), ()
    from drill.content import bank

    q = question.concept
    if q.type == "free":
        if not text.strip():
            raise AnswerError("type your answer in a sentence or two", "请用一两句话写下你的答案")
        rubric = bank.grade_free(q, text)
        hit = tuple(p.label.get(lang) or p.label["en"] for p in rubric.hit)
        missed = tuple(p.label.get(lang) or p.label["en"] for p in rubric.missed)
        return Grade(round(rubric.score, 4), rubric.score >= 0.999, parsed=text), hit, missed
    try:
        choice = bank.grade_choice(q, text)
    except bank.AnswerError as exc:
        raise AnswerError(str(exc), getattr(exc, "zh", str(exc))) from None
    return Grade(round(choice.score, 4), choice.score >= 0.999,
                 parsed=tuple(choice.selected)), (), ()
