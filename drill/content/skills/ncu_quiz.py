"""Drills made from the user's own kernels (``drill ncu FILE --quiz``): the bound by the
Speed-of-Light rule, the intensity from the report's DRAM bytes and FLOPs, and the first fix
where the reading decides it. Recorded under the ``ncu-read`` skill like any drill."""

from __future__ import annotations

from drill.content.skills.context import AI, counted, number_ask, with_detail
from drill.content.skills.model import CHOICE, Ask, Scenario
from drill.content.skills.ncu_read import FIX_OPTIONS, bound_ask
from drill.content.skills.ncu_truths import FIX_TEXT
from drill.core.engine.roofline import intensity_step
from drill.core.engine.steps import Step
from drill.core.ncu.analysis import Placement
from drill.core.printable import printable
from drill.core.units import format_si, sig
from drill.i18n.text import Text


def first_fix(p: Placement) -> str | None:
    """The fix the reading decides on its own, or None when the report cannot tell."""
    k = p.kernel
    if p.verdict == "memory" and (k.dram_pct or 0) >= 60:
        return "fewer-bytes"  # at the DRAM roof: only fewer bytes help
    if p.verdict == "latency" and k.duration is not None and k.duration / k.launches < 10e-6:
        return "batch-launches"
    if p.verdict == "compute" and k.flops_by and k.precision == "fp32":
        return "tensor-cores"  # fp32 FMA at its roof: the higher roof is tf32 / fp16 MMA
    return None


def kernel_scenario(p: Placement, card) -> Scenario | None:
    k = p.kernel
    if p.intensity is None or k.duration is None or p.verdict is None:
        return None
    if p.compute_pct is None or p.memory_pct is None:
        return None
    name = printable(k.name.split("(")[0].removeprefix("void "))
    flops = Step(
        "flops",
        "FLOPs",
        "浮点运算数",
        "2·FMA + ADD + MUL (+ MMA × 2·m·n·k)",
        "",
        k.flops,
        "FLOP",
        formula_zh="2·FMA + ADD + MUL（+ MMA × 2·m·n·k）",
    )
    step = intensity_step(k.flops, k.dram_bytes, dram=True)
    asks: list[Ask] = [
        bound_ask(p.compute_pct, p.memory_pct, p.verdict),
        number_ask(
            "intensity",
            "What is its arithmetic intensity against DRAM?",
            "它相对显存的算术强度是多少？",
            p.intensity,
            AI,
            (flops, step),
        ),
    ]
    fix = first_fix(p)
    if fix is not None:
        text = FIX_TEXT[fix]
        asks.append(
            Ask(
                key="fix",
                kind=CHOICE,
                prompt_en="What do you try first? "
                + "  ".join(f"{o.id}) {o.en}" for o in FIX_OPTIONS),
                prompt_zh="首先尝试什么？" + "  ".join(f"{o.id}) {o.zh}" for o in FIX_OPTIONS),
                expected=fix,
                unit=None,
                mistakes=(("occupancy-always-helps", "occupancy"),),
                steps=(
                    Step(
                        "fix",
                        "First fix",
                        "首要优化",
                        text.en,
                        "",
                        Text(fix, text.zh),
                        formula_zh=text.zh,
                    ),
                ),
                options=FIX_OPTIONS,
            )
        )
    lines_en = [
        f"Your kernel {name} on the {with_detail(card, counted(k.launches, 'launch', 'launches'))}, "
        "from your report:",
        f"  Duration {format_si(k.duration, 's')}; DRAM bytes {format_si(k.dram_bytes, 'B')} "
        f"(read + write); FLOPs {format_si(k.flops, 'FLOP')} from the SASS counters;",
        f"  Compute (SM) Throughput {sig(p.compute_pct, 3)} %, Memory Throughput "
        f"{sig(p.memory_pct, 3)} %.",
    ]
    lines_zh = [
        f"你的 kernel {name}，在 {card.name} 上（{k.launches} 次启动），来自你的报告：",
        f"  耗时 {format_si(k.duration, 's')}；DRAM 字节数 {format_si(k.dram_bytes, 'B')}"
        f"（读 + 写）；由 SASS 计数器得到 FLOPs {format_si(k.flops, 'FLOP')}；",
        f"  Compute (SM) Throughput {sig(p.compute_pct, 3)} %，Memory Throughput "
        f"{sig(p.memory_pct, 3)} %。",
    ]
    params = {
        "gpu": card.id,
        "dtype": "fp16" if p.roof.startswith("tensor") else p.roof.split(".")[-1],
        "peak": p.roof_peak,
        "bandwidth": p.bandwidth,
        "kernel": k.name,
        "duration_s": k.duration,
        "dram_bytes": k.dram_bytes,
        "flops": k.flops,
        "intensity": p.intensity,
        "from_report": True,
    }
    return Scenario(
        skill="ncu-read",
        difficulty=2,
        seed=0,
        intro_en="\n".join(lines_en),
        intro_zh="\n".join(lines_zh),
        asks=tuple(asks),
        params=params,
        convention_en="Decimal SI units; 1 FMA = 2 FLOPs; DRAM bytes are read + write.",
        convention_zh="十进制 SI 单位；1 次 FMA = 2 FLOPs；DRAM 字节数为读 + 写。",
    )
