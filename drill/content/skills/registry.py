"""The skill registry: every registered scenario template, and generation by id and seed."""

from __future__ import annotations

import importlib
import random

from drill.content.catalog import Catalog
from drill.content.skills.context import Ctx
from drill.content.skills.manifest import BY_ID, MANIFEST, Entry
from drill.content.skills.model import Scenario
from drill.content.skills.skill import REGISTERED, Skill

# Every skill in curriculum order, with the generator module (in drill.content.skills) whose
# @skill makes it (the manifest declares both). A module is imported when one of its skills
# is first asked for, so a session does not wait for generators it does not use.
MODULES: dict[str, str] = {entry.id: entry.module for entry in MANIFEST}
CURRICULUM: tuple[str, ...] = tuple(MODULES)


class SkillError(LookupError):
    pass


def entry(skill_id: str) -> Entry:
    """What the manifest declares of a skill (names, topic, prerequisites): no import."""
    found = BY_ID.get(skill_id)
    if found is None:
        raise SkillError(f"unknown skill {skill_id!r}; choose from: {', '.join(CURRICULUM)}")
    return found


def get(skill_id: str) -> Skill:
    module = entry(skill_id).module
    if skill_id not in REGISTERED:
        importlib.import_module(f"{__package__}.{module}")
    return REGISTERED[skill_id]


def all_skills() -> dict[str, Skill]:
    """Every skill by id, in curriculum order (imports every generator module)."""
    return {skill_id: get(skill_id) for skill_id in CURRICULUM}


def __getattr__(name: str):
    if name == "SKILLS":  # the whole table, built on first use
        value = globals()["SKILLS"] = all_skills()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def generate(
    skill_id: str, seed: int, difficulty: int, catalog: Catalog, gpu: str | None = None
) -> Scenario:
    """The same skill, seed, difficulty and catalog give the same scenario on every machine."""
    skill = get(skill_id)
    rng = random.Random(f"{skill_id}:{difficulty}:{seed}")
    return skill.make(Ctx(rng, difficulty, catalog, gpu, seed)).tidied()


FRESH_TRIES = 12  # a skill's draws are finite: past this many, a repeat of the numbers is asked


def generate_fresh(
    skill_id: str,
    seed: int,
    difficulty: int,
    catalog: Catalog,
    gpu: str | None = None,
    seen: set[str] | None = None,
) -> Scenario:
    """``generate``, drawing again (a seed further on) while the question repeats one in
    ``seen``, the fingerprints of the questions asked so far in a session; failing a new
    question, the draw that repeats least: new text and new numbers for this skill first,
    then the fewest answers another question asked. What is returned is added to ``seen``."""
    first = generate(skill_id, seed, difficulty, catalog, gpu)
    if seen is None:
        return first
    drawn = [first]
    for attempt in range(1, FRESH_TRIES + 1):
        if seen.isdisjoint(drawn[-1].fingerprints()):
            break
        drawn.append(generate(skill_id, seed + attempt * 1_000_003, difficulty, catalog, gpu))
    else:

        def repeats(s: Scenario) -> tuple[bool, bool, int]:
            text, *numbers = s.fingerprints()
            own = numbers[0] in seen if numbers else False
            return text in seen, own, sum(n in seen for n in numbers[1:])

        drawn.append(min(drawn, key=repeats))
    seen.update(drawn[-1].fingerprints())
    return drawn[-1]
