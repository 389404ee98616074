"""Skills on placing an operator on the roofline: intensity, ridge, bound, attainable, time."""

from __future__ import annotations

from drill.content.skills import shapes
from drill.content.skills.context import (
    AI,
    GIB_PER_GB,
    MS,
    PCT,
    TFLOPS,
    US,
    WRONG_BYTES,
    Ctx,
    bound_ask,
    convention,
    fmt,
    givens,
    hidden_figures,
    intensity_unit,
    number_ask,
    pick_steps,
    rate_unit,
    roof,
    sparse_peak,
    unit_words,
)
from drill.content.skills.intensity import intensity_mistakes
from drill.content.skills.model import Scenario
from drill.content.skills.realism import library_efficiency, naive_efficiency
from drill.content.skills.skill import skill
from drill.core.engine import analyze
from drill.core.engine.operators import OpCost, dtype_bytes
from drill.core.engine.roofline import uses_tensor_cores
from drill.core.units import format_si


def roof_skipped(bound: str, peak: float, memory_roof: float) -> tuple[str, float]:
    """The attainable throughput read off one roof without the min: the peak for a
    memory-bound kernel (the peak taken as attainable), intensity × bandwidth for a
    compute-bound one (the bound read the wrong way round)."""
    if bound == "memory":
        return ("peak-not-attainable", peak)
    return ("wrong-bound", memory_roof)


def roof_mistakes(card, dtype: str, op: str, value_at) -> list[tuple[str, float]]:
    """The same answer worked with the wrong peak: sparse headline, other path of the card.

    ``value_at(peak)`` recomputes the asked quantity with another peak.
    """
    found = []
    sparse = sparse_peak(card, dtype, op)
    if sparse:
        found.append(("sparse-peak", value_at(sparse)))
    used = roof(card, dtype, op)
    if used.path.startswith("tensor") and dtype in card.vector:
        found.append(("non-tensor-peak", value_at(card.vector[dtype] * 1e12)))
    if used.path.startswith("vector") and dtype in card.tensor:
        found.append(("tensor-peak", value_at(card.tensor[dtype] * 1e12)))
    if dtype == "fp32" and "tf32" in card.tensor:
        found.append(("tensor-peak", value_at(card.tensor["tf32"] * 1e12)))
    return found


def _card_op(ctx: Ctx):
    """A card, a precision and an operator that fits it and runs long enough for a verdict."""
    card = ctx.card()
    dtype = ctx.dtype(card)
    return card, dtype, shapes.any_op(ctx, dtype, (card,))


def _params(card, dtype, pick, **extra) -> dict:
    choice = roof(card, dtype, pick.cost.op)
    intensity = pick.cost.flops / pick.cost.bytes
    data = {
        "op": pick.cost.op,
        "shape": pick.cost.params,
        "dtype": dtype,
        "gpu": card.id,
        "peak": choice.value,
        "peak_path": choice.path,
        "bandwidth": card.bandwidth,
        "intensity": intensity,
        "attainable": min(choice.value, intensity * card.bandwidth),
    }
    data.update(extra)
    return data


@skill("ridge-point")
def ridge_point(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "bf16", "fp32", "fp8", "tf32", "int8"))
    choice = card.peak(dtype)
    peak, bw = choice.value, card.bandwidth
    a = analyze(OpCost("none", 1.0, 1.0), peak, bw, dtype)
    steps = pick_steps(a.steps, "ridge")[-1:]
    mistakes = [("inverted-ratio", bw / peak), ("gib-gb", peak / bw / GIB_PER_GB)]
    mistakes += roof_mistakes(card, dtype, "gemm", lambda p: p / bw)
    g_en, g_zh = givens(ctx, card, dtype)
    extra_en = extra_zh = ""
    if ctx.difficulty >= 2 and dtype in card.sparse:
        extra_en = (
            f" The datasheet headline for {dtype} is "
            f"{format_si(card.sparse[dtype] * 1e12, rate_unit(dtype))}* (*with sparsity)."
        )
        extra_zh = (
            f" 数据手册上 {dtype} 的宣传值是 "
            f"{format_si(card.sparse[dtype] * 1e12, rate_unit(dtype))}*（*稀疏）。"
        )
    ask = number_ask(
        "ridge",
        "What is the ridge point?",
        "拐点（ridge point）是多少？",
        peak / bw,
        intensity_unit(dtype),
        steps,
        mistakes,
    )
    conv_en, conv_zh = convention()
    return Scenario(
        skill="ridge-point",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=g_en + extra_en,
        intro_zh=g_zh + extra_zh,
        asks=(ask,),
        params={"gpu": card.id, "dtype": dtype, "peak": peak, "bandwidth": bw},
        convention_en=conv_en,
        convention_zh=conv_zh,
        hidden=hidden_figures(ctx, card),
    )


def _given(steps, a):
    """When the intensity was given in the prompt, the derivation starts at the ridge."""
    if a.cost.op == "given":
        return tuple(s for s in steps if s.key != "intensity")
    return steps


def _op_intro(ctx: Ctx, card, dtype, pick, level1_ai: bool) -> tuple[str, str]:
    g_en, g_zh = givens(ctx, card, dtype, pick.cost.op)
    a = analyze(pick.cost, roof(card, dtype, pick.cost.op).value, card.bandwidth, dtype)
    if level1_ai and ctx.difficulty == 1:
        return (
            f"{g_en} An operator has arithmetic intensity {fmt(a.intensity, 3)} FLOP/B.",
            f"{g_zh} 某算子的算术强度为 {fmt(a.intensity, 3)} FLOP/B。",
        )
    return f"{g_en} The operator is {pick.en}.", f"{g_zh} 算子是{pick.zh}。"


def _roof_note(card, dtype, op) -> tuple[str, str]:
    """Which roof applies, said where the kernel is not a matrix product."""
    if uses_tensor_cores(op):
        return "", ""
    w = unit_words(card)
    return (
        " Element-wise, reduction, softmax, layernorm, copy and GEMV kernels run on "
        f"{w.vector}: use their peak.",
        f" 逐元素、规约、softmax、layernorm、拷贝和 GEMV kernel 在{w.vector_zh}上运行：用它们的峰值。",
    )


@skill("bound")
def bound(ctx: Ctx) -> Scenario:
    card, dtype, pick = _card_op(ctx)
    peak = roof(card, dtype, pick.cost.op).value
    a = analyze(pick.cost, peak, card.bandwidth, dtype, gpu=card.id)
    if ctx.difficulty == 1:
        # Use the rounded intensity shown in the prompt, so the verdict matches what was read.
        shown = float(fmt(a.intensity, 3))
        a = analyze(OpCost("given", shown, 1.0), a.peak, a.bandwidth, dtype, gpu=card.id)
    intro = _op_intro(ctx, card, dtype, pick, level1_ai=True)
    ask = bound_ask(
        "Is it memory-bound or compute-bound?",
        "它是访存密集还是计算密集？",
        a.bound,
        _given(pick_steps(a.steps, "bound"), a),
    )
    conv_en, conv_zh = convention(dtype, matrices=True)
    note = _roof_note(card, dtype, pick.cost.op) if ctx.difficulty > 1 else ("", "")
    return Scenario(
        skill="bound",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=intro[0],
        intro_zh=intro[1],
        asks=(ask,),
        params=_params(card, dtype, pick),
        convention_en=conv_en + note[0],
        convention_zh=conv_zh + note[1],
        hidden=hidden_figures(ctx, card),
    )


@skill("attainable")
def attainable(ctx: Ctx) -> Scenario:
    card, dtype, pick = _card_op(ctx)
    op = pick.cost.op
    peak, bw = roof(card, dtype, op).value, card.bandwidth
    a = analyze(pick.cost, peak, bw, dtype, gpu=card.id)
    if ctx.difficulty == 1:
        shown = float(fmt(a.intensity, 3))
        a = analyze(OpCost("given", shown, 1.0), peak, bw, dtype, gpu=card.id)
    ai = a.intensity
    mistakes = [roof_skipped(a.bound, peak, ai * bw)]
    if a.bound == "memory":
        mistakes.append(("gib-gb", a.attainable * GIB_PER_GB))
    mistakes += roof_mistakes(card, dtype, op, lambda p: min(p, ai * bw))
    asks = []
    if ctx.difficulty >= 3:
        asks.append(
            number_ask(
                "intensity",
                "What is its arithmetic intensity?",
                "它的算术强度是多少？",
                a.intensity,
                AI,
                pick_steps(a.steps, "intensity"),
                intensity_mistakes(pick.cost, dtype),
            )
        )
    asks.append(
        number_ask(
            "attainable",
            "What throughput can it attain at best?",
            "它最多能达到多少吞吐？",
            a.attainable,
            TFLOPS,
            _given(pick_steps(a.steps, "attainable"), a),
            mistakes,
        )
    )
    conv_en, conv_zh = convention(dtype, matrices=True)
    note = _roof_note(card, dtype, op) if ctx.difficulty > 1 else ("", "")
    intro = _op_intro(ctx, card, dtype, pick, True)
    return Scenario(
        skill="attainable",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=intro[0],
        intro_zh=intro[1],
        asks=tuple(asks),
        params=_params(card, dtype, pick),
        convention_en=conv_en + note[0],
        convention_zh=conv_zh + note[1],
        hidden=hidden_figures(ctx, card),
    )


def measured_rate(
    ctx: Ctx, card, pick, dtype: str, attainable_rate: float
) -> tuple[float, str, str]:
    """A measured throughput: a naive kernel, or a library at a share its problem allows.
    No library runs a fused attention in fp32 (flash attention kernels are 16-bit): there
    the kernel is the user's own."""
    no_library = pick.cost.op == "attention" and dtype in ("fp32", "tf32", "fp64")
    if no_library or ctx.rng.random() < 0.25:
        value = float(fmt(attainable_rate * naive_efficiency(ctx), 2))
        return value, "a naive kernel", "一个朴素实现的 kernel"
    share = library_efficiency(ctx, card, pick.cost, dtype)
    value = float(fmt(attainable_rate * share, 3))
    return value, "a tuned library kernel", "一个调优过的库 kernel"


@skill("efficiency")
def efficiency(ctx: Ctx) -> Scenario:
    card, dtype, pick = _card_op(ctx)
    op = pick.cost.op
    peak, bw = roof(card, dtype, op).value, card.bandwidth
    a0 = analyze(pick.cost, peak, bw, dtype)
    measured, who_en, who_zh = measured_rate(ctx, card, pick, dtype, a0.attainable)
    a = analyze(pick.cost, peak, bw, dtype, measured=measured, gpu=card.id)
    ai = a.intensity
    mistakes = [
        ("peak-not-attainable", measured / peak),
        ("inverted-ratio", a.attainable / measured),
    ]
    if a.bound == "memory":
        mistakes.append(("gib-gb", a.efficiency / GIB_PER_GB))
    mistakes += roof_mistakes(card, dtype, op, lambda p: measured / min(p, ai * bw))
    intro_en, intro_zh = _op_intro(ctx, card, dtype, pick, level1_ai=False)
    intro_en += f" {who_en.capitalize()} runs it at {format_si(measured, 'FLOP/s')}."
    intro_zh += f" {who_zh}实测 {format_si(measured, 'FLOP/s')}。"
    asks = []
    if ctx.difficulty >= 2:
        asks.append(
            bound_ask(
                "Is it memory-bound or compute-bound?",
                "它是访存密集还是计算密集？",
                a.bound,
                pick_steps(a.steps, "bound"),
            )
        )
    asks.append(
        number_ask(
            "efficiency",
            "What is its efficiency against the roofline?",
            "相对 Roofline 上限的效率是多少？",
            a.efficiency,
            PCT,
            pick_steps(a.steps, "efficiency"),
            mistakes,
            prefix_mistake=False,
        )
    )
    conv_en, conv_zh = convention(dtype, matrices=True)
    note = _roof_note(card, dtype, op)
    conv_en += " Efficiency = measured / attainable." + note[0]
    conv_zh += " 效率 = 实测 / 可达上限。" + note[1]
    return Scenario(
        skill="efficiency",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=intro_en,
        intro_zh=intro_zh,
        asks=tuple(asks),
        params=_params(card, dtype, pick, measured=measured),
        convention_en=conv_en,
        convention_zh=conv_zh,
        hidden=hidden_figures(ctx, card),
    )


@skill("min-time")
def min_time(ctx: Ctx) -> Scenario:
    card, dtype, pick = _card_op(ctx)
    op = pick.cost.op
    peak, bw = roof(card, dtype, op).value, card.bandwidth
    a = analyze(pick.cost, peak, bw, dtype, gpu=card.id)
    flops, nbytes = pick.cost.flops, pick.cost.bytes
    compute_t, memory_t = flops / peak, nbytes / bw
    mistakes = [("wrong-bound", min(compute_t, memory_t))]
    if a.bound == "compute":
        mistakes.append(("fma-factor", compute_t / 2))
    else:
        s = dtype_bytes(dtype)
        mistakes.append(("dtype-bytes", memory_t * WRONG_BYTES[s] / s))
        mistakes.append(("gib-gb", a.min_time / GIB_PER_GB))
    mistakes += roof_mistakes(card, dtype, op, lambda p: max(flops / p, memory_t))
    unit = US if a.min_time < 1e-3 else MS
    ask = number_ask(
        "min-time",
        "What is the shortest possible run time?",
        "理论最短运行时间是多少？",
        a.min_time,
        unit,
        pick_steps(a.steps, "min-time"),
        mistakes,
    )
    conv_en, conv_zh = convention(dtype, matrices=True)
    note = _roof_note(card, dtype, op)
    conv_en += " Minimum time = max(FLOPs / peak, bytes / bandwidth)." + note[0]
    conv_zh += " 最短时间 = max(FLOPs / 峰值, 字节 / 带宽)。" + note[1]
    intro = _op_intro(ctx, card, dtype, pick, False)
    return Scenario(
        skill="min-time",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=intro[0],
        intro_zh=intro[1],
        asks=(ask,),
        params=_params(card, dtype, pick),
        convention_en=conv_en,
        convention_zh=conv_zh,
        hidden=hidden_figures(ctx, card),
    )
