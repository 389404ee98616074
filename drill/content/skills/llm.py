"""Skills on LLM inference: decode latency, KV cache, the critical batch size."""

from __future__ import annotations

import math

from drill.content.skills.context import (
    GB,
    GIB_PER_GB,
    MEMORY_SHARE,
    MS,
    SEQUENCES,
    WRONG_BYTES,
    Ctx,
    capital,
    convention,
    fmt,
    givens,
    hidden_figures,
    number_ask,
    pick_steps,
    sparse_peak,
)
from drill.content.skills.model import Scenario
from drill.content.skills.skill import skill
from drill.core.engine import analyze, decoding
from drill.core.engine import roofline as rl
from drill.core.engine.operators import dtype_bytes
from drill.core.engine.steps import Step

# name, parameters, layers, kv heads, head dim, query heads
# (name, 中文名, parameters, layers, KV heads, head dim, query heads, longest context): a
# question never holds more tokens per sequence than the named model was trained for.
MODELS = (
    ("a 7B model of Llama-2-7B's shape", "Llama-2-7B 结构的 7B 模型", 7e9, 32, 32, 128, 32, 4096),
    (
        "an 8B model of Llama-3.1-8B's shape, GQA",
        "Llama-3.1-8B 结构的 8B GQA 模型",
        8e9,
        32,
        8,
        128,
        32,
        131072,
    ),
    (
        "a 13B model of Llama-2-13B's shape",
        "Llama-2-13B 结构的 13B 模型",
        13e9,
        40,
        40,
        128,
        40,
        4096,
    ),
    (
        "a 70B model of Llama-3.1-70B's shape, GQA",
        "Llama-3.1-70B 结构的 70B GQA 模型",
        70e9,
        80,
        8,
        128,
        64,
        131072,
    ),
)


def nominal(params: float) -> str:
    """A model's nominal parameter count as a question states it: "7e9" (Llama-2-7B holds
    6.74e9; the answers use the round figure, so the question says so)."""
    return f"{params / 1e9:g}e9"


KV_DTYPE = {"fp16": "fp16", "bf16": "bf16", "int8": "fp16", "fp8": "fp8"}  # weight → KV cache


def _kv(model, kv_dtype: str, batch: int, context: int, heads_key: int = 4) -> float:
    """KV cache bytes; ``heads_key`` 6 counts query heads instead (the GQA slip)."""
    if not context:
        return 0.0
    layers, head_dim, heads = model[3], model[5], model[heads_key]
    return 2.0 * layers * heads * head_dim * context * batch * dtype_bytes(kv_dtype)


def _workload(ctx: Ctx, card, dtype: str):
    """A model, batch and context whose weights and KV cache fit the card (90 % of it)."""
    batches = (1,) if ctx.difficulty < 3 else (1, 4, 8)
    contexts = (0,) if ctx.difficulty == 1 else (2048, 4096, 8192)
    kv_dtype = KV_DTYPE.get(dtype, dtype)
    combos = [(m, b, c) for m in MODELS for b in batches for c in contexts if c <= m[7]]
    ctx.rng.shuffle(combos)
    for model, batch, context in combos:
        need = model[2] * dtype_bytes(dtype) + _kv(model, kv_dtype, batch, context)
        if need <= MEMORY_SHARE * card.capacity:
            return model, batch, context, kv_dtype
    return None


@skill("decode-latency")
def decode_latency(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "bf16", "int8", "fp8"))
    found = _workload(ctx, card, dtype)
    while found is None:  # a small card at a wide precision: a bigger card holds the model
        card = ctx.rng.choice(
            [c for c in ctx.catalog.drawn("common") if dtype in c.dtypes() and c.capacity >= 40e9]
        )
        found = _workload(ctx, card, dtype)
    model, batch, context, kv_dtype = found
    name_en, name_zh, params, layers, kv_heads, head_dim, heads, _ = model
    s = dtype_bytes(dtype)
    cost = decoding.decode(
        params,
        dtype,
        batch=batch,
        context=context,
        layers=layers,
        kv_heads=kv_heads,
        head_dim=head_dim,
        heads=heads,
        kv_dtype=kv_dtype,
    )
    peak, bw = card.peak(dtype).value, card.bandwidth
    a = analyze(cost, peak, bw, dtype, gpu=card.id)
    weights = params * s
    kv = _kv(model, kv_dtype, batch, context)

    def step_time(nbytes: float, rate: float = peak) -> float:
        return max(cost.flops / rate, nbytes / bw)

    mistakes = [
        ("wrong-bound", min(cost.flops / peak, cost.bytes / bw)),
        ("dtype-bytes", step_time(weights * WRONG_BYTES[s] / s + kv)),
        ("gib-gb", a.min_time / GIB_PER_GB),
    ]
    sparse = sparse_peak(card, dtype, "decode")
    if sparse:
        mistakes.append(("sparse-peak", step_time(cost.bytes, sparse)))
    if context:
        mistakes += [
            ("kv-ignored", step_time(weights)),
            ("kv-factor", step_time(weights + kv / 2)),
            (
                "query-heads-for-kv",
                step_time(weights + _kv(model, kv_dtype, batch, context, heads_key=6)),
            ),
            ("batch-forgotten", step_time(weights + kv / batch)),
        ]
    g_en, g_zh = givens(ctx, card, dtype)
    extra_en = extra_zh = ""
    if context:
        extra_en = (
            f" {context} tokens per sequence are already in the KV cache ({layers} "
            f"layers, {heads} query heads, {kv_heads} KV heads of dim {head_dim}); the "
            f"KV cache is stored in {kv_dtype}. Count the weights once and every "
            "sequence's K and V once."
        )
        extra_zh = (
            f" 每条序列已有 {context} 个 token 在 KV 缓存中（{layers} 层，{heads} 个 query "
            f"头，{kv_heads} 个 KV 头，每头 {head_dim} 维）；KV 缓存用 {kv_dtype} 存储。"
            "权重计一次，每条序列的 K 和 V 各计一次。"
        )
    en = (
        f"{g_en} It serves {name_en} (take P = {nominal(params)} parameters) with {dtype} "
        f"weights, generating one token at a time at batch {batch}.{extra_en}"
    )
    zh = (
        f"{g_zh} 用它服务{name_zh}（取 P = {nominal(params)} 个参数），权重为 {dtype}，batch {batch}，"
        f"逐个生成 token。{extra_zh}"
    )
    ask = number_ask(
        "min-time",
        "What is the lower bound on the time per decode step?",
        "每个解码步的时间下界是多少？",
        a.min_time,
        MS,
        pick_steps(a.steps, "min-time"),
        mistakes,
    )
    conv_en, conv_zh = convention(dtype, weights=True)
    conv_en += " Every weight is read once per step; ignore activations."
    conv_zh += " 每一步每个权重读一次；忽略激活值。"
    if not context:
        conv_en += " The context is short: ignore the KV cache."
        conv_zh += " 上下文很短：忽略 KV 缓存。"
    return Scenario(
        skill="decode-latency",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=(ask,),
        params={
            "gpu": card.id,
            "dtype": dtype,
            "kv_dtype": kv_dtype,
            "params": params,
            "batch": batch,
            "context": context,
            "layers": layers,
            "kv_heads": kv_heads,
            "head_dim": head_dim,
            "heads": heads,
            "peak": peak,
            "bandwidth": bw,
        },
        convention_en=conv_en,
        convention_zh=conv_zh,
        hidden=hidden_figures(ctx, card),
    )


@skill("kv-cache")
def kv_cache(ctx: Ctx) -> Scenario:
    name_en, name_zh, params, layers, kv_heads, head_dim, heads, longest = ctx.choice(MODELS)
    dtype = ctx.choice(("fp16", "bf16", "fp8"))
    tokens = ctx.choice([t for t in (2048, 4096, 8192, 32768) if t <= longest])
    batch = ctx.choice((1, 4, 8, 16, 32))
    value, step = decoding.kv_cache_bytes(layers, kv_heads, head_dim, tokens, batch, dtype)
    s = dtype_bytes(dtype)
    mistakes = [
        ("kv-factor", value / 2),
        ("dtype-bytes", value * WRONG_BYTES[s] / s),
        ("gib-gb", value / GIB_PER_GB),
        ("query-heads-for-kv", value / kv_heads * heads),
    ]
    en = (
        f"{capital(name_en)}: {layers} layers, {kv_heads} KV heads, head dim {head_dim}. "
        f"The KV cache is stored in {dtype}; batch {batch}, {tokens} tokens per sequence."
    )
    zh = (
        f"{name_zh}：{layers} 层，{kv_heads} 个 KV 头，每头 {head_dim} 维。KV 缓存用 {dtype} 存储；"
        f"batch {batch}，每条序列 {tokens} 个 token。"
    )
    ask = number_ask(
        "kv-cache", "How large is the KV cache?", "KV 缓存有多大？", value, GB, (step,), mistakes
    )
    conv_en, conv_zh = convention(dtype, flops=False)
    conv_en += " GB = 1e9 bytes."
    conv_zh += " GB = 1e9 字节。"
    return Scenario(
        skill="kv-cache",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=(ask,),
        params={
            "dtype": dtype,
            "layers": layers,
            "kv_heads": kv_heads,
            "head_dim": head_dim,
            "tokens": tokens,
            "batch": batch,
        },
        convention_en=conv_en,
        convention_zh=conv_zh,
    )


@skill("critical-batch")
def critical_batch(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "bf16", "fp8", "int8"))
    peak, bw = card.peak(dtype).value, card.bandwidth
    s = dtype_bytes(dtype)
    exact = rl.critical_batch(peak, bw, s)
    value = float(math.ceil(exact - 1e-9))  # a batch is whole: the first one at the ridge
    ridge = peak / bw
    steps = (
        rl.ridge_step(peak, bw, dtype),
        Step(
            "critical-batch",
            "Critical batch",
            "临界 batch",
            "2·P·B / (s·P) = ridge  →  B = ridge × s / 2",
            f"{fmt(ridge)} × {s} / 2",
            exact,
        ),
        Step(
            "whole-batch",
            "First whole batch",
            "第一个整数 batch",
            "⌈B⌉",
            f"⌈{exact:.2f}⌉",  # the digits that decide the rounding
            value,
        ),
    )
    mistakes = [("fma-factor", ridge * s), ("dtype-bytes", ridge * WRONG_BYTES[s] / 2)]
    if dtype in card.sparse:
        mistakes.append(("sparse-peak", card.sparse[dtype] * 1e12 / bw * s / 2))
    mistakes.append(("gib-gb", value / GIB_PER_GB))
    g_en, g_zh = givens(ctx, card, dtype)
    ask = number_ask(
        "critical-batch",
        "Decoding an LLM whose weights are stored in this dtype, from what batch "
        "size does a decode step turn compute-bound?",
        "用该精度存权重的 LLM 解码，batch 多大时解码步会变成计算密集？",
        value,
        SEQUENCES,
        steps,
        mistakes,
        prefix_mistake=False,
    )
    conv_en, conv_zh = convention(dtype, weights=True)
    conv_en += " Weights are read once per step and used by every sequence; ignore the KV cache."
    conv_zh += " 每步权重读一次、被所有序列共用；忽略 KV 缓存。"
    return Scenario(
        skill="critical-batch",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=g_en,
        intro_zh=g_zh,
        asks=(ask,),
        params={"gpu": card.id, "dtype": dtype, "peak": peak, "bandwidth": bw},
        convention_en=conv_en,
        convention_zh=conv_zh,
    )
