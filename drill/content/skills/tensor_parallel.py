"""tp-degree: the largest tensor-parallel degree that keeps an MLP compute-bound in a node."""

from __future__ import annotations

from drill.content.skills.context import (
    GPUS,
    WRONG_BYTES,
    Ctx,
    fmt,
    givens,
    number_ask,
)
from drill.content.skills.links import (
    NO_LATENCY,
    link_words,
    pick_card,
)
from drill.content.skills.model import Scenario
from drill.content.skills.multigpu import WIDTHS
from drill.content.skills.skill import skill
from drill.core.engine.operators import dtype_bytes
from drill.core.engine.steps import Step
from drill.core.units import format_si
from drill.i18n.text import article

# Tensor-parallel shapes: the four above and Phi-3.5-mini (microsoft/Phi-3.5-mini-instruct
# config.json: hidden_size 3072, intermediate_size 8192, gated SiLU MLP), a small model whose
# largest useful degree falls inside an 8-GPU node.
TP_WIDTHS = (*WIDTHS, (3072, 8192, "3.8B"))
TP_CLEAR = 1.1  # a keyed degree and the next one stand 10 % or more clear of the crossover


def pow2_within(limit: float, node: int) -> int:
    """The largest power of two at or under ``limit``, within the node."""
    degree = 1
    while 2 * degree <= limit and 2 * degree <= node:
        degree *= 2
    return degree


def tp_clear(ratio: float, node: int) -> bool:
    """``ratio`` = 3·F·W / (s·C): math over communication is ratio / (Y-1) at degree Y."""
    cap = pow2_within(1 + ratio, node)
    below = cap == 1 or ratio / (cap - 1) >= TP_CLEAR
    return below and (2 * cap > node or (2 * cap - 1) / ratio >= TP_CLEAR)


@skill("tp-degree")
def tp_degree(ctx: Ctx) -> Scenario:
    # Through a switch the link stays W whatever Y; in a full mesh both the math and the
    # communication shrink as 1/Y, so no degree changes the verdict: switched nodes only.
    card = pick_card(ctx, nvlink=True, topologies=("switch",))
    ic = card.interconnect
    node = ic.node_gpus
    dtype = ctx.dtype(card, ("bf16", "fp16"))
    peak = card.peak(dtype).value
    s = dtype_bytes(dtype)
    en_link, zh_link, w = link_words(card, node, total=ctx.difficulty >= 2)

    def ratio(hidden: int, link: float = w, size: int = s) -> float:
        return 3 * hidden * link / (size * peak)

    shapes = [x for x in TP_WIDTHS if tp_clear(ratio(x[1]), node)] or list(TP_WIDTHS)
    inside = [x for x in shapes if pow2_within(1 + ratio(x[1]), node) < node]
    if ctx.difficulty >= 2 and inside and ctx.rng.random() < 0.5:  # (b) not always the node
        shapes = inside
    width, hidden, name = ctx.choice(shapes)
    r = ratio(hidden)
    bound = 1 + r
    past_en = past_zh = ""
    if bound > node:
        past_en = (
            f" (beyond the node's {node} GPUs: every degree inside the node stays compute-bound)"
        )
        past_zh = f"（超过节点的 {node} 块 GPU：节点内任何并行度都保持计算密集）"
    alone = ctx.difficulty < 2  # with part (b) to come, (a)'s solution must not answer it
    first = Step(
        "tp-bound",
        "Tensor-parallel degree where math and communication take equal time" + past_en * alone,
        "计算与通信耗时相等时的张量并行度" + past_zh * alone,
        "6·B·D·F / (Y·C) = 2·(Y-1)/Y · B·D·s / W  →  Y = 1 + 3·F·W / (s·C)",
        f"1 + 3 · {hidden} · {format_si(w, 'B/s')} / ({s} · {format_si(peak, 'FLOP/s')})",
        bound,
    )
    # an FMA counted once halves the math exactly as 4-byte elements double the bytes: one of
    mistakes = [
        ("dtype-bytes", 1 + ratio(hidden, size=WRONG_BYTES[s])),
        ("fma-factor", 1 + r / 2),
        ("ring-factor", r),
    ]
    if ctx.difficulty >= 2:
        mistakes.append(("bidirectional-bw", 1 + ratio(hidden, link=2 * w)))
    g_en, g_zh = givens(ctx, card, dtype)
    en = (
        f"{g_en} {article(name).capitalize()} {name}-class model's SwiGLU MLP (model width D, "
        f"FFN intermediate width F = {hidden}; three D×F matrices; B tokens in a batch, s "
        "bytes per element, C the peak, W the link) is split with Megatron tensor parallelism with "
        f"sequence parallelism, degree Y, over GPUs linked by {en_link}; in its {node}-GPU "
        "node a switch gives every GPU that bandwidth whatever the group. Per GPU the math is "
        "6·B·D·F / Y FLOPs and the communication 2·(Y-1)/Y·B·D·s bytes per direction (a ring "
        "all-gather of the activations in, a ring reduce-scatter out)."
    )
    zh = (
        f"{g_zh} 一个 {name} 级别模型的 SwiGLU MLP（模型宽度 D，FFN 中间层宽度 F = {hidden}；三个 D×F "
        "矩阵；一批 B 个 token，每元素 s 字节，C 为峰值，W 为链路带宽）以并行度 Y "
        f"做 Megatron 张量并行（配合序列并行），GPU 之间通过{zh_link}互联；它的 {node} 卡节点通过"
        "交换芯片，无论怎样分组每块 GPU 都有这个带宽。每块 GPU 的计算是 6·B·D·F / Y 次浮点运算，"
        "通信为每个方向 2·(Y-1)/Y·B·D·s 字节（进来一次环形 all-gather，出去一次环形 reduce-scatter）。"
    )
    asks = [
        number_ask(
            "tp-bound",
            "At what degree Y do the math and the communication take equal time?",
            "并行度 Y 为多少时计算与通信耗时相等？",
            bound,
            GPUS,
            (first,),
            mistakes,
            prefix_mistake=False,
        )
    ]
    if ctx.difficulty >= 2:
        cap = pow2_within(bound, node)
        last = Step(
            "tp-degree",
            "Largest power-of-two degree within one node that stays compute-bound" + past_en,
            "节点内仍为计算密集的最大 2 的幂并行度" + past_zh,
            "min(2^⌊log2(Y)⌋, N_node)",
            f"min(2^⌊log2({fmt(bound)})⌋, {node})",
            float(cap),
        )
        slips = [("bidirectional-bw", 1 + 2 * r), ("ring-factor", r)]
        asks.append(
            number_ask(
                "tp-degree",
                "What is the largest power-of-two TP degree, within one node, that keeps the "
                "MLP compute-bound?",
                "在一个节点之内，仍能让 MLP 保持计算密集的最大 2 的幂张量并行度是多少？",
                float(cap),
                GPUS,
                (first, last),
                # a slip that lands on the node size reads the same as never checking the
                # degree at all: not named, so as not to blame the wrong habit
                [
                    (tag, float(pow2_within(y, node)))
                    for tag, y in slips
                    if pow2_within(y, node) != node
                ],
                prefix_mistake=False,
            )
        )
    params = {"gpu": card.id, "dtype": dtype, "hidden": hidden, "node_gpus": node,
              "card_in_question": False}  # fmt: skip
    asks_t = tuple(asks)
    conv_en = NO_LATENCY[0] + f" {dtype} = {s} bytes per element."
    conv_zh = NO_LATENCY[1] + f" {dtype} 每元素 {s} 字节。"
    return Scenario(
        skill="tp-degree",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=asks_t,
        params=params,
        convention_en=conv_en,
        convention_zh=conv_zh,
    )
