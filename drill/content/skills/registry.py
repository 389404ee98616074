"""The skill registry: every registered scenario template, and generation by id and seed."""

from __future__ import annotations

import random
from dataclasses import replace

import drill.content.skills.ncu_read  # noqa: F401  (registers the ncu-read skill family)
from drill.content.catalog import Catalog

# Importing the generator modules registers their skills, in this order.
from drill.content.skills import (  # noqa: F401, I001
    case,
    diag,
    hierarchy,
    intensity,
    latency,
    llm,
    llm_serving,
    moves,
    multigpu,
    roofline,
    serving_case,
    specs,
    tradeoffs,
)
from drill.content.skills.context import Ctx
from drill.content.skills.model import Scenario
from drill.content.skills.skill import REGISTERED, Skill

# The order new skills are introduced in: the whole roofline case first (the interview's core
# chain, one ask at a time), then the basics, each step before the ones that use it.
CURRICULUM = (
    "roofline-case",
    "peak-from-specs",
    "bandwidth-from-specs",
    "gemm-intensity",
    "gemv-intensity",
    "elementwise-intensity",
    "conv-intensity",
    "attention-intensity",
    "ridge-point",
    "bound",
    "attainable",
    "efficiency",
    "min-time",
    "direction",
    "dot-moves",
    "sol-diagnosis",
    "ncu-read",
    "card-upgrade",
    "precision-change",
    "decode-latency",
    "kv-cache",
    "critical-batch",
    "ops-per-element",
    "wave-quantization",
    "sustained-clock",
    "spec-sheet",
    # beyond one GPU: communication, parallelism and serving, after the LLM basics
    "collective-time",
    "comm-or-math",
    "dp-batch",
    "tp-degree",
    "moe-batch",
    "mbu",
    "per-die-peak",
    "spec-decode",
    "kv-bound",
    "sla-batch",
    "serving-case",
    # the memory hierarchy and latency, after the roofline basics
    "tile-l2-intensity",
    "hierarchy-bound",
    "impossible-ordering",
    "tile-fit",
    "overhead-bound",
    "littles-law",
    "occupancy",
)
if set(CURRICULUM) != set(REGISTERED):
    raise RuntimeError(
        f"CURRICULUM and the registered skills differ: {sorted(set(CURRICULUM) ^ set(REGISTERED))}"
    )
SKILLS: dict[str, Skill] = {skill_id: REGISTERED[skill_id] for skill_id in CURRICULUM}


class SkillError(LookupError):
    pass


def get(skill_id: str) -> Skill:
    try:
        return SKILLS[skill_id]
    except KeyError:
        raise SkillError(f"unknown skill {skill_id!r}; choose from: {', '.join(SKILLS)}") from None


def generate(
    skill_id: str, seed: int, difficulty: int, catalog: Catalog, gpu: str | None = None
) -> Scenario:
    """The same skill, seed, difficulty and catalog give the same scenario on every machine."""
    skill = get(skill_id)
    rng = random.Random(f"{skill_id}:{difficulty}:{seed}")
    scenario = skill.make(Ctx(rng, difficulty, catalog, gpu))
    return replace(scenario, seed=seed)
