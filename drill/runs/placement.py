"""Placement: about ten minutes that tell practice where to start.

The run visits the skill groups (the skills' topics, in GROUP_ORDER) and asks
QUESTIONS_PER_GROUP scenarios in each, adaptive within the group: the first at START_LEVEL,
then one level up after a right answer and one down after a wrong one. A scenario counts as
right when every part of it is. At the end (``RunFinished``) each skill of a finished group
gets its review card. A group answered right every time is strong: its skills start at level
3, and their first review comes as soon as the evidence warrants (``strong_card``): a skill
answered right counts as one Easy review, a skill of the group that was not asked as one
Good review (three answers say less about the skills they did not touch). Any other group
sets its skills' starting level. The profile sorts the groups into strong, shaky and not yet.

A run left early goes on where it stopped: the session row keeps the groups placed so far
(``placed``), and the next run within RESUME_DAYS skips them (``kept``) unless it restarts.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone

from drill.content.catalog import Catalog
from drill.content.skills import registry as skill_registry
from drill.content.skills.prerequisites import GROUP_ORDER
from drill.learning.srs import (
    EASY,
    GOOD,
    MAX_LEVEL,
    MIN_LEVEL,
    CardState,
    advance,
    card_id,
    due_utc_of,
    load_state,
)
from drill.runs.base import RunBase
from drill.runs.items import Question, Result
from drill.runs.options import PlacementOptions
from drill.runs.protocol import Event, RunFinished
from drill.runs.summary import Summary, summarize

QUESTIONS_PER_GROUP = 3
SECONDS_PER_QUESTION = 30  # what the intro's time estimate assumes
START_LEVEL = 2
RESUME_DAYS = 30  # a placement left early is taken up again within this many days
STRONG, SHAKY, NOT_YET = "strong", "shaky", "not-yet"


@dataclass
class PlacementConfig:
    seed: int
    lang: str = "en"
    skills: list[str] | None = None  # default: every registered skill


def group_name(group: str, lang: str) -> str:
    """A skill group (a skills' topic) as the user's language names it."""
    from drill.i18n import STRINGS, tr

    key = f"group-{group}"
    return tr(key, lang) if key in STRINGS else group


@dataclass
class GroupResult:
    """One skill group's placement so far."""

    group: str
    skills: tuple[str, ...]
    order: tuple[str, ...]  # the skills in the order they are asked (seeded)
    level: int = START_LEVEL  # the level the next scenario is asked at; the placed level
    answers: list[tuple[str, int, bool]] = field(default_factory=list)  # skill, level, right
    kept: bool = False  # placed by an earlier run that was left early: not asked again

    @property
    def done(self) -> bool:
        return len(self.answers) >= QUESTIONS_PER_GROUP

    @property
    def right(self) -> int:
        return sum(1 for _, _, ok in self.answers if ok)

    @property
    def verdict(self) -> str:
        if self.right == len(self.answers):
            return STRONG
        return NOT_YET if self.right == 0 else SHAKY

    @property
    def placed_level(self) -> int:
        return MAX_LEVEL if self.verdict == STRONG else self.level

    def to_json(self) -> dict:
        return {
            "group": self.group,
            "verdict": self.verdict,
            "level": self.placed_level,
            "right": self.right,
            "asked": len(self.answers),
            "skills": list(self.skills),
        }


def skill_groups(skills: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    """(group, its skills in curriculum order), groups in GROUP_ORDER, then any others."""
    by_topic: dict[str, list[str]] = {}
    for skill_id in skills:
        by_topic.setdefault(skill_registry.entry(skill_id).topic, []).append(skill_id)
    order = [g for g in GROUP_ORDER if g in by_topic]
    order += [g for g in by_topic if g not in order]
    return [(g, tuple(by_topic[g])) for g in order]


class Placement(RunBase):
    """The placement run; front ends drive it like practice and show ``profile()`` at the end."""

    mode = "placement"

    def __init__(
        self,
        config: PlacementConfig,
        catalog: Catalog,
        clock: Callable[[], float] = time.monotonic,
        kept: tuple[str, ...] = (),
    ) -> None:
        super().__init__(clock)
        self.config = config
        self.lang = config.lang
        self.seed = config.seed
        self.catalog = catalog
        self.groups: list[GroupResult] = []
        for group, skills in skill_groups(list(config.skills or skill_registry.CURRICULUM)):
            order = list(skills)
            random.Random(f"placement:{config.seed}:{group}").shuffle(order)
            self.groups.append(GroupResult(group, skills, tuple(order), kept=group in kept))
        self._group = self._next_group(0)
        self._asked = 0
        self._seen: set[str] = set()  # fingerprints of the questions asked: none twice
        self._queue: list[Question] = []
        self._parts: list[bool] = []
        self._next_question()

    @property
    def total(self) -> int:
        return len(self.groups_asked) * QUESTIONS_PER_GROUP

    @property
    def groups_asked(self) -> list[GroupResult]:
        """The groups this run asks: all of them, less those an earlier run placed."""
        return [g for g in self.groups if not g.kept]

    @property
    def kept(self) -> list[GroupResult]:
        return [g for g in self.groups if g.kept]

    def _next_group(self, start: int) -> int:
        while start < len(self.groups) and self.groups[start].kept:
            start += 1
        return start

    @property
    def minutes(self) -> int:
        """About how long the whole run takes, to the nearest five minutes."""
        return max(5, 5 * round(self.total * SECONDS_PER_QUESTION / 300))

    @property
    def group_now(self) -> tuple[int, int, str] | None:
        """(1-based group, groups, its name) of the question on screen; None at the end."""
        if self._group >= len(self.groups):
            return None
        return self._group + 1, len(self.groups), self.groups[self._group].group

    def group_of(self, question) -> tuple[int, int, str] | None:
        skill = question.item.id if question is not None else None
        for n, group in enumerate(self.groups):
            if skill in group.skills:
                return n + 1, len(self.groups), group.group
        return self.group_now

    @property
    def left_partway(self) -> bool:
        """Some steps of the question on screen were answered, not all: it counts for none."""
        return bool(self._parts)

    @property
    def answered(self) -> int:
        """Scenarios answered so far (a scenario of several parts counts once)."""
        return sum(len(g.answers) for g in self.groups)

    @property
    def current(self) -> Question | None:
        return self._queue[0] if self._queue else None

    @property
    def score(self) -> float:
        return sum(r.score for r in self.results)

    def _build(self) -> list[Question]:
        group = self.groups[self._group]
        skill_id = group.order[len(group.answers) % len(group.order)]
        number = self._asked + 1
        scenario = skill_registry.generate_fresh(
            skill_id, self.seed * 1000 + self._asked, group.level, self.catalog, seen=self._seen
        )
        return Question.of_scenario(number, skill_id, scenario)

    def _next_question(self) -> None:
        if not self._queue and self._group < len(self.groups):
            self._queue = self._build()
            self._asked += 1
        super()._next_question()

    def _recorded(self, result: Result) -> None:
        self._queue.pop(0)
        self._parts.append(result.correct)
        if self._queue:
            return
        group = self.groups[self._group]
        right = all(self._parts)
        self._parts = []
        group.answers.append((result.question.item.id, group.level, right))
        step = 1 if right else -1
        group.level = max(MIN_LEVEL, min(MAX_LEVEL, group.level + step))
        if group.done:
            self._group = self._next_group(self._group + 1)

    def finish(self) -> None:
        """The end, with what the session row keeps: the groups placed, by this run or the
        ones it took up, so a run left early goes on from there next time."""
        placed = [g.group for g in self.groups if g.done or g.kept]
        self._finished(ended_early=len(placed) < len(self.groups), marks={"placed": placed})

    def summary(self) -> Summary:
        return summarize(self.results, self.elapsed)

    def profile(self) -> list[GroupResult]:
        """The groups placed so far (a run left early places only the finished ones)."""
        return [g for g in self.groups if g.done]

    def to_json(self) -> dict:
        return {"type": "profile", "groups": [g.to_json() for g in self.profile()]}


# -- what placement leaves in the history -----------------------------------------------------
def strong_card(now: datetime, answered: bool) -> dict:
    """The review card of a skill in a strong group, as FSRS schedules one review of a new
    card: Easy for a skill answered right in the placement (about eight days), Good for one
    the group's other answers vouch for (about two days). Each real review after that moves
    it on, so what placement guessed is soon replaced by what practice shows."""
    rating = EASY if answered else GOOD
    card = advance(CardState(), rating, now, correct=answered)
    if card.fsrs is None:  # advance always leaves a reviewed card's FSRS state
        raise ValueError("a reviewed card has no FSRS state")
    return card.fsrs


def place(run: Placement, history, now: datetime | None = None) -> None:
    """Write each placed skill's review card: strong ones as one review (``strong_card``),
    the others at their starting level (a card placement made but never reviewed has no due
    date). A card a skill of a strong group already had is kept unless it was asked."""
    now = now or datetime.now(timezone.utc)
    for group in run.profile():
        answered = {skill for skill, _, right in group.answers if right}
        for skill_id in group.skills:
            cid = card_id("skill", skill_id)
            state = load_state(history, cid) or CardState()
            state.level = group.placed_level
            state.run = 0
            if group.verdict == STRONG and (skill_id in answered or state.fsrs is None):
                state.fsrs = strong_card(now, skill_id in answered)
            due = due_utc_of(state) if state.fsrs else None
            history.put_review_card(cid, "skill", state.to_json(), due)


class Placer:
    """Listens to a placement run and writes its outcome when the run finishes (subscribed
    before the recorder, which closes the history on the same event)."""

    def __init__(self, run: Placement, history, on_warning: Callable[[str], None]) -> None:
        self.run = run
        self.history = history
        self.on_warning = on_warning

    def handle(self, event: Event) -> None:
        if not isinstance(event, RunFinished) or getattr(self.history, "read_only", False):
            return
        try:
            if self.history.quick_check():  # damaged: the recorder said so, write nothing
                return
            place(self.run, self.history)
        except (sqlite3.Error, OSError, ValueError) as exc:
            self.on_warning(f"could not save the placement in {self.history.path} ({exc})")


def resumed(history, now: datetime | None = None) -> tuple[str, ...]:
    """The groups the latest placement placed, when it was left early within RESUME_DAYS;
    () when it placed every group (a new run places them all again), or there is none."""
    from drill.store.timeutil import parse_stored

    last = history.last_marks("placement") if history is not None else None
    if last is None:
        return ()
    started, marks = last
    placed = marks.get("placed")
    known = [g for g, _ in skill_groups(list(skill_registry.CURRICULUM))]
    if not isinstance(placed, list) or set(known) <= set(placed):
        return ()
    now = now or datetime.now(timezone.utc)
    try:
        if (now - parse_stored(started)).days >= RESUME_DAYS:
            return ()
    except ValueError:
        return ()
    return tuple(g for g in known if g in placed)


# -- the factory's hook (drill.runs.factory.open_run) -----------------------------------------
def build(
    options: PlacementOptions, lang: str, clock: Callable[[], float], history=None
) -> tuple[Placement, object]:
    from drill.content.catalog import load_catalog

    seed = options.seed
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    config = PlacementConfig(seed, lang)
    kept = () if options.restart else resumed(history)
    return Placement(config, load_catalog(), clock=clock, kept=kept), config


def listeners(run: Placement, history, on_warning: Callable[[str], None]) -> list:
    return [Placer(run, history, on_warning).handle]
