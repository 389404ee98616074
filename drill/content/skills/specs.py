"""Skills on reading hardware: peak and bandwidth from specs, clocks, datasheet traps."""

from __future__ import annotations

from drill.content.skills.context import (
    GB,
    GBPS,
    GIB,
    GIB_PER_GB,
    TFLOPS,
    Ctx,
    convention,
    number_ask,
)
from drill.content.skills.model import Scenario
from drill.content.skills.skill import skill
from drill.core.engine import roofline as rl
from drill.core.engine.steps import Step
from drill.core.units import format_si

TENSOR_FLOP_PER_CLK = (256, 512, 1024, 2048, 4096, 8192)


@skill("peak-from-specs", "hardware", en="Peak FLOP/s from the specs", zh="由规格算峰值算力")
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
        zh += f" 基础频率为 {card.base_clock_mhz:g} MHz。"
    ask = number_ask(
        "peak",
        "What is its peak FP32 throughput (non-tensor)?",
        "它的 FP32（非 Tensor）峰值算力是多少？",
        value,
        TFLOPS,
        (step,),
        mistakes,
    )
    conv_en, conv_zh = convention()
    conv_en += " Peaks are quoted at the boost clock."
    conv_zh += " 峰值按 boost 频率计算。"
    return Scenario(
        "peak-from-specs",
        ctx.difficulty,
        ctx.seed,
        en,
        zh,
        (ask,),
        {
            "gpu": card.id,
            "units": card.units,
            "lanes": card.lanes,
            "clock_mhz": card.boost_clock_mhz,
            "dtype": "fp32",
        },
        conv_en,
        conv_zh,
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
    mistakes = [("sparse-peak", value * 2)]
    en = (
        f"{card.name}: {card.units} SMs; each SM's tensor cores do {per_clk} dense FP16 "
        f"FLOP per clock; tensor boost clock {clock_mhz:g} MHz."
    )
    zh = (
        f"{card.name}：{card.units} 个 SM；每个 SM 的 Tensor Core 每周期做 {per_clk} 次稠密 FP16 "
        f"运算；Tensor boost 频率 {clock_mhz:g} MHz。"
    )
    if card.tensor_clock_mhz and card.tensor_clock_mhz != card.boost_clock_mhz:
        mistakes.append(("tensor-clock", card.units * per_clk * card.boost_clock_mhz * 1e6))
        en += f" (Its non-tensor boost clock is {card.boost_clock_mhz:g} MHz.)"
        zh += f"（非 Tensor 的 boost 频率为 {card.boost_clock_mhz:g} MHz。）"
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
        "peak-from-specs",
        ctx.difficulty,
        ctx.seed,
        en,
        zh,
        (ask,),
        {
            "gpu": card.id,
            "units": card.units,
            "flop_per_clock": per_clk,
            "clock_mhz": clock_mhz,
            "dtype": "fp16",
        },
        conv_en,
        conv_zh,
    )


@skill("bandwidth-from-specs", "hardware", en="Bandwidth from the specs", zh="由规格算显存带宽")
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
            f"memory clock of {clock:g} MHz (DDR: data moves on both clock edges)."
        )
        zh = (
            f"{card.name}：{int(bus)} 位 {card.memory_type} 接口；工具显示显存时钟 {clock:g} MHz"
            "（DDR：时钟上下沿都传数据）。"
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
            "bus width / 8 × (2 × DDR clock)",
            f"{int(bus)} / 8 × 2 × {clock:g} MHz",
            value,
            "B/s",
        )
    else:
        en = (
            f"{card.name}: {int(bus)}-bit {card.memory_type} interface at {rate:g} Gb/s per "
            "pin (the per-pin rate already counts both clock edges)."
        )
        zh = (
            f"{card.name}：{int(bus)} 位 {card.memory_type} 接口，单针速率 {rate:g} Gb/s"
            "（单针速率已经计入了上下沿）。"
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
        "bandwidth-from-specs",
        ctx.difficulty,
        ctx.seed,
        en,
        zh,
        (ask,),
        {"gpu": card.id, "bus_width_bits": bus, "data_rate_gbps": rate},
        "Decimal units: 1 GB/s = 1e9 B/s; 8 bits per byte.",
        "十进制单位：1 GB/s = 1e9 B/s；1 字节 = 8 比特。",
    )


@skill("sustained-clock", "hardware", en="Sustained vs boost peak", zh="持续峰值与 boost 峰值")
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
        "sustained-clock",
        ctx.difficulty,
        ctx.seed,
        en,
        zh,
        (ask,),
        {
            "gpu": card.id,
            "dtype": dtype,
            "peak": choice.value,
            "clock_mhz": choice.clock_mhz,
            "sustained_mhz": sustained,
        },
        "Peak scales linearly with the clock.",
        "峰值与频率成正比。",
    )


@skill("spec-sheet", "hardware", en="Reading a datasheet", zh="读懂数据手册")
def spec_sheet(ctx: Ctx) -> Scenario:
    kinds = ["sparse", "gib", "tensor", "boost"]
    card = ctx.card(specs="build")
    if not card.sparse:
        kinds.remove("sparse")
    if not any(
        d in card.vector and card.peak(d).path.startswith("tensor") for d in ("fp16", "bf16")
    ):
        kinds.remove("tensor")
    if not card.base_clock_mhz:
        kinds.remove("boost")
    kind = ctx.choice(kinds)
    conv = ("Decimal SI units; 1 GiB = 2^30 bytes.", "十进制 SI 单位；1 GiB = 2^30 字节。")
    if kind == "sparse":
        dtype = ctx.choice(sorted(card.sparse))
        sparse = card.sparse[dtype] * 1e12
        dense = card.tensor[dtype] * 1e12
        substitution = f"{format_si(sparse, 'FLOP/s')} / 2"
        formula, formula_zh = "sparse headline / 2", ""
        if abs(sparse / 2 - dense) > 0.001 * dense:  # the sheet's dense figure is not exactly half
            substitution += f" = {format_si(sparse / 2, 'FLOP/s')}"
            listed = format_si(dense, "FLOP/s", 5)
            formula = f"sparse headline / 2 (the vendor's sheet lists {listed} dense: used here)"
            formula_zh = f"稀疏宣传值 / 2（厂商手册列出的稠密值为 {listed}，此处按它计）"
        step = Step(
            "dense",
            "Dense peak",
            "稠密峰值",
            formula,
            substitution,
            dense,
            "FLOP/s",
            formula_zh=formula_zh,
        )
        en = (
            f"The {card.name} datasheet lists {dtype.upper()} Tensor Core: "
            f"{format_si(sparse, 'FLOP/s')}* — the footnote says *with sparsity."
        )
        zh = (
            f"{card.name} 数据手册写着 {dtype.upper()} Tensor Core：{format_si(sparse, 'FLOP/s')}*，"
            "脚注：*稀疏。"
        )
        ask = number_ask(
            "dense",
            "What peak should a roofline for dense GEMMs use?",
            "稠密 GEMM 的 Roofline 应该用多少峰值？",
            dense,
            TFLOPS,
            (step,),
            [("sparse-peak", sparse)],
        )
        params = {"gpu": card.id, "dtype": dtype, "sparse": sparse}
    elif kind == "gib":
        # Tools report memory in binary units: nvidia-smi in MiB, rocm-smi in bytes; the
        # datasheet's "80 GB" label is neither (an H100 reports 81,559 MiB).
        total = card.capacity
        amd = card.vendor.upper() == "AMD"
        if amd:
            gib = total / 2**30
            step = Step(
                "gib",
                "Capacity in GiB",
                "以 GiB 计的容量",
                "bytes / 2^30",
                f"{int(total):,} / 1,073,741,824",
                gib,
                "GiB",
            )
            dies = card.interconnect.devices if card.interconnect else 1
            die_en = " for GPU[0], one of its two GCDs," if dies == 2 else ""
            die_zh = "（GPU[0]，两个 GCD 之一）" if dies == 2 else ""
            en = (
                f"On an {card.name}, `rocm-smi --showmeminfo vram` reports{die_en} VRAM Total "
                f"Memory (B): {int(total)}."
            )
            zh = (
                f"在 {card.name} 上，`rocm-smi --showmeminfo vram` 显示{die_zh} VRAM Total "
                f"Memory (B)：{int(total)}。"
            )
            ask = number_ask(
                "gib",
                "How much memory is that in GiB?",
                "这是多少 GiB？",
                total,
                GIB,
                (step,),
                [("gib-gb", total / GIB_PER_GB)],
            )
        else:
            mib = card.capacity_mib or round(total / 2**20)
            step = Step(
                "gb",
                "Capacity in decimal GB",
                "以十进制 GB 计的容量",
                "MiB · 2^20 / 10^9",
                f"{mib:,.0f} · 1,048,576 / 1e9",
                total,
                "B",
            )
            en = (
                f"On a {card.name}, `nvidia-smi --query-gpu=memory.total --format=csv` prints "
                f"{mib:,.0f} MiB."
            )
            zh = f"在 {card.name} 上，nvidia-smi 显示总显存为 {mib:,.0f} MiB。"
            ask = number_ask(
                "gb",
                "How much memory is that in decimal GB (1 GB = 10^9 bytes)?",
                "这是多少十进制 GB（1 GB = 10^9 字节）？",
                total,
                GB,
                (step,),
                [("gib-gb", total / GIB_PER_GB), ("gib-gb", mib * 1e6)],
            )
        params = {"gpu": card.id, "bytes": total}
    elif kind == "tensor":
        dtype = next(
            d
            for d in ("fp16", "bf16")
            if d in card.vector and card.peak(d).path.startswith("tensor")
        )
        vector = card.vector[dtype] * 1e12
        tensor = card.tensor[dtype] * 1e12
        step = Step(
            "peak", "Non-tensor peak", "非 Tensor 峰值", f"vector.{dtype}", "", vector, "FLOP/s"
        )
        en = (
            f"{card.name}: {dtype} tensor cores {format_si(tensor, 'FLOP/s')} dense; {dtype} on "
            f"the CUDA cores {format_si(vector, 'FLOP/s')}. A hand-written {dtype} kernel uses "
            "plain FMA instructions, no tensor-core (MMA) instructions."
        )
        zh = (
            f"{card.name}：{dtype} Tensor Core 稠密 {format_si(tensor, 'FLOP/s')}；CUDA Core 上的 "
            f"{dtype} 为 {format_si(vector, 'FLOP/s')}。一个手写 {dtype} kernel 只用普通 FMA 指令，"
            "不用 Tensor Core（MMA）指令。"
        )
        ask = number_ask(
            "peak",
            "What is the highest throughput it can reach?",
            "它最多能达到多少吞吐？",
            vector,
            TFLOPS,
            (step,),
            [("tensor-peak", tensor)],
        )
        params = {"gpu": card.id, "dtype": dtype, "tensor": tensor, "vector": vector}
    else:
        base, boost = card.base_clock_mhz, card.boost_clock_mhz
        value, step = rl.peak_from_specs(card.units, card.lanes, boost * 1e6)
        wrong, _ = rl.peak_from_specs(card.units, card.lanes, base * 1e6)
        en = (
            f"{card.name}: {card.units} SMs × {card.lanes} FP32 lanes; base clock {base:g} MHz, "
            f"boost clock {boost:g} MHz."
        )
        zh = (
            f"{card.name}：{card.units} 个 SM × {card.lanes} 条 FP32 通道；基础频率 {base:g} MHz，"
            f"boost 频率 {boost:g} MHz。"
        )
        ask = number_ask(
            "peak",
            "What FP32 peak does the datasheet quote?",
            "数据手册标称的 FP32 峰值是多少？",
            value,
            TFLOPS,
            (step,),
            [("base-clock", wrong), ("fma-factor", value / 2)],
        )
        params = {"gpu": card.id, "base_mhz": base, "boost_mhz": boost}
    params["variant"] = kind
    # Which of the two printed peaks applies is the question: the event does not label them.
    hidden = ("vector", "tensor") if kind == "tensor" else ()
    return Scenario("spec-sheet", ctx.difficulty, ctx.seed, en, zh, (ask,), params, *conv, hidden)
