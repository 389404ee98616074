"""Realistic operators for scenarios: GEMM and LLM layer shapes, element-wise ops, convs."""

from __future__ import annotations

from dataclasses import dataclass

from drill.content.skills.context import MEMORY_SHARE, Ctx, counted, roof
from drill.core.engine import operators as ops

SQUARE = (512, 1024, 2048, 4096, 8192)
TOKENS = (1, 8, 32, 128, 512, 2048, 4096)
LLM_LAYERS = ((4096, 11008), (11008, 4096), (4096, 4096), (8192, 28672), (5120, 13824))


@dataclass(frozen=True)
class OpPick:
    """An operator picked for a scenario, with its description in both languages."""

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
        en = f"a linear layer: {counted(m, 'token')} × weight {k}×{n} (GEMM M={m}, N={n}, K={k})"
        zh = f"一个线性层：{m} 个 token × 权重 {k}×{n}（GEMM M={m}，N={n}，K={k}）"
    return OpPick(ops.gemm(m, n, k, dtype), en, zh)


def gemv(ctx: Ctx, dtype: str) -> OpPick:
    k, m = ctx.choice(LLM_LAYERS)
    return OpPick(
        ops.gemv(m, k, dtype),
        f"a GEMV y = A·x with A {m}×{k} (one token through a {k}→{m} layer)",
        f"一个 GEMV y = A·x，A 为 {m}×{k}（一个 token 过一层 {k}→{m}）",
    )


ELEMENTWISE = (
    (
        "vector add c = a + b (1 FLOP per element; a and b read, c written)",
        "向量加 c = a + b（每元素 1 次运算；读 a、b，写 c）",
        1,
        2,
        1,
        False,
    ),
    (
        "ReLU y = max(x, 0) (count 1 FLOP per element; x read, y written)",
        "ReLU y = max(x, 0)（每元素记 1 次运算；读 x，写 y）",
        1,
        1,
        1,
        False,
    ),
    (
        "axpy y = a·x + y (one FMA per element; x and y read, y written back)",
        "axpy y = a·x + y（每元素一次 FMA；读 x、y，写回 y）",
        2,
        2,
        1,
        True,
    ),
    (
        "GELU, tanh form (count 8 FLOPs per element; x read, the result written)",
        "GELU（tanh 近似，每元素记 8 次运算；读 x，写结果）",
        8,
        1,
        1,
        False,
    ),
    (
        "scaled add z = α·x + β·y (count 3 FLOPs per element; x and y read, z written)",
        "缩放加 z = α·x + β·y（每元素记 3 次运算；读 x、y，写 z）",
        3,
        2,
        1,
        False,
    ),
)
ELEMENTS = (1 << 20, 1 << 24, 1 << 26, 10_000_000, 50_000_000)


def elementwise(ctx: Ctx, dtype: str) -> tuple[OpPick, bool]:
    en, zh, f, i, o, fma = ctx.choice(ELEMENTWISE)
    n = ctx.choice(ELEMENTS)
    cost = ops.elementwise(n, f, i, o, dtype)
    return OpPick(cost, f"{en} over n = {n:,} elements", f"{zh}，n = {n:,} 个元素"), fma


CONVS = (
    (64, 56, 64, 3, 1),
    (128, 28, 128, 3, 1),
    (256, 14, 256, 3, 1),
    (512, 7, 512, 3, 1),
    (256, 56, 64, 1, 0),
    (64, 56, 256, 1, 0),
)


def conv(ctx: Ctx, dtype: str, im2col: bool = False) -> OpPick:
    c, hw, k_out, r, pad = ctx.choice(CONVS)
    n = ctx.choice((1, 8, 32, 64))
    cost = ops.conv2d(n, c, hw, hw, k_out, r, dtype, padding=pad, im2col=im2col)
    return OpPick(
        cost,
        f"a conv2d: batch {n}, {c}→{k_out} channels, {hw}×{hw} input, {r}×{r} kernel, "
        f"stride 1, padding {pad} (implicit GEMM: input, weights, output each read "
        f"or written once)",
        f"一个 conv2d：batch {n}，{c}→{k_out} 通道，输入 {hw}×{hw}，{r}×{r} 卷积核，"
        f"步长 1，填充 {pad}（隐式 GEMM：输入、权重、输出各读写一次）",
    )


def attention(ctx: Ctx, dtype: str, fused: bool) -> OpPick:
    b = ctx.choice((1, 4, 8))
    h = ctx.choice((16, 32, 40))
    s = ctx.choice((1024, 2048, 4096, 8192))
    d = ctx.choice((64, 128))
    cost = ops.attention(b, h, s, d, dtype, fused=fused)
    # flash-attention libraries are 16-bit only: an fp32 one is an ideal fused kernel
    flash = dtype != "fp32"
    kind_en = (
        (
            "fused (flash) attention: only Q, K, V are read and O written"
            if flash
            else "ideal fused attention (the S×S scores never reach DRAM): only Q, K, V "
            "are read and O written"
        )
        if fused
        else "naive attention: the S×S scores are written, read by softmax, the "
        "probabilities written and read again"
    )
    kind_zh = (
        (
            "融合（flash）注意力：只读 Q、K、V，写 O"
            if flash
            else "理想的融合注意力（S×S 分数从不落显存）：只读 Q、K、V，写 O"
        )
        if fused
        else "朴素注意力：S×S 分数写回显存，softmax 读出，概率再写回并读出"
    )
    return OpPick(
        cost,
        f"{kind_en}; batch {b}, {h} heads, sequence {s}, head dim {d} "
        "(count QKᵀ and PV: 4·B·H·S²·D FLOPs)",
        f"{kind_zh}；batch {b}，{h} 个头，序列长度 {s}，每头维度 {d}"
        "（只计 QKᵀ 和 PV：4·B·H·S²·D FLOPs）",
    )


ROWS = (4096, 8192, 16384, 32768)
COLS = (1024, 4096, 8192, 32000)


def rownorm(ctx: Ctx, dtype: str) -> OpPick:
    """A fused softmax or layernorm over rows (tokens × hidden or vocabulary)."""
    rows, cols = ctx.choice(ROWS), ctx.choice(COLS)
    if ctx.rng.random() < 0.5:
        return OpPick(
            ops.softmax(rows, cols, dtype),
            f"a fused row softmax over a {rows}×{cols} tensor (one read, one write; "
            "count 5 FLOPs per element)",
            f"一个融合的按行 softmax，张量 {rows}×{cols}（读一次、写一次；每元素记 5 次运算）",
        )
    cols = min(cols, 8192)  # a LayerNorm normalizes a hidden width, not a vocabulary
    return OpPick(
        ops.layernorm(rows, cols, dtype),
        f"a fused LayerNorm over a {rows}×{cols} tensor (x read once, y written once, "
        "plus γ and β; count 7 FLOPs per element)",
        f"一个融合的 LayerNorm，张量 {rows}×{cols}（x 读一次、y 写一次，另加 γ、β；"
        "每元素记 7 次运算）",
    )


def retype(pick: OpPick, dtype: str) -> OpPick:
    """The same operator and shape in another precision (the wording names no dtype)."""
    p = pick.cost.params
    op = pick.cost.op
    if op == "gemm":
        cost = ops.gemm(p["M"], p["N"], p["K"], dtype, p["batch"], p["beta"])
    elif op == "gemv":
        cost = ops.gemv(p["M"], p["K"], dtype)
    elif op == "elementwise":
        cost = ops.elementwise(p["n"], p["flops_per_element"], p["inputs"], p["outputs"], dtype)
    elif op == "conv2d":
        cost = ops.conv2d(
            p["batch"],
            p["in_channels"],
            p["height"],
            p["width"],
            p["out_channels"],
            p["kernel"],
            dtype,
            p["stride"],
            p["padding"],
            p["im2col"],
        )
    elif op == "attention":
        cost = ops.attention(p["batch"], p["heads"], p["seq"], p["head_dim"], dtype, p["fused"])
    elif op == "softmax":
        cost = ops.softmax(p["rows"], p["cols"], dtype)
    elif op == "layernorm":
        cost = ops.layernorm(p["rows"], p["cols"], dtype)
    else:
        raise ValueError(f"cannot retype {op}")
    return OpPick(cost, pick.en, pick.zh)


# Scenario rules every operator put on a card obeys (tests/test_scenario_rules.py checks them).
MIN_VERDICT_TIME = 10e-6  # below this, launch overhead and caches decide, not the roofline


def resident_bytes(cost: ops.OpCost, dtype: str) -> float:
    """Bytes that must sit in device memory at once (naive attention holds S×S buffers)."""
    p = cost.params
    if cost.op == "attention" and not p["fused"]:
        s = ops.dtype_bytes(dtype)
        b, h, n, d = p["batch"], p["heads"], p["seq"], p["head_dim"]
        return float(s * (4 * b * h * n * d + 2 * b * h * n * n))  # Q K V O, scores, probabilities
    return cost.bytes  # every other model moves each tensor once: traffic = footprint


def fits(card, cost: ops.OpCost, dtype: str) -> bool:
    return resident_bytes(cost, dtype) <= MEMORY_SHARE * card.capacity


def lower_bound_time(card, cost: ops.OpCost, dtype: str) -> float:
    return max(cost.flops / roof(card, dtype, cost.op).value, cost.bytes / card.bandwidth)


RIDGE_CLEAR = 1.1  # an intensity within 10 % of the ridge makes the bound a coin toss


def runs_on(card, pick: OpPick, dtype: str) -> bool:
    """Fits the card, long enough that the roofline, not launch overhead, decides, and with
    an intensity 10 % or more clear of the card's ridge for it."""
    cost = pick.cost
    ridge = roof(card, dtype, cost.op).value / card.bandwidth
    intensity = cost.flops / cost.bytes
    return (
        fits(card, cost, dtype)
        and lower_bound_time(card, cost, dtype) >= MIN_VERDICT_TIME
        and max(intensity, ridge) >= RIDGE_CLEAR * min(intensity, ridge)
    )


FALLBACK = (8192, 8192, 8192)  # fits and takes over 10 µs on every card in the catalog


def _draw(ctx: Ctx, dtype: str) -> OpPick:
    kind = ctx.choice(("gemm", "gemm", "gemv", "elementwise", "rownorm", "conv", "attention"))
    if kind == "gemm":
        return gemm(ctx, dtype)
    if kind == "gemv":
        return gemv(ctx, dtype)
    if kind == "elementwise":
        return elementwise(ctx, dtype)[0]
    if kind == "rownorm":
        return rownorm(ctx, dtype)
    if kind == "conv":
        return conv(ctx, dtype)
    return attention(ctx, dtype, ctx.rng.random() < 0.5)


def any_op(ctx: Ctx, dtype: str, cards=(), draw=None, also=None) -> OpPick:
    """An operator that runs on every card in ``cards`` (see ``runs_on``); ``also`` adds a
    check of its own (the same shape in another precision, say)."""
    draw = draw or _draw
    for _ in range(200):
        pick = draw(ctx, dtype)
        if all(runs_on(card, pick, dtype) for card in cards) and (also is None or also(pick)):
            return pick
    m, n, k = FALLBACK
    return OpPick(
        ops.gemm(m, n, k, dtype),
        f"a {m}×{n}×{k} GEMM (M = N = K = {m})",
        f"一个 {m}×{n}×{k} 的 GEMM（M = N = K = {m}）",
    )
