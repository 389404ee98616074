"""A practice session: it yields questions and takes answers; front ends only render.

The TUI, the ``--plain`` line mode and the ``--jsonl`` machine mode all drive this object,
so nothing about a question's correctness lives in a front end. Sessions are built by
drill.runs.factory, which draws the seed and plans the items.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from drill.content.catalog import Catalog
from drill.content.skills import registry as skill_registry
from drill.core.units import percent
from drill.runs.base import RunBase
from drill.runs.items import ItemRef, Question, Result

if TYPE_CHECKING:
    from drill.runs.summary import Summary  # with the session's end, not its start

__all__ = [
    "RETRY_GAP",
    "TOPICS",
    "ItemRef",
    "Question",
    "Result",
    "Session",
    "SessionConfig",
    "mistake_lines",
]

TOPICS = ("mixed", "numeric", "concepts")
RETRY_GAP = 3  # a missed item comes back after this many other items (or at the end)


@dataclass
class SessionConfig:
    """What a practice session was asked to be: its size, seed, items, levels, card and mode."""

    count: int = 10
    seed: int | None = None
    skills: list[str] | None = None
    difficulty: int = 1
    gpu: str | None = None
    lang: str = "en"
    topic: str = "mixed"
    plan: list[tuple[str, str]] | None = None  # ("skill"|"concept", id) items, in order
    mode: str = "plain"  # how the plan was made: a drill.learning.planner mode
    difficulties: dict[str, int] | None = None  # per-skill level, over ``difficulty``
    retry_missed: bool = False  # an item rated Again comes back once, RETRY_GAP items later
    questions: list[str] | None = None  # ``--question``: exactly these bank questions


class Session(RunBase):
    """Questions in the planned order; answers graded by the engine's own numbers."""

    mode = "practice"
    self_marking = True

    def __init__(
        self,
        config: SessionConfig,
        catalog: Catalog,
        bank=None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if config.seed is None or config.plan is None:
            raise ValueError("a session needs a seed and a plan (see drill.runs.factory)")
        super().__init__(clock)
        self.config = config
        self.lang = config.lang
        self.catalog = catalog
        self.bank = bank
        self.seed = config.seed
        self._plan = list(config.plan)
        self._position = 0  # index in plan
        self._single_choices = 0  # single-answer questions built so far (letter balance)
        self._retried: set[tuple[str, str]] = set()
        self._queue: list[Question] = []
        self._seen: set[str] = set()  # fingerprints of the questions asked: none twice
        self._next_question()

    def _build(self, index: int) -> list[Question]:
        kind, ident = self._plan[index]
        number = index + 1
        if kind == "concept":
            q = self.bank.get(ident)
            slot = None
            if q.type == "choice":
                slot = (self.seed, self._single_choices)
                self._single_choices += 1
            return [Question.of_concept(number, q, self.seed * 1000 + index, slot)]
        difficulty = (self.config.difficulties or {}).get(ident, self.config.difficulty)
        scenario = skill_registry.generate_fresh(
            ident, self.seed * 1000 + index, difficulty, self.catalog, self.config.gpu, self._seen
        )
        return Question.of_scenario(number, ident, scenario)

    def _next_question(self) -> None:
        while not self._queue and self._position < len(self._plan):
            self._queue = self._build(self._position)
            self._position += 1
        super()._next_question()

    def requeue(self, kind: str, ident: str, gap: int = RETRY_GAP) -> bool:
        """Ask the item once more, ``gap`` items from now (fresh numbers); False if it already
        came back once in this session, or if no other item is left to come between (asked
        again at once, it would test the last screen, not memory: the scheduler brings it back
        in the next session instead)."""
        if (kind, ident) in self._retried or self._position >= len(self._plan):
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
    def retries(self) -> int:
        return len(self._retried)

    @property
    def current(self) -> Question | None:
        return self._queue[0] if self._queue else None

    @property
    def score(self) -> float:
        """The sum of the scores so far."""
        return sum(r.score for r in self.results)

    def _recorded(self, result: Result) -> None:
        self._queue.pop(0)
        if self.config.retry_missed and result.needs_retry:
            self.requeue(*result.question.item.as_tuple())

    def mark_last(self, right: bool) -> None:
        """'I said it differently': the user's own verdict on a free answer, kept beside it."""
        if not self.results:
            return
        result = self.results[-1]
        result.mark(right)
        if self.config.retry_missed:
            item = result.question.item.as_tuple()
            if right:
                self._unqueue(*item)
            else:
                self.requeue(*item)
        self._updated(result)

    def flip_last(self, numbers) -> None:
        """The user's own mark on rubric points of the last free answer (1 = first point);
        AnswerError when a number is not one of its points."""
        if not self.results or not self.results[-1].can_flip:
            from drill.errors import AnswerError

            raise AnswerError("no rubric points to flip here", "这里没有可翻转的要点")
        result = self.results[-1]
        result.flip(numbers)
        if self.config.retry_missed:  # as the answer would have been rated: flipping back undoes
            item = result.question.item.as_tuple()
            if result.needs_retry:
                self.requeue(*item)
            else:
                self._unqueue(*item)
        self._updated(result)

    def finish(self) -> None:
        """The user is done (left, or saw the last feedback): listeners hear it once."""
        self._finished()

    def summary(self) -> Summary:
        from drill.runs.summary import summarize

        # the open question and its case's later steps: a case left after its first step is
        # not finished; the plan's later items, less retries of items already asked
        waiting = [q.item for q in self._queue]
        asked = {r.question.item for r in self.results}
        later = [
            ItemRef.concept(ident) if kind == "concept" else ItemRef.skill(ident)
            for kind, ident in self._plan[self._position :]
        ]
        return summarize(self.results, self.elapsed, waiting + [i for i in later if i not in asked])


def mistake_lines(result: Result, lang: str) -> list[str]:
    """The mistake behind a wrong answer, once: the first line follows "Mistake:", and when
    several habits fit, each is a line of its own under it."""
    from drill.runs.summary import mistake_key
    from drill.runs.summary import mistake_lines as lines_of

    key = mistake_key(result)
    return [] if key is None else lines_of(key, lang)


def grade_notes(result: Result, lang: str) -> list[str]:
    """Why the score is what it is, where the rule is not on screen: how far off an estimate
    was and which band it fell in, which direction picks counted how, what hints cost."""
    from drill.content.skills.model import MULTI, NUMBER
    from drill.grading.numbers import BANDS, FULL, hint_penalty
    from drill.i18n import tr

    grade, ask = result.grade, result.question.ask
    notes: list[str] = []
    if grade.skipped:
        return notes
    error = grade.relative_error
    # a right answer has no band to explain, though it may be off (a whole percent)
    off = error is not None and error > FULL and not grade.correct
    if ask is not None and ask.kind != MULTI and off and error is not None:
        band = next(((limit, credit) for limit, credit in BANDS if error <= limit), None)
        if band is not None and grade.mistakes and grade.score == 0:
            notes.append(tr("note-mistake-zero", lang, off=percent(error, 1)))
        elif band is not None:
            values = {"off": percent(error, 1), "limit": percent(band[0]), "credit": band[1]}
            notes.append(tr("note-off-by", lang, **values))
    if (
        ask is not None
        and ask.kind == NUMBER
        and not grade.correct
        and not grade.mistakes
        and isinstance(grade.parsed, (int, float))
        and isinstance(ask.expected, (int, float))
        and ask.expected
    ):  # no habit named, but a factor of two is the commonest slip there is
        ratio = grade.parsed / ask.expected
        for factor, key in ((0.5, "note-half"), (2.0, "note-twice")):
            if abs(ratio / factor - 1) <= 0.01:
                notes.append(tr(key, lang))
    if (
        ask is not None
        and ask.kind == MULTI
        and isinstance(grade.parsed, (tuple, frozenset))
        and isinstance(ask.expected, frozenset)  # a multi ask expects a set of option values
    ):
        marks = []
        for option in ask.options:
            if option.value in grade.parsed:
                mark = (
                    "✓"
                    if option.value in ask.expected
                    else "○"
                    if (option.value in ask.accepted)
                    else "✗"
                )
                marks.append(f"{option.id}) {mark}")
        if marks:
            notes.append(tr("note-your-picks", lang, picks=tr("sep-items", lang).join(marks)))
    if result.hints_used and grade.score > 0:  # a hint costs only credit there was
        cost = percent(hint_penalty(result.hints_used))
        key = "note-hint" if result.hints_used == 1 else "note-hints"
        notes.append(tr(key, lang, n=result.hints_used, cost=cost))
    return notes


_LABELLED = re.compile(r"^[^\s:：]{1,12}[:：]")


def hint_rung(number: int, hint: str, lang: str, total: int) -> str:
    """ "Hint 2/3 (−15%): …": a rung of the ladder, of the ``total`` the question has, with
    what it costs, as every mode shows it."""
    from drill.grading.numbers import HINT_COSTS
    from drill.i18n import tr

    paid = number <= len(HINT_COSTS)
    of = f"{number}/{total}" if total >= number else str(number)
    cost = f"−{percent(HINT_COSTS[number - 1])}" if paid else ""
    cost = (f"（{cost}）" if lang == "zh" else f" ({cost})") if cost else ""
    # a rung that names itself ("Formula: …", "公式：…") takes no second colon
    joint = " · " if _LABELLED.match(hint) else ("：" if lang == "zh" else ": ")
    return f"{tr('hint', lang)} {of}{cost}{joint}{hint}"


def count_values(run, question, lang: str) -> dict[str, object]:
    """A header's count, the same in the app and the line mode: "Question 11 of 12 (2
    retries)" once missed items come back, so the total grows with its reason and the number
    never passes it."""
    from drill.i18n import tr

    retries = run.retries
    retry = tr("count-retry" if retries == 1 else "count-retries", lang, n=retries)
    group = ""
    where = run.group_of(question)  # placement: which skill group, of how many
    if where is not None:
        from drill.runs.placement import group_name

        n, count, name = where
        group = tr("count-group", lang, n=n, count=count, name=group_name(name, lang))
    return {
        "number": question.number if question is not None else run.total,
        "total": run.total,
        "retry": retry if retries else "",
        "group": group,
    }
