"""Which skills build on which (declared in the manifest), and how the roofline case's
steps count toward the skills they ask.

The roofline case asks the core skills as its own steps (CASE_STEPS): answers to a step count
as answers to its skill, and a step answered right unlocks the skill by itself, so the
core chain never waits behind spec arithmetic.

Data only, next to the registry. Placement
(drill.runs.placement) walks the skill groups, i.e. the skills' topics, in GROUP_ORDER.
"""

from __future__ import annotations

from drill.content.skills.manifest import MANIFEST

# Which skills each skill builds on, as the manifest declares them.
PREREQUISITES: dict[str, tuple[str, ...]] = {e.id: e.needs for e in MANIFEST if e.needs}
# roofline-case has none on purpose: it walks intensity, ridge, bound, attainable,
# efficiency and direction one step at a time, so a new user's first session starts with it.

# The skills that ask the case (practice and the mock interview), and which of their steps
# (an ask's key) practises which skill. The minimum time is the work over the attainable rate.
CASE_SKILLS = ("roofline-case", "interview-case")
CASE_STEPS: dict[str, str] = {
    "ridge-point": "ridge",
    "bound": "bound",
    "attainable": "attainable",
    "efficiency": "efficiency",
    "min-time": "attainable",
    "direction": "direction",
    "gemm-intensity": "intensity",
    "gemv-intensity": "intensity",
    "elementwise-intensity": "intensity",
    "conv-intensity": "intensity",
    "attention-intensity": "intensity",
}
# A step that is some skill's only for one operator: the case's intensity step is the GEMV
# intensity skill when the case's kernel is a GEMV (the op its scenario records).
CASE_OPS: dict[str, str] = {
    "gemm-intensity": "gemm",
    "gemv-intensity": "gemv",
    "elementwise-intensity": "elementwise",
    "conv-intensity": "conv2d",
    "attention-intensity": "attention",
}

# The order placement visits the skill groups in (the skills' topics); topics not named
# here follow in curriculum order.
GROUP_ORDER = ("hardware", "intensity", "roofline", "diagnosis", "llm")


def prerequisites_of(skill_id: str, known: set[str] | None = None) -> tuple[str, ...]:
    """The skills ``skill_id`` needs first (only those in ``known``, when given)."""
    needed = PREREQUISITES.get(skill_id, ())
    return needed if known is None else tuple(s for s in needed if s in known)
