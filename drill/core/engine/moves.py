"""Which way does the dot move: one transformation, the operator before and after it.

Each transformation returns a before and an after: FLOPs, bytes, and the roof (peak and
bandwidth) each runs under. A move compares the two points: intensity left / right / same,
attainable up / down / same, whether the bound flips, and the speed-up. The speed-up is
t_before / t_after for the same work; for batching it is the throughput ratio (tokens per
second), since the work itself grows with the batch.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from drill.core.engine import decoding
from drill.core.engine import operators as ops
from drill.core.engine.hierarchy import L2, gemm_level_bytes
from drill.core.engine.operators import OpCost, ShapeError, dtype_bytes
from drill.core.engine.steps import Step, num
from drill.core.units import format_si, sig

SAME = 0.02  # within 2 % counts as "same"
LEFT, RIGHT, UP, DOWN, STAY = "left", "right", "up", "down", "same"
MEMORY, COMPUTE = "memory", "compute"


@dataclass(frozen=True)
class Point:
    """An operator under one roof."""

    label: str
    flops: float
    bytes: float
    peak: float
    bandwidth: float
    work: float = 1.0  # units of useful work (tokens), for a throughput speed-up

    @property
    def intensity(self) -> float:
        return self.flops / self.bytes

    @property
    def ridge(self) -> float:
        return self.peak / self.bandwidth

    @property
    def attainable(self) -> float:
        return min(self.peak, self.intensity * self.bandwidth)

    @property
    def time(self) -> float:
        return max(self.flops / self.peak, self.bytes / self.bandwidth)

    @property
    def bound(self) -> str:
        return MEMORY if self.intensity < self.ridge else COMPUTE

    def to_json(self) -> dict:
        return {
            "label": self.label,
            "flops": self.flops,
            "bytes": self.bytes,
            "peak_flops": self.peak,
            "bandwidth": self.bandwidth,
            "intensity": self.intensity,
            "ridge": self.ridge,
            "attainable_flops": self.attainable,
            "bound": self.bound,
            "min_time_s": self.time,
            "work": self.work,
        }


def _direction(before: float, after: float, up: str, down: str) -> str:
    if abs(after - before) <= SAME * before:
        return STAY
    return up if after > before else down


@dataclass(frozen=True)
class Move:
    kind: str
    before: Point
    after: Point

    @property
    def intensity_move(self) -> str:
        return _direction(self.before.intensity, self.after.intensity, RIGHT, LEFT)

    @property
    def attainable_move(self) -> str:
        return _direction(self.before.attainable, self.after.attainable, UP, DOWN)

    @property
    def flips(self) -> bool:
        return self.before.bound != self.after.bound

    @property
    def speedup(self) -> float:
        """Throughput after / throughput before (for the same work: t_before / t_after)."""
        return (self.after.work / self.after.time) / (self.before.work / self.before.time)

    def steps(self) -> tuple[Step, ...]:
        b, a = self.before, self.after
        rows = []
        for tag, p, en, zh in (("before", b, "Before", "之前"), ("after", a, "After", "之后")):
            rows.append(
                Step(
                    f"intensity-{tag}",
                    f"{en}: intensity",
                    f"{zh}：算术强度",
                    "FLOPs / bytes",
                    f"{sig(p.flops)} / {sig(p.bytes)}",
                    p.intensity,
                    "FLOP/B",
                )
            )
            rows.append(
                Step(
                    f"time-{tag}",
                    f"{en}: minimum time ({p.bound}-bound, ridge {sig(p.ridge, 3)} FLOP/B)",
                    f"{zh}：最短时间（{'带宽' if p.bound == MEMORY else '算力'}受限，拐点 "
                    f"{sig(p.ridge, 3)} FLOP/B）",
                    "max(FLOPs / peak, bytes / bandwidth)",
                    f"max({format_si(p.flops / p.peak, 's')}, {format_si(p.bytes / p.bandwidth, 's')})",
                    p.time,
                    "s",
                )
            )
        if b.work != a.work:
            formula = "(work after / t after) / (work before / t before)"
            formula_zh = "(之后的工作量 / 之后的时间) / (之前的工作量 / 之前的时间)"
            sub = (
                f"({num(a.work)} / {format_si(a.time, 's')}) / "
                f"({num(b.work)} / {format_si(b.time, 's')})"
            )
        else:
            formula, formula_zh = "t before / t after", "之前的时间 / 之后的时间"
            sub = f"{format_si(b.time, 's')} / {format_si(a.time, 's')}"
        rows.append(
            Step("speedup", "Speed-up", "加速比", formula, sub, self.speedup, "x", formula_zh)
        )
        return tuple(rows)

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "before": self.before.to_json(),
            "after": self.after.to_json(),
            "intensity_moves": self.intensity_move,
            "attainable_moves": self.attainable_move,
            "bound_flips": self.flips,
            "speedup": self.speedup,
            "steps": [s.to_json() for s in self.steps()],
        }


def _point(label: str, cost: OpCost, peak: float, bandwidth: float, work: float = 1.0) -> Point:
    return Point(label, cost.flops, cost.bytes, peak, bandwidth, work)


def _decode(context: int, layers: int, head_dim: int, heads: int):
    """A decode step of this model's attention shape, for the batch and KV heads to vary."""
    return functools.partial(
        decoding.decode, context=context, layers=layers, head_dim=head_dim, heads=heads
    )


def fuse(n: int, kernels: int, dtype: str, peak: float, bandwidth: float) -> Move:
    """A chain of ``kernels`` element-wise ops (1 FLOP each, one input, one output) on n
    elements, fused into one kernel: same FLOPs, the intermediates never reach DRAM."""
    if kernels < 2:
        raise ShapeError("fusion needs at least 2 kernels")
    one = ops.elementwise(n, 1, 1, 1, dtype)
    before = Point("unfused", one.flops * kernels, one.bytes * kernels, peak, bandwidth)
    after = Point("fused", one.flops * kernels, one.bytes, peak, bandwidth)
    return Move("fuse", before, after)


def decode_batch(
    params: float,
    batch: int,
    new_batch: int,
    dtype: str,
    peak: float,
    bandwidth: float,
    context: int = 0,
    layers: int = 0,
    kv_heads: int = 0,
    head_dim: int = 0,
    heads: int = 0,
) -> Move:
    """Decode at a larger batch: weights are shared by the batch, each sequence's KV cache is
    not. Work = tokens per step (the batch). ``heads``: the query heads attention runs over
    (the KV heads unless given)."""
    step = _decode(context, layers, head_dim, heads)
    b = step(params, dtype, batch, kv_heads=kv_heads)
    a = step(params, dtype, new_batch, kv_heads=kv_heads)
    return Move(
        "batch",
        _point(f"batch {batch}", b, peak, bandwidth, batch),
        _point(f"batch {new_batch}", a, peak, bandwidth, new_batch),
    )


def precision(
    m: int, n: int, k: int, dtype: str, new_dtype: str, peak: float, new_peak: float, bw: float
) -> Move:
    """A GEMM moved to a narrower type: fewer bytes and a higher tensor roof."""
    return Move(
        "precision",
        _point(dtype, ops.gemm(m, n, k, dtype), peak, bw),
        _point(new_dtype, ops.gemm(m, n, k, new_dtype), new_peak, bw),
    )


WEIGHT_BITS = (4, 8)


def weight_only(
    params: float,
    batch: int,
    bits: int,
    peak: float,
    bandwidth: float,
    context: int = 0,
    layers: int = 0,
    kv_heads: int = 0,
    head_dim: int = 0,
    heads: int = 0,
) -> Move:
    """fp16 decode with weights stored in int4 / int8 and dequantized on load: the math (and
    its roof) stays fp16, only the weight bytes fall; the KV cache stays fp16."""
    if bits not in WEIGHT_BITS:
        raise ShapeError("weight-only quantization uses 4 or 8 bits")
    b = _decode(context, layers, head_dim, heads)(params, "fp16", batch, kv_heads=kv_heads)
    saved = params * (dtype_bytes("fp16") - bits / 8)
    return Move(
        "weight-only",
        _point("fp16 weights", b, peak, bandwidth),
        Point(f"int{bits} weights", b.flops, b.bytes - saved, peak, bandwidth),
    )


def larger_tile(
    m: int, n: int, k: int, dtype: str, bm: int, new_bm: int, peak: float, l2_bw: float
) -> Move:
    """Square tiles BM×BM → new_BM×new_BM, placed against the L2 roof (DRAM traffic is
    compulsory and does not change)."""
    b = gemm_level_bytes(m, n, k, dtype, bm, bm)[L2]
    a = gemm_level_bytes(m, n, k, dtype, new_bm, new_bm)[L2]
    flops = 2.0 * m * n * k
    return Move(
        "tile",
        Point(f"{bm}×{bm} tiles", flops, b, peak, l2_bw),
        Point(f"{new_bm}×{new_bm} tiles", flops, a, peak, l2_bw),
    )


def flash(batch: int, heads: int, seq: int, head_dim: int, dtype: str, peak, bandwidth) -> Move:
    """Naive attention (scores and probabilities through DRAM) → fused (flash) attention."""
    return Move(
        "flash",
        _point("naive", ops.attention(batch, heads, seq, head_dim, dtype), peak, bandwidth),
        _point(
            "fused", ops.attention(batch, heads, seq, head_dim, dtype, fused=True), peak, bandwidth
        ),
    )


def gqa(
    params: float,
    batch: int,
    context: int,
    layers: int,
    heads: int,
    group: int,
    head_dim: int,
    dtype: str,
    peak: float,
    bandwidth: float,
) -> Move:
    """MHA → GQA at decode: the KV cache (and its bytes) shrink by the group size; the query
    heads, and the attention FLOPs, stay."""
    if group < 2 or heads % group:
        raise ShapeError("the group size must divide the query heads and be at least 2")
    step = _decode(context, layers, head_dim, heads)
    b = step(params, dtype, batch, kv_heads=heads)
    a = step(params, dtype, batch, kv_heads=heads // group)
    return Move("gqa", _point("MHA", b, peak, bandwidth), _point("GQA", a, peak, bandwidth))


def split_k(m: int, n: int, k: int, dtype: str, splits: int, peak: float, bw: float) -> Move:
    """Split-K: each of ``splits`` slices writes an fp32 partial M×N that a second pass reads
    and sums. FLOPs barely change, bytes grow: the dot moves left. What it buys (more blocks
    for a skinny grid) is wave quantization, not a roofline gain."""
    if splits < 2:
        raise ShapeError("split-K needs at least 2 splits")
    base = ops.gemm(m, n, k, dtype)
    partials = 2.0 * splits * m * n * 4  # written, then read, in fp32
    after = Point(f"split-K {splits}", base.flops + splits * m * n, base.bytes + partials, peak, bw)
    return Move("split-k", _point("one pass", base, peak, bw), after)


def card(cost: OpCost, peak: float, bw: float, new_peak: float, new_bw: float) -> Move:
    """The same operator on another card: the dot keeps its intensity, the roof moves."""
    return Move(
        "card", _point("old card", cost, peak, bw), _point("new card", cost, new_peak, new_bw)
    )


KINDS = ("fuse", "batch", "precision", "weight-only", "tile", "flash", "gqa", "split-k", "card")
