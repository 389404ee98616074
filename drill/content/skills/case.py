"""The roofline case: one operator on one card, worked from intensity to direction.

The same builder serves the practice skill `roofline-case` and the mock interview's case.
"""

from __future__ import annotations

from drill.content.skills import shapes
from drill.content.skills.context import (
    AI,
    GIB_PER_GB,
    PCT,
    TFLOPS,
    Ctx,
    bound_ask,
    convention,
    givens,
    hidden_figures,
    number_ask,
    roof,
    unit_words,
)
from drill.content.skills.diag import direction_ask
from drill.content.skills.intensity import intensity_mistakes
from drill.content.skills.model import Scenario
from drill.content.skills.realism import library_efficiency, naive_efficiency
from drill.content.skills.roofline import roof_mistakes
from drill.content.skills.skill import skill
from drill.core.engine import analyze
from drill.core.engine import operators as ops
from drill.core.engine.roofline import uses_tensor_cores
from drill.core.units import format_si, sig

# Why each direction helps, for the picks the case's profile calls for.
WHY = {
    "tiling": (
        "compute-bound and far below the roof: reuse each loaded tile from shared "
        "memory and registers many times.",
        "算力受限且远低于屋顶：让每个加载的分块在共享内存和寄存器中多次复用。",
    ),
    "tensor-cores": (
        "the matrix roof is the tensor-core one: issue MMA instructions.",
        "矩阵乘的屋顶属于 Tensor Core：要用 MMA 指令。",
    ),
    "lower-precision": (
        "fewer bytes per element (or a higher tensor roof) is the way past "
        "a roof the kernel already reaches.",
        "每元素更少字节（或更高的 Tensor 屋顶），是越过已贴近的屋顶的办法。",
    ),
    "vectorize": (
        "memory-bound and far below the bandwidth roof: coalesced, wide loads.",
        "带宽受限且远低于带宽屋顶：合并、宽位宽的加载。",
    ),
    "occupancy": (
        "enough loads in flight to cover DRAM latency.",
        "足够多的在途访存请求来掩盖显存延迟。",
    ),
    "fusion": (
        "near the bandwidth roof: fuse with its neighbours so the tensor crosses DRAM fewer times.",
        "已接近带宽屋顶：与相邻算子融合，让张量少经过几次显存。",
    ),
    "larger-batch": (
        "each weight read serves few rows: a larger batch raises the intensity.",
        "每次读权重只服务很少的行：增大 batch 提高算术强度。",
    ),
    "parallelism": (
        "the grid has too few tiles to fill every SM: smaller tiles or split-K "
        "give the idle SMs work.",
        "网格的分块太少，填不满所有 SM：更小的分块或 split-K 让空闲的 SM 有活干。",
    ),
    "change-algorithm": (
        "the S×S intermediates dominate the traffic: flash attention never stores them.",
        "S×S 中间结果主导访存：flash attention 从不存下它们。",
    ),
}
SLOW = 0.5  # below this share of the roof, fix the kernel before changing the roof


def case_directions(
    cost, dtype: str, bound: str, share: float, library: bool
) -> tuple[set[str], set[str]]:
    """(the first directions, defensible ones that come second) for this operator, bound and
    efficiency. A second-order pick earns nothing and costs nothing; the solution says why
    it comes later."""
    if cost.op == "attention" and not cost.params["fused"]:
        return {"change-algorithm", "fusion", "tiling"}, {"lower-precision"}
    if bound == "compute":
        # On fp32 the roof is the non-tensor one: tensor cores (TF32) change the roof, which
        # comes after the kernel reaches the roof it has.
        later = {"tensor-cores"} if dtype == "fp32" and uses_tensor_cores(cost.op) else set()
        if share < SLOW and library:  # a tuned kernel held back by its grid: waves
            return {"parallelism"}, later
        if share < SLOW:
            first = {"tiling", "tensor-cores"} if uses_tensor_cores(cost.op) else {"tiling"}
            return first - later, later
        return {"lower-precision"} | later, set()
    if share < SLOW:
        return {"vectorize", "occupancy"}, {"fusion"}
    if cost.op in ("elementwise", "softmax", "layernorm", "conv2d"):
        # A convolution's activations are the traffic, and its intensity does not grow with
        # the batch (a 1×1 conv stays near 2·Cin·Cout / (s·(Cin + Cout))): fuse instead.
        return {"fusion", "lower-precision"}, set()
    return {"larger-batch", "lower-precision"}, {"fusion"}


LATER = {
    "tensor-cores": (
        "tensor cores change the roof to TF32; first reach the fp32 roof the kernel has.",
        "Tensor Core（TF32）会换一个屋顶；先让 kernel 达到现有的 fp32 屋顶。",
    ),
    "fusion": (
        "fusing saves traffic, but the first gap is how the bytes are fetched.",
        "融合能省访存，但首要差距在于字节是怎么取的。",
    ),
    "lower-precision": (
        "fewer bytes help later; first stop storing the S×S intermediates.",
        "减少字节是后一步；先别再存 S×S 的中间结果。",
    ),
}


def _why(picks: set[str], later: set[str], lang: str) -> str:
    i = 1 if lang == "zh" else 0
    from drill.content.skills.directions import letter, text

    first = " ".join(f"{letter(d)}) {text(d, lang)}: {WHY[d][i]}" for d in sorted(picks))
    if not later:
        return first
    second = " ".join(f"{letter(d)}) {text(d, lang)}: {LATER[d][i]}" for d in sorted(later))
    return first + (" 之后再考虑：" if lang == "zh" else " Later, not first: ") + second


def build_case(
    ctx: Ctx, skill_id: str, card, dtype: str, pick: shapes.OpPick, slow: bool
) -> Scenario:
    cost = pick.cost
    op = cost.op
    if op == "attention" and dtype in ("fp32", "tf32", "fp64"):
        slow = True  # no library fuses attention in fp32: the kernel is the user's own
    choice = roof(card, dtype, op)
    peak, bw = choice.value, card.bandwidth
    base = analyze(cost, peak, bw, dtype)
    library = float(sig(base.attainable * library_efficiency(ctx, card, cost, dtype), 3))
    share = naive_efficiency(ctx) if slow else library / base.attainable
    yours = float(sig(base.attainable * share, 2)) if slow else library
    a = analyze(cost, peak, bw, dtype, measured=yours, gpu=card.id)
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
    att_mistakes = [("wrong-bound", peak if a.bound == "memory" else ai * bw)]
    att_mistakes += roof_mistakes(card, dtype, op, lambda p: min(p, ai * bw))
    eff_mistakes = [("peak-not-attainable", yours / peak), ("inverted-ratio", a.attainable / yours)]
    eff_mistakes += roof_mistakes(card, dtype, op, lambda p: yours / min(p, ai * bw))
    if a.bound == "memory":
        att_mistakes.append(("gib-gb", a.attainable * GIB_PER_GB))
        eff_mistakes.append(("gib-gb", a.efficiency / GIB_PER_GB))
    picks, later = case_directions(cost, dtype, a.bound, a.efficiency, not slow)
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
            f"这个 kernel 所对应的 {roof_zh} {dtype} 屋顶的拐点是多少？",
            a.ridge,
            AI,
            upto("ridge")[-1:],
            ridge_mistakes,
        ),
        bound_ask(
            "Is it memory-bound or compute-bound?",
            "它是带宽受限还是算力受限？",
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
        direction_ask(
            picks, _why(picks, later, "en"), _why(picks, later, "zh"), later=frozenset(later)
        ),
    )
    conv_en, conv_zh = convention(dtype, matrices=True)
    if not uses_tensor_cores(op):
        conv_en += f" This kernel runs on {unit_words(card).vector}: use their peak."
        conv_zh += f"该 kernel 在{unit_words(card).vector_zh}上运行：用它们的峰值。"
    return Scenario(
        skill_id,
        ctx.difficulty,
        ctx.seed,
        intro_en,
        intro_zh,
        asks,
        {
            "op": op,
            "shape": cost.params,
            "dtype": dtype,
            "gpu": card.id,
            "peak": peak,
            "peak_path": choice.path,
            "bandwidth": bw,
            "intensity": ai,
            "attainable": a.attainable,
            "measured": yours,
            "library": library,
        },
        conv_en,
        conv_zh,
        hidden_figures(ctx, card),
    )


@skill(
    "roofline-case",
    "roofline",
    en="The roofline case, step by step",
    zh="Roofline 完整案例（逐步分析）",
)
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
        k, m = ctx.choice(shapes.LLM_LAYERS)
        pick = shapes.OpPick(
            ops.gemv(m, k, dtype),
            f"a GEMV y = A·x with A {m}×{k} (one decode token through a layer)",
            f"一个 GEMV y = A·x，A 为 {m}×{k}（一个解码 token 经过一层）",
        )
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
