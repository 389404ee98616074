"""Skills on reading hardware: peak and bandwidth from specs, sustained against boost clocks."""

from __future__ import annotations

from drill.content.skills.context import (
    GBPS,
    GIB_PER_GB,
    TFLOPS,
    Ctx,
    convention,
    number_ask,
    unit_words,
)
from drill.content.skills.model import Scenario
from drill.content.skills.skill import skill
from drill.core.engine import roofline as rl
from drill.core.engine.steps import Step
from drill.core.units import format_si

TENSOR_FLOP_PER_CLK = (256, 512, 1024, 2048, 4096, 8192)


@skill("peak-from-specs")
def peak_from_specs(ctx: Ctx) -> Scenario:
    card = ctx.card(specs="fp32")
    if ctx.difficulty >= 3 and card.vendor == "NVIDIA" and "fp16" in card.tensor:
        return _tensor_peak(ctx, card)
    clock = card.boost_clock_mhz * 1e6
    value, step = rl.peak_from_specs(card.units, card.lanes, clock)
    mistakes = [("fma-factor", value / 2)]
    en = (
        f"{card.name}: {card.units} {card.unit_kind}s, {card.lanes} FP32 lanes per "
        f"{card.unit_kind}, boost clock {card.boost_clock_mhz:g} MHz."
    )
    zh = (
        f"{card.name}：{card.units} 个 {card.unit_kind}，每个 {card.unit_kind} 有 {card.lanes} "
        f"条 FP32 通道，boost 频率 {card.boost_clock_mhz:g} MHz。"
    )
    if card.base_clock_mhz and ctx.difficulty >= 2:
        base, _ = rl.peak_from_specs(card.units, card.lanes, card.base_clock_mhz * 1e6)
        mistakes.append(("base-clock", base))
        en += f" Its base clock is {card.base_clock_mhz:g} MHz."
        zh += f"基础频率为 {card.base_clock_mhz:g} MHz。"
    units = unit_words(card)  # AMD's vector units, NVIDIA's non-tensor ones
    ask = number_ask(
        "peak",
        f"What is its peak FP32 throughput on {units.vector}?",
        f"它在{units.vector_zh}上的 FP32 峰值算力是多少？",
        value,
        TFLOPS,
        (step,),
        mistakes,
    )
    conv_en, conv_zh = convention()
    conv_en += " Peaks are quoted at the boost clock."
    conv_zh += "峰值按 boost 频率计算。"
    return Scenario(
        skill="peak-from-specs",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=(ask,),
        params={
            "gpu": card.id,
            "units": card.units,
            "lanes": card.lanes,
            "clock_mhz": card.boost_clock_mhz,
            "dtype": "fp32",
        },
        convention_en=conv_en,
        convention_zh=conv_zh,
    )


def _tensor_peak(ctx: Ctx, card) -> Scenario:
    clock_mhz = card.tensor_clock_mhz or card.boost_clock_mhz
    raw = card.tensor["fp16"] * 1e12 / (card.units * clock_mhz * 1e6)
    per_clk = min(TENSOR_FLOP_PER_CLK, key=lambda v: abs(v - raw))
    value = card.units * per_clk * clock_mhz * 1e6
    step = Step(
        "peak",
        "Dense FP16 tensor peak",
        "稠密 FP16 Tensor 峰值",
        "units × FLOP per clock per unit × tensor clock",
        f"{card.units} × {per_clk} × {clock_mhz:g} MHz",
        value,
        "FLOP/s",
    )
    # the per-clock figure is already in FLOPs: doubling it again, or halving it, is the FMA slip
    mistakes = [("fma-doubled", value * 2), ("fma-factor", value / 2)]
    split = bool(card.tensor_clock_mhz and card.tensor_clock_mhz != card.boost_clock_mhz)
    clock_en = "boost clock for tensor-core work" if split else "boost clock"
    clock_zh = "Tensor Core 运算的 boost 频率" if split else "boost 频率"
    en = (
        f"{card.name}: {card.units} SMs; each SM's tensor cores do {per_clk} dense FP16 "
        f"FLOP per clock; {clock_en} {clock_mhz:g} MHz."
    )
    zh = (
        f"{card.name}：{card.units} 个 SM；每个 SM 的 Tensor Core 每周期做 {per_clk} 次稠密 FP16 "
        f"浮点运算；{clock_zh} {clock_mhz:g} MHz。"
    )
    if split:
        mistakes.append(("tensor-clock", card.units * per_clk * card.boost_clock_mhz * 1e6))
        en += f" (Its non-tensor boost clock is {card.boost_clock_mhz:g} MHz.)"
        zh += f"（非 Tensor Core 的 boost 频率为 {card.boost_clock_mhz:g} MHz。）"
    ask = number_ask(
        "peak",
        "What is its dense FP16 tensor-core peak?",
        "它的稠密 FP16 Tensor Core 峰值是多少？",
        value,
        TFLOPS,
        (step,),
        mistakes,
    )
    conv_en, conv_zh = convention()
    return Scenario(
        skill="peak-from-specs",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=(ask,),
        params={
            "gpu": card.id,
            "units": card.units,
            "flop_per_clock": per_clk,
            "clock_mhz": clock_mhz,
            "dtype": "fp16",
        },
        convention_en=conv_en,
        convention_zh=conv_zh,
    )


@skill("bandwidth-from-specs")
def bandwidth_from_specs(ctx: Ctx) -> Scenario:
    card = ctx.card(specs="bandwidth")
    bus, rate = card.bus_width_bits, card.data_rate_gbps
    value, step = rl.bandwidth_from_specs(int(bus), rate)
    mistakes = [
        ("ddr-double", value * 2),
        ("bits-bytes", value * 8),
        ("gib-gb", value / GIB_PER_GB),
    ]
    if (
        ctx.difficulty >= 3
        and card.memory_type.upper().startswith(("HBM", "GDDR6"))
        and not card.memory_type.upper().startswith("GDDR6X")
    ):
        clock = rate / 2 * 1000
        en = (
            f"{card.name}: {int(bus)}-bit {card.memory_type} interface; the tools report a "
            f"memory clock of {clock:g} MHz (the per-pin data rate is twice the memory clock "
            "the tools report)."
        )
        zh = (
            f"{card.name}：{int(bus)} 位 {card.memory_type} 接口；工具显示显存时钟 {clock:g} MHz"
            "（单针数据速率是工具所报显存时钟的两倍）。"
        )
        mistakes = [
            ("ddr-clock", value / 2),
            ("bits-bytes", value * 8),
            ("gib-gb", value / GIB_PER_GB),
        ]
        step = Step(
            "bandwidth",
            "Memory bandwidth",
            "显存带宽",
            "bus width / 8 × (2 × reported memory clock)",
            f"{int(bus)} / 8 × 2 × {clock:g} MHz",
            value,
            "B/s",
            formula_zh="位宽 / 8 × (2 × 工具所报显存时钟)",
        )
    else:
        en = (
            f"{card.name}: {int(bus)}-bit {card.memory_type} interface at {rate:g} Gb/s per "
            "pin (the per-pin rate already counts both clock edges)."
        )
        zh = (
            f"{card.name}：{int(bus)} 位 {card.memory_type} 接口，每引脚速率 {rate:g} Gb/s"
            "（每引脚速率已经计入了上下沿）。"
        )
    ask = number_ask(
        "bandwidth",
        "What is its peak memory bandwidth?",
        "它的峰值显存带宽是多少？",
        value,
        GBPS,
        (step,),
        mistakes,
    )
    return Scenario(
        skill="bandwidth-from-specs",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=(ask,),
        params={"gpu": card.id, "bus_width_bits": bus, "data_rate_gbps": rate},
        convention_en="Decimal units (1 GB/s = 1e9 B/s); 8 bits per byte.",
        convention_zh="十进制单位（1 GB/s = 1e9 B/s）；1 字节 = 8 比特。",
    )


@skill("sustained-clock")
def sustained_clock(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card)
    choice = card.peak(dtype)
    share = ctx.choice((0.75, 0.8, 0.85, 0.9))
    sustained = round(choice.clock_mhz * share / 15) * 15
    value = choice.value * sustained / choice.clock_mhz
    step = Step(
        "sustained",
        "Sustained peak",
        "持续峰值",
        "peak × sustained clock / boost clock",
        f"{format_si(choice.value, 'FLOP/s')} × {sustained:g} / {choice.clock_mhz:g}",
        value,
        "FLOP/s",
    )
    en = (
        f"{card.name}, {dtype}: datasheet peak {format_si(choice.value, 'FLOP/s')} at "
        f"{choice.clock_mhz:g} MHz. Under a long training run, power and thermal limits hold "
        f"the clock at {sustained:g} MHz."
    )
    zh = (
        f"{card.name}，{dtype}：数据手册峰值 {format_si(choice.value, 'FLOP/s')}（{choice.clock_mhz:g}"
        f" MHz）。长时间训练时，功耗和温度限制把频率压在 {sustained:g} MHz。"
    )
    ask = number_ask(
        "sustained",
        "What peak can it sustain?",
        "它能持续的峰值是多少？",
        value,
        TFLOPS,
        (step,),
        [("nominal-peak", choice.value)],
    )
    return Scenario(
        skill="sustained-clock",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=(ask,),
        params={
            "gpu": card.id,
            "dtype": dtype,
            "peak": choice.value,
            "clock_mhz": choice.clock_mhz,
            "sustained_mhz": sustained,
        },
        convention_en="Peak scales linearly with the clock.",
        convention_zh="峰值与频率成正比。",
    )
