"""Timing statistics: a kernel's runs, the best / median / worst rate, and the timer itself.

Every figure is the best of several timed runs, reported with its median and worst so the
spread is visible: noise only ever slows a machine down.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Sample:
    """Timed runs of one kernel: ``work`` FLOPs or bytes per run, seconds per run."""

    work: float
    times: tuple[float, ...]

    @property
    def best(self) -> float:
        """Best sustained rate: the machine can do at least this, noise only slows it down."""
        return self.work / min(self.times)

    @property
    def median(self) -> float:
        return self.work / statistics.median(self.times)

    @property
    def worst(self) -> float:
        return self.work / max(self.times)

    @property
    def spread_pct(self) -> float:
        """How far the median falls below the best, in percent (0 = perfectly steady)."""
        return (1 - self.median / self.best) * 100

    def to_json(self) -> dict:
        return {
            "best": self.best,
            "median": self.median,
            "worst": self.worst,
            "spread_pct": self.spread_pct,
            "runs": len(self.times),
            "best_time_s": min(self.times),
        }


@dataclass(frozen=True)
class Kernel:
    """One measured kernel at its best size; ``unit`` is FLOP/s or B/s."""

    key: str
    unit: str
    sample: Sample
    size: str
    sizes: tuple[tuple[str, Sample], ...] = ()

    def to_json(self) -> dict:
        data = {"kernel": self.key, "unit": self.unit, "size": self.size, **self.sample.to_json()}
        if self.sizes:
            data["sizes"] = [{"size": s, **x.to_json()} for s, x in self.sizes]
        return data


@dataclass(frozen=True)
class SweepPoint:
    """One run of the intensity sweep: Y = X·W with X of M×k and W of k×k."""

    k: int
    rows: int
    flops: float
    bytes: float
    sample: Sample

    @property
    def intensity(self) -> float:
        return self.flops / self.bytes

    def to_json(self) -> dict:
        return {
            "k": self.k,
            "rows": self.rows,
            "flops": self.flops,
            "bytes": self.bytes,
            "intensity": self.intensity,
            **self.sample.to_json(),
        }


def time_runs(
    fn: Callable[[], object], sync: Callable[[], None], min_run_s: float, repeats: int
) -> tuple[float, ...]:
    """Seconds per call, ``repeats`` times; each timed run loops until it lasts ``min_run_s``.

    The first call is a warm-up (page faults, BLAS thread start, cuBLAS heuristics); the
    second sizes the inner loop so that short kernels are timed over a sustained stretch.
    """
    sync()
    fn()
    sync()
    start = time.perf_counter()
    fn()
    sync()
    once = max(time.perf_counter() - start, 1e-9)
    inner = max(1, min(100_000, math.ceil(min_run_s / once)))
    times = []
    for _ in range(repeats):
        sync()
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        sync()
        times.append((time.perf_counter() - start) / inner)
    return tuple(times)
