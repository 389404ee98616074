"""The skill registry: every registered scenario template, and generation by id and seed."""

from __future__ import annotations

import importlib
import random

from drill.content.catalog import Catalog
from drill.content.skills.context import Ctx
from drill.content.skills.model import Scenario
from drill.content.skills.skill import REGISTERED, Skill

# Every skill, in the order new skills are introduced, with the generator module (in
# drill.content.skills) whose @skill registers it. A module is imported when one of its skills
# is first asked for, so a session does not wait for generators it does not use.
MODULES: dict[str, str] = {
    # the whole roofline case first (the interview's core chain, one ask at a time), then the
    # basics, each step before the ones that use it
    "roofline-case": "case",
    "peak-from-specs": "specs",
    "bandwidth-from-specs": "specs",
    "gemm-intensity": "intensity",
    "gemv-intensity": "intensity",
    "elementwise-intensity": "intensity",
    "conv-intensity": "intensity",
    "attention-intensity": "intensity",
    "ridge-point": "roofline",
    "bound": "roofline",
    "attainable": "roofline",
    "efficiency": "roofline",
    "min-time": "roofline",
    "direction": "diag",
    "dot-moves": "moves",
    "sol-diagnosis": "diag",
    "ncu-read": "ncu_read",
    "card-upgrade": "tradeoffs",
    "precision-change": "tradeoffs",
    "decode-latency": "llm",
    "kv-cache": "llm",
    "critical-batch": "llm",
    "ops-per-element": "tradeoffs",
    "wave-quantization": "waves",
    "sustained-clock": "specs",
    "spec-sheet": "spec_sheet",
    # beyond one GPU: communication, parallelism and serving, after the LLM basics
    "collective-time": "multigpu",
    "comm-or-math": "multigpu",
    "dp-batch": "multigpu",
    "tp-degree": "tensor_parallel",
    "moe-batch": "llm_serving",
    "mbu": "llm_serving",
    "per-die-peak": "llm_serving",
    "spec-decode": "llm_serving",
    "kv-bound": "llm_serving",
    "sla-batch": "llm_serving",
    "serving-case": "serving_case",
    # the memory hierarchy and latency, after the roofline basics
    "tile-l2-intensity": "hierarchy",
    "hierarchy-bound": "hierarchy",
    "impossible-ordering": "hierarchy",
    "tile-fit": "hierarchy",
    "overhead-bound": "latency",
    "littles-law": "latency",
    "occupancy": "latency",
}
CURRICULUM: tuple[str, ...] = tuple(MODULES)


class SkillError(LookupError):
    pass


def get(skill_id: str) -> Skill:
    module = MODULES.get(skill_id)
    if module is None:
        raise SkillError(f"unknown skill {skill_id!r}; choose from: {', '.join(CURRICULUM)}")
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
