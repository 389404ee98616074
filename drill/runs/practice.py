"""A practice session: it yields questions and takes answers; front ends only render.

The TUI, the ``--plain`` line mode and the ``--jsonl`` machine mode all drive this object,
so nothing about a question's correctness lives in a front end.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from drill.content.catalog import Catalog
from drill.content.skills import registry as skill_registry
from drill.content.skills.mistakes import explain
from drill.content.skills.model import Ask, Scenario
from drill.grading.dispatch import grade_question
from drill.grading.numbers import AnswerError, Grade, with_hints

TOPICS = ("mixed", "numeric", "concepts")
CONCEPT_EVERY = 3  # in mixed sessions, every third question is conceptual
RETRY_GAP = 3  # a missed item comes back after this many other items (or at the end)


@dataclass
class SessionConfig:
    count: int = 10
    seed: int | None = None
    skills: list[str] | None = None
    difficulty: int = 1
    gpu: str | None = None
    lang: str = "en"
    topic: str = "mixed"
    plan: list[tuple[str, str]] | None = None  # explicit ("skill"|"concept", id) items
    mode: str = "plain"  # how the plan was made: plain, or a drill.learning.planner mode
    difficulties: dict[str, int] | None = None  # per-skill level, over ``difficulty``
    retry_missed: bool = False  # an item rated Again comes back once, RETRY_GAP items later


@dataclass
class Question:
    """What is on screen: one ask of a scenario, or one conceptual question."""

    id: str
    number: int  # 1-based position in the session
    part: int  # 1-based ask within the scenario
    parts: int
    skill: str
    scenario: Scenario | None = None
    ask: Ask | None = None
    concept: object | None = None  # drill.content.bank.Question

    @property
    def kind(self) -> str:
        if self.concept is not None:
            return self.concept.type
        return self.ask.kind

    @property
    def is_concept(self) -> bool:
        return self.concept is not None

    def unit(self) -> str:
        if self.ask is not None and self.ask.unit is not None:
            return self.ask.unit.label
        return ""

    def text(self, lang: str) -> str:
        """Prompt as shown: the scenario, the sub-question, the convention."""
        if self.concept is not None:
            lines = [self.concept.prompt.get(lang) or self.concept.prompt["en"]]
            for choice in self.concept.choices:
                lines.append(f"  {choice.id}) {choice.text.get(lang) or choice.text['en']}")
            if self.concept.type == "truefalse":
                lines.append("  (true / false)" if lang != "zh" else "  （对 / 错）")
            return "\n".join(lines)
        parts = [self.scenario.intro(lang)]
        if self.parts > 1:
            parts.append(f"({chr(96 + self.part)}) {self.ask.prompt(lang)}")
        else:
            parts.append(self.ask.prompt(lang))
        if self.scenario.convention(lang):
            parts.append(("约定：" if lang == "zh" else "Convention: ")
                         + self.scenario.convention(lang))
        return "\n".join(parts)

    def prompt(self, lang: str) -> str:
        if self.concept is not None:
            return self.text(lang)
        return self.ask.prompt(lang)

    def hints(self, lang: str) -> tuple[str, ...]:
        if self.ask is not None:
            return self.ask.hints(lang)
        rubric = getattr(self.concept, "rubric", ())
        labels = tuple(p.label.get(lang) or p.label["en"] for p in rubric)
        if labels:
            lead = "Cover: " if lang != "zh" else "要点："
            return tuple(lead + label for label in labels[:3])
        return ()

    def expected_text(self, lang: str) -> str:
        if self.ask is not None:
            return self.ask.expected_text(lang)
        q = self.concept
        if q.type == "truefalse":
            return ("true" if q.correct else "false") if lang != "zh" else (
                "对" if q.correct else "错")
        if q.choices:
            return ", ".join(f"{c.id}) {c.text.get(lang) or c.text['en']}"
                             for c in q.choices if c.correct)
        return q.answer.get(lang) or q.answer["en"]

    def expected_json(self):
        if self.ask is not None:
            return self.ask.expected_json()
        q = self.concept
        if q.type == "truefalse":
            return "true" if q.correct else "false"
        if q.choices:
            return [c.id for c in q.choices if c.correct]
        return q.answer.get("en", "")

    def solution(self, lang: str) -> list[str]:
        """The worked solution, step by step, in the user's language."""
        if self.ask is not None:
            lines = [step.text(lang) for step in self.ask.steps]
            extra = self.ask.explain_zh if lang == "zh" else self.ask.explain_en
            if extra and extra not in " ".join(lines):
                lines.append(extra)
            return lines
        q = self.concept
        lines = [q.answer.get(lang) or q.answer["en"]]
        for choice in q.choices:
            mark = "✓" if choice.correct else "✗"
            lines.append(f"{mark} {choice.id}) {choice.why.get(lang) or choice.why['en']}")
        return lines

    def scenario_json(self) -> dict:
        if self.scenario is not None:
            data = dict(self.scenario.params)
            data.update(skill=self.skill, difficulty=self.scenario.difficulty,
                        seed=self.scenario.seed)
            return data
        q = self.concept
        return {"question": q.id, "topic": q.topic, "difficulty": q.difficulty,
                "skills": list(q.skills)}

    def choices_json(self, lang: str) -> list[dict]:
        if self.ask is not None:
            return [{"id": o.id, "value": o.value, "text": o.zh if lang == "zh" else o.en}
                    for o in self.ask.options]
        if self.concept is not None:
            return [{"id": c.id, "text": c.text.get(lang) or c.text["en"]}
                    for c in self.concept.choices]
        return []


@dataclass
class Result:
    question: Question
    answer: str
    grade: Grade
    seconds: float
    hints_used: int = 0
    hit: tuple[str, ...] = ()  # rubric points covered (free questions)
    missed: tuple[str, ...] = ()
    self_mark: bool | None = None

    @property
    def score(self) -> float:
        return self.grade.score

    def verdict(self) -> str:
        if self.grade.skipped:
            return "skipped"
        if self.grade.correct:
            return "correct"
        return "partial" if self.grade.score > 0 else "wrong"


@dataclass
class Summary:
    questions: int
    answered: int
    skipped: int
    correct: int
    score: float  # sum of scores
    seconds: float
    per_skill: dict[str, tuple[int, float]] = field(default_factory=dict)  # n, score sum
    mistakes: dict[str, int] = field(default_factory=dict)

    @property
    def accuracy(self) -> float:
        return self.score / self.questions if self.questions else 0.0

    def to_json(self) -> dict:
        return {
            "type": "summary",
            "questions": self.questions,
            "answered": self.answered,
            "skipped": self.skipped,
            "correct": self.correct,
            "score": round(self.score, 4),
            "accuracy": round(self.accuracy, 4),
            "seconds": round(self.seconds, 3),
            "per_skill": {k: {"questions": n, "score": round(s, 4)}
                          for k, (n, s) in self.per_skill.items()},
            "mistakes": self.mistakes,
        }


class Session:
    """Questions in a fixed, seeded order; answers graded by the engine's own numbers."""

    def __init__(self, config: SessionConfig, catalog: Catalog, bank=None,
                 clock: Callable[[], float] = time.monotonic,
                 on_result: Callable[[Result], None] | None = None) -> None:
        self.config = config
        self.catalog = catalog
        self.bank = bank
        self.clock = clock
        self.on_result = on_result
        self.seed = config.seed if config.seed is not None else random.SystemRandom().randrange(
            1, 10**9)
        self.results: list[Result] = []
        self._plan = list(config.plan) if config.plan else self._make_plan()
        self._position = 0  # index in plan
        self._retried: set[tuple[str, str]] = set()
        self._queue: list[Question] = []
        self._started = clock()
        self._shown_at = clock()
        self._hints = 0
        self._advance()

    # -- planning -------------------------------------------------------------------------
    def _make_plan(self) -> list[tuple[str, str]]:
        rng = random.Random(f"plan:{self.seed}")
        chosen = list(self.config.skills or skill_registry.SKILLS)
        for skill_id in chosen:
            skill_registry.get(skill_id)
        concepts: list[str] = []
        if self.bank is not None and self.config.topic in ("mixed", "concepts"):
            concepts = sorted(self.bank.questions)
            if self.config.skills:
                wanted = set(self.config.skills)
                concepts = [q for q in concepts if wanted & set(self.bank.get(q).skills)]
            rng.shuffle(concepts)
        plan: list[tuple[str, str]] = []
        pool: list[str] = []
        for i in range(self.config.count):
            use_concept = concepts and (
                self.config.topic == "concepts"
                or (self.config.topic == "mixed" and i % CONCEPT_EVERY == CONCEPT_EVERY - 1))
            if use_concept:
                plan.append(("concept", concepts[len([p for p in plan if p[0] == "concept"])
                                                 % len(concepts)]))
                continue
            if self.config.topic == "concepts":
                break
            if not pool:
                pool = chosen[:]
                rng.shuffle(pool)
            plan.append(("skill", pool.pop()))
        return plan

    def _build(self, index: int) -> list[Question]:
        kind, ident = self._plan[index]
        number = index + 1
        if kind == "concept":
            q = self.bank.get(ident)
            return [Question(str(number), number, 1, 1, ident, concept=q)]
        difficulty = (self.config.difficulties or {}).get(ident, self.config.difficulty)
        scenario = skill_registry.generate(ident, self.seed * 1000 + index, difficulty,
                                           self.catalog, self.config.gpu)
        parts = len(scenario.asks)
        return [Question(f"{number}{chr(97 + i)}" if parts > 1 else str(number), number, i + 1,
                         parts, ident, scenario, ask) for i, ask in enumerate(scenario.asks)]

    def _advance(self) -> None:
        while not self._queue and self._position < len(self._plan):
            self._queue = self._build(self._position)
            self._position += 1
        self._shown_at = self.clock()
        self._hints = 0

    def requeue(self, kind: str, ident: str, gap: int = RETRY_GAP) -> bool:
        """Ask the item once more, ``gap`` items from now (fresh numbers); False if it already
        came back once in this session."""
        if (kind, ident) in self._retried:
            return False
        self._retried.add((kind, ident))
        self._plan.insert(min(len(self._plan), self._position + gap), (kind, ident))
        return True

    def _unqueue(self, kind: str, ident: str) -> None:
        """Take back a retry not yet reached (the user marked the answer right after all)."""
        for index in range(len(self._plan) - 1, self._position - 1, -1):
            if self._plan[index] == (kind, ident):
                del self._plan[index]
                self._retried.discard((kind, ident))
                return

    # -- driving --------------------------------------------------------------------------
    @property
    def total(self) -> int:
        return len(self._plan)

    @property
    def current(self) -> Question | None:
        return self._queue[0] if self._queue else None

    @property
    def finished(self) -> bool:
        return self.current is None

    @property
    def hints_used(self) -> int:
        return self._hints

    def hint(self) -> str | None:
        """The next rung of the hint ladder, or None when there is none left."""
        question = self.current
        if question is None:
            return None
        hints = question.hints(self.config.lang)
        if self._hints >= len(hints):
            return None
        self._hints += 1
        return hints[self._hints - 1]

    def answer(self, text: str) -> Result:
        """Grade the answer to the current question; AnswerError leaves everything as it was."""
        question = self.current
        if question is None:
            raise AnswerError("the session is over", "本次练习已结束")
        result_grade, hit, missed = grade_question(question, text, self.config.lang)
        return self._record(question, text, with_hints(result_grade, self._hints), hit, missed)

    def skip(self) -> Result:
        question = self.current
        if question is None:
            raise AnswerError("the session is over", "本次练习已结束")
        return self._record(question, "", Grade(0.0, False, skipped=True), (), ())

    def _record(self, question, text, result_grade, hit, missed) -> Result:
        result = Result(question, text, result_grade, self.clock() - self._shown_at,
                        self._hints, hit, missed)
        self.results.append(result)
        self._queue.pop(0)
        if self.config.retry_missed:
            from drill.learning import srs  # the history's module: only smart sessions need it

            if srs.missed(result):
                self.requeue(*srs.item_of(result))
        if self.on_result is not None:
            self.on_result(result)
        self._advance()
        return result

    def mark_last(self, right: bool) -> None:
        """'I said it differently': the user's own verdict on a free answer, kept beside it."""
        if self.results:
            self.results[-1].self_mark = right
            if self.config.retry_missed:
                from drill.learning import srs

                item = srs.item_of(self.results[-1])
                if right:
                    self._unqueue(*item)
                else:
                    self.requeue(*item)
            if self.on_result is not None:
                self.on_result(self.results[-1])

    def summary(self) -> Summary:
        per_skill: dict[str, list[float]] = {}
        mistakes: Counter[str] = Counter()
        for r in self.results:
            per_skill.setdefault(r.question.skill, []).append(r.score)
            mistakes.update(r.grade.mistakes)
        return Summary(
            questions=len(self.results),
            answered=sum(1 for r in self.results if not r.grade.skipped),
            skipped=sum(1 for r in self.results if r.grade.skipped),
            correct=sum(1 for r in self.results if r.grade.correct),
            score=sum(r.score for r in self.results),
            seconds=self.clock() - self._started,
            per_skill={k: (len(v), sum(v)) for k, v in per_skill.items()},
            mistakes=dict(mistakes),
        )


def mistake_lines(result: Result, lang: str) -> list[str]:
    return [f"{tag}: {explain(tag, lang)}" for tag in result.grade.mistakes]

