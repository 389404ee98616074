"""Which skills build on which: smart practice introduces a skill only once the skills it
needs are solid (drill.learning.unlocking), the way a typing tutor adds a key only when the
keys before it are sure.

The roofline case asks the core skills as its own steps (CASE_STEPS): answers to a step count
as answers to its skill, and a step answered right unlocks the skill by itself, so the
core chain never waits behind spec arithmetic.

Data only, next to the registry. A skill missing here has no prerequisites; an id that is
not registered (a skill another pack adds or removes) is ignored by the planner. Placement
(drill.runs.placement) walks the skill groups, i.e. the skills' topics, in GROUP_ORDER.
"""

from __future__ import annotations

PREREQUISITES: dict[str, tuple[str, ...]] = {
    # reading the hardware
    "sustained-clock": ("peak-from-specs",),
    "spec-sheet": ("peak-from-specs", "bandwidth-from-specs"),
    "wave-quantization": ("peak-from-specs",),
    # intensity: the GEMM count first, then the other operators
    "gemv-intensity": ("gemm-intensity",),
    "conv-intensity": ("gemm-intensity",),
    "attention-intensity": ("gemm-intensity",),
    # the roofline; ridge-point needs nothing: its questions give the peak and the bandwidth
    "bound": ("ridge-point", "gemm-intensity"),
    "attainable": ("ridge-point",),
    "min-time": ("attainable",),
    "efficiency": ("attainable",),
    "ops-per-element": ("ridge-point", "elementwise-intensity"),
    "card-upgrade": ("min-time",),
    "precision-change": ("min-time",),
    # diagnosis
    "direction": ("bound",),
    "sol-diagnosis": ("bound",),
    # LLM inference
    "decode-latency": ("ridge-point", "bound", "attainable"),
    "critical-batch": ("decode-latency",),
    # how the point moves, profiles
    "dot-moves": ("bound", "attainable"),
    "ncu-read": ("sol-diagnosis",),
    # the memory hierarchy, latency and overhead
    "tile-l2-intensity": ("gemm-intensity",),
    "hierarchy-bound": ("tile-l2-intensity", "bound"),
    "impossible-ordering": ("hierarchy-bound",),
    "tile-fit": ("tile-l2-intensity",),
    "overhead-bound": ("min-time",),
    "littles-law": ("bandwidth-from-specs",),
    "occupancy": ("wave-quantization",),
    # beyond one GPU: communication after the single-GPU bound
    "per-die-peak": ("peak-from-specs",),
    "collective-time": ("bound",),
    "comm-or-math": ("collective-time", "min-time"),
    "dp-batch": ("collective-time",),
    "tp-degree": ("collective-time",),
    "moe-batch": ("critical-batch",),
    "mbu": ("decode-latency",),
    "spec-decode": ("critical-batch",),
    "kv-bound": ("kv-cache", "decode-latency"),
    "sla-batch": ("decode-latency", "kv-cache"),
    "serving-case": ("decode-latency", "collective-time"),
}
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
