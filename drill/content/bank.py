"""The conceptual question bank: loading packs, rubric grading and choice parsing.

Packs are plain YAML data (see docs/question-format.md) read with the safe loader; a bad
file or question is reported as a Problem and skipped, so the trainer never crashes on
content. Checking the schema lives in ``drill.content.bank_load`` to keep this module short.
"""

from __future__ import annotations

import unicodedata
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
    """One key point of a free answer: a label per language and the phrases that cover it."""

    label: dict[str, str]
    phrases: dict[str, tuple[str, ...]]


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


def validate_paths(paths: Iterable[Path]) -> list[Problem]:
    """Every problem in the given files/folders, checked against the built-in bank too."""
    from drill.content import bank_load as bank_validate

    return bank_validate.validate(paths)


def load_quick_reference() -> list[QuickRow]:
    """The built-in quick-reference rows; invalid rows are left out (validate reports them)."""
    from drill.content import bank_load as bank_validate

    path = _paths.builtin_questions_dir() / QUICK_REFERENCE
    if not path.is_file():
        return []
    return bank_validate.read(path).rows


# --------------------------------------------------------------------------- free answers


@dataclass(frozen=True)
class RubricResult:
    score: float
    hit: tuple[RubricPoint, ...]
    missed: tuple[RubricPoint, ...]


def normalize(text: str) -> str:
    """Fold width, case and punctuation so phrases match however the learner types them."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    chars = [" " if unicodedata.category(c)[0] in "PSZC" else c for c in folded]
    return " ".join("".join(chars).split())


def _squash(text: str) -> str:
    return normalize(text).replace(" ", "")


def phrase_parts(phrase: str) -> list[str]:
    """The squashed parts of a phrase; ``a & b`` needs every part. Empty list: matches nothing."""
    return [part for part in (_squash(p) for p in phrase.split("&")) if part]


def _covers(answer: str, point: RubricPoint) -> bool:
    for phrases in point.phrases.values():
        for phrase in phrases:
            parts = phrase_parts(phrase)
            if parts and all(part in answer for part in parts):
                return True
    return False


def grade_free(q: Question, text: str) -> RubricResult:
    """Share of rubric points whose phrases (in any language) appear in the answer."""
    answer = _squash(text)
    if not answer or not q.rubric:
        return RubricResult(0.0, (), tuple(q.rubric))
    hit = tuple(p for p in q.rubric if _covers(answer, p))
    missed = tuple(p for p in q.rubric if p not in hit)
    return RubricResult(len(hit) / len(q.rubric), hit, missed)


# --------------------------------------------------------------------------- choices


class AnswerError(ValueError):
    """Unusable input: show the message (``.zh`` in Chinese) and ask again; record nothing."""

    def __init__(self, message: str, zh: str = "") -> None:
        super().__init__(message)
        self.zh = zh or message


@dataclass(frozen=True)
class ChoiceResult:
    score: float
    selected: tuple[str, ...]
    correct_ids: tuple[str, ...]


_TRUE = frozenset({"t", "true", "yes", "y", "对", "正确", "是"})
_FALSE = frozenset({"f", "false", "no", "n", "错", "错误", "否"})


def _listing(ids: list[str], zh: bool = False) -> str:
    if len(ids) < 2:
        return "".join(ids)
    return ("、".join(ids[:-1]) + " 或 " if zh else ", ".join(ids[:-1]) + " or ") + ids[-1]


def parse_choice(q: Question, text: str) -> tuple[str, ...]:
    """Turn typed letters (any case, width or separator) into choice ids, in choice order."""
    if q.type == "truefalse":
        word = _squash(text)
        if word in _TRUE:
            return ("true",)
        if word in _FALSE:
            return ("false",)
        raise AnswerError("Answer true or false (t / f).", "请回答 对 或 错（t / f）。")
    if q.type not in ("choice", "multi"):
        raise ValueError(f"question {q.id!r} is a {q.type} question, not a choice")
    ids = [c.id for c in q.choices]
    en, zh = _listing(ids), _listing(ids, zh=True)
    picked: set[str] = set()
    for token in normalize(text).split():
        if not (token.isascii() and token.isalpha() and set(token) <= set(ids)):
            raise AnswerError(
                f"'{token}' is not a choice; pick from {en}.",
                f"「{token}」不是选项；请从 {zh} 中选择。",
            )
        picked.update(token)
    if not picked:
        if q.type == "multi":
            raise AnswerError(
                f"Type one or more letters: {en} (for example: a c).",
                f"请输入一个或多个字母：{zh}（例如：a c）。",
            )
        raise AnswerError(f"Type one letter: {en}.", f"请输入一个字母：{zh}。")
    if q.type == "choice" and len(picked) > 1:
        raise AnswerError(f"Pick exactly one letter: {en}.", f"只能选一个字母：{zh}。")
    return tuple(i for i in ids if i in picked)


def grade_choice(q: Question, text: str) -> ChoiceResult:
    """Choice and true/false score 1 or 0; multi gives partial credit, wrong picks cost."""
    selected = parse_choice(q, text)
    if q.type == "truefalse":
        correct_ids: tuple[str, ...] = ("true",) if q.correct else ("false",)
    else:
        correct_ids = tuple(c.id for c in q.choices if c.correct)
    if q.type == "multi" and correct_ids:
        right = len(set(selected) & set(correct_ids))
        wrong = len(set(selected) - set(correct_ids))
        score = max(0.0, (right - wrong) / len(correct_ids))
    else:
        score = 1.0 if selected == correct_ids else 0.0
    return ChoiceResult(score, selected, correct_ids)
