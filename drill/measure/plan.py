"""The plan of a measurement: which kernels at which sizes, how often, within what time.

Sizes follow the device: CPU arrays well beyond the last-level cache (capped by memory), GPU
arrays sized from its memory. ``DRILL_MEASURE_SCALE`` shrinks everything for tests.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from drill.measure.errors import MeasureError
from drill.measure.host import cpu_caches, physical_memory
from drill.measure.sizes import KIB, MIB

SCALE_ENV = "DRILL_MEASURE_SCALE"


@dataclass(frozen=True)
class Plan:
    device: str
    quick: bool
    gemm_sizes: tuple[int, ...]
    stream_bytes: int  # per array, well beyond the last-level cache
    cache_bytes: int  # per array and thread, inside L2
    sweep_ks: tuple[int, ...]
    sweep_bytes: int  # size of X (and of Y) in the sweep
    repeats: int
    min_run_s: float  # one timed run lasts at least this long
    budget_s: float  # a GEMM size or sweep point predicted to take longer is skipped
    total_s: float  # and so is one predicted to end after this many seconds in all
    scale: float = 1.0

    def to_json(self) -> dict:
        return {
            "quick": self.quick,
            "scale": self.scale,
            "gemm_sizes": list(self.gemm_sizes),
            "stream_bytes": self.stream_bytes,
            "cache_bytes": self.cache_bytes,
            "sweep_ks": list(self.sweep_ks),
            "sweep_bytes": self.sweep_bytes,
            "repeats": self.repeats,
            "min_run_s": self.min_run_s,
        }


def scale_from_env() -> float:
    """``DRILL_MEASURE_SCALE`` (0 < s ≤ 1) shrinks every size: tests run tiny and fast."""
    text = os.environ.get(SCALE_ENV, "").strip()
    if not text:
        return 1.0
    try:
        value = float(text)
    except ValueError:
        raise MeasureError(f"{SCALE_ENV} must be a number in (0, 1], got {text!r}") from None
    if not 0 < value <= 1:
        raise MeasureError(f"{SCALE_ENV} must be a number in (0, 1], got {text!r}")
    return value


def make_plan(
    device: str,
    quick: bool,
    scale: float | None = None,
    caches: dict[int, int] | None = None,
    memory_bytes: int | None = None,
) -> Plan:
    """Sizes for the device: CPU arrays at least 4× the last-level cache, capped by memory."""
    scale = scale_from_env() if scale is None else scale
    if device == "cuda":
        memory = memory_bytes or 16 * 1024 * MIB
        stream = min(256 * MIB if quick else 1024 * MIB, memory // 16)
        plan = Plan(
            "cuda",
            quick,
            gemm_sizes=(2048, 4096, 8192) if quick else (4096, 8192, 16384),
            stream_bytes=stream,
            cache_bytes=0,
            sweep_ks=(1, 4, 16, 64, 256, 1024, 4096)
            if quick
            else (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192),
            sweep_bytes=stream,
            repeats=5 if quick else 10,
            min_run_s=0.02 if quick else 0.05,
            budget_s=2.0 if quick else 10.0,
            total_s=15.0 if quick else 100.0,
        )
    else:
        caches = caches if caches is not None else cpu_caches()
        last = max(caches.values(), default=32 * MIB)
        l2 = caches.get(2, 1 * MIB)
        memory = memory_bytes or physical_memory() or 8 * 1024 * MIB
        floor = 64 * MIB if quick else 256 * MIB
        stream = min(max(4 * last, floor), max(memory // 24, 16 * MIB))
        plan = Plan(
            "cpu",
            quick,
            gemm_sizes=(512, 1024, 2048) if quick else (1024, 2048, 3072, 4096),
            stream_bytes=stream,
            cache_bytes=max(16 * KIB, min(l2 // 4, 256 * KIB)),
            sweep_ks=(2, 8, 32, 128, 512) if quick else tuple(2**i for i in range(1, 11)),
            sweep_bytes=stream // 2,
            repeats=3 if quick else 5,
            min_run_s=0.05 if quick else 0.2,
            budget_s=1.5 if quick else 10.0,
            total_s=12.0 if quick else 90.0,
        )
    if scale == 1.0:
        return plan
    side = scale ** (1 / 3)
    return Plan(
        plan.device,
        plan.quick,
        gemm_sizes=tuple(sorted({max(32, round(n * side / 16) * 16) for n in plan.gemm_sizes})),
        stream_bytes=max(64 * KIB, int(plan.stream_bytes * scale)),
        cache_bytes=plan.cache_bytes,
        sweep_ks=tuple(k for k in plan.sweep_ks if k <= max(4, plan.sweep_ks[-1] * side)),
        sweep_bytes=max(64 * KIB, int(plan.sweep_bytes * scale)),
        repeats=max(2, min(plan.repeats, 3)),
        min_run_s=max(1e-4, plan.min_run_s * scale),
        budget_s=plan.budget_s,
        total_s=plan.total_s,
        scale=scale,
    )
