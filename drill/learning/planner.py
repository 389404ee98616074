"""Which items a practice session asks: due reviews, weak spots, a few new ones.

Everything comes from small SQL queries: the review cards (one row per item) and, per item,
the last few scores through the ``attempts_skill`` index, so a plan costs the same on a
history of a hundred answers or a hundred thousand. fsrs itself is never imported here.

Modes:
  smart     due cards (most overdue for their stability first, i.e. the ones most likely
            forgotten), then the weakest items by recent accuracy, then
            at most NEW_PER_SESSION unseen items, then cards that fall due within AHEAD_DAYS,
            then the core case (CORE: the whole roofline chain on one scenario) if it is not
            in the plan yet, so it stays in rotation when little else is due, then more
            unseen items while the session has room
  review    only the cards due today
  mistakes  items answered wrongly in the last MISTAKES_WINDOW answers (most misses first),
            then other items where the same mistake tags were made
  cram      seen items, weakest first, whatever their due dates
  new       unseen items only
  plain     no history: a seeded shuffle of the given items (``--seed``, ``--skill``), the
            same questions every time for the same seed
  slow      items answered right but slowly: slower than SLOW_BY × your median for that item

Two rules a person expects from a flash-card app (Anki buries a card answered Good, and its
siblings, until the next day):
- An item answered right today (the user's local day) rests until tomorrow in the modes of
  RESTING (drill.learning.srs.rested_today); a wrong one may come back. cram, mistakes and
  slow are asked for by name and ask what they find.
- One item per family in a session while others fill it: a bank question belongs to the
  family of its first skill, a numeric skill is its own, so the peak skill and the peak
  questions do not all come at once. Only when the session still has room do siblings
  follow.

A smart session introduces no locked skill (drill.learning.unlocking): one never practised
whose prerequisites are not solid yet and whose own step of the roofline case was not
answered right. ``--skill`` and ``--new`` always work.

Every mode mixes skills and bank questions by one rule: every third item is a question.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections import Counter
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone, tzinfo

from drill.learning.srs import card_id, end_of_day, rested_today
from drill.learning.unlocking import locked_among, locked_skills, solid_skills
from drill.store.timeutil import parse_utc, utc_iso

SEEDED = "plain"
MODES = ("smart", "review", "mistakes", "cram", "new", SEEDED, "slow")
NEW_PER_SESSION = 4
WEAK_BELOW = 0.8  # mean score of the last RECENT_ATTEMPTS answers
RECENT_ATTEMPTS = 10
AHEAD_DAYS = 3
MISTAKES_WINDOW = 200  # answers that count as "recent" for --mistakes
TAG_WINDOW = 1000  # mistaken answers searched for other items with the same tags
CONCEPT_EVERY = 3  # a mixed session: two skills, then a question
CORE = "roofline-case"  # the first skill of the curriculum: a new user's first question
RESTING = ("smart", "review", "new")  # modes that leave out what was answered right today
SLOW_BY = 1.5  # --slow: right answers slower than 1.5 × your median for the item
SLOW_WINDOW = 500  # recent answers searched for slow ones
SLOW_MIN_TIMED = 5  # answers to an item before its median counts

Item = tuple[str, str]  # ("skill" | "concept", id)
__all__ = ["Plan", "locked_skills", "plan_session", "seeded_plan", "slow_items", "solid_skills"]


@dataclass
class Plan:
    """What a session asks, in order, at which level each skill starts, and why."""

    mode: str
    items: list[Item] = field(default_factory=list)
    difficulties: dict[str, int] = field(default_factory=dict)  # skill id -> level
    reasons: list[str] = field(default_factory=list)  # per item: due, weak, new, ahead, ...
    due: int = 0  # items due today (in this session's topic), asked or not
    resting: int = 0  # items answered right today, left out until tomorrow


@dataclass
class _Known:
    """What the history says about each item: due date, level, memory and accuracy."""

    due: dict[Item, str] = field(default_factory=dict)  # next due, UTC text
    level: dict[Item, int] = field(default_factory=dict)
    memory: dict[Item, tuple[str, float]] = field(default_factory=dict)  # last review, stability
    accuracy: dict[Item, float] = field(default_factory=dict)  # recent mean score

    @property
    def seen(self) -> set[Item]:
        return set(self.due) | set(self.accuracy)


def _conn(history) -> sqlite3.Connection | None:
    return None if history is None else getattr(history, "conn", history)


def _read(conn: sqlite3.Connection | None, universe: list[Item]) -> _Known:
    known = _Known()
    if conn is None or not universe:
        return known
    wanted = {card_id(kind, ident): (kind, ident) for kind, ident in universe}
    for cid, due, level, last, stability in conn.execute(
        "SELECT card_id, due_utc, json_extract(s, '$.level'), "
        "json_extract(s, '$.fsrs.last_review'), json_extract(s, '$.fsrs.stability') "
        "FROM (SELECT card_id, due_utc, CASE WHEN json_valid(state_json) THEN state_json "
        "END AS s FROM review_cards)"
    ):
        item = wanted.get(cid)
        if item is None:
            continue
        if isinstance(level, int):  # placement may set a level before the first review
            known.level[item] = level
        if not due:
            continue
        known.due[item] = due
        if isinstance(last, str) and isinstance(stability, (int, float)) and stability > 0:
            known.memory[item] = (last, float(stability))
    by_id: dict[str, list[Item]] = {}
    for item in universe:
        by_id.setdefault(item[1], []).append(item)
    rows = conn.execute(
        "SELECT j.value, (SELECT avg(score) FROM (SELECT score FROM attempts a "
        "WHERE a.skill = j.value ORDER BY a.answered_utc DESC LIMIT :n)) FROM json_each(:ids) j",
        {"ids": json.dumps(list(by_id)), "n": RECENT_ATTEMPTS},
    )
    for ident, accuracy in rows:
        if accuracy is None:
            continue
        for item in by_id.get(ident, ()):
            known.accuracy[item] = accuracy
    return known


def _overdue(known: _Known, item: Item, now: datetime) -> tuple[float, str]:
    """Sort key, most overdue first: days since the last review per day of stability (the
    order of fsrs's retrievability, lowest first), then the due date."""
    memory = known.memory.get(item)
    if memory is None:
        return (float("-inf"), known.due[item])
    try:
        elapsed = (now - parse_utc(memory[0])).total_seconds() / 86400
    except ValueError:
        return (float("-inf"), known.due[item])
    return (-elapsed / memory[1], known.due[item])


def _interleave(skills: list[Item], concepts: list[Item]) -> list[Item]:
    """Two skills, then a question, as a mixed session runs; the rest of either list when the
    other runs out."""
    out: list[Item] = []
    s = c = 0
    while s < len(skills) or c < len(concepts):
        take_concept = c < len(concepts) and (
            s >= len(skills) or len(out) % CONCEPT_EVERY == CONCEPT_EVERY - 1
        )
        if take_concept:
            out.append(concepts[c])
            c += 1
        else:
            out.append(skills[s])
            s += 1
    return out


class _Builder:
    """The plan as it fills: each item once, nothing resting, and while ``strict`` one item
    per family."""

    def __init__(self, count: int, family, resting: set[Item]) -> None:
        self.count = count
        self.items: list[Item] = []
        self.reasons: list[str] = []
        self.strict = True
        self._in: set[Item] = set()
        self._family = family
        self._families: set[str] = set()
        self._resting = resting

    @property
    def full(self) -> bool:
        return len(self.items) >= self.count

    def _free(self, item: Item) -> bool:
        if item in self._in or item in self._resting:
            return False
        return not self.strict or self._family(item) not in self._families

    def _take(self, item: Item, reason: str) -> None:
        self._in.add(item)
        self._families.add(self._family(item))
        self.items.append(item)
        self.reasons.append(reason)

    def add(self, items, reason: str, limit: int | None = None) -> None:
        added = 0
        for item in items:
            if self.full or (limit is not None and added >= limit):
                return
            if self._free(item):
                self._take(item, reason)
                added += 1

    def add_mixed(self, skills, concepts, reason: str, limit: int | None = None) -> None:
        """Unseen items, every third place of the session a question: the first free one of
        the kind due at this place, else of the other kind."""
        added = 0
        while not self.full and (limit is None or added < limit):
            concept_now = len(self.items) % CONCEPT_EVERY == CONCEPT_EVERY - 1
            first, second = (concepts, skills) if concept_now else (skills, concepts)
            item = next((i for i in first if self._free(i)), None)
            if item is None:
                item = next((i for i in second if self._free(i)), None)
            if item is None:
                return
            self._take(item, reason)
            added += 1


def seeded_plan(seed: int, count: int, skills: list[str], concepts: list[str]) -> Plan:
    """``count`` items drawn by ``seed`` alone: the skills in shuffled rounds, the questions
    shuffled once (both repeat when there are fewer than asked for)."""
    rng = random.Random(f"plan:{seed}")
    concepts = list(concepts)
    rng.shuffle(concepts)
    drawn: list[Item] = []
    pool: list[str] = []
    while skills and len(drawn) < count:
        if not pool:
            pool = list(skills)
            rng.shuffle(pool)
        drawn.append(("skill", pool.pop()))
    questions = [("concept", concepts[i % len(concepts)]) for i in range(count)] if concepts else []
    items = _interleave(drawn, questions)[:count]
    return Plan(SEEDED, items, reasons=["seeded"] * len(items))


def plan_session(
    history,
    mode: str,
    count: int,
    skills: list[str],
    concepts: list[str],
    now: datetime | None = None,
    zone: tzinfo | None = None,
    new_per_session: int = NEW_PER_SESSION,
    seed: int | None = None,
    core: str | None = CORE,
    families: dict[str, str] | None = None,
) -> Plan:
    """The session's items in the order asked. ``skills`` and ``concepts`` are the items this
    session may ask, in the order new ones are introduced; ``families`` gives a question's
    family (its first skill); the seeded mode needs ``seed``."""
    from drill.store.timeutil import local_zone

    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; choose from: {', '.join(MODES)}")
    if mode == SEEDED:
        if seed is None:
            raise ValueError("a seeded plan needs a seed")
        return seeded_plan(seed, count, skills, concepts)
    now = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    zone = zone or local_zone()
    skill_items = [("skill", s) for s in skills]
    concept_items = [("concept", q) for q in concepts]
    universe = skill_items + concept_items
    conn = _conn(history)
    known = _read(conn, universe)
    resting: set[Item] = set()
    if conn is not None and mode in RESTING:
        resting = rested_today(conn, now, zone) & set(universe)
    today_end = utc_iso(end_of_day(now, zone))
    ahead_end = utc_iso(end_of_day(now + timedelta(days=AHEAD_DAYS), zone))
    due = sorted(
        (i for i, d in known.due.items() if d < today_end), key=lambda i: _overdue(known, i, now)
    )
    seen = known.seen
    unseen = [i for i in skill_items if i not in seen]
    if mode == "smart":  # a skill is introduced only once it is unlocked
        locked = locked_among(conn, [i[1] for i in unseen], skills)
        unseen = [i for i in unseen if i[1] not in locked]
    unseen_concepts = [i for i in concept_items if i not in seen]
    never = "9999"

    def weakness(item: Item) -> tuple:
        return known.accuracy.get(item, 0.0), known.due.get(item, never)

    def family(item: Item) -> str:
        return (families or {}).get(item[1], item[1]) if item[0] == "concept" else item[1]

    plan = _Builder(count, family, resting)
    plan.strict = mode in RESTING
    if mode == "smart":
        weak = sorted((i for i in seen if known.accuracy.get(i, 1.0) < WEAK_BELOW), key=weakness)
        ahead = sorted((i for i in known.due if known.due[i] < ahead_end), key=known.due.get)
        plan.add(due, "due")
        plan.add(weak, "weak")
        plan.add_mixed(unseen, unseen_concepts, "new", new_per_session if seen else None)
        plan.add(ahead, "ahead")
        if core is not None and ("skill", core) in skill_items:
            plan.add([("skill", core)], "core")
        plan.add_mixed(unseen, unseen_concepts, "new")  # new ones rather than today's again
        plan.strict = False  # siblings only where the session still has room
        plan.add(due, "due")
        plan.add(weak, "weak")
        plan.add(ahead, "ahead")
        plan.add_mixed(unseen, unseen_concepts, "new")
    elif mode == "review":
        plan.add(due, "due")
        plan.strict = False
        plan.add(due, "due")
    elif mode == "cram":
        plan.add(sorted(seen, key=weakness), "weak")
        if not seen:
            plan.add_mixed(unseen, unseen_concepts, "new")
    elif mode == "new":
        plan.add_mixed(unseen, unseen_concepts, "new")
        plan.strict = False
        plan.add_mixed(unseen, unseen_concepts, "new")
    elif mode == "mistakes" and conn is not None:
        missed, related = _mistakes(conn, universe)
        plan.add(missed, "mistake")
        plan.add(related, "mistake-tag")
    elif mode == "slow" and conn is not None:
        plan.add(slow_items(conn, universe), "slow")
    return Plan(
        mode,
        plan.items,
        {i[1]: known.level[i] for i in plan.items if i[0] == "skill" and i in known.level},
        plan.reasons,
        len(due),
        len(resting),
    )


def _mistakes(conn: sqlite3.Connection, universe: list[Item]) -> tuple[list[Item], list[Item]]:
    """Items missed recently (most misses, then most recent first), and other items where the
    recent mistake tags were also made (most often first)."""
    by_id: dict[str, Item] = {}
    for item in universe:
        by_id.setdefault(item[1], item)
    misses: Counter[str] = Counter()
    last: dict[str, int] = {}
    tags: set[str] = set()
    rows = conn.execute(
        "SELECT skill, correct, mistakes_json FROM attempts ORDER BY answered_utc DESC LIMIT ?",
        (MISTAKES_WINDOW,),
    ).fetchall()
    for n, (ident, correct, mistakes) in enumerate(rows):
        if correct:
            continue
        misses[ident] += 1
        last.setdefault(ident, n)
        if mistakes and mistakes != "[]":
            with suppress(ValueError):  # "one of" events are stored as "tag|tag"
                for key in json.loads(mistakes):
                    if isinstance(key, str):
                        tags.update(key.split("|"))
    missed = [by_id[i] for i in sorted(misses, key=lambda i: (-misses[i], last[i])) if i in by_id]
    related: list[Item] = []
    if tags:
        found = conn.execute(
            "SELECT a.skill, count(*) AS n FROM (SELECT skill, mistakes_json FROM attempts "
            "WHERE mistakes_json <> '[]' ORDER BY answered_utc DESC LIMIT :w) a, "
            "json_each(a.mistakes_json) j WHERE EXISTS (SELECT 1 FROM json_each(:tags) t "
            "WHERE instr('|' || j.value || '|', '|' || t.value || '|') > 0) "
            "GROUP BY a.skill ORDER BY n DESC, a.skill",
            {"w": TAG_WINDOW, "tags": json.dumps(sorted(tags))},
        ).fetchall()
        related = [by_id[i] for i, _ in found if i in by_id]
    return missed, related


# -- slow items -----------------------------------------------------------------------------
def slow_items(history, universe: list[Item]) -> list[Item]:
    """Items answered right in the last SLOW_WINDOW answers but slower than SLOW_BY × the
    median time of your answers to that item; the slowest (against its median) first."""
    conn = _conn(history)
    by_id: dict[str, Item] = {}
    for item in universe:
        by_id.setdefault(item[1], item)
    times: dict[str, list[float]] = {}
    rows = conn.execute(
        "SELECT skill, seconds, correct FROM attempts WHERE skipped = 0 "
        "ORDER BY answered_utc DESC LIMIT ?",
        (SLOW_WINDOW,),
    ).fetchall()
    for ident, seconds, _ in rows:
        times.setdefault(ident, []).append(float(seconds))
    ratio: dict[str, float] = {}
    for ident, seconds, correct in rows:
        values = times[ident]
        if not correct or ident not in by_id or len(values) < SLOW_MIN_TIMED:
            continue
        median = _median_of(values)
        if median > 0 and seconds > SLOW_BY * median:
            ratio[ident] = max(ratio.get(ident, 0.0), seconds / median)
    return [by_id[i] for i in sorted(ratio, key=lambda i: (-ratio[i], i))]


def _median_of(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2
