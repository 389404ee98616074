"""Running a plan on a backend: GEMM at each size, STREAM copy and triad, the intensity sweep.

Datasheet peaks are promises; the roofline that matters is the one the machine sustains (the
idea behind the Empirical Roofline Toolkit). Sizes predicted to overrun the plan's budget are
skipped with a note, and progress advances in estimated seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timezone

from drill.core.engine.operators import dtype_bytes
from drill.measure.backends import open_backend
from drill.measure.backends.base import Backend
from drill.measure.plan import Plan
from drill.measure.result import Measurement
from drill.measure.sizes import bytes_text
from drill.measure.timing import Kernel, Sample, SweepPoint, time_runs

TRIAD_SCALAR = 3.0

ProgressFn = Callable[[str, float, float], None]


class _Steps:
    """Progress in estimated seconds, so a bar advances evenly across unequal steps, and the
    deadline after which the optional large sizes are dropped."""

    def __init__(self, total: float, report: ProgressFn | None, deadline: float) -> None:
        self.total = max(total, 1e-9)
        self.done = 0.0
        self.report = report
        self.deadline = deadline

    def too_long(self, predicted: float, budget: float) -> bool:
        return predicted > budget or time.perf_counter() + predicted > self.deadline

    def start(self, label: str) -> None:
        if self.report:
            self.report(label, self.done, self.total)

    def advance(self, weight: float) -> None:
        self.done = min(self.total, self.done + weight)
        if self.report:
            self.report("", self.done, self.total)


def _estimates(plan: Plan, backend: Backend) -> dict[str, float]:
    """Rough seconds per step, from a modest guess of the machine's speed."""
    flops, bw = (5e13, 1e12) if plan.device == "cuda" else (5e10, 2e10)
    runs = plan.repeats + 2
    est: dict[str, float] = {}
    for dtype in backend.gemm_dtypes:
        for n in plan.gemm_sizes:
            est[f"gemm-{dtype}-{n}"] = runs * max(plan.min_run_s, 2 * n**3 / flops)
    for name, words in (("copy", 2), ("triad", 3)):
        est[name] = 0.2 + runs * max(plan.min_run_s, words * plan.stream_bytes / bw)
    if plan.cache_bytes:
        est["cache"] = runs * plan.min_run_s
    s = dtype_bytes(backend.sweep_dtype)
    for k in plan.sweep_ks:
        rows = plan.sweep_bytes // (s * k)
        est[f"sweep-{k}"] = runs * max(plan.min_run_s, 2 * rows * k * k / flops)
    return est


def measure(
    plan: Plan, backend: Backend | None = None, progress: ProgressFn | None = None
) -> Measurement:
    """Run the whole plan; ``progress(label, done, total)`` is called as it goes."""
    backend = backend or open_backend(plan.device)
    began = time.perf_counter()
    result = Measurement(
        device=plan.device,
        processor=backend.processor,
        vendor=backend.vendor,
        library=backend.library,
        units=backend.units,
        memory_bytes=backend.memory_bytes,
        plan=plan,
        started=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        sweep_dtype=backend.sweep_dtype,
        stream_dtype=backend.stream_dtype,
        info=backend.info(),
    )
    est = _estimates(plan, backend)
    steps = _Steps(sum(est.values()), progress, began + plan.total_s)
    try:
        for dtype in backend.gemm_dtypes:
            kernel = _gemm(plan, backend, dtype, steps, est, result.notes)
            if kernel is not None:
                result.gemm[dtype] = kernel
        _streams(plan, backend, steps, est, result)
        _sweep(plan, backend, steps, est, result)
        _fold_sweep(result)
    finally:
        backend.release()
    result.elapsed_s = time.perf_counter() - began
    return result


def _fits(backend: Backend, nbytes: float) -> bool:
    free = backend.free_bytes()
    return free is None or nbytes < 0.8 * free


def _gemm(
    plan: Plan, backend: Backend, dtype: str, steps: _Steps, est: dict[str, float], notes: list[str]
) -> Kernel | None:
    s = dtype_bytes(dtype)
    tried: list[tuple[str, Sample]] = []
    last: tuple[int, float] | None = None
    for n in plan.gemm_sizes:
        key = f"gemm-{dtype}-{n}"
        steps.start(f"GEMM {dtype} n={n}")
        predicted = last[1] * (n / last[0]) ** 3 * (plan.repeats + 2) if last else 0.0
        if steps.too_long(predicted, plan.budget_s):
            notes.append(
                f"GEMM {dtype} n={n} skipped to keep within the time budget (about "
                f"{predicted:.0f} s at the rate of n={last[0]})"
            )
            steps.advance(est[key])
            continue
        if not _fits(backend, 3 * n * n * s):
            notes.append(f"GEMM {dtype} n={n} skipped: not enough free memory")
            steps.advance(est[key])
            continue
        try:
            a, b, c = (backend.matrix(n, n, dtype) for _ in range(3))
            times = time_runs(
                backend.matmul(a, b, c, dtype), backend.sync, plan.min_run_s, plan.repeats
            )
        except backend.oom:
            notes.append(f"GEMM {dtype} n={n} skipped: out of memory")
            steps.advance(est[key])
            break
        finally:
            a = b = c = None
        tried.append((f"n={n}", Sample(2.0 * n**3, times)))
        last = (n, min(times))
        steps.advance(est[key])
    if not tried:
        return None
    size, best = max(tried, key=lambda item: item[1].best)
    return Kernel(f"gemm-{dtype}", "FLOP/s", best, size, tuple(tried))


def _streams(
    plan: Plan, backend: Backend, steps: _Steps, est: dict[str, float], result: Measurement
) -> None:
    nbytes = plan.stream_bytes
    size = bytes_text(nbytes)
    arrays = None
    try:
        if _fits(backend, 3 * nbytes):
            arrays = backend.vectors(nbytes, 3)
        else:
            result.notes.append("bandwidth skipped: not enough free memory")
    except backend.oom:
        result.notes.append("bandwidth skipped: out of memory")
    steps.start("copy")
    if arrays is not None:
        a, b, c = arrays
        elem = a.element_size() if hasattr(a, "element_size") else a.itemsize
        length = len(a)
        copy = backend.copy(b, a)
        times = time_runs(copy, backend.sync, plan.min_run_s, plan.repeats)
        result.streams["copy"] = Kernel(
            "copy", "B/s", Sample(2.0 * elem * length, times), f"2 × {size}"
        )
    steps.advance(est["copy"])
    steps.start("triad")
    if arrays is not None:
        triad = backend.triad(a, b, c, TRIAD_SCALAR)
        if triad is None:
            result.notes.append("triad skipped: no fused kernel available")
        else:
            times = time_runs(triad, backend.sync, plan.min_run_s, plan.repeats)
            result.streams["triad"] = Kernel(
                "triad", "B/s", Sample(3.0 * elem * length, times), f"3 × {size}"
            )
    arrays = a = b = c = None
    steps.advance(est["triad"])
    if plan.cache_bytes:
        steps.start("cache copy")
        made = backend.cache_copy(plan.cache_bytes)
        if made is not None:
            fn, work, label = made
            times = time_runs(fn, backend.sync, plan.min_run_s, plan.repeats)
            result.streams["cache_copy"] = Kernel("cache_copy", "B/s", Sample(work, times), label)
        steps.advance(est.get("cache", 0.0))


def _fold_sweep(result: Measurement) -> None:
    """The sweep runs GEMMs too: where a sweep shape beats every square one, it sets the peak,
    so that no measured point sits above the measured roof."""
    dtype = result.sweep_dtype
    if dtype not in result.gemm or not result.sweep:
        return
    top = max(result.sweep, key=lambda p: p.sample.best)
    square = result.gemm[dtype]
    if top.sample.best > square.sample.best:
        size = f"X·W, k={top.k}"
        result.gemm[dtype] = Kernel(
            square.key, square.unit, top.sample, size, square.sizes + ((size, top.sample),)
        )


def _sweep(
    plan: Plan, backend: Backend, steps: _Steps, est: dict[str, float], result: Measurement
) -> None:
    """Y = X·W over X of M×k: FLOPs 2·M·k², bytes s·(2·M·k + k²), intensity ≈ k/s.

    X and Y stream through memory once while W stays in cache, so k dials the FLOPs per byte
    from far below the ridge to far above it, like mixbench's inner loop count.
    """
    dtype = backend.sweep_dtype
    s = dtype_bytes(dtype)
    elems = plan.sweep_bytes // s
    try:
        if not _fits(backend, 2 * plan.sweep_bytes):
            result.notes.append("sweep skipped: not enough free memory")
            return
        x_flat = backend.empty(elems, dtype)
        y_flat = backend.empty(elems, dtype)
    except backend.oom:
        result.notes.append("sweep skipped: out of memory")
        return
    last: tuple[int, float] | None = None
    for k in plan.sweep_ks:
        steps.start(f"sweep k={k}")
        rows = elems // k
        if rows < k:
            steps.advance(est[f"sweep-{k}"])
            continue
        predicted = last[1] * (k / last[0]) * (plan.repeats + 2) if last else 0.0
        if steps.too_long(predicted, plan.budget_s):
            result.notes.append(
                f"sweep k={k} skipped to keep within the time budget (about "
                f"{predicted:.0f} s at the rate of k={last[0]})"
            )
            steps.advance(est[f"sweep-{k}"])
            continue
        x = backend.view(x_flat, rows, k)
        y = backend.view(y_flat, rows, k)
        w = backend.matrix(k, k, dtype)
        times = time_runs(
            backend.matmul(x, w, y, dtype), backend.sync, plan.min_run_s, plan.repeats
        )
        flops = 2.0 * rows * k * k
        nbytes = float(s * (2 * rows * k + k * k))
        result.sweep.append(SweepPoint(k, rows, flops, nbytes, Sample(flops, times)))
        last = (k, min(times))
        steps.advance(est[f"sweep-{k}"])
