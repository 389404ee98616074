"""The conceptual question bank: the question types and loading packs.

Packs are plain YAML data (see docs/question-format.md) read with the safe loader; a bad
file or question is reported as a Problem and skipped, so the trainer never crashes on
content. Checking the schema lives in ``drill.content.bank_load``; grading answers lives in
``drill.grading`` (rubric, choices).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from drill.config import paths as _paths
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
    is only offered as "also worth saying".
    """

    label: dict[str, str]
    phrases: dict[str, tuple[str, ...]]
    optional: bool = False


@dataclass(frozen=True)
class Choice:
    """One option of a choice/multi question, with the explanation shown after grading."""

    id: str
    correct: bool
    text: dict[str, str]
    why: dict[str, str]


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
    computed: tuple = ()  # engine placeholders in its texts (bank_calc.Computed), rendered


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


# --------------------------------------------------------------------------- loading


def _default_files(include_user: bool) -> list[Path]:
    builtin = _paths.builtin_questions_dir()
    files = [p for p in sorted(builtin.glob("*.yaml")) if p.name != QUICK_REFERENCE]
    user = _paths.user_questions_dir()
    if include_user and user.is_dir():
        files += sorted(user.glob("*.yaml"))
    return files


def load_bank(paths: Iterable[Path] | None = None, include_user: bool = True) -> Bank:
    """Load packs; with ``paths`` None, the built-in packs then (if asked) the user's packs.

    ``paths`` (files or folders) replaces that default set entirely, so ``include_user``
    only matters when ``paths`` is None. The first copy of an id wins: later duplicates
    (such as a user question reusing a built-in id) are reported and skipped.
    """
    from drill.content import bank_load as bank_validate

    if paths is None:
        files, problems = _default_files(include_user), []
    else:
        files, problems = bank_validate.expand(paths)
    questions, found = bank_validate.load(files)
    return Bank(questions=questions, problems=problems + found)


def validate_paths(paths: Iterable[Path], check=None, check_pack=None) -> list[Problem]:
    """Every problem in the given files/folders, checked against the built-in bank too;
    ``check``/``check_pack`` add the rubric checks (see ``drill.grading.checks``)."""
    from drill.content import bank_load as bank_validate

    return bank_validate.validate(paths, check, check_pack)


def load_quick_reference() -> list[QuickRow]:
    """The built-in quick-reference rows; invalid rows are left out (validate reports them)."""
    from drill.content import bank_load as bank_validate

    path = _paths.builtin_questions_dir() / QUICK_REFERENCE
    if not path.is_file():
        return []
    return bank_validate.read(path).rows
