"""A free answer's rubric points as marked, by the grader and by the user, and the score
those marks make. Light on purpose: the runs and the screens use it without the grader."""

from __future__ import annotations

from dataclasses import dataclass

LIST_CAP = 0.25  # the most a bare list of words can score
DENIED_CAP = 0.25  # the most an answer that reverses a required point can score
KEY_CAP = 0.4  # the most an answer without a key point (the conclusion asked for) can score


@dataclass(frozen=True)
class PointMark:
    """One rubric point as graded: its label per language, and the grader's mark."""

    label: dict[str, str]
    required: bool
    said: bool  # the grader found it
    denied: bool = False  # the answer says it the other way round
    key: bool = False  # the conclusion the prompt asks for

    def text(self, lang: str) -> str:
        return self.label.get(lang) or self.label.get("en", "")


def cap_of(points, marks: list[bool]) -> tuple[float, str, list[int]] | None:
    """``(cap, why, point numbers)`` that holds for these marks: a required point still
    denied ("denied"), else a key point still missing ("key"); None when no cap holds."""
    required = [(k, p) for k, p in enumerate(points) if p.required and not marks[k]]
    denied = [k + 1 for k, p in required if p.denied]
    if denied:
        return DENIED_CAP, "denied", denied
    missing = [k + 1 for k, p in required if p.key]
    return (KEY_CAP, "key", missing) if missing else None


def score_marks(points, marks: list[bool]) -> float:
    """The score of an answer whose points are marked ``marks`` (the grader's, with the user's
    flips): the share of required points said, under the cap that holds (cap_of)."""
    required = [k for k, p in enumerate(points) if p.required]
    if not required:
        return 1.0
    score = sum(marks[k] for k in required) / len(required)
    cap = cap_of(points, marks)
    return round(min(score, cap[0]) if cap else score, 4)


def labels(points, marks: list[bool], lang: str) -> tuple[tuple[str, ...], ...]:
    """``(said, required not said, optional not said)``: the labels of ``points`` as marked."""
    pairs = list(zip(points, marks, strict=True))
    return (
        tuple(p.text(lang) for p, mark in pairs if mark),
        tuple(p.text(lang) for p, mark in pairs if p.required and not mark),
        tuple(p.text(lang) for p, mark in pairs if not p.required and not mark),
    )
