"""A kernel from an Nsight Compute report placed on a card's roofline, every step shown."""

from __future__ import annotations

from dataclasses import dataclass

from drill.core.engine import roofline as rl
from drill.core.engine.roofline import intensity_step, ridge_step
from drill.core.engine.steps import Step
from drill.core.ncu.kernels import FLOP_COUNTERS, Kernel, collect
from drill.core.units import format_si, sig

ABOVE = 1.02  # an achieved rate this far over the roof cannot be a reading of that card
MISMATCH = 0.15  # ncu's DRAM % and the card's bandwidth disagree by more than this
MISMATCH_FLOOR = 20.0  # % of DRAM peak: below it the implied peak is too noisy to go by


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
    compute_pct: float | None  # % of peak (from ncu when reported, else derived)
    memory_pct: float | None
    sol_from_report: bool  # both shares are ncu's own
    verdict: str | None  # the Speed-of-Light reading: memory, compute, latency; None: no data
    steps: tuple[Step, ...]
    clock_peak: float | None = None  # the peak at the SM clock ncu ran at, when it was lower
    above: tuple[str, ...] = ()  # "flops", "bandwidth": achieved above the card's roof
    compute_from: str | None = None  # "ncu" (its own %), "derived" (FLOP/s ÷ peak), None
    memory_from: str | None = None  # "ncu", "derived" (DRAM B/s ÷ bandwidth), None

    @property
    def implied_bandwidth(self) -> float | None:
        return implied_bandwidth(self.kernel)

    @property
    def bandwidth_mismatch(self) -> bool:
        """ncu's DRAM % puts the bandwidth more than MISMATCH away from the one used."""
        implied = self.implied_bandwidth
        return implied is not None and abs(implied / self.bandwidth - 1) > MISMATCH

    @property
    def readings_differ(self) -> bool:
        """The roofline and the Speed-of-Light reading name different bounds."""
        return (
            self.bound is not None
            and self.verdict in ("memory", "compute")
            and self.verdict != self.bound
        )

    @property
    def roof_peak(self) -> float:
        """The compute roof the kernel ran under: the peak at ncu's SM clock when it locked
        the clocks below the datasheet's, else the datasheet's."""
        return self.clock_peak or self.peak


def implied_bandwidth(k: Kernel) -> float | None:
    """The card's DRAM bandwidth as ncu's own DRAM % implies it (achieved ÷ share), where
    the share is large enough to go by and the bytes were counted, not estimated."""
    pct = k.dram_pct
    if pct is None or pct < MISMATCH_FLOOR or k.dram_from_rate:
        return None
    if not k.duration or k.dram_bytes is None:
        return None
    return k.dram_bytes / k.duration / (pct / 100)


def report_bandwidth(kernels: list[Kernel]) -> float | None:
    """The bandwidth ncu's DRAM % implies over a report's kernels, weighted by their time,
    to tell apart cards of one compute capability before any is chosen."""
    # implied_bandwidth gives a reading only for a kernel with a duration.
    readings = [
        (b, k.duration)
        for k in kernels
        if (b := implied_bandwidth(k)) is not None and k.duration is not None
    ]
    weight = sum(t for _, t in readings)
    return sum(b * t for b, t in readings) / weight if weight else None


def _flop_terms(k: Kernel) -> str:
    names = {2: "2·", 1: ""}
    terms = [
        f"{names[f]}{op.upper()} {k.counters[op]:.0f}"
        for op, _, f in FLOP_COUNTERS
        if k.counters.get(op)
    ]
    if k.tensor_ops:
        terms.append(f"TENSOR {k.tensor_ops:.0f}")
    elif k.tensor_inst and k.mma:
        m, n, kk = k.mma
        terms.append(f"MMA {k.tensor_inst:.0f} × 2·{m}·{n}·{kk}")
    return " + ".join(terms) or "0"


def _duration_step(k: Kernel, t: float) -> Step:
    if k.duration_from == "cycles":
        how = "Σ sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second"
    else:
        how = "Σ gpu__time_duration"
    # n launches × what one takes (what the 10 µs rule reads); one launch is its own total
    given = f"n = {k.launches} × {format_si(t / k.launches, 's')}" if k.launches > 1 else ""
    return Step("duration", "Duration", "耗时", how, given, t, "s", formula_zh=how)


def _sol(k: Kernel, flops_rate, bw, peak, bandwidth):
    """Compute and memory shares of the roof: ncu's own where reported, else derived from
    the achieved rates; each share on its own, so one missing leaves the other. Returns the
    shares, where each came from ("ncu", "derived", None) and the step's line."""
    comp = k.sm_pct / 100 if k.sm_pct is not None else None
    mem = k.mem_pct / 100 if k.mem_pct is not None else None
    comp_from = mem_from = None
    if comp is not None:
        comp_from = "ncu"
    elif flops_rate is not None:
        comp, comp_from = flops_rate / peak, "derived"
    if mem is not None:
        mem_from = "ncu"
    elif bw is not None:
        mem, mem_from = bw / bandwidth, "derived"
    # the numbers alone, compute first as the formula reads: the verdict line says where
    # each came from, in the reader's language
    shares = [f"{sig(x * 100, 3)} %" if x is not None else "?" for x in (comp, mem)]
    return comp, mem, comp_from, mem_from, f"max({', '.join(shares)})"


def _verdict(comp: float | None, mem: float | None) -> str | None:
    """The Speed-of-Light reading, only from what was measured: both shares, or one share
    that alone reaches the threshold (the other cannot make it latency-bound)."""
    if comp is not None and mem is not None:
        return rl.sol_diagnosis(comp, mem)
    known = comp if comp is not None else mem
    if known is not None and known >= rl.SOL_THRESHOLD:
        return "compute" if comp is not None else "memory"
    return None


def place(
    k: Kernel,
    peak: float,
    bandwidth: float,
    roof: str,
    clock: float | None = None,
) -> Placement:
    """``k`` against a roof of ``peak`` FLOP/s and ``bandwidth`` B/s; every step shown.
    ``clock`` is the SM clock (Hz) the peak assumes: when ncu ran the SMs slower (it locks
    them to base clock by default), the kernel is placed under the peak at that clock, the
    roof it ran under (the datasheet's stays beside it)."""
    steps: list[Step] = []
    t = k.duration
    if t is not None:
        steps.append(_duration_step(k, t))
    bw = flops_rate = intensity = None
    clock_peak = None
    if clock and k.sm_clock and k.sm_clock < clock * 0.97:
        clock_peak = peak * k.sm_clock / clock
    if k.dram_bytes is not None:
        how = "DRAM throughput × duration" if k.dram_from_rate else k.dram_counters
        how_zh = "DRAM 吞吐 × 耗时" if k.dram_from_rate else k.dram_counters
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
                "2·FMA + ADD + MUL (+ tensor ops, or MMA × 2·m·n·k)",
                _flop_terms(k),
                k.flops,
                "FLOP",
                formula_zh="2·FMA + ADD + MUL（+ 张量运算数，或 MMA × 2·m·n·k）",
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
    datasheet_peak, peak = peak, clock_peak or peak
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
                formula_zh="强度 < 拐点 为访存密集，否则为计算密集",
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
        if flops_rate is not None and attainable > 0:
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
    comp, mem, comp_from, mem_from, source = _sol(k, flops_rate, bw, peak, bandwidth)
    verdict = _verdict(comp, mem)
    if verdict is not None:
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
    above = tuple(
        name
        for name, achieved, roof_value in (
            ("flops", flops_rate, peak),
            ("bandwidth", bw, bandwidth),
        )
        if achieved is not None and achieved > roof_value * ABOVE
    )
    return Placement(
        k,
        datasheet_peak,
        bandwidth,
        roof,
        bw,
        flops_rate,
        intensity,
        ridge,
        bound,
        attainable,
        efficiency,
        comp * 100 if comp is not None else None,
        mem * 100 if mem is not None else None,
        from_report,
        verdict,
        tuple(steps),
        clock_peak,
        above,
        comp_from,
        mem_from,
    )


def to_json(p: Placement) -> dict:
    """Base units throughout (s, B, FLOP, FLOP/s, B/s); percentages as 0-100."""
    k = p.kernel
    return {
        "kernel": k.name,
        "launches": k.launches,
        "block": k.block or None,
        "grid": k.grid or None,
        "device": k.device or None,
        "compute_capability": k.cc or None,
        "duration_s": k.duration,
        "duration_from": k.duration_from or None,
        "dram_bytes": k.dram_bytes,
        "dram_from": ("throughput × duration" if k.dram_from_rate else k.dram_counters) or None,
        "flops": k.flops,
        "flops_by_precision": {p: v for p, v in k.flops_by.items() if v},
        "tensor_ops": k.tensor_ops,
        "mma_shape": list(k.mma) if k.tensor_inst and k.mma and not k.tensor_ops else None,
        "mma_from": k.mma_from if k.tensor_inst and not k.tensor_ops else None,
        "sm_clock_hz": k.sm_clock,
        "peak_at_sm_clock": p.clock_peak,
        "precision": k.precision if k.flops is not None else None,
        "achieved_flops": p.achieved_flops,
        "achieved_bandwidth": p.achieved_bandwidth,
        "intensity": p.intensity,
        # no FLOPs, no precision: no roof (the text says so too)
        "roof": p.roof if k.flops is not None else None,
        "peak_flops": p.peak if k.flops is not None else None,  # the datasheet's (or --peak)
        "roof_flops": p.roof_peak if k.flops is not None else None,  # the one placed under
        "bandwidth": p.bandwidth,
        "ridge": p.ridge if k.flops is not None else None,
        "roofline_bound": p.bound,
        "attainable_flops": p.attainable,
        "efficiency": p.efficiency,
        "sol": {
            "compute_pct": p.compute_pct,
            "memory_pct": p.memory_pct,
            "dram_pct": k.dram_pct,
            "from_report": p.sol_from_report,
            "compute_from": p.compute_from,
            "memory_from": p.memory_from,
        },
        "bound": p.verdict,
        "readings_differ": p.readings_differ,  # roofline_bound and bound disagree
        "implied_bandwidth": p.implied_bandwidth,  # from ncu's DRAM %
        "bandwidth_mismatch": p.bandwidth_mismatch,  # another card than the one used?
        "above_roof": list(p.above),
        "problems": list(k.problems),
        "unread": dict(k.unread),
        "missing": {g: list(collect(g, k.cc)) for g in k.missing},
        "steps": [s.to_json() for s in p.steps],
    }
