"""Skills on what changes the roof: a new card, a lower precision, FLOPs per element, waves."""

from __future__ import annotations

import math
from dataclasses import replace

from drill.content.skills import shapes
from drill.content.skills.context import (
    GIB_PER_GB,
    PCT,
    PLAIN,
    TIMES,
    WRONG_BYTES,
    Ctx,
    convention,
    counted,
    fmt,
    givens,
    hidden_figures,
    number_ask,
    roof,
    sparse_peak,
    unit_words,
    with_detail,
)
from drill.content.skills.model import Scenario
from drill.content.skills.skill import skill
from drill.core.engine import analyze
from drill.core.engine import roofline as rl
from drill.core.engine.operators import dtype_bytes
from drill.core.engine.roofline import uses_tensor_cores
from drill.core.engine.steps import Step
from drill.core.units import format_si


def _side(a, key: str, en: str, zh: str, with_flops: bool, own_bytes: bool) -> tuple[Step, ...]:
    """One side of a comparison as the solution shows it: the FLOPs (once, when both sides do
    the same math), the bytes (named for the side when they differ between sides), and the
    minimum time with the bound it comes from."""
    wanted = ("flops", "bytes", "min-time") if with_flops else ("bytes", "min-time")
    shown = []
    for step in a.steps:
        if step.key not in wanted:
            continue
        label_en, label_zh = step.en, step.zh
        if step.key == "min-time" or (step.key == "bytes" and own_bytes):
            label_en, label_zh = f"{step.en}, {en}", f"{step.zh}（{zh}）"
        if step.key == "min-time":
            label_en += f" ({a.bound}-bound)"
            label_zh += "，带宽受限" if a.bound == "memory" else "，算力受限"
        shown.append(replace(step, key=f"{step.key}-{key}", en=label_en, zh=label_zh))
    return tuple(shown)


CLEAR_BOUND = 1.1  # each side's compute and memory times stand 10 % apart: its bound is clear


def _clear(card, cost, dtype: str) -> bool:
    compute = cost.flops / roof(card, dtype, cost.op).value
    memory = cost.bytes / card.bandwidth
    return max(compute, memory) >= CLEAR_BOUND * min(compute, memory)


def _time(cost, card, dtype: str, peak: float | None = None) -> float:
    peak = peak or roof(card, dtype, cost.op).value
    return max(cost.flops / peak, cost.bytes / card.bandwidth)


@skill("card-upgrade", "roofline", en="Speed-up from a new card", zh="换卡的加速比")
def card_upgrade(ctx: Ctx) -> Scenario:
    old = ctx.card()
    options = [c for c in ctx.catalog.drawn("common") if c.id != old.id and c.vendor == old.vendor]
    new = ctx.rng.choice(options or [c for c in ctx.catalog if c.id != old.id])
    dtypes = [d for d in ("fp16", "bf16", "fp32") if d in old.dtypes() and d in new.dtypes()]
    dtype = ctx.choice(dtypes or ["fp32"])
    pick = shapes.any_op(
        ctx, dtype, (old, new), also=lambda p: all(_clear(c, p.cost, dtype) for c in (old, new))
    )
    op = pick.cost.op
    a_old = analyze(pick.cost, roof(old, dtype, op).value, old.bandwidth, dtype, gpu=old.id)
    a_new = analyze(pick.cost, roof(new, dtype, op).value, new.bandwidth, dtype, gpu=new.id)
    speedup = a_old.min_time / a_new.min_time
    peak_ratio = a_new.peak / a_old.peak
    bw_ratio = a_new.bandwidth / a_old.bandwidth
    wrong = peak_ratio if a_old.bound == "memory" and a_new.bound == "memory" else None
    if a_old.bound == "compute" and a_new.bound == "compute":
        wrong = bw_ratio
    mistakes = [("wrong-bound", wrong)] if wrong else []
    sparse_old, sparse_new = sparse_peak(old, dtype, op), sparse_peak(new, dtype, op)
    if sparse_old and sparse_new:
        mistakes.append(
            (
                "sparse-peak",
                _time(pick.cost, old, dtype, sparse_old) / _time(pick.cost, new, dtype, sparse_new),
            )
        )
    steps = (
        *_side(a_old, "old", "first card", "第一张卡", with_flops=True, own_bytes=False),
        *_side(a_new, "new", "second card", "第二张卡", with_flops=False, own_bytes=False)[-1:],
        Step(
            "speedup",
            "Speed-up",
            "加速比",
            "t_old / t_new",
            f"{format_si(a_old.min_time, 's')} / {format_si(a_new.min_time, 's')}",
            speedup,
            "x",
        ),
    )
    g_old, g_old_zh = givens(ctx, old, dtype, op)
    g_new, g_new_zh = givens(ctx, new, dtype, op)
    ask = number_ask(
        "speedup",
        "Moving from the first card to the second, what speed-up does the roofline predict?",
        "从第一张卡换到第二张卡，Roofline 预测的加速比是多少？",
        speedup,
        TIMES,
        steps,
        mistakes,
        prefix_mistake=False,
    )
    conv_en, conv_zh = convention(dtype, matrices=True)
    return Scenario(
        "card-upgrade",
        ctx.difficulty,
        ctx.seed,
        f"The operator is {pick.en}. First card: {g_old} Second card: {g_new}",
        f"算子是{pick.zh}。第一张卡：{g_old_zh} 第二张卡：{g_new_zh}",
        (ask,),
        {
            "op": op,
            "shape": pick.cost.params,
            "dtype": dtype,
            "gpu": old.id,
            "gpu_new": new.id,
            "peak": a_old.peak,
            "bandwidth": a_old.bandwidth,
            "peak_new": a_new.peak,
            "bandwidth_new": a_new.bandwidth,
        },
        conv_en,
        conv_zh,
        hidden_figures(ctx, old, new),
    )


@skill("precision-change", "roofline", en="Speed-up from lower precision", zh="降精度的加速比")
def precision_change(ctx: Ctx) -> Scenario:
    card = ctx.card(need="fp16")
    target = ctx.choice([d for d in ("fp16", "bf16") if d in card.dtypes()] or ["fp16"])

    def both_clear(p) -> bool:
        low = shapes.retype(p, target)
        return (
            shapes.runs_on(card, low, target)
            and _clear(card, p.cost, "fp32")
            and _clear(card, low.cost, target)
        )

    pick32 = shapes.any_op(ctx, "fp32", (card,), also=both_clear)
    cost16 = shapes.retype(pick32, target).cost
    op = pick32.cost.op
    a32 = analyze(pick32.cost, roof(card, "fp32", op).value, card.bandwidth, "fp32", gpu=card.id)
    a16 = analyze(cost16, roof(card, target, op).value, card.bandwidth, target, gpu=card.id)
    speedup = a32.min_time / a16.min_time
    mistakes = []
    tensor = uses_tensor_cores(op)
    if tensor and target in card.vector:
        slow = _time(cost16, card, target, card.vector[target] * 1e12)
        mistakes.append(("non-tensor-peak", a32.min_time / slow))
    if not tensor and target in card.tensor:
        fast = _time(cost16, card, target, card.tensor[target] * 1e12)
        mistakes.append(("tensor-peak", a32.min_time / fast))
    sparse = sparse_peak(card, target, op)
    if sparse:
        mistakes.append(("sparse-peak", a32.min_time / _time(cost16, card, target, sparse)))
    if a32.bound == "memory":
        mistakes.append(("wrong-bound", a16.peak / a32.peak))
    else:
        mistakes.append(("wrong-bound", 2.0))
    steps = (
        *_side(a32, "fp32", "fp32", "fp32", with_flops=True, own_bytes=True),
        *_side(a16, target, target, target, with_flops=False, own_bytes=True),
        Step(
            "speedup",
            "Speed-up",
            "加速比",
            "t_fp32 / t_new",
            f"{format_si(a32.min_time, 's')} / {format_si(a16.min_time, 's')}",
            speedup,
            "x",
        ),
    )
    g_en, g_zh = givens(ctx, card, "fp32", op)
    g16_en, g16_zh = givens(ctx, card, target, op)
    w = unit_words(card)
    path_en = w.matrix if tensor else f"still on {w.vector}"
    path_zh = w.matrix_zh if tensor else f"仍在{w.vector_zh}上"
    ask = number_ask(
        "speedup",
        f"Switching from fp32 to {target} ({path_en}), what speed-up does the roofline predict?",
        f"从 fp32 换成 {target}（{path_zh}），Roofline 预测的加速比是多少？",
        speedup,
        TIMES,
        steps,
        mistakes,
        prefix_mistake=False,
    )
    conv_en, conv_zh = convention(None, matrices=True)
    conv_en += f" fp32 = 4 bytes, {target} = 2 bytes per element."
    conv_zh += f" fp32 每元素 4 字节，{target} 每元素 2 字节。"
    return Scenario(
        "precision-change",
        ctx.difficulty,
        ctx.seed,
        f"The operator is {pick32.en}. In fp32: {g_en} In {target}: {g16_en}",
        f"算子是{pick32.zh}。fp32：{g_zh} {target}：{g16_zh}",
        (ask,),
        {
            "op": op,
            "shape": pick32.cost.params,
            "dtype": "fp32",
            "dtype_new": target,
            "gpu": card.id,
            "peak": a32.peak,
            "peak_new": a16.peak,
            "bandwidth": card.bandwidth,
        },
        conv_en,
        conv_zh,
        hidden_figures(ctx, card),
    )


@skill(
    "ops-per-element",
    "roofline",
    en="FLOPs per element to turn compute-bound",
    zh="逐元素算子变为算力受限所需的运算数",
)
def ops_per_element(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp32", "fp16", "bf16"))
    inputs, outputs = ctx.choice(((1, 1), (2, 1), (3, 1)))
    choice = roof(card, dtype, "elementwise")  # element-wise math never runs on tensor cores
    peak, bw = choice.value, card.bandwidth
    s = dtype_bytes(dtype)
    ridge = peak / bw
    value = ridge * s * (inputs + outputs)
    steps = (
        Step(
            "ridge",
            f"Ridge point of the {unit_words(card).vector_adj} {dtype} roof",
            f"{unit_words(card).vector_adj_zh} {dtype} 屋顶的拐点",
            "peak / bandwidth",
            f"{format_si(peak, 'FLOP/s')} / {format_si(bw, 'B/s')}",
            ridge,
            "FLOP/B",
        ),
        Step(
            "ops-per-element",
            "FLOPs per element at the ridge",
            "到达拐点所需每元素运算数",
            "ridge × s × (i + o)",
            f"{fmt(ridge)} × {s} × ({inputs} + {outputs})",
            value,
        ),
    )
    mistakes = [
        ("no-write-back", ridge * s * inputs),
        ("dtype-bytes", value * WRONG_BYTES[s] / s),
        ("inverted-ratio", bw / peak * s * (inputs + outputs)),
        ("gib-gb", value / GIB_PER_GB),
    ]
    if dtype in card.tensor:
        mistakes.append(("tensor-peak", card.tensor[dtype] * 1e12 / bw * s * (inputs + outputs)))
    g_en, g_zh = givens(ctx, card, dtype, "elementwise")
    ask = number_ask(
        "ops-per-element",
        f"An element-wise kernel reads {counted(inputs, f'{dtype} tensor')} and writes "
        f"{outputs}. How many FLOPs per element "
        "must it do before it turns compute-bound?",
        f"一个逐元素 kernel 读 {inputs} 个、写 {outputs} 个 {dtype} 张量。"
        "每个元素至少要做多少次运算才会变成算力受限？",
        value,
        PLAIN,
        steps,
        mistakes,
        prefix_mistake=False,
    )
    conv_en, conv_zh = convention(dtype)
    w = unit_words(card)
    conv_en += f" Element-wise math runs on {w.vector}: their peak is the roof."
    conv_zh += f"逐元素运算在{w.vector_zh}上执行：屋顶用它们的峰值。"
    return Scenario(
        "ops-per-element",
        ctx.difficulty,
        ctx.seed,
        g_en,
        g_zh,
        (ask,),
        {
            "gpu": card.id,
            "dtype": dtype,
            "inputs": inputs,
            "outputs": outputs,
            "peak": peak,
            "peak_path": choice.path,
            "bandwidth": bw,
        },
        conv_en,
        conv_zh,
        hidden_figures(ctx, card),
    )


# Library GEMM tiles: (tile M, tile N) with 256 threads, fp32 accumulators in registers and a
# 3-stage pipeline of fp16 A and B slices, 32 deep, in shared memory.
TILES = ((128, 128), (256, 128))
THREADS = 256
OVERHEAD_REGS = 32  # per thread: addresses, loop counters, operand fragments
STAGES, K_SLICE = 3, 32


def block_needs(tile_m: int, tile_n: int) -> tuple[int, float]:
    """32-bit registers and KiB of shared memory one thread block of this tile holds."""
    regs = tile_m * tile_n + THREADS * OVERHEAD_REGS
    smem_kib = STAGES * (tile_m + tile_n) * K_SLICE * 2 / 1024
    return regs, smem_kib


def resident_blocks(card, tile_m: int, tile_n: int) -> int:
    regs, smem = block_needs(tile_m, tile_n)
    return min(card.registers_per_unit // regs, int(card.shared_memory_per_unit_kib // smem))


@skill("wave-quantization", "hardware", en="Wave quantization", zh="波次量化（wave quantization）")
def wave_quantization(ctx: Ctx) -> Scenario:
    card = ctx.card(nvidia=True, specs="build")
    if not card.registers_per_unit or not card.shared_memory_per_unit_kib:
        card = ctx.rng.choice(
            [
                c
                for c in ctx.catalog.drawn("common")
                if c.registers_per_unit and c.vendor == "NVIDIA"
            ]
        )
    fitting = [t for t in TILES if resident_blocks(card, *t) >= 1]
    tile_m, tile_n = ctx.choice(fitting)
    per_sm = min(resident_blocks(card, tile_m, tile_n), 2)
    slots = card.units * per_sm
    shapes_mn = [
        (m, n)
        for m in (1024, 2048, 3072, 4096, 5120, 6144, 8192)
        for n in (1024, 2048, 4096, 5120, 8192, 11008)
    ]
    ctx.rng.shuffle(shapes_mn)
    m, n = shapes_mn[0]
    for m, n in shapes_mn:  # noqa: B007 - the first shape with a visible partial wave
        blocks = math.ceil(m / tile_m) * math.ceil(n / tile_n)
        if blocks > slots and blocks / (math.ceil(blocks / slots) * slots) <= 0.9:
            break
    else:
        m, n = tile_m * (slots + 1), tile_n  # a card with very many units
    blocks = math.ceil(m / tile_m) * math.ceil(n / tile_n)
    w = rl.wave_quantization(blocks, card.units, per_sm)
    regs, smem = block_needs(tile_m, tile_n)
    steps = (
        Step(
            "blocks",
            "Thread blocks",
            "线程块数",
            f"ceil(M/{tile_m}) × ceil(N/{tile_n})",
            f"{math.ceil(m / tile_m)} × {math.ceil(n / tile_n)}",
            float(blocks),
        ),
        Step(
            "waves",
            "Waves",
            "波次",
            "ceil(blocks / (SMs × blocks per SM))",
            f"ceil({blocks} / ({card.units} × {per_sm}))",
            float(w.waves),
        ),
        Step(
            "wave-util",
            "Useful share of the time",
            "有效利用率",
            "blocks / (waves × slots)",
            f"{blocks} / ({w.waves} × {slots})",
            w.utilization,
            "%",
        ),
    )
    ask = number_ask(
        "wave-util",
        "Each block takes the same time. What share of the SM time does useful "
        "work, counting the partial last wave?",
        "每个块耗时相同。算上最后不满的一波，SM 时间中有多少比例在做有效工作？",
        w.utilization,
        PCT,
        steps,
        [("no-ceil", 1.0)],
        prefix_mistake=False,
    )
    en = (
        f"A GEMM with M = {m}, N = {n} is split into {tile_m}×{tile_n} output tiles, one thread "
        f"block of {THREADS} threads each, on {with_detail(card, f'{card.units} SMs')}. A block holds its "
        f"fp32 accumulators in registers and stages operands in shared memory: about "
        f"{regs:,} registers and {smem:g} KiB; an SM has {card.registers_per_unit:,} registers "
        f"and {card.shared_memory_per_unit_kib:g} KiB of shared memory, so "
        f"{counted(per_sm, 'block')} {'is' if per_sm == 1 else 'are'} resident per SM."
    )
    zh = (
        f"一个 M = {m}、N = {n} 的 GEMM 按 {tile_m}×{tile_n} 的输出块划分，每块一个 {THREADS} 线程的"
        f"线程块，运行在 {card.name} 上（{card.units} 个 SM）。每个块的 fp32 累加器放在寄存器里，"
        f"操作数经共享内存中转：约 {regs:,} 个寄存器、{smem:g} KiB；每个 SM 有 "
        f"{card.registers_per_unit:,} 个寄存器和 {card.shared_memory_per_unit_kib:g} KiB 共享内存，"
        f"因此每个 SM 同时驻留 {per_sm} 个块。"
    )
    return Scenario(
        "wave-quantization",
        ctx.difficulty,
        ctx.seed,
        en,
        zh,
        (ask,),
        {
            "gpu": card.id,
            "M": m,
            "N": n,
            "tile_m": tile_m,
            "tile_n": tile_n,
            "threads": THREADS,
            "registers_per_block": regs,
            "smem_kib_per_block": smem,
            "blocks_per_sm": per_sm,
            "units": card.units,
            "blocks": blocks,
        },
        "Waves are rounded up: a partial wave costs a full wave.",
        "波次向上取整：不满的一波也要一整波的时间。",
    )
