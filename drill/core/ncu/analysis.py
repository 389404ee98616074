"""A kernel from an Nsight Compute report placed on a card's roofline, every step shown."""

from __future__ import annotations

from dataclasses import dataclass

from drill.core.engine import roofline as rl
from drill.core.engine.roofline import intensity_step, ridge_step
from drill.core.engine.steps import Step
from drill.core.ncu.kernels import COLLECT, DEFAULT_MMA, FLOP_COUNTERS, Kernel
from drill.core.units import format_si, sig


@dataclass(frozen=True)
class Placement:
    """A kernel on a card's roofline: what it achieved against what the card allows."""

    kernel: Kernel
    peak: float
    bandwidth: float
    roof: str  # the peak used, e.g. "vector.fp32", "tensor.fp16"
    achieved_bandwidth: float | None
    achieved_flops: float | None
    intensity: float | None
    ridge: float
    bound: str | None  # intensity against the ridge
    attainable: float | None
    efficiency: float | None
    compute_pct: float  # % of peak (from ncu when reported, else derived)
    memory_pct: float
    sol_from_report: bool
    verdict: str  # the Speed-of-Light reading: memory, compute or latency
    steps: tuple[Step, ...]


def _flop_terms(k: Kernel, mma: tuple[int, int, int]) -> str:
    names = {2: "2·", 1: ""}
    terms = [
        f"{names[f]}{op.upper()} {int(k.counters[op])}"
        for op, _, f in FLOP_COUNTERS
        if k.counters.get(op)
    ]
    if k.tensor_inst:
        m, n, kk = mma
        terms.append(f"MMA {int(k.tensor_inst)} × 2·{m}·{n}·{kk}")
    return " + ".join(terms) or "0"


def place(
    k: Kernel,
    peak: float,
    bandwidth: float,
    roof: str,
    mma: tuple[int, int, int] = DEFAULT_MMA,
) -> Placement:
    """``k`` against a roof of ``peak`` FLOP/s and ``bandwidth`` B/s; every step shown."""
    steps: list[Step] = []
    t = k.duration
    if t is not None:
        steps.append(
            Step(
                "duration",
                "Duration",
                "耗时",
                "Σ gpu__time_duration",
                f"n = {k.launches}",
                t,
                "s",
                formula_zh="Σ gpu__time_duration",
            )
        )
    bw = flops_rate = intensity = None
    if k.dram_bytes is not None:
        how = (
            "DRAM throughput × duration"
            if k.dram_from_rate
            else "dram__bytes_read + dram__bytes_write"
        )
        how_zh = "DRAM 吞吐 × 耗时" if k.dram_from_rate else "dram__bytes_read + dram__bytes_write"
        steps.append(
            Step(
                "bytes", "DRAM bytes", "DRAM 字节数", how, "", k.dram_bytes, "B", formula_zh=how_zh
            )
        )
    if k.flops is not None:
        steps.append(
            Step(
                "flops",
                "FLOPs",
                "浮点运算数",
                "2·FMA + ADD + MUL (+ MMA × 2·m·n·k)",
                _flop_terms(k, mma),
                k.flops,
                "FLOP",
                formula_zh="2·FMA + ADD + MUL（+ MMA × 2·m·n·k）",
            )
        )
    if t:
        if k.flops is not None:
            flops_rate = k.flops / t
            steps.append(
                Step(
                    "achieved",
                    "Achieved FLOP/s",
                    "实际 FLOP/s",
                    "FLOPs / duration",
                    f"{format_si(k.flops, 'FLOP')} / {format_si(t, 's')}",
                    flops_rate,
                    "FLOP/s",
                    formula_zh="FLOPs / 耗时",
                )
            )
        if k.dram_bytes is not None:
            bw = k.dram_bytes / t
            steps.append(
                Step(
                    "bandwidth",
                    "Achieved DRAM bandwidth",
                    "实际显存带宽",
                    "bytes / duration",
                    f"{format_si(k.dram_bytes, 'B')} / {format_si(t, 's')}",
                    bw,
                    "B/s",
                    formula_zh="字节数 / 耗时",
                )
            )
    ridge = rl.ridge(peak, bandwidth)
    bound = attainable = efficiency = None
    if k.flops is not None and k.dram_bytes:
        intensity = k.flops / k.dram_bytes
        steps.append(intensity_step(k.flops, k.dram_bytes))
        steps.append(ridge_step(peak, bandwidth))
        bound = rl.bound(intensity, peak, bandwidth)
        steps.append(
            Step(
                "bound",
                "Bound",
                "瓶颈",
                "memory if intensity < ridge, else compute",
                f"{sig(intensity)} {'<' if bound == 'memory' else '≥'} {sig(ridge)}",
                bound,
                formula_zh="强度 < 拐点 为带宽受限，否则为算力受限",
            )
        )
        attainable = rl.attainable(intensity, peak, bandwidth)
        steps.append(
            Step(
                "attainable",
                "Attainable",
                "可达性能",
                "min(peak, intensity × bandwidth)",
                f"min({format_si(peak, 'FLOP/s')}, {sig(intensity)} × "
                f"{format_si(bandwidth, 'B/s')})",
                attainable,
                "FLOP/s",
            )
        )
        if flops_rate is not None:
            efficiency = flops_rate / attainable
            steps.append(
                Step(
                    "efficiency",
                    "Efficiency",
                    "效率",
                    "achieved / attainable",
                    f"{format_si(flops_rate, 'FLOP/s')} / {format_si(attainable, 'FLOP/s')}",
                    efficiency,
                    "%",
                    formula_zh="实际 / 可达",
                )
            )
    from_report = k.sm_pct is not None and k.mem_pct is not None
    if from_report:
        comp, mem = k.sm_pct / 100, k.mem_pct / 100
        source = f"Compute (SM) {sig(k.sm_pct, 3)} %, Memory {sig(k.mem_pct, 3)} %"
    else:
        comp = flops_rate / peak if flops_rate is not None else 0.0
        mem = bw / bandwidth if bw is not None else 0.0
        source = f"FLOP/s {sig(comp * 100, 3)} % of peak, DRAM {sig(mem * 100, 3)} % of bandwidth"
    verdict = rl.sol_diagnosis(comp, mem)
    steps.append(
        Step(
            "sol",
            "Speed-of-Light reading",
            "Speed-of-Light 判读",
            "the larger of compute % and memory % names the bound if ≥ 60 %; both "
            "below 60 % → latency / occupancy",
            source,
            verdict,
            formula_zh="计算与访存百分比中较大者 ≥ 60 % 即为瓶颈；都低于 60 % → 延迟 / 占用率",
        )
    )
    return Placement(
        k,
        peak,
        bandwidth,
        roof,
        bw,
        flops_rate,
        intensity,
        ridge,
        bound,
        attainable,
        efficiency,
        comp * 100,
        mem * 100,
        from_report,
        verdict,
        tuple(steps),
    )


def to_json(p: Placement, mma: tuple[int, int, int] = DEFAULT_MMA) -> dict:
    """Base units throughout (s, B, FLOP, FLOP/s, B/s); percentages as 0-100."""
    k = p.kernel
    return {
        "kernel": k.name,
        "launches": k.launches,
        "block": k.block,
        "grid": k.grid,
        "device": k.device or None,
        "duration_s": k.duration,
        "dram_bytes": k.dram_bytes,
        "flops": k.flops,
        "flops_by_precision": {p: v for p, v in k.flops_by.items() if v},
        "mma_shape": list(mma) if k.tensor_inst else None,
        "precision": k.precision if k.flops is not None else None,
        "achieved_flops": p.achieved_flops,
        "achieved_bandwidth": p.achieved_bandwidth,
        "intensity": p.intensity,
        "roof": p.roof,
        "peak_flops": p.peak,
        "bandwidth": p.bandwidth,
        "ridge": p.ridge,
        "roofline_bound": p.bound,
        "attainable_flops": p.attainable,
        "efficiency": p.efficiency,
        "sol": {
            "compute_pct": p.compute_pct,
            "memory_pct": p.memory_pct,
            "dram_pct": k.dram_pct,
            "from_report": p.sol_from_report,
        },
        "bound": p.verdict,
        "missing": {g: list(COLLECT[g]) for g in k.missing},
        "steps": [s.to_json() for s in p.steps],
    }
