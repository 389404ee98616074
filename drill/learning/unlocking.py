"""Which skills smart practice may introduce: those whose prerequisites are solid
(drill.content.skills.prerequisites), or whose own step of the roofline case was answered right.

A skill is solid once SOLID_ATTEMPTS answers in a row (SOLID_MIN at least, at its start) have
averaged SOLID_SCORE, and stays so after a bad day (what it unlocked is never locked again,
as a typing tutor never takes back a key), or when its review card is mature (a memory
stability of MATURE_DAYS, as placement gives a skill you already master). Two answers
suffice because a card answered right rests until the next day: waiting for five would keep
the next skills locked for a week or more. Answers to a skill's step in the roofline case
(CASE_STEPS) count as answers to the skill, so the case and the skill itself, right the same
day, make it solid.

SQL only, like the planner: fsrs is never imported here.
"""

from __future__ import annotations

import json
import sqlite3

from drill.learning.srs import card_id

SOLID_ATTEMPTS = 5  # a prerequisite is solid once a run of answers (5 at most ...
SOLID_MIN = 2  # ... 2 at least) ...
SOLID_SCORE = 0.8  # ... average at least 80 %
MATURE_DAYS = 21.0  # or its review card's stability is three weeks or more


def _conn(history) -> sqlite3.Connection | None:
    return None if history is None else getattr(history, "conn", history)


def _scores(conn: sqlite3.Connection, skill: str) -> list[float]:
    """The scores of every answer to ``skill``, its case step's included, oldest first."""
    from drill.content.skills.prerequisites import CASE_OPS, CASE_SKILLS, CASE_STEPS

    step = CASE_STEPS.get(skill)
    if step is None:
        sql = "SELECT score, answered_utc FROM attempts WHERE skill = :s"
    else:
        sql = (
            "SELECT score, answered_utc FROM attempts WHERE skill = :s UNION ALL "
            "SELECT score, answered_utc FROM attempts WHERE ask = :step AND skill IN "
            f"(SELECT value FROM json_each(:cases)) AND {_OF_OP}"
        )
    sql += " ORDER BY answered_utc"
    args = {"s": skill, "step": step, "cases": json.dumps(CASE_SKILLS), "op": CASE_OPS.get(skill)}
    return [score for score, _ in conn.execute(sql, args)]


def was_solid(scores: list[float]) -> bool:
    """Whether some run of SOLID_ATTEMPTS answers (fewer, SOLID_MIN at least, at the start)
    averaged SOLID_SCORE."""
    for end in range(SOLID_MIN, len(scores) + 1):
        window = scores[max(0, end - SOLID_ATTEMPTS) : end]
        if sum(window) / len(window) >= SOLID_SCORE - 1e-9:
            return True
    return False


# a case step of one operator's skill counts only in a case of that operator (CASE_OPS)
_OF_OP = (
    "(:op IS NULL OR (json_valid(scenario_json) AND json_extract(scenario_json, '$.op') = :op))"
)


def solid_skills(history, skills) -> set[str]:
    """Skills of ``skills`` that are solid (see the module's rule)."""
    conn = _conn(history)
    skills = list(skills)
    if conn is None or not skills:
        return set()
    solid: set[str] = set()
    for skill in skills:
        if was_solid(_scores(conn, skill)):
            solid.add(skill)
    cards = {card_id("skill", s): s for s in skills}
    for cid, stability in conn.execute(
        "SELECT card_id, json_extract(state_json, '$.fsrs.stability') FROM review_cards "
        "WHERE json_valid(state_json) AND card_id IN (SELECT value FROM json_each(:ids))",
        {"ids": json.dumps(list(cards))},
    ):
        if isinstance(stability, (int, float)) and stability >= MATURE_DAYS:
            solid.add(cards[cid])
    return solid


def shown_in_case(history, skills) -> set[str]:
    """Skills of ``skills`` whose step of the roofline case was ever answered right (for an
    operator's skill, in a case of that operator): the case showed the user can do it, and
    what it unlocked stays unlocked."""
    from drill.content.skills.prerequisites import CASE_OPS, CASE_SKILLS, CASE_STEPS

    conn = _conn(history)
    if conn is None:
        return set()
    shown = set()
    for skill in skills:
        step = CASE_STEPS.get(skill)
        if step is None:
            continue
        row = conn.execute(
            "SELECT 1 FROM attempts WHERE correct AND ask = :step AND skill IN "
            f"(SELECT value FROM json_each(:cases)) AND {_OF_OP} LIMIT 1",
            {"step": step, "cases": json.dumps(CASE_SKILLS), "op": CASE_OPS.get(skill)},
        ).fetchone()
        if row is not None:
            shown.add(skill)
    return shown


def locked_skills(history, skills) -> dict[str, tuple[str, ...]]:
    """Per locked skill of ``skills``, its prerequisites that are not solid yet. A skill is
    locked until it is introduced: once practised (it has answers or a scheduled review),
    it stays unlocked, as a typing tutor never takes back a key."""
    conn = _conn(history)
    skills = list(skills)
    practised = _practised(conn, skills)
    return locked_among(conn, [s for s in skills if s not in practised], skills)


def _practised(conn, skills: list[str]) -> set[str]:
    """Skills with an answer or a scheduled review card."""
    if conn is None or not skills:
        return set()
    found = {
        s
        for (s,) in conn.execute(
            "SELECT j.value FROM json_each(:ids) j WHERE EXISTS "
            "(SELECT 1 FROM attempts a WHERE a.skill = j.value)",
            {"ids": json.dumps(skills)},
        )
    }
    cards = {card_id("skill", s): s for s in skills}
    for (cid,) in conn.execute(
        "SELECT card_id FROM review_cards WHERE due_utc IS NOT NULL AND due_utc <> '' "
        "AND card_id IN (SELECT value FROM json_each(:ids))",
        {"ids": json.dumps(list(cards))},
    ):
        found.add(cards[cid])
    return found


def locked_among(conn, candidates: list[str], skills: list[str]) -> dict[str, tuple[str, ...]]:
    """Of ``candidates``, those whose prerequisites (among ``skills``) are not all solid and
    whose own case step has not been answered right."""
    from drill.content.skills.prerequisites import prerequisites_of

    known = set(skills)
    needed = {s: prerequisites_of(s, known) for s in candidates}
    needed = {s: ps for s, ps in needed.items() if ps}
    if not needed:
        return {}
    shown = shown_in_case(conn, list(needed))
    wanted = {p for s, ps in needed.items() if s not in shown for p in ps}
    solid = solid_skills(conn, sorted(wanted))
    missing = {s: tuple(p for p in ps if p not in solid) for s, ps in needed.items()}
    return {s: ps for s, ps in missing.items() if ps and s not in shown}
