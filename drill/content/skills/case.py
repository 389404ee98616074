"""The roofline case: one operator on one card, worked from intensity to direction.

The same builder serves the practice skill `roofline-case` and the mock interview's case.
"""

from __future__ import annotations

from drill.content.skills import shapes
from drill.content.skills.case_advice import Situation, advise, hints_for, summary
from drill.content.skills.context import (
    AI,
    GIB_PER_GB,
    PCT,
    TFLOPS,
    Ctx,
    bound_ask,
    givens,
    hidden_figures,
    kernel_convention,
    number_ask,
    unit_words,
)
from drill.content.skills.directions import direction_ask
from drill.content.skills.intensity import intensity_mistakes
from drill.content.skills.model import Scenario
from drill.content.skills.realism import measured_run, run_params
from drill.content.skills.roofline import roof_mistakes, roof_skipped
from drill.content.skills.skill import skill
from drill.core.engine import operators as ops
from drill.core.engine.roofline import uses_tensor_cores
from drill.core.units import format_si


def build_case(
    ctx: Ctx, skill_id: str, card, dtype: str, pick: shapes.OpPick, slow: bool
) -> Scenario:
    cost = pick.cost
    op = cost.op
    if op == "attention" and dtype in ("fp32", "tf32", "fp64"):
        slow = True  # no library fuses attention in fp32: the kernel is the user's own
    choice, a, yours, library = measured_run(ctx, card, cost, dtype, slow)
    peak, bw = choice.value, card.bandwidth
    who_en, who_zh = (
        ("your own kernel", "你自己写的 kernel") if slow else ("the vendor library", "厂商库")
    )
    g_en, g_zh = givens(ctx, card, dtype, op)
    intro_en = (
        f"{g_en} The operator is {pick.en}, in {dtype}. {who_en.capitalize()} runs it "
        f"at {format_si(yours, 'FLOP/s')}. Analyse it step by step."
    )
    intro_zh = (
        f"{g_zh} 算子是{pick.zh}，精度 {dtype}。{who_zh}实测 "
        f"{format_si(yours, 'FLOP/s')}。请逐步分析。"
    )
    steps = a.steps

    def upto(key: str):
        last = max(i for i, s in enumerate(steps) if s.key == key)
        return tuple(steps[: last + 1])

    ai = a.intensity
    ridge_mistakes = [("inverted-ratio", bw / peak), ("gib-gb", a.ridge / GIB_PER_GB)]
    ridge_mistakes += roof_mistakes(card, dtype, op, lambda p: p / bw)
    att_mistakes = [roof_skipped(a.bound, peak, ai * bw)]
    att_mistakes += roof_mistakes(card, dtype, op, lambda p: min(p, ai * bw))
    eff_mistakes = [("peak-not-attainable", yours / peak), ("inverted-ratio", a.attainable / yours)]
    eff_mistakes += roof_mistakes(card, dtype, op, lambda p: yours / min(p, ai * bw))
    if a.bound == "memory":
        att_mistakes.append(("gib-gb", a.attainable * GIB_PER_GB))
        eff_mistakes.append(("gib-gb", a.efficiency / GIB_PER_GB))
    where = Situation(card, cost, dtype, a.bound, a.efficiency, yours, peak, not slow)
    w = unit_words(card)
    roof_en = w.matrix_adj if choice.path.startswith("tensor") else w.vector_adj
    roof_zh = w.matrix_zh if choice.path.startswith("tensor") else w.vector_adj_zh
    asks = (
        number_ask(
            "intensity",
            "What is the arithmetic intensity?",
            "算术强度是多少？",
            ai,
            AI,
            upto("intensity"),
            intensity_mistakes(cost, dtype),
        ),
        number_ask(
            "ridge",
            f"What is the ridge point of the {roof_en} {dtype} roof this kernel runs against?",
            f"这个 kernel 所对应的{roof_zh} {dtype} 屋顶的拐点是多少？",
            a.ridge,
            AI,
            upto("ridge")[-1:],
            ridge_mistakes,
        ),
        bound_ask(
            "Is it memory-bound or compute-bound?",
            "它是访存密集还是计算密集？",
            a.bound,
            upto("bound"),
        ),
        number_ask(
            "attainable",
            "What throughput can it attain at best?",
            "它最多能达到多少吞吐？",
            a.attainable,
            TFLOPS,
            upto("attainable"),
            att_mistakes,
        ),
        number_ask(
            "efficiency",
            f"What is the efficiency of {who_en} against the roof?",
            f"{who_zh}相对屋顶的效率是多少？",
            a.efficiency,
            PCT,
            upto("efficiency"),
            eff_mistakes,
            prefix_mistake=False,
        ),
        direction_ask(advise(where), summary(where), card, dtype, **hints_for(where)),
    )
    conv_en, conv_zh = kernel_convention(dtype, cost)
    if not uses_tensor_cores(op):
        conv_en += f" This kernel runs on {unit_words(card).vector}: use their peak."
        conv_zh += f"该 kernel 在{unit_words(card).vector_zh}上运行：用它们的峰值。"
    return Scenario(
        skill=skill_id,
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=intro_en,
        intro_zh=intro_zh,
        asks=asks,
        params=run_params(card, dtype, choice, a, yours, library),
        convention_en=conv_en,
        convention_zh=conv_zh,
        hidden=hidden_figures(ctx, card),
    )


@skill("roofline-case")
def roofline_case(ctx: Ctx) -> Scenario:
    """Card, precision, operator and a measured throughput: intensity through direction."""
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "bf16", "fp32"))
    pick = shapes.any_op(ctx, dtype, (card,))
    return build_case(ctx, "roofline-case", card, dtype, pick, ctx.rng.random() < 0.5)


def interview_case(ctx: Ctx) -> Scenario:
    """The mock interview's case: a GEMM, a GEMV or attention in fp16, a slow kernel."""
    card = ctx.card(need="fp16", nvidia=True)
    dtype = "fp16"
    kind = ctx.choice(("gemm", "gemm", "gemv", "attention"))
    if kind == "gemm":
        size = ctx.choice((4096, 8192))
        pick = shapes.OpPick(
            ops.gemm(size, size, size, dtype),
            f"a GEMM with M = N = K = {size}",
            f"一个 M = N = K = {size} 的 GEMM",
        )
    elif kind == "gemv":

        def layer(k: int, m: int) -> shapes.OpPick:
            return shapes.OpPick(
                ops.gemv(m, k, dtype),
                f"a GEMV y = A·x with A {m}×{k} (one decode token through a layer)",
                f"一个 GEMV y = A·x，A 为 {m}×{k}（一个解码 token 经过一层）",
            )

        # a layer the card reads in 10 µs or more: a verdict is the roofline's, not a launch's
        long = [km for km in shapes.LLM_LAYERS if shapes.runs_on(card, layer(*km), dtype)]
        largest = max(shapes.LLM_LAYERS, key=lambda km: km[0] * km[1])
        pick = layer(*ctx.choice(long or [largest]))
    else:
        seq = ctx.choice((4096, 8192))
        pick = shapes.OpPick(
            ops.attention(1, 32, seq, 128, dtype, fused=False),
            f"naive attention, batch 1, 32 heads, sequence {seq}, head dim 128 "
            "(scores and probabilities go through DRAM; count 4·B·H·S²·D FLOPs)",
            f"朴素注意力，batch 1，32 个头，序列 {seq}，每头 128 维"
            "（分数和概率都经过显存；FLOPs 记 4·B·H·S²·D）",
        )
    return build_case(ctx, "interview-case", card, dtype, pick, slow=True)
