"""The end of a run of practice: the summary, what was missed, and mistakes counted once per
event (an ambiguous wrong number is "one of" its candidate tags, never two mistakes)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from drill.content.skills.mistakes import explain, mistake_name
from drill.core.units import percent
from drill.i18n import tr
from drill.runs.items import ItemRef, Result
from drill.runs.options import PracticeOptions


def mistake_key(result: Result) -> str | None:
    """How the history and the summaries count a result's mistake: one key per event
    (``dtype-bytes|fma-factor`` for "one of" them)."""
    event = result.mistake
    return None if event is None else event.key


def mistake_label(key: str, lang: str) -> str:
    """A stored mistake key as a learner reads it: the habit's short name, or "one of: a, b"."""
    names = [mistake_name(tag, lang) for tag in key.split("|")]
    if len(names) == 1:
        return names[0]
    return tr("mistake-one-of", lang, names=("、" if lang == "zh" else ", ").join(names))


def mistake_explanation(key: str, lang: str) -> str:
    """What went wrong, in words; for an ambiguous event each candidate's explanation."""
    tags = key.split("|")
    if len(tags) == 1:
        return explain(key, lang)
    joiner = "；或" if lang == "zh" else "; or "
    return joiner.join(explain(tag, lang).rstrip("。.") for tag in tags)


def mistake_lines(key: str, lang: str) -> list[str]:
    """A wrong answer's mistake for the feedback: the first line follows "Mistake:"; an
    ambiguous one lists each habit that gives the answer on a line of its own."""
    tags = key.split("|")
    if len(tags) == 1:
        return [explain(key, lang)]
    return [tr("mistake-either", lang)] + [f"  · {explain(tag, lang)}" for tag in tags]


def questions_text(n: int, lang: str) -> str:
    """ "1 question", "3 questions"; Chinese has no plural ("1 题", "3 题")."""
    return tr("count-question" if n == 1 else "count-questions", lang, n=n)


def took(seconds: float, lang: str) -> str:
    """A run's length as its header's clock counts it: "43 s", "11 min 43 s"."""
    minutes, rest = divmod(int(seconds + 0.5), 60)
    if not minutes:
        return tr("took-seconds", lang, s=rest)
    return tr("took-minutes", lang, m=minutes, s=rest)


@dataclass
class Summary:
    """A finished run's counts, score and time, per item and per mistake."""

    questions: int
    answered: int
    skipped: int
    correct: int
    score: float  # sum of scores
    seconds: float
    per_item: dict[ItemRef, tuple[int, float]] = field(default_factory=dict)  # n, score sum
    mistakes: dict[str, int] = field(default_factory=dict)  # mistake key -> events
    asked: int = 0  # questions as the header counts them: a case's steps are one question
    # items whose last time in the run (its last question, every step) was not fully right:
    # one missed and then answered right on its retry is not practised again
    still_missed: frozenset[ItemRef] | None = None
    # items the run was left before, or in the middle of (a case's later steps)
    not_asked: tuple[ItemRef, ...] = ()

    @property
    def accuracy(self) -> float:
        return self.score / self.questions if self.questions else 0.0

    @property
    def per_skill(self) -> dict[str, tuple[int, float]]:
        """Per item id (skills and bank questions), as the JSON summary has always keyed it."""
        return {item.id: value for item, value in self.per_item.items()}

    def _missed(self, kind: str) -> list[str]:
        if self.still_missed is not None:
            return sorted(item.id for item in self.still_missed if item.kind == kind)
        return sorted(
            item.id
            for item, (n, score) in self.per_item.items()
            if item.kind == kind and score < n - 1e-9
        )

    @property
    def missed_skills(self) -> list[str]:
        """Numeric skills not answered fully right."""
        return self._missed("skill")

    @property
    def missed_questions(self) -> list[str]:
        """Bank questions answered wrong or partly right (or skipped)."""
        return self._missed("concept")

    @property
    def missed_any(self) -> bool:
        return bool(self.missed_skills or self.missed_questions)

    def again_options(self, options: PracticeOptions) -> PracticeOptions:
        """``options`` changed to ask exactly the missed items again, each once (a fresh
        seed, no mode: the card and the difficulty stay)."""
        return replace(
            options,
            skills=tuple(self.missed_skills),
            questions=tuple(self.missed_questions),
            count=self.missed_count,
            seed=None,
            topic=None if self.missed_questions else "numeric",
            mode=None,
        )

    @property
    def missed_count(self) -> int:
        return len(self.missed_skills) + len(self.missed_questions)

    def again_command(self) -> str:
        """The command line that practises the missed items again, each once: without
        ``--count`` a missed case would fill a session of the default length."""
        words = ["drill start", f"--count {self.missed_count}"]
        words += [f"--skill {s}" for s in self.missed_skills]
        words += [f"--question {q}" for q in self.missed_questions]
        return " ".join(words)

    def line(self, lang: str) -> str:
        """The summary's headline in ``lang`` (one question, several questions)."""
        asked = self.asked or self.questions
        return tr(
            "summary-head" if asked == self.questions else "summary-head-steps",
            lang,
            count=questions_text(asked, lang),
            questions=self.questions,
            correct=self.correct,
            skipped=self.skipped,
            score=f"{self.score:.2f}",
            pct=percent(self.accuracy),
            took=took(self.seconds, lang),
        )

    def to_json(self) -> dict:
        return {
            "type": "summary",
            "questions": self.questions,
            "asked": self.asked or self.questions,
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
            "missed_questions": self.missed_questions,
        }


def summarize(results: list[Result], seconds: float, planned: Sequence[ItemRef] = ()) -> Summary:
    """The run's summary; ``planned``: the items a run left early never asked or did not
    finish (a case left after a step), named so that such a run is not called clean."""
    per_item: dict[ItemRef, list[float]] = {}
    mistakes: dict[str, int] = {}
    last: dict[ItemRef, tuple[str, bool]] = {}  # item -> its last question's group, all right
    for r in results:
        per_item.setdefault(r.question.item, []).append(r.score)
        group, right = last.get(r.question.item, ("", True))
        whole = r.score >= 1 - 1e-9
        last[r.question.item] = (
            (r.question.group, right and whole)
            if group == r.question.group
            else (r.question.group, whole)
        )
        key = mistake_key(r)
        if key is not None:
            mistakes[key] = mistakes.get(key, 0) + 1
    return Summary(
        questions=len(results),
        answered=sum(1 for r in results if not r.grade.skipped),
        skipped=sum(1 for r in results if r.grade.skipped),
        correct=sum(1 for r in results if r.correct),
        score=sum(r.score for r in results),
        seconds=seconds,
        per_item={k: (len(v), sum(v)) for k, v in per_item.items()},
        mistakes=mistakes,
        asked=len({r.question.group for r in results}),
        still_missed=frozenset(item for item, (_, right) in last.items() if not right),
        not_asked=tuple(dict.fromkeys(planned)),
    )
