"""The transformations the dot-moves skill draws: each returns the move, the intro in both
languages, the shape shown, the card(s), the dtype and the named mistakes per ask, or None
when the draw breaks a rule (the skill draws again)."""

from __future__ import annotations

from drill.content.catalog import Card
from drill.content.skills.context import (
    MEMORY_SHARE,
    Ctx,
    counted,
    roof,
    unit_words,
    with_detail,
)
from drill.core.engine import decoding
from drill.core.engine import moves as mv
from drill.core.engine import operators as ops
from drill.core.units import format_si
from drill.i18n.text import article


def _cards(ctx: Ctx, fits) -> list[Card]:
    if ctx.gpu:
        forced = ctx.catalog.get(ctx.gpu)
        if fits(forced):
            return [forced]
    level = "famous" if ctx.difficulty >= 3 and not ctx.gpu else "common"
    return [c for c in ctx.catalog.drawn(level) if fits(c)] or [c for c in ctx.catalog if fits(c)]


def _fits_memory(card: Card, nbytes: float) -> bool:
    return nbytes <= MEMORY_SHARE * card.capacity


# Each builder returns (move, intro en, intro zh, shape, card, dtype, new card, mistakes) or
# None when the draw breaks a rule (the caller draws again).


def _fuse(ctx: Ctx):
    card = ctx.choice(_cards(ctx, lambda c: "fp32" in c.vector))
    dtype = ctx.choice([d for d in ("fp16", "fp32") if d in card.vector] or ["fp32"])
    n, kernels = 2 ** ctx.choice((25, 26, 27)), ctx.choice((2, 3, 4))
    peak = roof(card, dtype, "elementwise").value
    m = mv.fuse(n, kernels, dtype, peak, card.bandwidth)
    en = (
        f"{kernels} element-wise kernels run back to back on {n:,} {dtype} elements, each "
        "reading one tensor and writing one (1 FLOP per element). They are fused into one "
        "kernel that keeps the intermediates in registers."
    )
    zh = (
        f"{kernels} 个逐元素 kernel 依次处理 {n:,} 个 {dtype} 元素，每个读一个张量、写一个张量"
        "（每元素 1 次运算）。把它们融合成一个 kernel，中间结果留在寄存器里。"
    )
    mistakes = {"intensity-move": [("fusion-lowers-flops", "same")]}
    return m, en, zh, {"n": n, "kernels": kernels}, card, dtype, None, mistakes


def _llm(ctx: Ctx):
    """(parameters, layers, KV heads): 7B / 8B shapes have 32 query heads, 13B has 40."""
    params = ctx.choice((7e9, 8e9, 13e9))
    layers = 32 if params < 1e10 else 40
    return params, layers, ctx.choice((8, 32)) if params < 1e10 else 40


def _query_heads(layers: int) -> int:
    return 32 if layers == 32 else 40


def _batch(ctx: Ctx):
    params, layers, kv_heads = _llm(ctx)
    context = ctx.choice((1024, 2048, 4096))
    new_batch = ctx.choice((8, 16, 32))
    kv = decoding.kv_cache_bytes(layers, kv_heads, 128, context, new_batch, "fp16")[0]
    cards = _cards(ctx, lambda c: "fp16" in c.dtypes() and _fits_memory(c, 2 * params + kv))
    if not cards:
        return None
    card = ctx.choice(cards)
    peak = card.peak("fp16").value
    heads = _query_heads(layers)
    m = mv.decode_batch(
        params, 1, new_batch, "fp16", peak, card.bandwidth, context, layers, kv_heads, 128, heads
    )
    # The habit: the KV cache read counted once, as if shared by the batch like the weights.
    kv1 = decoding.kv_cache_bytes(layers, kv_heads, 128, context, 1, "fp16")[0]
    wrong_t = max(m.after.flops / peak, (2 * params + kv1) / card.bandwidth)
    wrong = (new_batch / wrong_t) / (1 / m.before.time)
    en = (
        f"A {params / 1e9:g}B-parameter model decodes in fp16 ({layers} layers, {heads} query "
        f"heads and {kv_heads} KV heads of dimension 128, {context} tokens of context per "
        "sequence, KV cache in fp16). "
        f"The batch grows from 1 to {new_batch} sequences. Speed-up means tokens per second."
    )
    zh = (
        f"{params / 1e9:g}B 参数的模型以 fp16 解码（{layers} 层，{heads} 个 query 头、{kv_heads} 个 KV 头，"
        "每头 128 维，"
        f"每条序列上下文 {context} 个 token，KV 缓存为 fp16）。batch 从 1 增大到 {new_batch}。"
        "加速比指每秒生成的 token 数之比。"
    )
    shape = {"params": params, "layers": layers, "kv_heads": kv_heads, "context": context}
    shape["batch_new"] = new_batch
    return m, en, zh, shape, card, "fp16", None, {"speedup": [("batching-kv-amortized", wrong)]}


def _precision(ctx: Ctx):
    cards = _cards(ctx, lambda c: "fp8" in c.tensor and "fp16" in c.tensor)
    card = ctx.choice(cards)
    m_dim = ctx.choice((64, 256, 4096, 8192))
    n = k = ctx.choice((8192, 16384))
    p16, p8 = card.peak("fp16").value, card.peak("fp8").value
    m = mv.precision(m_dim, n, k, "fp16", "fp8", p16, p8, card.bandwidth)
    en = (
        f"A GEMM, M={m_dim}, N={n}, K={k}, moves from fp16 to fp8 on {card.name}: "
        f"{unit_words(card).matrix_adj} peaks (dense) {format_si(p16, 'FLOP/s')} in fp16, "
        f"{format_si(p8, 'FLOP/s')} in fp8."
    )
    zh = (
        f"GEMM（M={m_dim}，N={n}，K={k}）在 {card.name} 上从 fp16 改为 fp8：{unit_words(card).matrix_zh} 稠密峰值 "
        f"fp16 {format_si(p16, 'FLOP/s')}，fp8 {format_si(p8, 'FLOP/s')}。"
    )
    shape = {"M": m_dim, "N": n, "K": k, "peak_fp8": p8}
    return m, en, zh, shape, card, "fp16", None, {}


def _weight_only(ctx: Ctx):
    params, layers, kv_heads = _llm(ctx)
    bits, batch, context = ctx.choice((4, 8)), ctx.choice((1, 4, 8)), ctx.choice((2048, 4096))
    kv = decoding.kv_cache_bytes(layers, kv_heads, 128, context, batch, "fp16")[0]
    cards = _cards(ctx, lambda c: "fp16" in c.dtypes() and _fits_memory(c, 2 * params + kv))
    if not cards:
        return None
    card = ctx.choice(cards)
    peak = card.peak("fp16").value
    heads = _query_heads(layers)
    m = mv.weight_only(
        params, batch, bits, peak, card.bandwidth, context, layers, kv_heads, 128, heads
    )
    en = (
        f"{article(f'{params / 1e9:g}B').capitalize()} {params / 1e9:g}B-parameter model decodes "
        f"{counted(batch, 'sequence')} of {context} tokens "
        f"({layers} layers, {heads} query heads and {kv_heads} KV heads of dimension 128, KV "
        "cache in fp16). Its weights "
        f"go from fp16 to int{bits}, weight-only: they are dequantized on load and the math "
        "stays fp16."
    )
    zh = (
        f"{params / 1e9:g}B 参数的模型解码 {batch} 条序列，上下文 {context} 个 token（{layers} 层，"
        f"{heads} 个 query 头、{kv_heads} 个 KV 头，每头 128 维，KV 缓存为 fp16）。权重从 fp16 改为 int{bits} 仅权重量化："
        "加载时反量化，计算仍是 fp16。"
    )
    shape = {"params": params, "layers": layers, "kv_heads": kv_heads, "context": context}
    shape.update(batch=batch, bits=bits)
    return (
        m,
        en,
        zh,
        shape,
        card,
        "fp16",
        None,
        {"speedup": [("quantization-flop-ratio", 16 / bits)]},
    )


def _tile(ctx: Ctx):
    cards = _cards(ctx, lambda c: c.level_bandwidth("l2") and "fp16" in c.tensor)
    card = ctx.choice(cards)
    bm, new = ctx.choice(((32, 64), (64, 128), (32, 128)))
    size = ctx.choice((4096, 8192))
    l2 = card.level_bandwidth("l2")
    m = mv.larger_tile(size, size, size, "fp16", bm, new, card.peak("fp16").value, l2)
    en = (
        f"An fp16 GEMM, {size}³, on {card.name} goes from {bm}×{bm} to {new}×{new} output tiles. "
        f"Place it against the L2 roof: L2 bandwidth {format_si(l2, 'B/s')} "
        f"({card.hierarchy['l2'].kind}), each tile streams s·K·(BM + BN) bytes from L2."
    )
    zh = (
        f"{card.name} 上的 fp16 GEMM（{size}³）把输出分块从 {bm}×{bm} 换成 {new}×{new}。"
        f"放在 L2 屋顶下看：L2 带宽 {format_si(l2, 'B/s')}，每个分块从 L2 读 s·K·(BM + BN) 字节。"
    )
    shape = {"size": size, "tile": bm, "tile_new": new}
    return m, en, zh, shape, card, "fp16", None, {}


def _flash(ctx: Ctx):
    seq, heads, dim = ctx.choice((4096, 8192)), ctx.choice((16, 32)), ctx.choice((64, 128))
    need = 2 * (4 * heads * seq * dim + 2 * heads * seq * seq)
    cards = _cards(ctx, lambda c: "fp16" in c.tensor and _fits_memory(c, need))
    card = ctx.choice(cards)
    m = mv.flash(1, heads, seq, dim, "fp16", card.peak("fp16").value, card.bandwidth)
    en = (
        f"Self-attention, one sequence of {seq} tokens, {heads} heads of dimension {dim}, fp16, "
        "moves from the naive kernels (scores and probabilities written to and read from DRAM) "
        "to a fused flash-attention kernel (only Q, K, V and O cross DRAM)."
    )
    zh = (
        f"自注意力：一条 {seq} token 的序列，{heads} 个头，每头 {dim} 维，fp16。从朴素实现（分数和概率"
        "写回显存再读出）换成融合的 flash attention（只有 Q、K、V、O 经过显存）。"
    )
    return m, en, zh, {"seq": seq, "heads": heads, "head_dim": dim}, card, "fp16", None, {}


def _gqa(ctx: Ctx):
    params, layers, heads, group = 8e9, 32, 32, ctx.choice((4, 8))
    batch, context = ctx.choice((8, 16)), ctx.choice((4096, 8192))
    kv = decoding.kv_cache_bytes(layers, heads, 128, context, batch, "fp16")[0]
    cards = _cards(ctx, lambda c: "fp16" in c.dtypes() and _fits_memory(c, 2 * params + kv))
    if not cards:
        return None
    card = ctx.choice(cards)
    m = mv.gqa(
        params,
        batch,
        context,
        layers,
        heads,
        group,
        128,
        "fp16",
        card.peak("fp16").value,
        card.bandwidth,
    )
    en = (
        f"An 8B-parameter model decodes {batch} sequences of {context} tokens in fp16 ({layers} "
        f"layers, {heads} query heads of dimension 128, KV cache in fp16). Multi-head attention "
        f"becomes grouped-query attention with {group} query heads per KV head; take the "
        "weights as unchanged (ignore the smaller K and V projections)."
    )
    zh = (
        f"8B 参数的模型以 fp16 解码 {batch} 条序列，每条 {context} 个 token（{layers} 层，{heads} 个 "
        f"query 头，每头 128 维，KV 缓存为 fp16）。多头注意力改为分组查询注意力，每个 KV 头服务 "
        f"{group} 个 query 头；权重按不变计（忽略变小的 K、V 投影）。"
    )
    shape = {"batch": batch, "context": context, "group": group}
    return m, en, zh, shape, card, "fp16", None, {}


def _split_k(ctx: Ctx):
    card = ctx.choice(_cards(ctx, lambda c: "fp16" in c.tensor))
    size, k, splits = ctx.choice((1024, 2048)), ctx.choice((16384, 32768)), ctx.choice((2, 4, 8))
    m = mv.split_k(size, size, k, "fp16", splits, card.peak("fp16").value, card.bandwidth)
    en = (
        f"An fp16 GEMM, M = N = {size}, K = {k}, is split along K into {splits} slices; each "
        "slice writes an fp32 partial M×N result that a second pass reads and sums."
    )
    zh = (
        f"fp16 GEMM（M = N = {size}，K = {k}）沿 K 切成 {splits} 份；每份写出一个 fp32 的 M×N 部分和，"
        "再由第二遍读出求和。"
    )
    return m, en, zh, {"size": size, "K": k, "splits": splits}, card, "fp16", None, {}


def _card_move(ctx: Ctx):
    pairs = [
        (a, b)
        for a in _cards(ctx, lambda c: "fp16" in c.tensor)
        for b in ctx.catalog.drawn("common")
        if b.id != a.id
        and "fp16" in b.tensor
        and b.vendor == a.vendor
        and b.bandwidth > a.bandwidth
        and b.peak("fp16").value > a.peak("fp16").value
    ]
    if not pairs:
        return None
    card, new = ctx.choice(pairs)
    if ctx.rng.random() < 0.5:
        batch = ctx.choice((1, 4))
        cost = decoding.decode(7e9, "fp16", batch)
        what_en = f"one fp16 decode step of a 7B-parameter model at batch {batch}"
        what_zh = f"7B 参数模型在 batch {batch} 下的一步 fp16 解码"
    else:
        size = ctx.choice((4096, 8192))
        cost = ops.gemm(size, size, size, "fp16")
        what_en, what_zh = f"an fp16 GEMM, {size}³", f"fp16 GEMM（{size}³）"
    p0, p1 = card.peak("fp16").value, new.peak("fp16").value
    if not _fits_memory(card, cost.bytes) or not _fits_memory(new, cost.bytes):
        return None
    m = mv.card(cost, p0, card.bandwidth, p1, new.bandwidth)
    old_figures = (
        f"{format_si(p0, 'FLOP/s')} fp16 {unit_words(card).matrix} dense, "
        f"{format_si(card.bandwidth, 'B/s')}"
    )
    new_figures = f"{format_si(p1, 'FLOP/s')}, {format_si(new.bandwidth, 'B/s')}"
    en = f"Move {what_en} from {with_detail(card, old_figures)} to {with_detail(new, new_figures)}."
    zh = (
        f"把{what_zh}从 {card.name}（fp16 {unit_words(card).matrix_zh} 稠密 {format_si(p0, 'FLOP/s')}，"
        f"{format_si(card.bandwidth, 'B/s')}）换到 {new.name}（{format_si(p1, 'FLOP/s')}，"
        f"{format_si(new.bandwidth, 'B/s')}）。"
    )
    shape = dict(cost.params)
    mistakes = {"speedup": [("new-card-peak-ratio", p1 / p0)]}
    return (
        m,
        en,
        zh,
        {k: v for k, v in shape.items() if k != "kv_dtype"},
        card,
        "fp16",
        new,
        mistakes,
    )


BUILDERS = {
    "fuse": _fuse,
    "batch": _batch,
    "precision": _precision,
    "weight-only": _weight_only,
    "tile": _tile,
    "flash": _flash,
    "gqa": _gqa,
    "split-k": _split_k,
    "card": _card_move,
}
