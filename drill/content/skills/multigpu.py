"""Skills beyond one GPU: collective time, which binds, the DP critical batch.

Link figures are quoted as the learner meets them: per direction at difficulty 1, as the
datasheet's both-directions total from difficulty 2, and across nodes as a network rate in
Gb/s at difficulty 3, on cards whose GPUs each have a port of their own. Latency is left out
(large messages) and said so.
"""

from __future__ import annotations

import math
from dataclasses import replace

from drill.content.skills.context import (
    MEMORY_SHARE,
    TOKENS,
    US,
    WRONG_BYTES,
    Ctx,
    Unit,
    fmt,
    givens,
    number_ask,
)
from drill.content.skills.links import (
    NO_LATENCY,
    bench_tool,
    link_words,
    own_port,
    pick_card,
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
BINDS_CLEAR = 1.3  # the longer of math and communication, at least this many times the other


def model_params(name: str) -> float:
    """The nominal parameter count a class name gives ("405B": 405e9)."""
    return float(name.rstrip("B")) * 1e9


@skill("collective-time")
def collective_time(ctx: Ctx) -> Scenario:
    card = pick_card(ctx, network=ctx.difficulty >= 3)
    ic = card.interconnect
    gpus = ic.node_gpus
    op = ctx.choice(("allgather", "reducescatter")) if ctx.difficulty == 1 else "allreduce"
    nodes = ctx.choice((2, 4, 8)) if ctx.difficulty >= 3 and own_port(ic) else 1
    tool, tool_zh = bench_tool(card)
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
    pair = ic.pair_gbs * 1e9 if ic.topology == "mesh" and ic.pair_gbs else 0.0
    mesh_step = ()
    if pair and w > 1.5 * pair:  # a full mesh: each GPU's rings use all its links at once
        mistakes.append(("mesh-one-link", t(link=pair)))
        mesh_step = (
            Step(
                "mesh-links",
                "Bandwidth a GPU drives: its links to the other GPUs, all at once",
                "每块 GPU 同时驱动的带宽：到其他各 GPU 的链路一起用",
                "(N-1) × per-link bandwidth",
                f"{gpus - 1} × {format_si(pair, 'B/s')}",
                w,
                "B/s",
                formula_zh="(N-1) × 每条链路带宽",
            ),
        )
    word_en, word_zh = OP_WORDS[op]
    en = (
        f"{gpus} {card.name} GPUs in one node are linked by {en_link}. A ring {word_en} runs "
        f"over {article(dtype)} {dtype} tensor of shape [{tokens}, {width}] ({format_si(nbytes, 'B')}, the "
        f"whole buffer as {tool} counts it)."
    )
    zh = (
        f"一个节点里的 {gpus} 块 {card.name} 通过{zh_link}互联。在一个 {dtype} 张量 [{tokens}, "
        f"{width}]（{format_si(nbytes, 'B')}，按{tool_zh}的口径指整个缓冲区）上做环形 {word_zh}。"
    )
    if nodes > 1:
        en += (
            f" The job spans {nodes} such nodes; each GPU has its own {ic.network_gbps:g} Gb/s "
            "network port, and the all-reduce is hierarchical: a reduce-scatter in the node, an "
            "all-reduce of each GPU's 1/N shard over the network, an all-gather in the node; "
            "the three phases run one after another."
        )
        zh += (
            f" 作业跨 {nodes} 个这样的节点；每个 GPU 有自己的 {ic.network_gbps:g} Gb/s 网口，"
            "all-reduce 采用分层方式：节点内 reduce-scatter，各 GPU 的 1/N 分片跨网络 all-reduce，"
            "再在节点内 all-gather；三个阶段依次进行。"
        )
    steps = mesh_step + tuple(s for s in c.steps if s.key not in ("latency", "algbw", "busbw"))
    asks = [
        number_ask(
            "collective-time",
            f"What is the lower bound on the {word_en} time?",
            f"这次 {word_zh} 的时间下界是多少？",
            c.time,
            US,
            steps,
            mistakes,
            gib=True,
        )
    ]
    if ctx.difficulty >= 2:
        by_step = {s.key: s for s in c.steps}
        busbw = replace(by_step["busbw"], en=f"Bus bandwidth ({tool})", zh=f"总线带宽（{tool_zh}）")
        asks.append(
            number_ask(
                "busbw",
                f"At that time, what bus bandwidth would {tool} report?",
                f"按这个时间，{tool_zh}报告的总线带宽（busbw）是多少？",
                c.busbw,
                GBPS,
                (by_step["algbw"], busbw),
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
    return Scenario(
        skill="collective-time",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=asks_t,
        params=params,
        convention_en=NO_LATENCY[0],
        convention_zh=NO_LATENCY[1],
        hidden=hidden,
    )


@skill("comm-or-math")
def comm_or_math(ctx: Ctx) -> Scenario:
    card = pick_card(ctx, topologies=("switch", "mesh"))
    ic = card.interconnect
    dtype = ctx.dtype(card, ("bf16", "fp16"))
    peak = card.peak(dtype).value
    # Shapes whose longer time stands 1.3x clear of the other: NCCL at ~80 % of the link's
    # peak (1.25x the time) cannot flip the verdict the peak gives.
    shapes = []
    for shape in WIDTHS:
        for degree in (d for d in (2, 4, 8) if d <= ic.node_gpus):
            one = parallel.tp_mlp_layer(
                1, shape[0], shape[1], degree, peak, ic.in_node_bandwidth(degree), dtype, matrices=3
            )
            clear = max(one.math_time, one.comm_time) / min(one.math_time, one.comm_time)
            shapes.append((clear >= BINDS_CLEAR, clear, shape, degree))
    fine = [x for x in shapes if x[0]] or [max(shapes, key=lambda x: x[1])]
    _, _, (width, hidden, name), degree = ctx.choice(fine)
    tokens = ctx.choice((4096, 8192, 16384))
    en_link, zh_link, w = link_words(card, degree, total=ctx.difficulty >= 2)
    split = parallel.tp_mlp_layer(tokens, width, hidden, degree, peak, w, dtype, matrices=3)
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
        Option("a", "math", "the math (compute-bound)", "计算本身（计算密集）"),
        Option("b", "communication", "the communication", "通信"),
    )
    g_en, g_zh = givens(ctx, card, dtype)
    pp_en = pp_zh = ""
    if model_params(name) * dtype_bytes(dtype) > MEMORY_SHARE * degree * card.capacity:
        pp_en = (" The whole model does not fit on these GPUs: it is also split into pipeline "
                 "stages over more of them; this is one layer.")  # fmt: skip
        pp_zh = "整个模型放不进这些 GPU：它还按流水线并行切到更多 GPU 上；这里只看其中一层。"
    en = (
        f"{g_en} One layer of {article(name)} {name}-class model: its SwiGLU MLP (width D = "
        f"{width}, hidden F = {hidden}; three D×F matrices) is split with Megatron tensor "
        f"parallelism with sequence parallelism over {degree} GPUs linked by {en_link}.{pp_en} "
        f"A batch of {tokens} tokens passes through it: each GPU does 6·B·D·F / Y FLOPs, and "
        "the activations, sharded by sequence outside the MLP, are all-gathered before it and "
        "reduce-scattered after it (ring)."
    )
    zh = (
        f"{g_zh} 一个 {name} 级别模型的一层：它的 SwiGLU MLP（宽度 D = {width}，隐藏层 F = "
        f"{hidden}；三个 D×F 矩阵）用 Megatron 张量并行（配合序列并行）切到 {degree} 块 GPU 上，"
        f"互联为 {zh_link}。{pp_zh}一批 {tokens} 个 token 通过它：每块 GPU 做 6·B·D·F / Y 次"
        "浮点运算；激活值在 MLP 之外按序列切分，进入前做 all-gather、出来后做 reduce-scatter（环形）。"
    )
    prompt_en = "Without overlap, which takes longer? a) the math  b) the communication"
    prompt_zh = "不做重叠时，计算和通信哪个更耗时？a) 计算  b) 通信"
    ask = Ask(key="binds", kind=CHOICE, prompt_en=prompt_en, prompt_zh=prompt_zh, expected=split.binds, unit=None, mistakes=tuple(slips),
              steps=split.steps, options=options)  # fmt: skip
    params = {"gpu": card.id, "dtype": dtype, "tokens": tokens, "width": width,
              "hidden": hidden, "degree": degree, "card_in_question": False}  # fmt: skip
    conv_en = NO_LATENCY[0] + f" {dtype} = {dtype_bytes(dtype)} bytes per element."
    conv_zh = NO_LATENCY[1] + f" {dtype} 每元素 {dtype_bytes(dtype)} 字节。"
    return Scenario(
        skill="comm-or-math",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=(ask,),
        params=params,
        convention_en=conv_en,
        convention_zh=conv_zh,
    )


@skill("dp-batch")
def dp_batch(ctx: Ctx) -> Scenario:
    card = pick_card(ctx, network=ctx.difficulty >= 3)
    ic = card.interconnect
    across = ctx.difficulty >= 3 and own_port(ic)
    dtype = ctx.dtype(card, ("bf16", "fp16"))
    peak = card.peak(dtype).value
    s = dtype_bytes(dtype)
    n = ic.node_gpus
    if across:
        w = ic.network_bandwidth
        en_link = (
            f"the network between nodes: each node has {n} GPUs, each with its own "
            f"{ic.network_gbps:g} Gb/s port, and the all-reduce is hierarchical (a "
            "reduce-scatter inside the node, then each GPU all-reduces its 1/N of the gradient "
            "over its own port; the faster in-node steps are not the limit)"
        )
        zh_link = (
            f"节点之间的网络：每个节点 {n} 块 GPU，每块有自己的 {ic.network_gbps:g} Gb/s 网口，"
            "all-reduce 采用分层方式（先在节点内 reduce-scatter，再由每块 GPU 通过自己的网口对"
            "它那 1/N 的梯度做 all-reduce；更快的节点内步骤不是瓶颈）"
        )
        count_en = ("Count each GPU's ring all-reduce over the nodes as 2·s·P/N bytes per "
                    "direction (many nodes: (X-1)/X ≈ 1).")  # fmt: skip
        count_zh = "每块 GPU 跨节点的环形 all-reduce 按每个方向 2·s·P / N 字节计（节点很多：(X-1)/X ≈ 1）。"
        raw, steps = parallel.dp_critical_batch(peak, w, dtype, nics=n)
    else:
        en_link, zh_link, w = link_words(card, n, total=ctx.difficulty >= 2)
        en_link, zh_link = (
            f"the node's {n} GPUs, linked by {en_link}",
            f"节点内 {n} 块 GPU 之间的 {zh_link}",
        )
        count_en = (f"Count a ring all-reduce of P parameters over N = {n} GPUs as "
                    "2·(N-1)/N·s·P bytes per direction per GPU.")  # fmt: skip
        count_zh = f"N = {n} 块 GPU 上 P 个参数的环形 all-reduce，按每块 GPU 每个方向 2·(N-1)/N·s·P 字节计。"
        raw = (n - 1) / n * s * peak / (2 * w)
        steps = (
            Step("dp-batch", "Tokens per GPU for data parallelism to hide the gradient all-reduce",
                 "数据并行中梯度 all-reduce 能被计算掩盖所需的每 GPU token 数",
                 "4·P·T / C ≥ 2·(N-1)/N·s·P / W  →  T = (N-1)/N · s·C / (2·W)",
                 f"{n - 1}/{n} · {s} · {format_si(peak, 'FLOP/s')} / (2 · {format_si(w, 'B/s')})",
                 raw),
        )  # fmt: skip
    value = whole_tokens(raw)
    steps = (*steps, Step("dp-tokens", "Whole tokens (rounded up)", "取整数个 token（向上取整）",
                          "⌈T⌉", f"⌈{fmt(raw, 7)}⌉", value))  # fmt: skip
    slips = [("dtype-bytes", raw * WRONG_BYTES[s] / s), ("allreduce-factor", raw / 2)]
    if across:
        slips += [("gbit-gbyte", raw / 8), ("one-nic-per-node", raw * n)]
    else:
        slips.append(("ring-factor", raw * n / (n - 1)))
        if ctx.difficulty >= 2:
            slips.append(("bidirectional-bw", raw / 2))
    g_en, g_zh = givens(ctx, card, dtype)
    en = (
        f"{g_en} A model is trained with data parallelism; the gradient all-reduce ({dtype} "
        "gradients) overlaps the backward pass, which does 4·P FLOPs per token, and runs "
        f"over {en_link}. {count_en}"
    )
    zh = (
        f"{g_zh} 用数据并行训练一个模型；梯度 all-reduce（{dtype} 梯度）与反向传播重叠，反向传播"
        f"每个 token 做 4·P 次浮点运算；all-reduce 走{zh_link}。{count_zh}"
    )
    ask = number_ask(
        "dp-batch",
        "From how many tokens per GPU per step does the backward pass hide the all-reduce "
        "(a whole number of tokens: round up)?",
        "每步每块 GPU 至少多少个 token，反向传播才能掩盖梯度 all-reduce（token 数为整数：向上取整）？",
        value,
        TOKENS,
        steps,
        [(tag, whole_tokens(x)) for tag, x in slips],
        prefix_mistake=False,
    )
    params = {"gpu": card.id, "dtype": dtype, "across_nodes": across, "card_in_question": False}
    if across:
        params["node_gpus"] = n
    return Scenario(
        skill="dp-batch",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=(ask,),
        params=params,
        convention_en=NO_LATENCY[0],
        convention_zh=NO_LATENCY[1],
    )


def whole_tokens(tokens: float) -> float:
    """Tokens come whole: the least whole number at or above (a float rounding aside)."""
    return float(math.ceil(round(tokens, 6)))
