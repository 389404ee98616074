"""Skills on what changes the roof: a new card, a lower precision, FLOPs per element."""

from __future__ import annotations

from dataclasses import replace

from drill.content.skills import shapes
from drill.content.skills.context import (
    GIB_PER_GB,
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
)
from drill.content.skills.model import Scenario
from drill.content.skills.skill import skill
from drill.core.engine import analyze
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
            label_zh += "，访存密集" if a.bound == "memory" else "，计算密集"
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


@skill("card-upgrade")
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
    if a_new.min_time > a_old.min_time and ctx.rng.random() < 0.8:  # mostly an upgrade
        old, new, a_old, a_new = new, old, a_new, a_old
    speedup = a_old.min_time / a_new.min_time
    peak_ratio = a_new.peak / a_old.peak
    bw_ratio = a_new.bandwidth / a_old.bandwidth
    wrong = peak_ratio if a_old.bound == "memory" and a_new.bound == "memory" else None
    if a_old.bound == "compute" and a_new.bound == "compute":
        wrong = bw_ratio
    mistakes = [("wrong-bound", wrong)] if wrong else []
    mistakes.append(("inverted-ratio", 1 / speedup))
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
        skill="card-upgrade",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=f"The operator is {pick.en}. First card: {g_old} Second card: {g_new}",
        intro_zh=f"算子是{pick.zh}。第一张卡：{g_old_zh} 第二张卡：{g_new_zh}",
        asks=(ask,),
        params={
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
        convention_en=conv_en,
        convention_zh=conv_zh,
        hidden=hidden_figures(ctx, old, new),
    )


@skill("precision-change")
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
    mistakes.append(("inverted-ratio", 1 / speedup))
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
        skill="precision-change",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=f"The operator is {pick32.en}. In fp32: {g_en} In {target}: {g16_en}",
        intro_zh=f"算子是{pick32.zh}。fp32：{g_zh} {target}：{g16_zh}",
        asks=(ask,),
        params={
            "op": op,
            "shape": pick32.cost.params,
            "dtype": "fp32",
            "dtype_new": target,
            "gpu": card.id,
            "peak": a32.peak,
            "peak_new": a16.peak,
            "bandwidth": card.bandwidth,
        },
        convention_en=conv_en,
        convention_zh=conv_zh,
        hidden=hidden_figures(ctx, card),
    )


@skill("ops-per-element")
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
        "每个元素至少要做多少次运算才会变成计算密集？",
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
        skill="ops-per-element",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=g_en,
        intro_zh=g_zh,
        asks=(ask,),
        params={
            "gpu": card.id,
            "dtype": dtype,
            "inputs": inputs,
            "outputs": outputs,
            "peak": peak,
            "peak_path": choice.path,
            "bandwidth": bw,
        },
        convention_en=conv_en,
        convention_zh=conv_zh,
        hidden=hidden_figures(ctx, card),
    )


# Library GEMM tiles: (tile M, tile N) with 256 threads, fp32 accumulators in registers and a
# 3-stage pipeline of fp16 A and B slices, 32 deep, in shared memory.
