"""Realistic operators for scenarios: GEMM and LLM layer shapes, element-wise ops, convs."""

from __future__ import annotations

from dataclasses import dataclass

from drill.content.skills.context import Ctx
from drill.core.engine import operators as ops

SQUARE = (512, 1024, 2048, 4096, 8192)
TOKENS = (1, 8, 32, 128, 512, 2048, 4096)
LLM_LAYERS = ((4096, 11008), (11008, 4096), (4096, 4096), (8192, 28672), (5120, 13824))


@dataclass(frozen=True)
class OpPick:
    cost: ops.OpCost
    en: str
    zh: str


def gemm(ctx: Ctx, dtype: str) -> OpPick:
    if ctx.rng.random() < 0.5:
        m = n = k = ctx.choice(SQUARE)
        en = f"a {m}×{n}×{k} GEMM (M = N = K = {m})"
        zh = f"一个 {m}×{n}×{k} 的 GEMM（M = N = K = {m}）"
    else:
        m = ctx.choice(TOKENS)
        k, n = ctx.choice(LLM_LAYERS)
        en = f"a linear layer: {m} tokens × weight {k}×{n} (GEMM M={m}, N={n}, K={k})"
        zh = f"一个线性层：{m} 个 token × 权重 {k}×{n}（GEMM M={m}，N={n}，K={k}）"
    return OpPick(ops.gemm(m, n, k, dtype), en, zh)


def gemv(ctx: Ctx, dtype: str) -> OpPick:
    k, m = ctx.choice(LLM_LAYERS)
    return OpPick(ops.gemv(m, k, dtype),
                  f"a GEMV y = A·x with A {m}×{k} (one token through a {k}→{m} layer)",
                  f"一个 GEMV y = A·x，A 为 {m}×{k}（一个 token 过一层 {k}→{m}）")


ELEMENTWISE = (
    ("vector add c = a + b (1 FLOP per element)", "向量加 c = a + b（每元素 1 次运算）", 1, 2, 1,
     False),
    ("ReLU y = max(x, 0) (count 1 FLOP per element)", "ReLU y = max(x, 0)（每元素记 1 次运算）",
     1, 1, 1, False),
    ("axpy y = a·x + y (one FMA per element)", "axpy y = a·x + y（每元素一次 FMA）", 2, 2, 1, True),
    ("GELU, tanh form (count 8 FLOPs per element)", "GELU（tanh 近似，每元素记 8 次运算）", 8, 1, 1,
     False),
    ("scaled add z = α·x + β·y (count 3 FLOPs per element)",
     "缩放加 z = α·x + β·y（每元素记 3 次运算）", 3, 2, 1, False),
)
ELEMENTS = (1 << 20, 1 << 24, 1 << 26, 10_000_000, 50_000_000)


def elementwise(ctx: Ctx, dtype: str) -> tuple[OpPick, bool]:
    en, zh, f, i, o, fma = ctx.choice(ELEMENTWISE)
    n = ctx.choice(ELEMENTS)
    cost = ops.elementwise(n, f, i, o, dtype)
    return OpPick(cost, f"{en} over n = {n:,} elements", f"{zh}，n = {n:,} 个元素"), fma


CONVS = ((64, 56, 64, 3, 1), (128, 28, 128, 3, 1), (256, 14, 256, 3, 1), (512, 7, 512, 3, 1),
         (256, 56, 64, 1, 0), (64, 56, 256, 1, 0))


def conv(ctx: Ctx, dtype: str, im2col: bool = False) -> OpPick:
    c, hw, k_out, r, pad = ctx.choice(CONVS)
    n = ctx.choice((1, 8, 32, 64))
    cost = ops.conv2d(n, c, hw, hw, k_out, r, dtype, padding=pad, im2col=im2col)
    return OpPick(cost,
                  f"a conv2d: batch {n}, {c}→{k_out} channels, {hw}×{hw} input, {r}×{r} kernel, "
                  f"stride 1, padding {pad} (implicit GEMM: input, weights, output each read "
                  f"or written once)",
                  f"一个 conv2d：batch {n}，{c}→{k_out} 通道，输入 {hw}×{hw}，{r}×{r} 卷积核，"
                  f"步长 1，填充 {pad}（隐式 GEMM：输入、权重、输出各读写一次）")


def attention(ctx: Ctx, dtype: str, fused: bool) -> OpPick:
    b = ctx.choice((1, 4, 8))
    h = ctx.choice((16, 32, 40))
    s = ctx.choice((1024, 2048, 4096, 8192))
    d = ctx.choice((64, 128))
    cost = ops.attention(b, h, s, d, dtype, fused=fused)
    kind_en = ("fused (flash) attention: only Q, K, V are read and O written" if fused else
               "naive attention: the S×S scores are written, read by softmax, the "
               "probabilities written and read again")
    kind_zh = ("融合（flash）注意力：只读 Q、K、V，写 O" if fused else
               "朴素注意力：S×S 分数写回显存，softmax 读出，概率再写回并读出")
    return OpPick(cost,
                  f"{kind_en}; batch {b}, {h} heads, sequence {s}, head dim {d} "
                  "(count QKᵀ and PV: 4·B·H·S²·D FLOPs)",
                  f"{kind_zh}；batch {b}，{h} 个头，序列长度 {s}，每头维度 {d}"
                  "（只计 QKᵀ 和 PV：4·B·H·S²·D FLOPs）")


def any_op(ctx: Ctx, dtype: str) -> OpPick:
    kind = ctx.choice(("gemm", "gemm", "gemv", "elementwise", "conv", "attention"))
    if kind == "gemm":
        return gemm(ctx, dtype)
    if kind == "gemv":
        return gemv(ctx, dtype)
    if kind == "elementwise":
        return elementwise(ctx, dtype)[0]
    if kind == "conv":
        return conv(ctx, dtype)
    return attention(ctx, dtype, ctx.rng.random() < 0.5)
