"""Skills on placing an operator on the roofline: intensity, ridge, bound, attainable, time."""

from __future__ import annotations

from drill.content.skills import shapes
from drill.content.skills.context import (
    AI,
    GB,
    GFLOP,
    MB,
    MS,
    PCT,
    PLAIN,
    TFLOPS,
    TIMES,
    US,
    WRONG_BYTES,
    Ctx,
    bound_ask,
    convention,
    fmt,
    givens,
    number_ask,
    pick_steps,
)
from drill.content.skills.model import Ask, Scenario
from drill.content.skills.skill import skill
from drill.core.engine import analyze
from drill.core.engine import operators as ops
from drill.core.engine import roofline as rl
from drill.core.engine.operators import OpCost, dtype_bytes
from drill.core.engine.steps import Step
from drill.core.units import format_si


def output_bytes(cost: OpCost, s: int) -> float:
    """Bytes of the operator's written result (what 'forgot the write-back' leaves out)."""
    p = cost.params
    if cost.op == "gemm":
        return s * p["M"] * p["N"] * p["batch"]
    if cost.op == "gemv":
        return s * p["M"]
    if cost.op == "elementwise":
        return s * p["n"] * p["outputs"]
    if cost.op == "conv2d":
        return s * p["batch"] * p["out_channels"] * p["out_height"] * p["out_width"]
    if cost.op == "attention":
        return s * p["batch"] * p["heads"] * p["seq"] * p["head_dim"]
    return 0.0


def intensity_mistakes(cost: OpCost, dtype: str, fma: bool = True) -> list[tuple[str, float]]:
    s = dtype_bytes(dtype)
    ai = cost.flops / cost.bytes
    found = []
    if fma:
        found.append(("fma-factor", ai / 2))
    found.append(("dtype-bytes", ai * s / WRONG_BYTES[s]))
    out = output_bytes(cost, s)
    if 0 < out < cost.bytes:
        found.append(("no-write-back", cost.flops / (cost.bytes - out)))
    return found


def _intensity_scenario(ctx: Ctx, skill: str, card, pick: shapes.OpPick, dtype: str,
                        mistakes: list[tuple[str, float]]) -> Scenario:
    cost = pick.cost
    a = analyze(cost, 1.0, 1.0, dtype)  # only the traffic model matters here
    steps = pick_steps(a.steps, "intensity")
    asks: list[Ask] = []
    s = dtype_bytes(dtype)
    if ctx.difficulty >= 3:
        asks.append(number_ask("flops", "How many FLOPs does it perform?",
                               "它一共做多少次浮点运算？", cost.flops, GFLOP, steps[:1],
                               [("fma-factor", cost.flops / 2)]))
        out = output_bytes(cost, s)
        byte_mistakes = [("dtype-bytes", cost.bytes * WRONG_BYTES[s] / s)]
        if 0 < out < cost.bytes:
            byte_mistakes.append(("no-write-back", cost.bytes - out))
        asks.append(number_ask("bytes", "How many bytes cross DRAM?", "有多少字节经过显存？",
                               cost.bytes, GB if cost.bytes >= 1e9 else MB, steps[:2],
                               byte_mistakes))
    asks.append(number_ask("intensity", "What is its arithmetic intensity?",
                           "它的算术强度是多少？", a.intensity, AI, steps, mistakes))
    if ctx.difficulty >= 2 and skill == "gemm-intensity":
        a_card = analyze(cost, card.peak(dtype).value, card.bandwidth, dtype, gpu=card.id)
        g_en, g_zh = givens(ctx, card, dtype)
        asks.append(bound_ask(f"On {g_en} Is it memory- or compute-bound?",
                              f"在 {g_zh} 上，它是带宽受限还是算力受限？", a_card.bound,
                              pick_steps(a_card.steps, "bound")))
    conv_en, conv_zh = convention(dtype, matrices=cost.op in ("gemm", "gemv", "conv2d"))
    return Scenario(skill, ctx.difficulty, 0, f"Take {pick.en}, in {dtype}.",
                    f"考虑{pick.zh}，精度 {dtype}。", tuple(asks),
                    {"op": cost.op, "shape": cost.params, "dtype": dtype, "gpu": card.id,
                     "peak": card.peak(dtype).value, "bandwidth": card.bandwidth,
                     "intensity": a.intensity, "card_in_question": len(asks) > 1 and
                     asks[-1].key == "bound"},
                    conv_en, conv_zh)


@skill("gemm-intensity", "intensity", en="GEMM arithmetic intensity", zh="GEMM 算术强度")
def gemm_intensity(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "bf16", "fp32", "fp8"))
    pick = shapes.gemm(ctx, dtype)
    return _intensity_scenario(ctx, "gemm-intensity", card, pick, dtype,
                               intensity_mistakes(pick.cost, dtype))


@skill("gemv-intensity", "intensity", en="GEMV arithmetic intensity", zh="GEMV 算术强度")
def gemv_intensity(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "bf16", "fp32", "int8"))
    pick = shapes.gemv(ctx, dtype)
    return _intensity_scenario(ctx, "gemv-intensity", card, pick, dtype,
                               intensity_mistakes(pick.cost, dtype))


@skill("elementwise-intensity", "intensity", en="Element-wise intensity", zh="逐元素算子的算术强度")
def elementwise_intensity(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "fp32", "bf16"))
    pick, fma = shapes.elementwise(ctx, dtype)
    return _intensity_scenario(ctx, "elementwise-intensity", card, pick, dtype,
                               intensity_mistakes(pick.cost, dtype, fma=fma))


@skill("conv-intensity", "intensity", en="Convolution intensity", zh="卷积的算术强度")
def conv_intensity(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "bf16", "fp32"))
    pick = shapes.conv(ctx, dtype)
    return _intensity_scenario(ctx, "conv-intensity", card, pick, dtype,
                               intensity_mistakes(pick.cost, dtype))


@skill("attention-intensity", "intensity", en="Attention intensity", zh="注意力的算术强度")
def attention_intensity(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "bf16"))
    fused = ctx.rng.random() < 0.5
    pick = shapes.attention(ctx, dtype, fused)
    p = pick.cost.params
    twin = ops.attention(p["batch"], p["heads"], p["seq"], p["head_dim"], dtype, fused=not fused)
    mistakes = intensity_mistakes(pick.cost, dtype)
    mistakes.insert(0, ("fused-traffic", twin.flops / twin.bytes))
    return _intensity_scenario(ctx, "attention-intensity", card, pick, dtype, mistakes)


def _card_op(ctx: Ctx, op_kind: str | None = None):
    card = ctx.card()
    dtype = ctx.dtype(card)
    pick = shapes.gemm(ctx, dtype) if op_kind == "gemm" else shapes.any_op(ctx, dtype)
    return card, dtype, pick


def _params(card, dtype, pick, **extra) -> dict:
    peak = card.peak(dtype).value
    intensity = pick.cost.flops / pick.cost.bytes
    data = {"op": pick.cost.op, "shape": pick.cost.params, "dtype": dtype, "gpu": card.id,
            "peak": peak, "bandwidth": card.bandwidth, "intensity": intensity,
            "attainable": min(peak, intensity * card.bandwidth)}
    data.update(extra)
    return data


@skill("ridge-point", "roofline", en="Ridge point", zh="拐点")
def ridge_point(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "bf16", "fp32", "fp8", "tf32", "int8"))
    choice = card.peak(dtype)
    peak, bw = choice.value, card.bandwidth
    a = analyze(OpCost("none", 1.0, 1.0), peak, bw, dtype)
    steps = pick_steps(a.steps, "ridge")[-1:]
    mistakes = [("inverted-ratio", bw / peak)]
    if dtype in card.sparse:
        mistakes.append(("sparse-peak", card.sparse[dtype] * 1e12 / bw))
    if choice.path.startswith("tensor") and dtype in card.vector:
        mistakes.append(("non-tensor-peak", card.vector[dtype] * 1e12 / bw))
    if dtype == "fp32" and "tf32" in card.tensor:
        mistakes.append(("tensor-peak", card.tensor["tf32"] * 1e12 / bw))
    g_en, g_zh = givens(ctx, card, dtype)
    extra_en = extra_zh = ""
    if ctx.difficulty >= 2 and dtype in card.sparse:
        extra_en = (f" The datasheet headline for {dtype} is "
                    f"{format_si(card.sparse[dtype] * 1e12, 'FLOP/s')}* (*with sparsity).")
        extra_zh = (f" 数据手册上 {dtype} 的宣传值是 "
                    f"{format_si(card.sparse[dtype] * 1e12, 'FLOP/s')}*（*稀疏）。")
    ask = number_ask("ridge", "What is the ridge point?", "拐点（ridge point）是多少？",
                     peak / bw, AI, steps, mistakes)
    conv_en, conv_zh = convention()
    return Scenario("ridge-point", ctx.difficulty, 0, g_en + extra_en, g_zh + extra_zh, (ask,),
                    {"gpu": card.id, "dtype": dtype, "peak": peak, "bandwidth": bw},
                    conv_en, conv_zh)


def _given(steps, a):
    """When the intensity was given in the prompt, the derivation starts at the ridge."""
    if a.cost.op == "given":
        return tuple(s for s in steps if s.key != "intensity")
    return steps


def _op_intro(ctx: Ctx, card, dtype, pick, level1_ai: bool) -> tuple[str, str]:
    g_en, g_zh = givens(ctx, card, dtype)
    a = analyze(pick.cost, card.peak(dtype).value, card.bandwidth, dtype)
    if level1_ai and ctx.difficulty == 1:
        return (f"{g_en} An operator has arithmetic intensity {fmt(a.intensity, 3)} FLOP/B.",
                f"{g_zh} 某算子的算术强度为 {fmt(a.intensity, 3)} FLOP/B。")
    return f"{g_en} The operator is {pick.en}.", f"{g_zh} 算子是{pick.zh}。"


@skill("bound", "roofline", en="Memory- or compute-bound", zh="带宽受限还是算力受限")
def bound(ctx: Ctx) -> Scenario:
    card, dtype, pick = _card_op(ctx)
    a = analyze(pick.cost, card.peak(dtype).value, card.bandwidth, dtype, gpu=card.id)
    if ctx.difficulty == 1:
        # Use the rounded intensity shown in the prompt, so the verdict matches what was read.
        shown = float(fmt(a.intensity, 3))
        a = analyze(OpCost("given", shown, 1.0), a.peak, a.bandwidth, dtype, gpu=card.id)
    intro = _op_intro(ctx, card, dtype, pick, level1_ai=True)
    ask = bound_ask("Is it memory-bound or compute-bound?", "它是带宽受限还是算力受限？", a.bound,
                    _given(pick_steps(a.steps, "bound"), a))
    conv_en, conv_zh = convention(dtype, matrices=True)
    return Scenario("bound", ctx.difficulty, 0, *intro, (ask,), _params(card, dtype, pick),
                    conv_en, conv_zh)


@skill("attainable", "roofline", en="Attainable throughput", zh="可达吞吐")
def attainable(ctx: Ctx) -> Scenario:
    card, dtype, pick = _card_op(ctx)
    peak, bw = card.peak(dtype).value, card.bandwidth
    a = analyze(pick.cost, peak, bw, dtype, gpu=card.id)
    if ctx.difficulty == 1:
        shown = float(fmt(a.intensity, 3))
        a = analyze(OpCost("given", shown, 1.0), peak, bw, dtype, gpu=card.id)
    mistakes = [("wrong-bound", peak if a.bound == "memory" else a.intensity * bw)]
    if dtype in card.sparse:
        mistakes.append(("sparse-peak", min(card.sparse[dtype] * 1e12, a.intensity * bw)))
    if card.peak(dtype).path.startswith("tensor") and dtype in card.vector:
        mistakes.append(("non-tensor-peak", min(card.vector[dtype] * 1e12, a.intensity * bw)))
    asks = []
    if ctx.difficulty >= 3:
        asks.append(number_ask("intensity", "What is its arithmetic intensity?",
                               "它的算术强度是多少？", a.intensity, AI,
                               pick_steps(a.steps, "intensity"),
                               intensity_mistakes(pick.cost, dtype)))
    asks.append(number_ask("attainable", "What throughput can it attain at best?",
                           "它最多能达到多少吞吐？", a.attainable, TFLOPS,
                           _given(pick_steps(a.steps, "attainable"), a), mistakes))
    conv_en, conv_zh = convention(dtype, matrices=True)
    return Scenario("attainable", ctx.difficulty, 0, *_op_intro(ctx, card, dtype, pick, True),
                    tuple(asks), _params(card, dtype, pick), conv_en, conv_zh)


def _measured(ctx: Ctx, attainable_rate: float) -> tuple[float, str, str]:
    if ctx.rng.random() < 0.25:
        value = float(fmt(attainable_rate * ctx.rng.uniform(0.04, 0.12), 2))
        return value, "a naive kernel", "一个朴素实现的 kernel"
    value = float(fmt(attainable_rate * ctx.rng.uniform(0.3, 0.95), 3))
    return value, "a tuned library kernel", "一个调优过的库 kernel"


@skill("efficiency", "roofline", en="Efficiency against the roof", zh="相对屋顶的效率")
def efficiency(ctx: Ctx) -> Scenario:
    card, dtype, pick = _card_op(ctx)
    peak, bw = card.peak(dtype).value, card.bandwidth
    a0 = analyze(pick.cost, peak, bw, dtype)
    measured, who_en, who_zh = _measured(ctx, a0.attainable)
    a = analyze(pick.cost, peak, bw, dtype, measured=measured, gpu=card.id)
    mistakes = [("peak-not-attainable", measured / peak), ("inverted-ratio", a.attainable / measured)]
    if dtype in card.sparse:
        mistakes.append(("sparse-peak", measured / min(card.sparse[dtype] * 1e12, a.intensity * bw)))
    intro_en, intro_zh = _op_intro(ctx, card, dtype, pick, level1_ai=False)
    intro_en += f" {who_en.capitalize()} runs it at {format_si(measured, 'FLOP/s')}."
    intro_zh += f" {who_zh}实测 {format_si(measured, 'FLOP/s')}。"
    asks = []
    if ctx.difficulty >= 2:
        asks.append(bound_ask("Is it memory-bound or compute-bound?", "它是带宽受限还是算力受限？",
                              a.bound, pick_steps(a.steps, "bound")))
    asks.append(number_ask("efficiency", "What is its efficiency against the roofline?",
                           "相对 Roofline 上限的效率是多少？", a.efficiency, PCT,
                           pick_steps(a.steps, "efficiency"), mistakes, prefix_mistake=False))
    conv_en, conv_zh = convention(dtype, matrices=True)
    conv_en += " Efficiency = measured / attainable."
    conv_zh += " 效率 = 实测 / 可达上限。"
    return Scenario("efficiency", ctx.difficulty, 0, intro_en, intro_zh, tuple(asks),
                    _params(card, dtype, pick, measured=measured), conv_en, conv_zh)


@skill("min-time", "roofline", en="Minimum run time", zh="最短运行时间")
def min_time(ctx: Ctx) -> Scenario:
    card, dtype, pick = _card_op(ctx)
    peak, bw = card.peak(dtype).value, card.bandwidth
    a = analyze(pick.cost, peak, bw, dtype, gpu=card.id)
    compute_t, memory_t = pick.cost.flops / peak, pick.cost.bytes / bw
    mistakes = [("wrong-bound", min(compute_t, memory_t))]
    if a.bound == "compute":
        mistakes.append(("fma-factor", compute_t / 2))
    else:
        s = dtype_bytes(dtype)
        mistakes.append(("dtype-bytes", memory_t * WRONG_BYTES[s] / s))
    unit = US if a.min_time < 1e-3 else MS
    ask = number_ask("min-time", "What is the shortest possible run time?",
                     "理论最短运行时间是多少？", a.min_time, unit, pick_steps(a.steps, "min-time"),
                     mistakes)
    conv_en, conv_zh = convention(dtype, matrices=True)
    conv_en += " Minimum time = max(FLOPs / peak, bytes / bandwidth)."
    conv_zh += " 最短时间 = max(FLOPs / 峰值, 字节 / 带宽)。"
    return Scenario("min-time", ctx.difficulty, 0, *_op_intro(ctx, card, dtype, pick, False),
                    (ask,), _params(card, dtype, pick), conv_en, conv_zh)


@skill("card-upgrade", "roofline", en="Speed-up from a new card", zh="换卡的加速比")
def card_upgrade(ctx: Ctx) -> Scenario:
    old = ctx.card()
    options = [c for c in ctx.catalog if c.id != old.id and c.vendor == old.vendor]
    new = ctx.rng.choice(options or [c for c in ctx.catalog if c.id != old.id])
    dtypes = [d for d in ("fp16", "bf16", "fp32") if d in old.dtypes() and d in new.dtypes()]
    dtype = ctx.choice(dtypes or ["fp32"])
    pick = shapes.any_op(ctx, dtype)
    a_old = analyze(pick.cost, old.peak(dtype).value, old.bandwidth, dtype, gpu=old.id)
    a_new = analyze(pick.cost, new.peak(dtype).value, new.bandwidth, dtype, gpu=new.id)
    speedup = a_old.min_time / a_new.min_time
    peak_ratio = a_new.peak / a_old.peak
    bw_ratio = a_new.bandwidth / a_old.bandwidth
    wrong = peak_ratio if a_old.bound == "memory" and a_new.bound == "memory" else None
    if a_old.bound == "compute" and a_new.bound == "compute":
        wrong = bw_ratio
    mistakes = [("wrong-bound", wrong)] if wrong else []
    steps = (
        *pick_steps(a_old.steps, "min-time")[-1:],
        *pick_steps(a_new.steps, "min-time")[-1:],
        Step("speedup", "Speed-up", "加速比", "t_old / t_new",
             f"{format_si(a_old.min_time, 's')} / {format_si(a_new.min_time, 's')}", speedup, "x"),
    )
    g_old, g_old_zh = givens(ctx, old, dtype)
    g_new, g_new_zh = givens(ctx, new, dtype)
    ask = number_ask("speedup", "Moving from the first card to the second, what speed-up does "
                                "the roofline predict?",
                     "从第一张卡换到第二张卡，Roofline 预测的加速比是多少？", speedup, TIMES, steps,
                     mistakes, prefix_mistake=False)
    conv_en, conv_zh = convention(dtype, matrices=True)
    return Scenario("card-upgrade", ctx.difficulty, 0,
                    f"The operator is {pick.en}. First card: {g_old} Second card: {g_new}",
                    f"算子是{pick.zh}。第一张卡：{g_old_zh} 第二张卡：{g_new_zh}", (ask,),
                    {"op": pick.cost.op, "shape": pick.cost.params, "dtype": dtype,
                     "gpu": old.id, "gpu_new": new.id, "peak": a_old.peak,
                     "bandwidth": a_old.bandwidth, "peak_new": a_new.peak,
                     "bandwidth_new": a_new.bandwidth}, conv_en, conv_zh)


@skill("precision-change", "roofline", en="Speed-up from lower precision", zh="降精度的加速比")
def precision_change(ctx: Ctx) -> Scenario:
    card = ctx.card(need="fp16")
    target = ctx.choice([d for d in ("fp16", "bf16") if d in card.dtypes()] or ["fp16"])
    state = ctx.rng.getstate()
    pick32 = shapes.any_op(ctx, "fp32")
    ctx.rng.setstate(state)  # the same shape again, in the new precision
    cost16 = shapes.any_op(ctx, target).cost
    a32 = analyze(pick32.cost, card.peak("fp32").value, card.bandwidth, "fp32", gpu=card.id)
    a16 = analyze(cost16, card.peak(target).value, card.bandwidth, target, gpu=card.id)
    speedup = a32.min_time / a16.min_time
    mistakes = []
    if target in card.vector:
        slow = analyze(cost16, card.vector[target] * 1e12, card.bandwidth, target)
        mistakes.append(("non-tensor-peak", a32.min_time / slow.min_time))
    if a32.bound == "memory":
        mistakes.append(("wrong-bound", a16.peak / a32.peak))
    else:
        mistakes.append(("wrong-bound", 2.0))
    steps = (
        *pick_steps(a32.steps, "min-time")[-1:],
        *pick_steps(a16.steps, "min-time")[-1:],
        Step("speedup", "Speed-up", "加速比", "t_fp32 / t_new",
             f"{format_si(a32.min_time, 's')} / {format_si(a16.min_time, 's')}", speedup, "x"),
    )
    g_en, g_zh = givens(ctx, card, "fp32")
    g16_en, g16_zh = givens(ctx, card, target)
    ask = number_ask("speedup", f"Switching from fp32 to {target} (tensor cores), what speed-up "
                                "does the roofline predict?",
                     f"从 fp32 换成 {target}（Tensor Core），Roofline 预测的加速比是多少？", speedup,
                     TIMES, steps, mistakes, prefix_mistake=False)
    conv_en, conv_zh = convention(None, matrices=True)
    conv_en += f" fp32 = 4 bytes, {target} = 2 bytes per element."
    conv_zh += f" fp32 每元素 4 字节，{target} 每元素 2 字节。"
    return Scenario("precision-change", ctx.difficulty, 0,
                    f"The operator is {pick32.en}. In fp32: {g_en} In {target}: {g16_en}",
                    f"算子是{pick32.zh}。fp32：{g_zh} {target}：{g16_zh}", (ask,),
                    {"op": pick32.cost.op, "shape": pick32.cost.params, "dtype": "fp32",
                     "dtype_new": target, "gpu": card.id, "peak": a32.peak,
                     "peak_new": a16.peak, "bandwidth": card.bandwidth}, conv_en, conv_zh)


@skill("ops-per-element", "roofline", en="FLOPs per element to turn compute-bound", zh="逐元素算子变为算力受限所需的运算数")
def ops_per_element(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp32", "fp16", "bf16"))
    inputs, outputs = ctx.choice(((1, 1), (2, 1), (3, 1)))
    peak, bw = card.peak(dtype).value, card.bandwidth
    s = dtype_bytes(dtype)
    ridge = peak / bw
    value = ridge * s * (inputs + outputs)
    steps = (
        Step("ridge", "Ridge point", "拐点", "peak / bandwidth",
             f"{format_si(peak, 'FLOP/s')} / {format_si(bw, 'B/s')}", ridge, "FLOP/B"),
        Step("ops-per-element", "FLOPs per element at the ridge", "到达拐点所需每元素运算数",
             "ridge × s × (i + o)", f"{fmt(ridge)} × {s} × ({inputs} + {outputs})", value),
    )
    mistakes = [("no-write-back", ridge * s * inputs), ("dtype-bytes", value * WRONG_BYTES[s] / s),
                ("inverted-ratio", bw / peak * s * (inputs + outputs))]
    g_en, g_zh = givens(ctx, card, dtype)
    ask = number_ask("ops-per-element",
                     f"An element-wise kernel reads {inputs} and writes {outputs} {dtype} "
                     "tensor(s). How many FLOPs per element must it do before it turns "
                     "compute-bound?",
                     f"一个逐元素 kernel 读 {inputs} 个、写 {outputs} 个 {dtype} 张量。"
                     "每个元素至少要做多少次运算才会变成算力受限？",
                     value, PLAIN, steps, mistakes, prefix_mistake=False)
    conv_en, conv_zh = convention(dtype)
    return Scenario("ops-per-element", ctx.difficulty, 0, g_en, g_zh, (ask,),
                    {"gpu": card.id, "dtype": dtype, "inputs": inputs, "outputs": outputs,
                     "peak": peak, "bandwidth": bw}, conv_en, conv_zh)


@skill("wave-quantization", "hardware", en="Wave quantization", zh="波次量化（wave quantization）")
def wave_quantization(ctx: Ctx) -> Scenario:
    card = ctx.card(nvidia=True, specs="build")
    tile = ctx.choice((128, 256))
    per_sm = ctx.choice((1, 2))
    slots = card.units * per_sm
    shapes_mn = [(m, n) for m in (1024, 2048, 3072, 4096, 5120, 6144, 8192)
                 for n in (1024, 2048, 4096, 5120, 8192, 11008)]
    ctx.rng.shuffle(shapes_mn)
    m, n = shapes_mn[0]
    for m, n in shapes_mn:  # noqa: B007 - the first shape with a visible partial wave
        blocks = -(-m // tile) * -(-n // tile)
        if blocks > slots and blocks / (-(-blocks // slots) * slots) <= 0.9:
            break
    else:
        m, n, tile = tile * (slots + 1), tile, tile  # a card with very many units
    blocks = -(-m // tile) * -(-n // tile)
    w = rl.wave_quantization(blocks, card.units, per_sm)
    steps = (
        Step("blocks", "Thread blocks", "线程块数", f"ceil(M/{tile}) × ceil(N/{tile})",
             f"{-(-m // tile)} × {-(-n // tile)}", float(blocks)),
        Step("waves", "Waves", "波次", "ceil(blocks / (SMs × blocks per SM))",
             f"ceil({blocks} / ({card.units} × {per_sm}))", float(w.waves)),
        Step("wave-util", "Useful share of the time", "有效利用率", "blocks / (waves × slots)",
             f"{blocks} / ({w.waves} × {slots})", w.utilization, "%"),
    )
    ask = number_ask("wave-util",
                     "Each block takes the same time. What share of the SM time does useful "
                     "work, counting the partial last wave?",
                     "每个块耗时相同。算上最后不满的一波，SM 时间中有多少比例在做有效工作？",
                     w.utilization, PCT, steps, [("no-ceil", 1.0)], prefix_mistake=False)
    en = (f"A GEMM with M = {m}, N = {n} is split into {tile}×{tile} output tiles, one thread "
          f"block each, on {card.name} ({card.units} SMs, {per_sm} block(s) resident per SM).")
    zh = (f"一个 M = {m}、N = {n} 的 GEMM 按 {tile}×{tile} 的输出块划分，每块一个线程块，运行在 "
          f"{card.name} 上（{card.units} 个 SM，每个 SM 同时驻留 {per_sm} 个块）。")
    return Scenario("wave-quantization", ctx.difficulty, 0, en, zh, (ask,),
                    {"gpu": card.id, "M": m, "N": n, "tile": tile, "blocks": blocks,
                     "blocks_per_sm": per_sm, "units": card.units},
                    "Waves are rounded up: a partial wave costs a full wave.",
                    "波次向上取整：不满的一波也要一整波的时间。")
