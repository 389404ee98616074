"""The mock interview's serving case: put a 70B model on a node of GPUs and size it.

Four asks in the order an interviewer would take them: the fewest GPUs (tensor-parallel
degree) that hold the weights, the KV-cache capacity left on the node, the decode step time,
and the time the tensor-parallel all-reduces add to each step.
"""

from __future__ import annotations

import math
import random

from drill.content.skills.context import (
    GIB_PER_GB,
    GPUS,
    MEMORY_SHARE,
    TOKENS,
    US,
    WRONG_BYTES,
    Ctx,
    convention,
    memory_words,
    number_ask,
    unit_words,
)
from drill.content.skills.context import MS as MILLIS
from drill.content.skills.model import Scenario
from drill.content.skills.skill import skill
from drill.core.engine import collectives as coll
from drill.core.engine.operators import dtype_bytes
from drill.core.engine.steps import Step, num
from drill.core.units import format_si, percent

CASES = ("kernel", "serving")
# name, parameters, layers, KV heads, head dim, query heads, model width
MODEL = (
    "a 70B model (Llama-3-70B shape, 70.6B parameters)",
    "70B 模型（Llama-3-70B 结构，706 亿参数）",
    70.6e9,  # its config.json counted: 70.55e9 (tests/test_multigpu.py)
    80,
    8,
    128,
    64,
    8192,
)
LATENCY = coll.NODE_LATENCY


def case_kind(kind: str, seed: int) -> str:
    """``random`` picks one case per seed; the others are themselves."""
    if kind == "random":
        return random.Random(f"case-kind:{seed}").choice(CASES)
    if kind not in CASES:
        raise ValueError(f"unknown case {kind!r}; choose from kernel, serving, random")
    return kind


def build_case(kind: str, ctx: Ctx, seed: int) -> Scenario:
    """The case the mock interview opens with; ``random`` on a card the serving case cannot
    be asked on is the kernel case (the one it can)."""
    chosen = case_kind(kind, seed)
    if kind == "random" and ctx.gpu and not can_serve(ctx.catalog.get(ctx.gpu)):
        chosen = "kernel"
    if chosen == "serving":
        return serving_case(ctx)
    from drill.content.skills.case import interview_case

    return interview_case(ctx)


def _fewest_gpus(weights: float, capacity: float, most: int) -> int:
    n = 1
    while weights > MEMORY_SHARE * n * capacity and n < most:
        n *= 2
    return n


def can_serve(card) -> bool:
    """The serving case can be asked on ``card``: an NVIDIA node of 4 or more GPUs each
    linked to the others (NVLink or NVSwitch), fp16 tensor cores, and memory enough that the
    model's 16-bit weights take fewer GPUs than the node has."""
    ic = card.interconnect
    if ic is None or ic.node_gpus < 4 or ic.scale_up_peers < 4:
        return False
    if card.vendor.upper() != "NVIDIA" or "fp16" not in card.tensor:
        return False
    return _fewest_gpus(2 * MODEL[2], card.capacity, 64) < ic.node_gpus


@skill("serving-case")
def serving_case(ctx: Ctx) -> Scenario:
    forced = ctx.catalog.get(ctx.gpu) if ctx.gpu else None
    if forced is not None and can_serve(forced):
        card = forced
    else:
        card = ctx.rng.choice([c for c in ctx.catalog.drawn("common") if can_serve(c)])
    ic = card.interconnect
    dtype = "bf16" if "bf16" in card.tensor else "fp16"
    s = dtype_bytes(dtype)
    name_en, name_zh, params, layers, kv_heads, head_dim, heads, width = MODEL
    capacity = card.capacity
    weights = params * s
    tp = _fewest_gpus(weights, capacity, ic.node_gpus)
    asks = []
    usable = MEMORY_SHARE * capacity
    tp_step = Step("tp", "Fewest GPUs that hold the weights (a power of two)",
                   "放得下权重的最少 GPU 数（2 的幂）", "2^⌈log2(s·P / (0.9·M))⌉",
                   f"2^⌈log2({format_si(weights, 'B')} / {format_si(usable, 'B')})⌉ = "
                   f"2^⌈log2({weights / usable:.3g})⌉", float(tp))  # fmt: skip
    # The GiB figure read as GB (141 GiB as 141 GB): the card's name, not what the tool reports.
    as_gb = capacity / GIB_PER_GB
    asks.append(number_ask("tp-degree", "What is the smallest tensor-parallel degree (a power of "
                           "two) whose GPUs hold the weights?", "放得下权重的最小张量并行度（2 的幂）是多少？",
                           float(tp), GPUS, (tp_step,),
                           [("dtype-bytes", float(_fewest_gpus(weights * WRONG_BYTES[s] / s, capacity, 64))),
                            ("gib-gb", float(_fewest_gpus(weights, as_gb, 64))),
                            ("headroom-ignored", float(_fewest_gpus(weights, capacity / MEMORY_SHARE, 64)))],
                           prefix_mistake=False))  # fmt: skip
    gpus = ic.node_gpus  # the case serves on the whole node from here on
    per_token = 2.0 * layers * kv_heads * head_dim * s
    free = MEMORY_SHARE * gpus * capacity - weights
    tokens = float(math.floor(free / per_token))  # whole tokens: the last part-token does not fit
    kv_step = Step("kv-tokens", "KV-cache tokens that fit on the node", "节点上放得下的 KV 缓存 token 数",
                   "(0.9·N·M - s·P) / (2·L·H_kv·D·s)",
                   f"{format_si(free, 'B')} / (2·{layers}·{kv_heads}·{head_dim}·{s})", tokens)  # fmt: skip
    asks.append(number_ask("kv-capacity", f"Serving on all {gpus} GPUs (TP = {gpus}), how many tokens "
                           "of KV cache fit in the memory left?",
                           f"用全部 {gpus} 块 GPU（TP = {gpus}）服务，剩下的显存能放多少个 token 的 KV 缓存？",
                           tokens, TOKENS, (kv_step,),
                           [("query-heads-for-kv", tokens * kv_heads / heads), ("kv-factor", tokens * 2),
                            ("gib-gb", (MEMORY_SHARE * gpus * as_gb - weights) / per_token),
                            ("gib-gb", (MEMORY_SHARE * gpus * capacity * GIB_PER_GB - weights) / per_token),
                            ("headroom-ignored", (gpus * capacity - weights) / per_token)],
                           prefix_mistake=False))  # fmt: skip
    batch = ctx.choice((8, 16, 32))
    context = ctx.choice((2048, 4096, 8192))
    while batch * context > tokens and batch > 1:
        batch //= 2
    kv = per_token * context * batch
    peak, bw = card.peak(dtype).value, card.bandwidth
    mem_time = (weights + kv) / (gpus * bw)
    math_time = 2 * params * batch / (gpus * peak)
    step_time = max(mem_time, math_time)
    dec_step = Step("decode-step", "Decode step, all GPUs reading their share at once",
                    "解码一步：各 GPU 同时读自己那一份", "max((s·P + KV) / (N·W_mem), 2·P·B / (N·C))",
                    f"max(({format_si(weights, 'B')} + {format_si(kv, 'B')}) / ({gpus}·"
                    f"{format_si(bw, 'B/s')}), 2·{params:.4g}·{batch} / ({gpus}·{format_si(peak, 'FLOP/s')}))",
                    step_time, "s")  # fmt: skip
    asks.append(number_ask("decode-step", f"At batch {batch} with {context} tokens per sequence, what "
                           "is the lower bound on the decode step, communication aside?",
                           f"batch {batch}、每条序列 {context} 个 token 时，不计通信，解码一步的下界是多少？",
                           step_time, MILLIS, (dec_step,), gib=True, mistakes=[
                           ("kv-ignored", max(weights / (gpus * bw), math_time)),
                            ("query-heads-for-kv", max((weights + kv * heads / kv_heads) / (gpus * bw), math_time))]))  # fmt: skip
    nbytes = batch * width * s
    one = coll.collective("allreduce", nbytes, gpus, ic.in_node_bandwidth(gpus))
    count = 2 * layers
    total = count * one.time
    ar_step = Step("allreduce-step", "All-reduce time per decode step", "每个解码步的 all-reduce 时间",
                   "2·L · (2·(N-1)/N · B·D·s / W + 2·(N-1)·α)",
                   f"2·{layers} · {format_si(one.time, 's')}", total, "s")  # fmt: skip
    hops = 2 * (gpus - 1)  # one node: no network hop, so no β term
    lat_step = Step("latency", "Latency, one term per ring step", "延迟：环的每一步一项", "2·(N-1) · α",
                    f"{hops} · {format_si(LATENCY, 's')}", hops * LATENCY, "s")  # fmt: skip

    def slip(kind: str = "allreduce", link: float = ic.in_node_bandwidth(gpus)) -> float:
        return count * coll.collective(kind, nbytes, gpus, link).time

    asks.append(number_ask("allreduce-time", "Each layer all-reduces the B×D activations twice "
                           "(after attention and after the MLP). How much time do these all-reduces "
                           "add to each decode step?",
                           "每层对 B×D 的激活值做两次 all-reduce（注意力之后和 MLP 之后）。这些 all-reduce "
                           "给每个解码步增加多少时间？", total, US, (one.steps[0], lat_step, ar_step),
                           [("allreduce-factor", slip("allgather")),
                            ("once-per-layer", total / 2),
                            ("latency-ignored", total - count * hops * LATENCY),
                            ("bidirectional-bw", slip(link=2 * ic.in_node_bandwidth(gpus)))]))  # fmt: skip
    link = f"{ic.scale_up}, {format_si(ic.scale_up_gbs * 1e9, 'B/s')} per direction"
    mem_en, mem_zh = memory_words(card)
    en = (
        f"Case: serve {name_en}: {layers} layers, width {width}, {heads} query heads and "
        f"{kv_heads} KV heads of dim {head_dim}; {dtype} weights and KV cache. The node has "
        f"{ic.node_gpus} {card.name} GPUs ({mem_en}, "
        f"{format_si(card.bandwidth, 'B/s')}, {format_si(card.peak(dtype).value, 'FLOP/s')} "
        f"dense {dtype} on {unit_words(card).matrix} each) linked by {link}."
    )
    zh = (
        f"案例：服务{name_zh}：{layers} 层，宽度 {width}，{heads} 个 query 头、{kv_heads} 个 KV 头，"
        f"每头 {head_dim} 维；权重与 KV 缓存均为 {dtype}。节点有 {ic.node_gpus} 块 {card.name}"
        f"（每块 {mem_zh}、{format_si(card.bandwidth, 'B/s')}、{unit_words(card).matrix_zh} 稠密 {dtype} "
        f"{format_si(card.peak(dtype).value, 'FLOP/s')}），通过 {ic.scale_up}（每个方向 "
        f"{format_si(ic.scale_up_gbs * 1e9, 'B/s')}）互联。"
    )
    conv_en, conv_zh = convention(dtype, weights=True)
    conv_en += (f" Use at most {percent(MEMORY_SHARE)} of each GPU's memory (GB = 1e9 B); ring "
                f"all-reduce with {num(LATENCY * 1e6)} µs per step; link figures per direction.")  # fmt: skip
    conv_zh += (f" 每块 GPU 最多用 {percent(MEMORY_SHARE)} 的显存（GB = 1e9 字节）；环形 all-reduce，"
                f"每步延迟 {num(LATENCY * 1e6)} µs；链路带宽按单向计。")  # fmt: skip
    params_out = {"gpu": card.id, "dtype": dtype, "params": params, "layers": layers,
                  "kv_heads": kv_heads, "head_dim": head_dim, "heads": heads, "width": width,
                  "node_gpus": ic.node_gpus, "batch": batch, "context": context,
                  "card_in_question": False}  # fmt: skip
    asks_t = tuple(asks)
    return Scenario(
        skill="serving-case",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=asks_t,
        params=params_out,
        convention_en=conv_en,
        convention_zh=conv_zh,
    )
