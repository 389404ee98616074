"""The conceptual question bank's types: questions, choices, rubric points, the bank.

Reading and checking packs lives in ``reader`` and ``load``; grading answers lives in
``drill.grading`` (rubric, choices).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from drill.content.problems import Problem

TOPICS: tuple[str, ...] = (
    "peak-flops",
    "precision",
    "bandwidth",
    "intensity",
    "roofline",
    "reading-roofline",
    "speed-of-light",
    "low-utilization",
    "batch-slower",
    "mixed-precision",
    "bigger-card",
    "directions",
    "pitfalls",
    "system-design",
    "overhead",
    "spot-the-error",
)
LANGS: tuple[str, ...] = ("en", "zh")
QUESTION_TYPES: tuple[str, ...] = ("free", "choice", "multi", "truefalse")
QUICK_REFERENCE = "quick-reference.yaml"


@dataclass(frozen=True)
class RubricPoint:
    """One key point of a free answer: a label per language and the phrases that cover it.

    An optional point is not asked for by the prompt: saying it never changes the score, it
    is only offered as "also worth saying". A ``key`` point is the conclusion the prompt asks
    for: an answer without it scores below half. ``part`` ties the point to a labelled
    sub-question ("(a)"); ``implied_by`` is the number (1 = first) of the result point that
    earns this derivation step when the prompt asks for the result, not the working;
    ``denied_by`` holds phrases of a known wrong form (``bandwidth .. / .. latency``) that deny
    the point, implied or not.
    """

    label: dict[str, str]
    phrases: dict[str, tuple[str, ...]]
    optional: bool = False
    part: str = ""
    implied_by: int = 0
    key: bool = False
    denied_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Choice:
    """One option of a choice/multi question, with the explanation shown after grading."""

    id: str
    correct: bool
    text: dict[str, str]
    why: dict[str, str]


@dataclass(frozen=True)
class Computed:
    """One engine placeholder (drill.content.bank.calc): its source text, its value in base
    units and how it was shown."""

    source: str
    value: float
    dim: str
    text: str


@dataclass(frozen=True)
class Question:
    """A validated question; prompt/answer (and every text) hold both languages."""

    id: str
    topic: str
    skills: tuple[str, ...]
    difficulty: int
    type: str
    prompt: dict[str, str]
    answer: dict[str, str]
    rubric: tuple[RubricPoint, ...] = ()
    choices: tuple[Choice, ...] = ()
    correct: bool | None = None
    follow_ups: tuple[str, ...] = ()
    path: str = ""
    pack: str = ""
    computed: tuple[Computed, ...] = ()  # engine placeholders in its texts, rendered


@dataclass
class Bank:
    """All loaded questions by id (load order) plus everything wrong found while loading."""

    questions: dict[str, Question] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def get(self, qid: str) -> Question:
        try:
            return self.questions[qid]
        except KeyError:
            raise KeyError(f"unknown question id {qid!r}") from None

    def by_topic(self, topic: str) -> list[Question]:
        return [q for q in self.questions.values() if q.topic == topic]

    def with_skill(self, tag: str) -> list[Question]:
        return [q for q in self.questions.values() if tag in q.skills]


@dataclass(frozen=True)
class QuickRow:
    """One row of the quick-reference table (symptom -> bound -> check -> fix), per language."""

    symptom: dict[str, str]
    bound: dict[str, str]
    check: dict[str, str]
    fix: dict[str, str]
