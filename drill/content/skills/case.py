"""The interview case: one operator on one card, worked through from intensity to direction."""

from __future__ import annotations

from drill.content.skills import shapes
from drill.content.skills.context import (
    AI,
    PCT,
    TFLOPS,
    Ctx,
    bound_ask,
    convention,
    givens,
    number_ask,
)
from drill.content.skills.diag import direction_ask
from drill.content.skills.model import Scenario
from drill.content.skills.roofline import intensity_mistakes
from drill.core.engine import analyze
from drill.core.engine import operators as ops
from drill.core.units import format_si, sig

# kind, en, zh: how the case's kernel was written, and which directions come first.
KERNELS = {
    "gemm": ("your own kernel", "你自己写的 kernel", {"tiling", "tensor-cores"},
             "Compute-bound and far below the roof: reuse tiles from shared memory and "
             "registers, and issue tensor-core instructions.",
             "算力受限且远低于屋顶：用共享内存和寄存器复用分块，并使用 Tensor Core 指令。"),
    "gemv": ("your own kernel", "你自己写的 kernel", {"vectorize", "occupancy"},
             "Memory-bound and far below the bandwidth roof: coalesced, vectorized loads and "
             "enough loads in flight.",
             "带宽受限且远低于带宽屋顶：合并、向量化访存，并保证足够多的访存请求在途。"),
    "attention": ("the naive implementation", "朴素实现", {"change-algorithm", "fusion"},
                  "The S×S intermediates dominate the traffic: fused (flash) attention keeps "
                  "them on chip.",
                  "S×S 中间结果主导访存：融合（flash）注意力把它们留在片上。"),
}


def interview_case(ctx: Ctx) -> Scenario:
    """A GEMM, a GEMV or attention on a tensor-core card, with a slow kernel to diagnose."""
    card = ctx.card(need="fp16", nvidia=True)
    dtype = "fp16"
    kind = ctx.choice(("gemm", "gemm", "gemv", "attention"))
    if kind == "gemm":
        size = ctx.choice((4096, 8192))
        cost = ops.gemm(size, size, size, dtype)
        what_en, what_zh = f"an fp16 GEMM with M = N = K = {size}", f"一个 M = N = K = {size} 的 fp16 GEMM"
    elif kind == "gemv":
        k, m = ctx.choice(shapes.LLM_LAYERS)
        cost = ops.gemv(m, k, dtype)
        what_en = f"an fp16 GEMV y = A·x with A {m}×{k} (one decode token through a layer)"
        what_zh = f"一个 fp16 GEMV y = A·x，A 为 {m}×{k}（一个解码 token 经过一层）"
    else:
        seq = ctx.choice((4096, 8192))
        cost = ops.attention(1, 32, seq, 128, dtype, fused=False)
        what_en = (f"naive fp16 attention, batch 1, 32 heads, sequence {seq}, head dim 128 "
                   "(scores and probabilities go through DRAM; count 4·B·H·S²·D FLOPs)")
        what_zh = (f"朴素 fp16 注意力，batch 1，32 个头，序列 {seq}，每头 128 维"
                   "（分数和概率都经过显存；FLOPs 记 4·B·H·S²·D）")
    peak, bw = card.peak(dtype).value, card.bandwidth
    base = analyze(cost, peak, bw, dtype)
    library = float(sig(base.attainable * ctx.rng.uniform(0.6, 0.85), 3))
    yours = float(sig(base.attainable * ctx.rng.uniform(0.05, 0.15), 2))
    a = analyze(cost, peak, bw, dtype, measured=yours, gpu=card.id)
    who_en, who_zh, correct, why_en, why_zh = KERNELS[kind]
    g_en, g_zh = givens(ctx, card, dtype)
    intro_en = (f"{g_en} The operator is {what_en}. The vendor library runs it at "
                f"{format_si(library, 'FLOP/s')}; {who_en} reaches {format_si(yours, 'FLOP/s')}. "
                "Analyse it step by step.")
    intro_zh = (f"{g_zh} 算子是{what_zh}。厂商库能跑到 {format_si(library, 'FLOP/s')}；{who_zh}{' ' if who_zh[-1].isascii() else ''}只有 "
                f"{format_si(yours, 'FLOP/s')}。请逐步分析。")
    steps = a.steps

    def upto(key: str):
        last = max(i for i, s in enumerate(steps) if s.key == key)
        return tuple(steps[: last + 1])

    asks = (
        number_ask("intensity", "What is the arithmetic intensity?", "算术强度是多少？",
                   a.intensity, AI, upto("intensity"), intensity_mistakes(cost, dtype)),
        number_ask("ridge", "What is the ridge point of this card in fp16?",
                   "这张卡在 fp16 下的拐点是多少？", a.ridge, AI, upto("ridge")[-1:],
                   [("inverted-ratio", bw / peak)] + (
                       [("sparse-peak", card.sparse["fp16"] * 1e12 / bw)]
                       if "fp16" in card.sparse else [])),
        bound_ask("Is it memory-bound or compute-bound?", "它是带宽受限还是算力受限？", a.bound,
                  upto("bound")),
        number_ask("attainable", "What throughput can it attain at best?",
                   "它最多能达到多少吞吐？", a.attainable, TFLOPS, upto("attainable"),
                   [("wrong-bound", peak if a.bound == "memory" else a.intensity * bw)]),
        number_ask("efficiency", "What is the efficiency of your kernel against the roof?",
                   "你的 kernel 相对屋顶的效率是多少？", a.efficiency, PCT, upto("efficiency"),
                   [("peak-not-attainable", yours / peak),
                    ("inverted-ratio", a.attainable / yours)], prefix_mistake=False),
        direction_ask(correct, why_en, why_zh),
    )
    conv_en, conv_zh = convention(dtype, matrices=True)
    return Scenario("interview-case", ctx.difficulty, 0, intro_en, intro_zh, asks,
                    {"op": cost.op, "shape": cost.params, "dtype": dtype, "gpu": card.id,
                     "peak": peak, "bandwidth": bw, "intensity": a.intensity,
                     "attainable": a.attainable, "measured": yours, "library": library},
                    conv_en, conv_zh)
