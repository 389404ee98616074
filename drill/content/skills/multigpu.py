"""Skills beyond one GPU: collective time, which binds, the DP critical batch, the TP degree.

Link figures are quoted as the learner meets them: per direction at difficulty 1, as the
datasheet's both-directions total from difficulty 2, and across nodes as a network rate in
Gb/s at difficulty 3. Latency is left out (large messages) and said so.
"""

from __future__ import annotations

import math

from drill.content.skills.context import (
    PLAIN,
    US,
    Ctx,
    Unit,
    fmt,
    givens,
    number_ask,
)
from drill.content.skills.model import CHOICE, Ask, Option, Scenario
from drill.content.skills.skill import skill
from drill.core import units as u
from drill.core.engine import collectives as coll
from drill.core.engine import parallel
from drill.core.engine.operators import dtype_bytes
from drill.core.engine.steps import Step
from drill.core.units import format_si
from drill.i18n.text import article

GBPS = Unit("GB/s", u.BYTE_RATE, 1e9)
OP_WORDS = {
    "allgather": ("all-gather", "all-gather"),
    "reducescatter": ("reduce-scatter", "reduce-scatter"),
    "allreduce": ("all-reduce", "all-reduce"),
}
# MLP hidden widths (F) of familiar models: Llama-2-7B, Llama-3-8B, Llama-3-70B, Llama-3-405B
WIDTHS = ((4096, 11008, "7B"), (4096, 14336, "8B"), (8192, 28672, "70B"), (16384, 53248, "405B"))


ANY_TOPOLOGY = ("switch", "mesh", "partial")


def linked_cards(
    ctx: Ctx,
    nvlink: bool = False,
    nvidia: bool = False,
    dtype: str = "",
    topologies: tuple[str, ...] = ANY_TOPOLOGY,
) -> list:
    """Drilled cards whose catalog entry has a node of 4+ GPUs (and a scale-up fabric).
    A question about a group smaller than the node leaves out partial meshes, where the
    group's bandwidth depends on which GPUs it holds."""
    cards = []
    for card in ctx.catalog.drawn("common"):
        ic = card.interconnect
        if ic is None or ic.node_gpus < 4 or nvlink and ic.scale_up_peers < 4:
            continue
        if ic.topology not in topologies:
            continue
        if nvidia and card.vendor.upper() != "NVIDIA" or dtype and dtype not in card.tensor:
            continue
        cards.append(card)
    return cards


def pick_card(ctx: Ctx, **need):
    """The user's card when it fits the question, else a drawn one."""
    cards = linked_cards(ctx, **need)
    if ctx.gpu:
        forced = ctx.catalog.get(ctx.gpu)
        if forced in cards:
            return forced
    return ctx.rng.choice(cards)


def link_words(card, gpus: int, total: bool) -> tuple[str, str, float]:
    """How the in-node link is quoted, and its per-direction bandwidth in B/s."""
    ic = card.interconnect
    w = ic.in_node_bandwidth(gpus)
    fabric = ic.on_fabric(gpus)
    name = ic.scale_up if fabric else f"PCIe Gen{ic.pcie_gen} x{ic.pcie_lanes}"
    name_zh = name.replace(" bridge (pairs of cards)", " 桥接（两卡一对）")
    if fabric and ic.topology == "mesh":
        pair = ic.pair_gbs * 1e9
        quoted = (
            f"quoted on the datasheet as {format_si(2 * pair, 'B/s')} per link (both "
            "directions added together)"
            if total
            else f"{format_si(pair, 'B/s')} per direction"
        )
        quoted_zh = (
            f"数据手册标称每条链路 {format_si(2 * pair, 'B/s')}（两个方向相加）"
            if total
            else f"每个方向 {format_si(pair, 'B/s')}"
        )
        drives = (
            ("each GPU uses its one link to the other", "两块 GPU 之间只用这一条链路")
            if gpus == 2
            else (
                f"each GPU drives its links to the other {gpus - 1} at once",
                f"每块 GPU 同时使用通往其余 {gpus - 1} 块的链路",
            )
        )
        return (
            f"{name}: one link between each pair of GPUs (full mesh, no switch), {quoted}; "
            f"{drives[0]}",
            f"{name_zh}：每两块 GPU 之间一条链路（全互连，无交换芯片），{quoted_zh}；{drives[1]}",
            w,
        )
    if fabric and ic.topology == "partial":
        name = f"{name} (a partial mesh whose every link a collective over all {gpus} GPUs uses)"
        name_zh = f"{name_zh}（部分互连；覆盖全部 {gpus} 块 GPU 的集合通信用上每条链路）"
    if total:
        both = format_si(2 * w, "B/s")
        return (
            f"{name}, quoted on the datasheet as {both} (both directions added together)",
            f"{name_zh}，数据手册标称 {both}（两个方向相加）",
            w,
        )
    one = format_si(w, "B/s")
    return f"{name}, {one} per direction", f"{name_zh}，每个方向 {one}", w


NO_LATENCY = (
    "Decimal SI units; link figures per direction unless said otherwise; the message is large: "
    "ignore per-step latency. Times are bounds at the links' peak (measured NCCL reaches about "
    "80 % of it).",
    "十进制 SI 单位；除非另有说明，链路带宽按单向计；消息很大：忽略每步延迟。时间是按链路峰值"
    "算的下界（实测 NCCL 约达到其 80 %）。",
)


@skill("collective-time", "multigpu", en="Collective time on a ring", zh="环形集合通信时间")
def collective_time(ctx: Ctx) -> Scenario:
    card = pick_card(ctx)
    ic = card.interconnect
    gpus = ic.node_gpus
    op = ctx.choice(("allgather", "reducescatter")) if ctx.difficulty == 1 else "allreduce"
    nodes = ctx.choice((2, 4, 8)) if ctx.difficulty >= 3 and ic.network_gbps else 1
    tokens, width = ctx.choice((1024, 2048, 4096)), ctx.choice((4096, 8192, 16384))
    dtype = "bf16" if "bf16" in card.dtypes() else "fp16"  # V100 and T4 train in fp16
    nbytes = 2 * tokens * width  # a 16-bit activation (or gradient) tensor
    en_link, zh_link, w = link_words(card, gpus, total=ctx.difficulty >= 2)
    net = ic.network_bandwidth if nodes > 1 else 0.0
    c = coll.collective(op, nbytes, gpus, w, nodes=nodes, network=net, latency=0, net_latency=0)

    def t(link: float = w, network: float = net, kind: str = op, ring: bool = True) -> float:
        value = coll.collective(kind, nbytes, gpus, link, nodes=nodes, network=network,
                                latency=0, net_latency=0).time  # fmt: skip
        if not ring:  # the (N-1)/N factors dropped
            value = coll.passes(kind) * nbytes / link
            if nodes > 1:
                value += coll.passes(kind) * nbytes / gpus / network
        return value

    # Both directions added: "900 GB/s" used for the 450 a ring sends each way.
    mistakes = [("ring-factor", t(ring=False)), ("bidirectional-bw", t(link=2 * w))]
    if op == "allreduce":
        mistakes.append(("allreduce-factor", t(kind="allgather")))
    if nodes > 1:
        mistakes.append(("gbit-gbyte", t(network=net * 8)))
    word_en, word_zh = OP_WORDS[op]
    en = (
        f"{gpus} {card.name} GPUs in one node are linked by {en_link}. A ring {word_en} runs "
        f"over {article(dtype)} {dtype} tensor of shape [{tokens}, {width}] ({format_si(nbytes, 'B')}, the "
        f"whole buffer as nccl-tests counts it)."
    )
    zh = (
        f"一个节点里的 {gpus} 块 {card.name} 通过 {zh_link} 互联。在一个 {dtype} 张量 [{tokens}, "
        f"{width}]（{format_si(nbytes, 'B')}，按 nccl-tests 的口径指整个缓冲区）上做环形 {word_zh}。"
    )
    if nodes > 1:
        en += (
            f" The job spans {nodes} such nodes; each GPU has its own {ic.network_gbps:g} Gb/s "
            "network port, and the all-reduce is hierarchical (reduce-scatter in the node, "
            "all-reduce of each 1/N shard over the network, all-gather in the node)."
        )
        zh += (
            f" 作业跨 {nodes} 个这样的节点；每个 GPU 有自己的 {ic.network_gbps:g} Gb/s 网口，"
            "all-reduce 采用分层方式（节点内 reduce-scatter，各 1/N 分片跨网络 all-reduce，"
            "再在节点内 all-gather）。"
        )
    steps = tuple(s for s in c.steps if s.key not in ("latency", "algbw", "busbw"))
    asks = [
        number_ask(
            "collective-time",
            f"What is the lower bound on the {word_en} time?",
            f"这次 {word_zh} 的时间下界是多少？",
            c.time,
            US,
            steps,
            mistakes,
        )
    ]
    if ctx.difficulty >= 2:
        by_step = {s.key: s for s in c.steps}
        asks.append(
            number_ask(
                "busbw",
                "At that time, what bus bandwidth would nccl-tests report?",
                "按这个时间，nccl-tests 报告的总线带宽（busbw）是多少？",
                c.busbw,
                GBPS,
                (by_step["algbw"], by_step["busbw"]),
                [("busbw-algbw", c.algbw)],
            )
        )
    params = {
        "gpu": card.id, "op": op, "dtype": dtype, "bytes": nbytes, "gpus": gpus, "nodes": nodes,
        "link_per_direction": w, "network_gbps": ic.network_gbps if nodes > 1 else 0,
        "card_in_question": False,
    }  # fmt: skip
    asks_t = tuple(asks)
    # From difficulty 2 the link is quoted both ways added: its per-direction figure is the
    # learner's work (and a ring at the link's peak has exactly that bus bandwidth).
    hidden = ("link_per_direction",) if ctx.difficulty >= 2 else ()
    return Scenario("collective-time", ctx.difficulty, ctx.seed, en, zh, asks_t, params,
                    *NO_LATENCY, hidden)  # fmt: skip


@skill("comm-or-math", "multigpu", en="Math or communication: which binds", zh="计算还是通信")
def comm_or_math(ctx: Ctx) -> Scenario:
    card = pick_card(ctx, topologies=("switch", "mesh"))
    ic = card.interconnect
    dtype = ctx.dtype(card, ("bf16", "fp16"))
    peak = card.peak(dtype).value
    for _ in range(30):  # a verdict 10 % or more clear of a tie
        width, hidden, name = ctx.choice(WIDTHS)
        degree = ctx.choice([d for d in (2, 4, 8) if d <= ic.node_gpus])
        tokens = ctx.choice((4096, 8192, 16384))
        en_link, zh_link, w = link_words(card, degree, total=ctx.difficulty >= 2)
        split = parallel.tp_mlp_layer(tokens, width, hidden, degree, peak, w, dtype, matrices=3)
        if abs(split.math_time - split.comm_time) >= 0.1 * max(split.math_time, split.comm_time):
            break
    wrong = "communication" if split.binds == "math" else "math"
    slips = []
    for tag, comm in (
        ("bidirectional-bw", split.comm_time / 2),
        ("allreduce-factor", split.comm_time / 2),
        ("ring-factor", split.comm_time * degree / (degree - 1)),
    ):
        if (split.math_time >= comm) != (split.binds == "math"):
            slips.append((tag, wrong))
    if ctx.difficulty == 1:
        slips = [s for s in slips if s[0] != "bidirectional-bw"]
    options = (
        Option("a", "math", "the math (compute-bound)", "计算（算力受限）"),
        Option("b", "communication", "the communication", "通信"),
    )
    g_en, g_zh = givens(ctx, card, dtype)
    en = (
        f"{g_en} {article(name).capitalize()} {name}-class SwiGLU MLP (width D = {width}, "
        f"hidden F = {hidden}; three D×F matrices) is split with Megatron tensor parallelism "
        f"over {degree} GPUs linked by {en_link}. A batch of {tokens} tokens passes through "
        "it: each GPU does 6·B·D·F / Y FLOPs, and the activations are all-gathered before "
        "and reduce-scattered after it (ring)."
    )
    zh = (
        f"{g_zh} 一个 {name} 级别的 SwiGLU MLP（宽度 D = {width}，隐藏层 F = {hidden}；三个 D×F "
        f"矩阵）用 Megatron 张量并行切到 {degree} 块 GPU 上，互联为 {zh_link}。一批 {tokens} 个 "
        "token 通过它：每块 GPU 做 6·B·D·F / Y 次运算，激活值在前面做 all-gather、后面做 "
        "reduce-scatter（环形）。"
    )
    prompt_en = "Without overlap, which takes longer: a) the math  b) the communication?"
    prompt_zh = "不做重叠时，哪个更耗时：a) 计算  b) 通信？"
    ask = Ask("binds", CHOICE, prompt_en, prompt_zh, split.binds, None, tuple(slips),
              split.steps, options)  # fmt: skip
    params = {"gpu": card.id, "dtype": dtype, "tokens": tokens, "width": width,
              "hidden": hidden, "degree": degree, "card_in_question": False}  # fmt: skip
    conv_en = NO_LATENCY[0] + f" {dtype} = {dtype_bytes(dtype)} bytes per element."
    conv_zh = NO_LATENCY[1] + f" {dtype} 每元素 {dtype_bytes(dtype)} 字节。"
    return Scenario(
        "comm-or-math", ctx.difficulty, ctx.seed, en, zh, (ask,), params, conv_en, conv_zh
    )


@skill("dp-batch", "multigpu", en="Data-parallel critical batch", zh="数据并行的临界 batch")
def dp_batch(ctx: Ctx) -> Scenario:
    across = ctx.difficulty >= 3
    card = pick_card(ctx)
    ic = card.interconnect
    if across and not ic.network_gbps:
        across = False
    dtype = ctx.dtype(card, ("bf16", "fp16"))
    peak = card.peak(dtype).value
    s = dtype_bytes(dtype)
    nics = 0
    if across:
        w, nics = ic.network_bandwidth, ic.node_gpus
        en_link = (
            f"the network between nodes: each node has {nics} GPUs, each with its own "
            f"{ic.network_gbps:g} Gb/s port, and the all-reduce is hierarchical (a "
            "reduce-scatter inside the node, then each GPU all-reduces its 1/N of the gradient "
            "over its own port; the faster in-node steps are not the limit)"
        )
        zh_link = (
            f"节点之间的网络：每个节点 {nics} 块 GPU，每块有自己的 {ic.network_gbps:g} Gb/s 网口，"
            "all-reduce 采用分层方式（先在节点内 reduce-scatter，再由每块 GPU 通过自己的网口对"
            "它那 1/N 的梯度做 all-reduce；更快的节点内步骤不是瓶颈）"
        )
    else:
        en_link, zh_link, w = link_words(card, ic.node_gpus, total=ctx.difficulty >= 2)
    value, steps = parallel.dp_critical_batch(peak, w, dtype, nics=nics)
    mistakes = [("dtype-bytes", value * {1: 2, 2: 4, 4: 2, 8: 4}[s] / s)]
    if ctx.difficulty >= 2 and not across:
        mistakes.append(("bidirectional-bw", value / 2))
    if across:
        mistakes.append(("gbit-gbyte", value / 8))
        mistakes.append(("one-nic-per-node", value * nics))
    mistakes.append(("allreduce-factor", value / 2))
    g_en, g_zh = givens(ctx, card, dtype)
    en = (
        f"{g_en} A model is trained with data parallelism; the gradient all-reduce ({dtype} "
        f"gradients) runs over {en_link} and overlaps the backward pass, which does 4·P "
        "FLOPs per token. Count a ring all-reduce as 2·s·(bytes it spans) per direction "
        "(many GPUs or nodes)."
    )
    zh = (
        f"{g_zh} 用数据并行训练一个模型；梯度 all-reduce（{dtype} 梯度）走 {zh_link}，与反向"
        "传播重叠，反向传播每个 token 做 4·P 次运算。环形 all-reduce 按每个方向 2·s·（它覆盖的"
        "参数数）字节计（GPU 或节点很多）。"
    )
    ask = number_ask(
        "dp-batch",
        "From how many tokens per GPU per step does the backward pass hide the all-reduce?",
        "每步每块 GPU 至少多少个 token，反向传播才能掩盖梯度 all-reduce？",
        value,
        PLAIN,
        steps,
        mistakes,
        prefix_mistake=False,
    )
    params = {"gpu": card.id, "dtype": dtype, "across_nodes": across, "card_in_question": False}
    if across:
        params["node_gpus"] = nics
    return Scenario("dp-batch", ctx.difficulty, ctx.seed, en, zh, (ask,), params, *NO_LATENCY)


@skill("tp-degree", "multigpu", en="Largest useful TP degree", zh="最大有效张量并行度")
def tp_degree(ctx: Ctx) -> Scenario:
    # Through a switch the link stays W whatever Y; in a full mesh both the math and the
    # communication shrink as 1/Y, so no degree changes the verdict: switched nodes only.
    card = pick_card(ctx, nvlink=True, topologies=("switch",))
    ic = card.interconnect
    dtype = ctx.dtype(card, ("bf16", "fp16"))
    peak = card.peak(dtype).value
    width, hidden, name = ctx.choice(WIDTHS)
    en_link, zh_link, w = link_words(card, ic.node_gpus, total=ctx.difficulty >= 2)
    bound, _, steps = parallel.tp_degree_limit(hidden, peak, w, dtype, matrices=3)
    s = dtype_bytes(dtype)
    mistakes = [("dtype-bytes", bound * s / {1: 2, 2: 4, 4: 2, 8: 4}[s])]
    if ctx.difficulty >= 2:
        mistakes.append(("bidirectional-bw", bound * 2))
    g_en, g_zh = givens(ctx, card, dtype)
    en = (
        f"{g_en} {article(name).capitalize()} {name}-class model's SwiGLU MLP (hidden width "
        f"F = {hidden}; three D×F matrices) is split with tensor parallelism of degree Y over "
        f"GPUs linked by {en_link}; in its {ic.node_gpus}-GPU node a switch gives every GPU "
        "that bandwidth whatever the group. Per GPU the math is 6·B·D·F / Y FLOPs and the "
        "communication about 2·B·D·s bytes (an all-gather in, a reduce-scatter out)."
    )
    zh = (
        f"{g_zh} 一个 {name} 级别模型的 MLP（隐藏层宽度 F = {hidden}）以并行度 Y 做张量并行，"
        f"GPU 之间通过 {zh_link} 互联；它的 {ic.node_gpus} 卡节点通过交换芯片，无论怎样分组每块 GPU "
        "都有这个带宽。每块 GPU 的计算是 6·B·D·F / Y 次运算（SwiGLU，三个 D×F 矩阵），通信约 "
        "2·B·D·s 字节（进来一次 all-gather，出去一次 reduce-scatter）。"
    )
    asks = [
        number_ask(
            "tp-bound",
            "At what degree Y do the math and the communication take equal time?",
            "并行度 Y 为多少时计算与通信耗时相等？",
            bound,
            PLAIN,
            steps[:1],
            mistakes,
            prefix_mistake=False,
        )
    ]
    if ctx.difficulty >= 2:
        cap = min(2 ** int(math.floor(math.log2(bound))) if bound >= 1 else 1, ic.node_gpus)
        last = Step(
            "tp-degree",
            "Largest power-of-two degree within one node that stays compute-bound",
            "节点内仍为算力受限的最大 2 的幂并行度",
            "min(2^⌊log2(Y)⌋, N_node)",
            f"min(2^⌊log2({fmt(bound)})⌋, {ic.node_gpus})",
            float(cap),
        )
        wrong = min(2 ** int(math.floor(math.log2(bound * 2))), ic.node_gpus)
        asks.append(
            number_ask(
                "tp-degree",
                "What is the largest power-of-two TP degree, within one node, that keeps the "
                "MLP compute-bound?",
                "在一个节点之内，仍能让 MLP 保持算力受限的最大 2 的幂张量并行度是多少？",
                float(cap),
                PLAIN,
                (steps[0], last),
                [("bidirectional-bw", float(wrong))],
                prefix_mistake=False,
            )
        )
    params = {"gpu": card.id, "dtype": dtype, "hidden": hidden, "node_gpus": ic.node_gpus,
              "card_in_question": False}  # fmt: skip
    asks_t = tuple(asks)
    conv_en = NO_LATENCY[0] + f" {dtype} = {s} bytes per element."
    conv_zh = NO_LATENCY[1] + f" {dtype} 每元素 {s} 字节。"
    return Scenario("tp-degree", ctx.difficulty, ctx.seed, en, zh, asks_t, params, conv_en, conv_zh)  # fmt: skip
