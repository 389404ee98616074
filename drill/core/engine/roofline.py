"""Roofline math: peak, bandwidth, ridge, attainable, bound, time, efficiency, diagnosis.

Conventions: decimal SI, base units (FLOP/s, B/s, s); one FMA = 2 FLOPs; attainable =
min(peak, intensity × bandwidth); the bound is memory strictly below the ridge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from drill.core.engine.operators import OpCost
from drill.core.engine.steps import Step, num
from drill.core.units import format_si, math_units, sig
from drill.i18n.text import Text

# Kernels that run on the vector (non-tensor) units: tensor cores only do matrix products.
# A GEMV has one column, so an MMA would waste all but one of its columns: vector units too.
VECTOR_OPS = frozenset({"elementwise", "reduction", "softmax", "layernorm", "copy", "gemv"})

MEMORY = "memory"
COMPUTE = "compute"
LATENCY = "latency"
SOL_THRESHOLD = 0.60
ABOVE_ROOF = Text(
    "The measured rate is above the roof, which is impossible: check its units, the FLOP count "
    "and the card.",
    "实测吞吐高于屋顶，这不可能：请检查单位、FLOP 计数和所选显卡。",
)


def peak_from_specs(units: int, lanes: int, clock_hz: float) -> tuple[float, Step]:
    """Peak = units × lanes per unit × 2 (FMA) × clock."""
    value = units * lanes * 2.0 * clock_hz
    step = Step(
        "peak",
        "Peak compute",
        "峰值算力",
        "units × lanes × 2 (FMA) × clock",
        f"{num(units)} × {num(lanes)} × 2 × {format_si(clock_hz, 'Hz')}",
        value,
        "FLOP/s",
    )
    return value, step


def bandwidth_from_specs(bus_bits: int, data_rate_gbps: float) -> tuple[float, Step]:
    """Bandwidth = bus width / 8 × per-pin data rate (already double data rate)."""
    value = bus_bits / 8.0 * data_rate_gbps * 1e9
    step = Step(
        "bandwidth",
        "Memory bandwidth",
        "显存带宽",
        "bus width (bit) / 8 × per-pin rate (Gb/s)",
        f"{num(bus_bits)} / 8 × {sig(data_rate_gbps, 4)} Gb/s",
        value,
        "B/s",
    )
    return value, step


def uses_tensor_cores(op: str) -> bool:
    """Whether an operator's roof is the tensor-core peak (matrix products) or the vector one."""
    return op not in VECTOR_OPS


def ridge(peak: float, bandwidth: float) -> float:
    return peak / bandwidth


def attainable(intensity: float, peak: float, bandwidth: float) -> float:
    return min(peak, intensity * bandwidth)


def bound(intensity: float, peak: float, bandwidth: float) -> str:
    return MEMORY if intensity < peak / bandwidth else COMPUTE


def min_time(flops: float, nbytes: float, peak: float, bandwidth: float) -> float:
    return max(flops / peak, nbytes / bandwidth)


def sol_diagnosis(compute_frac: float, memory_frac: float) -> str:
    """Nsight Compute Speed-of-Light reading: the larger share ≥ 60 % names the bound."""
    top = max(compute_frac, memory_frac)
    if top < SOL_THRESHOLD:
        return LATENCY
    return COMPUTE if compute_frac >= memory_frac else MEMORY


def critical_batch(peak: float, bandwidth: float, dtype_bytes: int) -> float:
    """Decode batch where 2·P·B / (s·P) reaches the ridge: B* = ridge · s / 2."""
    return ridge(peak, bandwidth) * dtype_bytes / 2.0


def ops_per_element_to_compute(
    peak: float, bandwidth: float, dtype_bytes: int, inputs: int, outputs: int
) -> float:
    """FLOPs per element at which an element-wise op reaches the ridge: ridge · s · (i + o)."""
    return ridge(peak, bandwidth) * dtype_bytes * (inputs + outputs)


@dataclass(frozen=True)
class Waves:
    """How a grid of blocks fills the card: waves, and the share of the last one used."""

    blocks: int
    slots: int  # blocks that run at once: units × blocks per unit
    waves: int
    utilization: float  # useful share of the last-wave-padded work


def wave_quantization(blocks: int, units: int, blocks_per_unit: int = 1) -> Waves:
    """Blocks run in waves of units × blocks per unit; a partial last wave idles the rest."""
    if blocks <= 0 or units <= 0 or blocks_per_unit <= 0:
        raise ValueError("blocks, units and blocks per unit must be positive")
    slots = units * blocks_per_unit
    waves = math.ceil(blocks / slots)
    return Waves(blocks, slots, waves, blocks / (waves * slots))


@dataclass(frozen=True)
class Analysis:
    """An operator placed on a roofline, with every step of the derivation."""

    cost: OpCost
    dtype: str
    peak: float
    bandwidth: float
    intensity: float
    ridge: float
    attainable: float
    bound: str
    min_time: float
    measured: float | None = None
    efficiency: float | None = None
    gpu: str = ""
    peak_label: str = ""
    steps: tuple[Step, ...] = field(default_factory=tuple)

    @property
    def above_roof(self) -> bool:
        """A measured rate above the roof means the units, the FLOP count or the card is off."""
        return self.efficiency is not None and self.efficiency > 1.0 + 1e-9

    def to_json(self) -> dict:
        data = {
            "op": self.cost.op,
            "params": self.cost.params,
            "gpu": self.gpu,
            "dtype": self.dtype,
            "peak_path": self.peak_label,
            "flops": self.cost.flops,
            "bytes": self.cost.bytes,
            "intensity": self.intensity,
            "peak_flops": self.peak,
            "bandwidth": self.bandwidth,
            "ridge": self.ridge,
            "bound": self.bound,
            "attainable_flops": self.attainable,
            "min_time_s": self.min_time,
            "compute_time_s": self.cost.flops / self.peak,
            "memory_time_s": self.cost.bytes / self.bandwidth,
        }
        if self.measured is not None:
            data["measured_flops"] = self.measured
            data["efficiency"] = self.efficiency
            if self.above_roof:
                data["warnings"] = [ABOVE_ROOF.en]
        data["steps"] = [step.to_json() for step in self.steps]
        return data


def _finite(value: float) -> bool:
    try:
        return math.isfinite(value)
    except OverflowError:  # an int beyond float range
        return False


def intensity_step(flops: float, nbytes: float, dram: bool = False, dtype: str = "") -> Step:
    """FLOPs / bytes as a derivation line (``dram``: the bytes are a profile's DRAM bytes)."""
    formula, formula_zh = (
        ("FLOPs / DRAM bytes", "FLOPs / 显存字节数") if dram else ("FLOPs / bytes", "")
    )
    return Step(
        "intensity",
        "Arithmetic intensity",
        "算术强度",
        formula,
        f"{sig(flops)} / {sig(nbytes)}",
        flops / nbytes,
        math_units(dtype)[1],
        formula_zh=formula_zh,
    )


def ridge_step(peak: float, bandwidth: float, dtype: str = "") -> Step:
    """peak / bandwidth as a derivation line."""
    rate, per_byte = math_units(dtype)
    return Step(
        "ridge",
        "Ridge point",
        "拐点",
        "peak / bandwidth",
        f"{format_si(peak, rate)} / {format_si(bandwidth, 'B/s')}",
        peak / bandwidth,
        per_byte,
    )


def analyze(
    cost: OpCost,
    peak: float,
    bandwidth: float,
    dtype: str,
    measured: float | None = None,
    gpu: str = "",
    peak_label: str = "",
) -> Analysis:
    """Place ``cost`` on the roofline of a card with ``peak`` FLOP/s and ``bandwidth`` B/s."""
    if peak <= 0 or bandwidth <= 0:
        raise ValueError("peak and bandwidth must be positive")
    if cost.bytes <= 0:
        raise ValueError("an operator must move some bytes")
    figures = (cost.flops, cost.bytes, peak, bandwidth, measured or 0.0)
    if not all(_finite(x) for x in figures):
        raise ValueError("the figures are too large to compute; use realistic sizes")
    intensity = cost.flops / cost.bytes
    rid = ridge(peak, bandwidth)
    att = attainable(intensity, peak, bandwidth)
    kind = bound(intensity, peak, bandwidth)
    t = min_time(cost.flops, cost.bytes, peak, bandwidth)
    steps = list(cost.steps)
    rate = math_units(dtype)[0]
    steps.append(intensity_step(cost.flops, cost.bytes, dtype=dtype))
    steps.append(ridge_step(peak, bandwidth, dtype))
    cmp = "<" if kind == MEMORY else "≥"
    steps.append(
        Step(
            "bound",
            "Bound",
            "瓶颈",
            "memory if intensity < ridge, else compute",
            f"{sig(intensity)} {cmp} {sig(rid)}",
            kind,
            formula_zh="强度 < 拐点则访存密集，否则计算密集",
        )
    )
    steps.append(
        Step(
            "attainable",
            "Attainable",
            "可达性能",
            "min(peak, intensity × bandwidth)",
            f"min({format_si(peak, rate)}, {sig(intensity)} × {format_si(bandwidth, 'B/s')})",
            att,
            rate,
        )
    )
    steps.append(
        Step(
            "min-time",
            "Minimum time",
            "最短时间",
            "max(FLOPs / peak, bytes / bandwidth)",
            f"max({format_si(cost.flops / peak, 's')}, {format_si(cost.bytes / bandwidth, 's')})",
            t,
            "s",
        )
    )
    efficiency = None
    if measured is not None:
        if measured <= 0:
            raise ValueError("the measured rate must be positive")
        efficiency = measured / att
        steps.append(
            Step(
                "efficiency",
                "Efficiency",
                "效率",
                "measured / attainable",
                f"{format_si(measured, rate)} / {format_si(att, rate)}",
                efficiency,
                "%",
            )
        )
    return Analysis(
        cost,
        dtype,
        peak,
        bandwidth,
        intensity,
        rid,
        att,
        kind,
        t,
        measured,
        efficiency,
        gpu,
        peak_label,
        tuple(steps),
    )
