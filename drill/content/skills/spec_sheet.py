"""spec-sheet: reading what a datasheet or a tool prints (sparse headlines, GiB, which of
two peaks a kernel reaches, boost against base clock)."""

from __future__ import annotations

from drill.content.skills.context import (
    GB,
    GIB,
    GIB_PER_GB,
    TFLOPS,
    Ctx,
    convention,
    number_ask,
    peak_unit,
    rate_unit,
    unit_words,
)
from drill.content.skills.model import Scenario
from drill.content.skills.skill import skill
from drill.core.engine import roofline as rl
from drill.core.engine.steps import Step
from drill.core.units import format_si


@skill("spec-sheet")
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
    conv = convention()
    if kind == "gib":
        conv = ("Decimal SI units; 1 GiB = 2^30 bytes.", "十进制 SI 单位；1 GiB = 2^30 字节。")
    if kind == "sparse":
        dtype = ctx.choice(sorted(card.sparse))
        sparse = card.sparse[dtype] * 1e12
        dense = card.tensor[dtype] * 1e12
        substitution = f"{format_si(sparse, rate_unit(dtype))} / 2"
        formula, formula_zh = "sparse headline / 2", ""
        if abs(sparse / 2 - dense) > 0.001 * dense:  # the sheet's dense figure is not exactly half
            substitution += f" = {format_si(sparse / 2, rate_unit(dtype))}"
            listed = format_si(dense, rate_unit(dtype), 5)
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
        # GeForce tensor cores halve their rate with FP32 accumulate, and the whitepaper lists
        # both; the catalog's figures are the FP32-accumulate ones PyTorch gets
        acc_en, acc_zh = (
            (" with FP32 accumulate", "（FP32 累加）")
            if "GeForce" in card.name and dtype in ("fp16", "bf16", "fp8")
            else ("", "")
        )
        rate = rate_unit(dtype)
        en = (
            f"The vendor's published figures for the {card.name} list {dtype.upper()} "
            f"{unit_words(card).matrix_adj} throughput{acc_en}: {format_si(sparse, rate)}* — "
            "the footnote says *with sparsity."
        )
        zh = (
            f"厂商公布的 {card.name} 参数写着 {dtype.upper()} {unit_words(card).matrix_zh}{acc_zh}："
            f"{format_si(sparse, rate)}*，脚注：*稀疏。"
        )
        ask = number_ask(
            "dense",
            "What peak should a roofline for dense GEMMs use?",
            "稠密 GEMM 的 Roofline 应该用多少峰值？",
            dense,
            peak_unit(dtype),
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
            die_en = " for GPU[0]," if dies == 2 else ""
            die_zh = "（GPU[0]）" if dies == 2 else ""
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
                in_unit=True,
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
                f"{mib:.0f} MiB."
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
                in_unit=True,
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
        w = unit_words(card)
        step = Step(
            "peak",
            f"Peak of {w.cores}",
            f"{w.cores_zh} 峰值",
            f"the {dtype} peak of {w.cores}",
            "",
            vector,
            "FLOP/s",
            formula_zh=f"{w.cores_zh} 的 {dtype} 峰值",
        )
        en = (
            f"{card.name}: {dtype} {w.matrix} {format_si(tensor, 'FLOP/s')} dense; {dtype} on "
            f"{w.cores} {format_si(vector, 'FLOP/s')}. A hand-written {dtype} kernel uses "
            f"packed {dtype} FMA instructions (two values per instruction, as the vector rate "
            f"assumes), no {w.matrix_adj} ({w.mma}) instructions."
        )
        zh = (
            f"{card.name}：{dtype} {w.matrix_zh} 稠密 {format_si(tensor, 'FLOP/s')}；{w.cores_zh} 上的 "
            f"{dtype} 为 {format_si(vector, 'FLOP/s')}。一个手写 {dtype} kernel 用打包的 {dtype} FMA "
            f"指令（每条指令算两个值，向量速率即按此计），不用 {w.matrix_zh}（{w.mma}）指令。"
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
    return Scenario(
        skill="spec-sheet",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=(ask,),
        params=params,
        convention_en=conv[0],
        convention_zh=conv[1],
        hidden=hidden,
    )
