"""What a run shows and records: the item a question asks about, the question, its result.

A question names its item explicitly (``ItemRef``: a numeric skill or a bank question, each
with its own id), so no consumer has to guess which kind an id is.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from drill.content.skills.model import Ask, Scenario
from drill.i18n import STRINGS, tr
from drill.learning.srs.rating import AGAIN, is_correct, rating_of

if TYPE_CHECKING:  # the graders load with the first answer or bank question
    from drill.content.bank.model import Choice
    from drill.content.bank.model import Question as BankQuestion
    from drill.grading.choices import Presentation
    from drill.grading.numbers import Grade, MistakeEvent

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
    concept: BankQuestion | None = None
    group: str = ""  # shared by the parts of one scenario within a run (one review)
    shown: Presentation | None = None  # the options' order on screen (choice and multi)

    def __post_init__(self) -> None:
        if not self.group:
            self.group = str(self.number)

    @classmethod
    def of_scenario(cls, number: int, skill_id: str, scenario: Scenario) -> list[Question]:
        """One question per ask of ``scenario`` at ``number`` ("3a", "3b", … when it has
        several parts)."""
        parts = len(scenario.asks)
        return [
            cls(
                f"{number}{chr(97 + i)}" if parts > 1 else str(number),
                number,
                i + 1,
                parts,
                ItemRef.skill(skill_id),
                scenario,
                ask,
            )
            for i, ask in enumerate(scenario.asks)
        ]

    @classmethod
    def of_concept(
        cls,
        number: int,
        q: BankQuestion,
        seed: int,
        slot: tuple[object, int] | None = None,
        **kw,
    ) -> Question:
        """A bank question at ``number``, its options shuffled by ``seed`` (the run's seed and
        the position), so the same ``--seed`` shows the same order; ``slot`` balances the
        right answer's letter over a run (drill.grading.choices.present)."""
        from drill.grading.choices import present

        return cls(
            str(number),
            number,
            1,
            1,
            ItemRef.concept(q.id),
            concept=q,
            shown=present(q, seed, slot),
            **kw,
        )

    @property
    def bank_question(self) -> BankQuestion:
        """The bank question of a conceptual question (every question has an ask or one)."""
        if self.concept is None:
            raise ValueError(f"question {self.id} is not a bank question")
        return self.concept

    @property
    def numeric_ask(self) -> Ask:
        """The ask of a numeric question (every question has an ask or a bank question)."""
        if self.ask is None:
            raise ValueError(f"question {self.id} has no numeric ask")
        return self.ask

    @property
    def numeric_scenario(self) -> Scenario:
        """The scenario of a numeric question (every ask comes with its scenario)."""
        if self.scenario is None:
            raise ValueError(f"question {self.id} has no scenario")
        return self.scenario

    def _choices(self) -> list[tuple[str, Choice]]:
        """(letter shown, Choice) in the order shown."""
        q = self.bank_question
        if self.shown is None or not self.shown.order:
            return [(c.id, c) for c in q.choices]
        return list(zip(self.shown.letters, self.shown.options(q), strict=True))

    @property
    def kind(self) -> str:
        if self.concept is not None:
            return self.concept.type
        return self.numeric_ask.kind

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
            for letter, choice in self._choices():
                lines.append(f"  {letter}) {choice.text.get(lang) or choice.text['en']}")
            if self.concept.type == "truefalse":
                lines.append("  (true / false)" if lang != "zh" else "  （对 / 错）")
            return "\n".join(lines)
        parts = [self.numeric_scenario.intro(lang)]
        prompt = self.numeric_ask.prompt_lines(lang)
        parts.append(f"({chr(96 + self.part)}) {prompt}" if self.parts > 1 else prompt)
        if self.convention_line(lang):
            parts.append(self.convention_line(lang))
        return "\n".join(parts)

    def convention_line(self, lang: str) -> str:
        """The conventions the answer is graded by, as every mode shows them ("" if none)."""
        convention = self.scenario.convention(lang) if self.scenario is not None else ""
        if not convention:
            return ""
        return tr("convention-label", lang) + convention

    def step_name(self, lang: str) -> str:
        """The step's name ("ridge point") where the catalog has one for its ask."""
        key = "step-" + self.ask.key if self.ask is not None else ""
        return tr(key, lang) if key in STRINGS else ""

    def step_label(self, lang: str) -> str:
        """ "step 2 of 6: ridge point" for one step of a multi-step question, "" otherwise."""
        if self.parts < 2:
            return ""
        name = self.step_name(lang)
        values = {"part": self.part, "parts": self.parts}
        return (
            tr("step-of-named", lang, name=name, **values)
            if name
            else tr("step-of", lang, **values)
        )

    def case_label(self, lang: str) -> str:
        """ "Serving case, step 2 of 4: KV capacity": a case step named as the mock names it."""
        key = "case-name-" + self.item.id
        if self.parts < 2 or key not in STRINGS:
            return self.step_label(lang)
        name = self.step_name(lang) or str(self.part)
        return tr(
            "case-step", lang, case=tr(key, lang), part=self.part, parts=self.parts, name=name
        )

    def prompt(self, lang: str) -> str:
        """The sub-question alone, its choices one per line."""
        if self.concept is not None:
            return self.text(lang)
        return self.numeric_ask.prompt_lines(lang)

    def case_steps(self) -> tuple[tuple, tuple]:
        """The worked solution split in two: the rows the steps before it in its scenario
        worked out, and its own (the last row at least), so a later case step's table stays
        short; () and every row for a first or lone step."""
        steps = self.numeric_ask.steps
        if self.scenario is None or self.part < 2:
            return (), steps
        known = {s.key for ask in self.scenario.asks[: self.part - 1] for s in ask.steps}
        new = tuple(s for s in steps if s.key not in known) or steps[-1:]
        return tuple(s for s in steps if s.key in known and s not in new), new

    def hints(self, lang: str) -> tuple[str, ...]:
        if self.ask is not None:
            asks = self.scenario.asks if self.scenario is not None else ()
            return self.ask.hints(lang, [a.key for a in asks[self.part :]])
        rubric = getattr(self.concept, "rubric", ())
        labels = tuple(p.label.get(lang) or p.label["en"] for p in rubric)
        if labels:
            lead = "Cover: " if lang != "zh" else "要点："
            return tuple(lead + label for label in labels[:3])
        return ()

    def expected_text(self, lang: str) -> str:
        if self.ask is not None:
            return self.ask.expected_text(lang)
        q = self.bank_question
        if q.type == "truefalse":
            return (
                ("true" if q.correct else "false")
                if lang != "zh"
                else ("对" if q.correct else "错")
            )
        if q.choices:
            return ", ".join(
                f"{letter}) {c.text.get(lang) or c.text['en']}"
                for letter, c in sorted(self._choices(), key=lambda pair: pair[0])
                if c.correct
            )
        return q.answer.get(lang) or q.answer["en"]

    @property
    def model_answer(self) -> bool:
        """A free answer's expected text is the model answer, which the solution shows."""
        q = self.concept
        return q is not None and q.type != "truefalse" and not q.choices

    def expected_json(self):
        """The expected answer as stored: option ids (the pack's letters) for choices."""
        if self.ask is not None:
            return self.ask.expected_json()
        q = self.bank_question
        if q.type == "truefalse":
            return "true" if q.correct else "false"
        if q.choices:
            return [c.id for c in q.choices if c.correct]
        return q.answer.get("en", "")

    def expected_typed(self):
        """The expected answer as the user would type it: the letters shown for choices."""
        if self.concept is not None and self.concept.choices:
            return sorted(letter for letter, c in self._choices() if c.correct)
        return self.expected_json()

    def solution(self, lang: str) -> list[str]:
        """The worked solution, step by step, in the user's language."""
        if self.ask is not None:
            lines = [step.text(lang) for step in self.ask.steps]
            extra = self.ask.explain_zh if lang == "zh" else self.ask.explain_en
            if extra and extra not in " ".join(lines):
                lines.extend(extra.splitlines())  # a direction step: one line per option
            return lines
        q = self.bank_question
        lines = [q.answer.get(lang) or q.answer["en"]]
        for letter, choice in self._choices():
            mark = "✓" if choice.correct else "✗"
            lines.append(f"{mark} {letter}) {choice.why.get(lang) or choice.why['en']}")
        return lines

    def scenario_json(self, public: bool = False) -> dict:
        """The scenario as the history keeps it; ``public``: only what the question event may
        carry while it is open (the givens, never the value asked for)."""
        if self.scenario is not None:
            if public and self.ask is not None:
                data = self.scenario.public_params(self.ask.key)
            else:
                data = dict(self.scenario.params)
            data.update(
                skill=self.item.id, difficulty=self.scenario.difficulty, seed=self.scenario.seed
            )
            return data
        q = self.bank_question
        data = {
            "question": q.id,
            "topic": q.topic,
            "difficulty": q.difficulty,
            "skills": list(q.skills),
        }
        if self.shown is not None and len(self.shown.order) > 1:
            data["shown"] = list(self.shown.order)  # option ids in the order shown as a, b, …
        return data

    def choices_json(self, lang: str) -> list[dict]:
        if self.ask is not None:
            return [
                {"id": o.id, "value": o.value, "text": o.zh if lang == "zh" else o.en}
                for o in self.ask.options
            ]
        if self.concept is not None:
            return [
                {"id": letter, "text": c.text.get(lang) or c.text["en"], "option": c.id}
                for letter, c in self._choices()
            ]
        return []


@dataclass
class Result:
    """One graded answer. ``uid`` names it for its whole life (a self-mark updates it);
    ``rating`` is computed once by the run that records it (and again on a self-mark)."""

    question: Question
    answer: str
    grade: Grade  # the grader's verdict, kept as it was when the user marks the answer
    seconds: float
    hints_used: int = 0
    self_mark: bool | None = None
    unanswered: bool = False  # never on screen: a mock interview's time ran out first
    uid: int = field(default_factory=lambda: next(_UIDS))
    rating: int = 0
    points: tuple = ()  # every rubric point with the grader's mark (drill.grading.marks)
    flips: dict[int, bool] = field(default_factory=dict)  # point index -> the user's own mark

    def __post_init__(self) -> None:
        if not self.rating:
            self.rating = rating_of(self)

    @property
    def marked(self) -> bool:
        """The user's own mark decides this result (a free answer, not skipped)."""
        return self.self_mark is not None and not self.grade.skipped

    @property
    def score(self) -> float:
        """The score that counts: the rubric's; full credit (less the hints' cost) when the
        user marked it right, nothing when they marked it wrong; or the rubric's points as the
        user confirmed or flipped them."""
        from drill.grading.numbers import hint_penalty

        if self.marked:
            return round(1.0 - hint_penalty(self.hints_used), 4) if self.self_mark else 0.0
        if self.flips:
            from drill.grading.marks import score_marks

            base = score_marks(self.points, self.marks)
            return round(base * (1 - hint_penalty(self.hints_used)), 4)
        return self.grade.score

    @property
    def marks(self) -> list[bool]:
        """Each rubric point's mark that counts: the user's where they flipped it."""
        if self.marked:
            return [bool(self.self_mark)] * len(self.points)
        return [self.flips.get(k, p.said) for k, p in enumerate(self.points)]

    @property
    def points_correct(self) -> bool:
        """Every required point marked said, as the user left the marks."""
        from drill.grading.marks import score_marks

        return score_marks(self.points, self.marks) >= 0.999

    @property
    def can_flip(self) -> bool:
        """A free answer's rubric points may be confirmed or flipped one by one."""
        return bool(self.points) and not self.grade.skipped

    def flip(self, numbers) -> None:
        """Flip the marks of rubric points ``numbers`` (1 = first); the user's verdict on each.

        Raises AnswerError naming the range when a number is not a point of this answer.
        """
        wanted = [int(n) for n in numbers]
        if not wanted or any(not 1 <= n <= len(self.points) for n in wanted):
            from drill.errors import AnswerError

            raise AnswerError(
                f"flip a point by its number, 1 to {len(self.points)}",
                f"按编号翻转要点：1 到 {len(self.points)}",
            )
        marks = self.marks
        self.self_mark = None  # a point's own mark replaces the whole-answer one
        self.flips = {k: m for k, m in enumerate(marks) if m != self.points[k].said}
        for n in dict.fromkeys(wanted):
            k = n - 1
            mark = not marks[k]
            if mark == self.points[k].said:
                self.flips.pop(k, None)
            else:
                self.flips[k] = mark
        self.rating = rating_of(self)

    @property
    def rubric_score(self) -> float:
        """The grader's own score, whatever the user's mark."""
        return self.grade.score

    @property
    def correct(self) -> bool:
        """Right by the grader, or by the user's own mark on a free answer."""
        return is_correct(self)

    @property
    def mistake(self) -> MistakeEvent | None:
        """The one mistake behind this answer (several candidate tags are one event)."""
        return None if self.correct else self.grade.event

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
        """The user's own verdict on a free answer, every point at once; the score and the
        rating follow it."""
        self.self_mark = right
        self.flips = {}
        self.rating = rating_of(self)

    def verdict(self) -> str:
        if self.unanswered:
            return "unanswered"
        if self.grade.skipped:
            return "skipped"
        if self.correct:
            return "correct"
        return "partial" if self.score > 0 else "wrong"
