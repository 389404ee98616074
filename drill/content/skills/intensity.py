"""Intensity skills: FLOPs, bytes and intensity of GEMM, GEMV, element-wise, conv and attention."""

from __future__ import annotations

from drill.content.skills import shapes
from drill.content.skills.context import (
    GB,
    GIB_PER_GB,
    MB,
    WRONG_BYTES,
    Ctx,
    bound_ask,
    convention,
    count_unit,
    givens,
    hidden_figures,
    intensity_unit,
    number_ask,
    pick_steps,
    roof,
)
from drill.content.skills.model import Ask, Scenario
from drill.content.skills.skill import skill
from drill.core.engine import analyze
from drill.core.engine import operators as ops
from drill.core.engine.operators import OpCost, dtype_bytes


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
    if cost.op in ("softmax", "layernorm"):
        return s * p["rows"] * p["cols"]
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


def _intensity_scenario(
    ctx: Ctx, skill: str, card, pick: shapes.OpPick, dtype: str, mistakes: list[tuple[str, float]]
) -> Scenario:
    cost = pick.cost
    a = analyze(cost, 1.0, 1.0, dtype)  # only the traffic model matters here
    steps = pick_steps(a.steps, "intensity")
    asks: list[Ask] = []
    s = dtype_bytes(dtype)
    if ctx.difficulty >= 3:
        asks.append(
            number_ask(
                "flops",
                *(
                    (
                        "How many integer operations (OPs) does it perform?",
                        "它一共做多少次整数运算（OP）？",
                    )
                    if dtype == "int8"
                    else ("How many FLOPs does it perform?", "它一共做多少次浮点运算？")
                ),
                cost.flops,
                count_unit(cost.flops, dtype),
                pick_steps(steps, "flops"),
                [("fma-factor", cost.flops / 2)],
            )
        )
        out = output_bytes(cost, s)
        byte_mistakes = [
            ("dtype-bytes", cost.bytes * WRONG_BYTES[s] / s),
            ("gib-gb", cost.bytes / GIB_PER_GB),
        ]
        if 0 < out < cost.bytes:
            byte_mistakes.append(("no-write-back", cost.bytes - out))
        asks.append(
            number_ask(
                "bytes",
                "How many bytes cross DRAM?",
                "有多少字节经过显存？",
                cost.bytes,
                GB if cost.bytes >= 1e9 else MB,
                pick_steps(steps, "bytes"),
                byte_mistakes,
            )
        )
    asks.append(
        number_ask(
            "intensity",
            "What is its arithmetic intensity?",
            "它的算术强度是多少？",
            a.intensity,
            intensity_unit(dtype),
            steps,
            mistakes,
        )
    )
    with_bound = ctx.difficulty >= 2 and skill == "gemm-intensity"
    params = {
        "op": cost.op,
        "shape": cost.params,
        "dtype": dtype,
        "gpu": card.id,
        "peak": roof(card, dtype, cost.op).value,
        "bandwidth": card.bandwidth,
        "intensity": a.intensity,
        "card_in_question": with_bound,
    }
    if with_bound:
        a_card = analyze(cost, roof(card, dtype, cost.op).value, card.bandwidth, dtype, gpu=card.id)
        g_en, g_zh = givens(ctx, card, dtype, cost.op)
        asks.append(
            bound_ask(
                f"The card: {g_en} Is it memory- or compute-bound there?",
                f"显卡：{g_zh}它在这张卡上是访存密集还是计算密集？",
                a_card.bound,
                pick_steps(a_card.steps, "bound"),
            )
        )
    conv_en, conv_zh = convention(dtype, matrices=cost.op in ("gemm", "gemv", "conv2d"))
    return Scenario(
        skill=skill,
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=f"Take {pick.en}, in {dtype}.",
        intro_zh=f"考虑{pick.zh}，精度 {dtype}。",
        asks=tuple(asks),
        params=params,
        convention_en=conv_en,
        convention_zh=conv_zh,
        hidden=hidden_figures(ctx, card) if with_bound else (),
    )


@skill("gemm-intensity")
def gemm_intensity(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "bf16", "fp32", "fp8"))
    if ctx.difficulty >= 2:  # a bound on the card follows: the run must be long enough
        pick = shapes.any_op(ctx, dtype, (card,), draw=shapes.gemm)
    else:
        pick = shapes.gemm(ctx, dtype)
    return _intensity_scenario(
        ctx, "gemm-intensity", card, pick, dtype, intensity_mistakes(pick.cost, dtype)
    )


@skill("gemv-intensity")
def gemv_intensity(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "bf16", "fp32", "int8"))
    pick = shapes.gemv(ctx, dtype)
    return _intensity_scenario(
        ctx, "gemv-intensity", card, pick, dtype, intensity_mistakes(pick.cost, dtype)
    )


@skill("elementwise-intensity")
def elementwise_intensity(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "fp32", "bf16"))
    pick, fma = shapes.elementwise(ctx, dtype)
    return _intensity_scenario(
        ctx,
        "elementwise-intensity",
        card,
        pick,
        dtype,
        intensity_mistakes(pick.cost, dtype, fma=fma),
    )


@skill("conv-intensity")
def conv_intensity(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "bf16", "fp32"))
    pick = shapes.conv(ctx, dtype)
    return _intensity_scenario(
        ctx, "conv-intensity", card, pick, dtype, intensity_mistakes(pick.cost, dtype)
    )


@skill("attention-intensity")
def attention_intensity(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "bf16"))
    fused = ctx.rng.random() < 0.5
    pick = shapes.any_op(ctx, dtype, (card,), draw=lambda c, d: shapes.attention(c, d, fused))
    p = pick.cost.params
    twin = ops.attention(p["batch"], p["heads"], p["seq"], p["head_dim"], dtype, fused=not fused)
    mistakes = intensity_mistakes(pick.cost, dtype)
    mistakes.insert(0, ("fused-traffic", twin.flops / twin.bytes))
    return _intensity_scenario(ctx, "attention-intensity", card, pick, dtype, mistakes)
