"""Which directions come first in a roofline case, which are defensible but later, and which
are wrong, each said with the case's numbers.

The case builder (skills/case.py) and the `direction` skill ask; this module answers every
option from the facts in case_facts: the operator, the precision and what the card offers
below it, the bound, how far below the roof the kernel runs, whether it is fused, and whether
it is one's own kernel or a library's. The memory-side options are judged here, the
compute-side ones in case_compute.
"""

from __future__ import annotations

from drill.content.skills import case_compute as cc
from drill.content.skills.case_facts import (
    BATCHES,
    BUSY,
    LOW,
    SHORT_KERNEL,
    Situation,
    rate,
    words,
)
from drill.content.skills.directions import (
    ALSO,
    DIRECTION_IDS,
    FIRST,
    WRONG,
    Verdict,
    short,
)
from drill.core.engine.operators import dtype_bytes
from drill.core.units import format_si, percent, sig
from drill.i18n.text import Text

__all__ = ["Situation", "advise", "hints_for", "summary"]


def fusion(s: Situation) -> Verdict:
    share = percent(s.share)
    if s.naive_attention:
        return Verdict(FIRST, *cc.attention_reason(s, "fusion"))
    if s.fused:
        return Verdict(
            WRONG,
            "the kernel is already fused: the S×S scores never reach DRAM.",
            "这个 kernel 已经融合：S×S 分数从不落显存。",
        )
    if s.bound == "compute":
        return Verdict(
            WRONG,
            f"compute-bound ({sig(s.intensity, 3)} FLOP/B over the {sig(s.ridge, 3)} FLOP/B "
            "ridge): fewer bytes do not shorten the math.",
            f"计算密集（{sig(s.intensity, 3)} FLOP/B 高于拐点 {sig(s.ridge, 3)} FLOP/B）："
            "少搬字节缩短不了计算。",
        )
    if s.slow:
        return Verdict(
            ALSO,
            f"fusing with the neighbouring operators saves traffic, but at {share} of the "
            "bandwidth roof the first gap is how this kernel fetches its own bytes.",
            f"与相邻算子融合能省访存，但只到带宽屋顶的 {share}，首要差距在于这个 kernel 自己怎么取字节。",
        )
    if s.op in ("elementwise", "softmax", "layernorm", "conv2d"):
        # A convolution's activations are the traffic, and its intensity barely grows with
        # the batch (a 1×1 conv stays near 2·Cin·Cout / (s·(Cin + Cout))): fuse instead.
        if s.reach < BUSY:  # the loads have some headroom (vectorized loads says so too)
            return Verdict(
                FIRST,
                f"at {share} of the bandwidth roof the loads have some headroom, but fusing "
                "with the neighbouring operators gains more: the tensor crosses DRAM fewer "
                "times.",
                f"已到带宽屋顶的 {share}，加载还有些余地，但与相邻算子融合收益更大：张量少经过几次显存。",
            )
        return Verdict(
            FIRST,
            f"at {share} of the bandwidth roof the loads are already efficient: fuse with the "
            "neighbouring operators so the tensor crosses DRAM fewer times.",
            f"已到带宽屋顶的 {share}，访存已经高效：与相邻算子融合，让张量少经过几次显存。",
        )
    return Verdict(
        ALSO,
        "fusing the epilogue (bias, activation) saves the output's round trip, a smaller "
        "share of the bytes than the operands.",
        "融合尾处理（bias、激活）能省掉输出的一次往返，但它占的字节比输入操作数少。",
    )


def _loads(s: Situation, d: str) -> Verdict:
    """Vectorized loads and occupancy: what a memory-bound kernel far below its roof needs."""
    share = percent(s.share)
    if s.bound == "compute":
        if d == "vectorize" and s.far:
            return Verdict(
                ALSO,
                "wide loads are part of a good tiled kernel, but alone they add no reuse.",
                "宽加载是好的分块 kernel 的一部分，但单靠它不增加复用。",
            )
        if d == "vectorize":
            return Verdict(
                WRONG,
                f"compute-bound at {share} of the roof: the bytes already arrive faster than "
                "the math uses them.",
                f"计算密集，已到屋顶的 {share}：字节到得比计算用得快。",
            )
        if s.share < LOW:  # latency is a fair first reading this far down: occupancy too
            return Verdict(
                ALSO,
                f"at {share} of the roof, too few warps may leave latency uncovered, but fast "
                "compute-bound kernels run at low occupancy: reuse per load and the right "
                "instructions come first.",
                f"只到屋顶的 {share}，warp 太少可能掩盖不了延迟；但快的计算密集 kernel 占用率"
                "本来就低：先要的是每次加载的复用和合适的指令。",
            )
        return Verdict(
            WRONG,
            "fast compute-bound kernels run at low occupancy: what they need is reuse per "
            "load and the right instructions, not more warps.",
            "快的计算密集 kernel 占用率本来就低：它们需要的是每次加载的复用和合适的指令，"
            "不是更多 warp。",
        )
    if s.naive_attention:
        if s.slow and d == "vectorize":
            return Verdict(
                ALSO,
                "wider, coalesced loads speed the softmax passes, but the S×S round trips stay.",
                "更宽的合并加载能加快 softmax 各趟，但 S×S 的往返还在。",
            )
        if s.slow:
            return Verdict(
                ALSO,
                "more loads in flight speed the softmax passes, but the S×S round trips stay.",
                "更多在途访存能加快 softmax 各趟，但 S×S 的往返还在。",
            )
        return Verdict(
            WRONG,
            f"at {share} of the bandwidth roof the loads are efficient: the cost is the S×S "
            "traffic itself.",
            f"已到带宽屋顶的 {share}，加载已经高效：代价在 S×S 流量本身。",
        )
    if s.slow and d == "vectorize":
        return Verdict(
            FIRST,
            f"memory-bound at {share} of the bandwidth roof: coalesced, wide loads.",
            f"访存密集且只到带宽屋顶的 {share}：合并、宽位宽的加载。",
        )
    if s.slow and (s.rereads() or s.op in ("softmax", "layernorm")):
        return Verdict(
            ALSO,
            "more loads in flight help once each byte crosses DRAM once.",
            "等每个字节只经过显存一次之后，增加在途访存才有用。",
        )
    if s.slow:
        return Verdict(
            FIRST,
            "enough loads in flight to cover DRAM latency.",
            "足够多的在途访存请求来掩盖显存延迟。",
        )
    if s.reach < BUSY and d == "occupancy":
        return Verdict(
            ALSO,
            f"at {share} of the bandwidth roof nearly enough loads are in flight; more warps "
            "would add a little, fewer bytes or fewer trips more.",
            f"已到带宽屋顶的 {share}，在途访存已接近够用；更多 warp 收益有限，少搬字节或少往返收益更大。",
        )
    if s.reach < BUSY:
        return Verdict(
            ALSO,
            f"at {share} of the bandwidth roof the loads have some headroom, but fewer bytes "
            "or fewer trips gain more.",
            f"已到带宽屋顶的 {share}，加载还有些余地，但少搬字节或少往返收益更大。",
        )
    return Verdict(
        WRONG,
        f"at {share} of the bandwidth roof the loads are already efficient and enough are in "
        "flight.",
        f"已到带宽屋顶的 {share}，加载已经高效，在途请求也已足够。",
    )


def _batched(s: Situation) -> tuple[str, str]:
    p = s.cost.params
    if s.op == "gemv":
        return (
            "each weight is read for one token: batching tokens turns the GEMV into a GEMM "
            "that reuses every weight read.",
            "每个权重只为一个 token 读取一次：把多个 token 合批，GEMV 变成 GEMM，每次读权重都被复用。",
        )
    if s.op == "conv2d":
        gain = sig(s.batch_gain(), 3)
        return (
            f"the weights are a large share of the bytes here: twice the batch raises the "
            f"intensity {gain}×.",
            f"这里权重占字节的很大一部分：batch 翻倍，强度提高到 {gain} 倍。",
        )
    m, n, k = p["M"], p["N"], p["K"]
    if m == 1:
        return (
            "each weight is read for one token: batching tokens turns this GEMV-like layer "
            "into a GEMM that reuses every weight read.",
            "每个权重只为一个 token 读取一次：把多个 token 合批，这个近似 GEMV 的层就变成复用每次权重读取的 GEMM。",
        )
    if 4 * m <= min(n, k):
        return (
            f"each weight read serves only {m} rows: more tokens per batch raise the "
            "intensity almost in proportion.",
            f"每次读权重只服务 {m} 行：每批更多 token，算术强度几乎成比例提高。",
        )
    size = dtype_bytes(s.dtype)
    more = 2 * 2 * m * n * k / (size * (2 * m * k + k * n + 2 * m * n))
    return (
        f"at this size the intensity 2·M·N·K / (s·(MK + KN + MN)) is {sig(s.intensity, 3)} "
        f"FLOP/B, under the {sig(s.ridge, 3)} FLOP/B ridge; more rows against the same B "
        f"raise it (M = {2 * m}: {sig(more, 3)} FLOP/B).",
        f"这个规模下算术强度 2·M·N·K / (s·(MK + KN + MN)) 为 {sig(s.intensity, 3)} FLOP/B，"
        f"低于拐点 {sig(s.ridge, 3)} FLOP/B；让更多行共用同一个 B 能提高它（M = {2 * m} 时为 "
        f"{sig(more, 3)} FLOP/B）。",
    )


def larger_batch(s: Situation) -> Verdict:
    if s.bound == "compute":
        return Verdict(
            WRONG,
            "already compute-bound: a higher intensity does not raise a compute roof.",
            "已经计算密集：更高的强度抬不高算力屋顶。",
        )
    if s.op == "attention":
        return Verdict(
            WRONG,
            "each sequence has its own K and V: a larger batch adds bytes as fast as FLOPs.",
            "每个序列有自己的 K 和 V：增大 batch 增加的字节和 FLOPs 一样快。",
        )
    gain = s.batch_gain()
    if s.op in ("elementwise", "softmax", "layernorm"):
        return Verdict(
            WRONG,
            "the intensity is fixed per element: twice the batch doubles the bytes and the "
            "FLOPs alike.",
            "强度按元素固定：batch 翻倍，字节和 FLOPs 一起翻倍。",
        )
    if gain < BATCHES:
        return Verdict(
            WRONG,
            f"the activations are most of the bytes: twice the batch raises the intensity only "
            f"{gain:.2f}×.",
            f"字节大部分是激活值：batch 翻倍，强度只提高到 {gain:.2f} 倍。",
        )
    if s.slow:
        return Verdict(
            ALSO,
            f"twice the batch raises the intensity {sig(gain, 3)}×, but at {percent(s.share)} of "
            "the bandwidth roof the loads come first.",
            f"batch 翻倍，强度提高到 {sig(gain, 3)} 倍，但只到带宽屋顶的 {percent(s.share)}，"
            "首先要改的是加载。",
        )
    return Verdict(FIRST, *_batched(s))


def _compute_lower(s: Situation) -> Verdict:
    w = words(s)
    found = s.higher_roof()
    if found is None:
        why, why_zh = "", ""
        if s.op == "attention":
            why, why_zh = " (attention takes no int8)", "（注意力不用 int8）"
        return Verdict(
            WRONG,
            f"no narrower type has a higher roof for this kernel on the {s.card.name}{why}.",
            f"在 {s.card.name} 上，没有更窄的类型能给这个 kernel 更高的屋顶{why_zh}。",
        )
    low, value = found
    up = f"{low} on the {w.matrix} raises the roof from {rate(s.dtype, s.peak)} to {rate(low, value)}"
    up_zh = f"{w.matrix_zh} 上的 {low} 把屋顶从 {rate(s.dtype, s.peak)} 抬到 {rate(low, value)}"
    if s.naive_attention:
        return Verdict(
            ALSO,
            f"{up}, but storing the S×S scores is the first cost.",
            f"{up_zh}，但首要代价是存下 S×S 分数。",
        )
    if s.grid_bound():
        return Verdict(
            ALSO,
            f"{up}, but at {percent(s.share)} of the roof the grid leaves SMs idle first.",
            f"{up_zh}，但只到屋顶的 {percent(s.share)}，首先是网格让 SM 空闲。",
        )
    if s.far:
        return Verdict(
            ALSO,
            f"{up}, but at {percent(s.share)} of the roof the kernel first needs to reach the roof "
            "it has.",
            f"{up_zh}，但只到屋顶的 {percent(s.share)}，先要让 kernel 达到现有的屋顶。",
        )
    en = zh = ""
    if s.reach > s.share * 1.01:
        en = f"the {s.card.name}'s power cap holds its matrix math well under the peak, "
        en += f"so {percent(s.share)} is near its practical roof: "
        zh = f"{s.card.name} 的功耗上限让矩阵运算远低于峰值，{percent(s.share)} 已接近实际屋顶："
    return Verdict(FIRST, f"{en}{up}.", f"{zh}{up_zh}。")


def lower_precision(s: Situation) -> Verdict:
    if s.bound == "compute":
        return _compute_lower(s)
    if s.naive_attention:
        return Verdict(
            ALSO,
            "fewer bytes per score help far less than not storing the S×S scores.",
            "分数少用几个字节，远不如根本不存 S×S 分数。",
        )
    low = s.fewer_bytes()
    if low is None:
        return Verdict(
            WRONG,
            f"the {s.card.name} has no fp8: {s.dtype} is the narrowest float it has for these "
            "activations, and there are no weights to quantize.",
            f"{s.card.name} 没有 fp8：{s.dtype} 已是它能用于这些激活值的最窄浮点类型，"
            "也没有可量化的权重。",
        )
    if s.dtype == "fp32":
        low = "16-bit data" if low == "16-bit" else low
        en = f"{low} halves the bytes per element, doubling the intensity and the roof it meets under the bandwidth line"
        zh = f"{low.replace(' data', ' 数据')} 让每元素字节减半，算术强度翻倍，带宽线下的可达上限也随之翻倍"
    else:
        what, what_zh = ("weights", "权重") if s.weights() else ("data", "数据")
        name = f"8-bit {what}" if low == "8-bit" else f"8-bit {what} ({low})"
        name_zh = f"8 位{what_zh}" if low == "8-bit" else f"8 位{what_zh}（{low}）"
        en = f"{name} halve the bytes per element; the attainable throughput under the bandwidth line rises in step"
        zh = f"{name_zh}让每元素字节减半；带宽线下的可达性能随之提高"
    if s.slow:
        return Verdict(
            ALSO,
            f"{en}, but at {percent(s.share)} of the bandwidth roof the loads come first.",
            f"{zh}，但只到带宽屋顶的 {percent(s.share)}，首先要改的是加载。",
        )
    return Verdict(FIRST, en + ".", zh + "。")


def cuda_graphs(s: Situation) -> Verdict:
    took = format_si(s.seconds, "s")
    if s.seconds < SHORT_KERNEL:
        return Verdict(
            ALSO,
            f"a {took} kernel loses a visible share to a launch of a few µs when it repeats, "
            "but the kernel's own time comes first.",
            f"一个 {took} 的 kernel 反复调用时，几 µs 的启动开销占比可观，但首先要看 kernel 本身的时间。",
        )
    return Verdict(
        WRONG,
        f"one {took} kernel: a launch of a few µs is a small share of it.",
        f"一个 {took} 的 kernel：几 µs 的启动只占它很小一部分。",
    )


def latency(s: Situation) -> Verdict:
    share = percent(s.share)
    if s.share < LOW:
        return Verdict(
            ALSO,
            "both throughputs read under 60 % of peak, so latency is a fair first reading, "
            "but the bound already names the concrete fix.",
            "两个吞吐都低于峰值的 60 %，先查延迟说得过去，但瓶颈已经点明了具体的办法。",
        )
    if s.bound == "memory":
        return Verdict(
            WRONG,
            f"memory throughput is at {share} of the bandwidth roof: one throughput is high, so "
            "it is memory-bound, not latency-bound.",
            f"访存吞吐已到带宽屋顶的 {share}：有一个吞吐很高，所以是访存密集，不是延迟受限。",
        )
    return Verdict(
        WRONG,
        f"compute throughput is at {share} of the roof: one throughput is high, so it is "
        "compute-bound, not latency-bound.",
        f"计算吞吐已到屋顶的 {share}：有一个吞吐很高，所以是计算密集，不是延迟受限。",
    )


JUDGES = {
    "fusion": fusion,
    "vectorize": lambda s: _loads(s, "vectorize"),
    "lower-precision": lower_precision,
    "tensor-cores": cc.tensor_cores,
    "tiling": cc.tiling,
    "occupancy": lambda s: _loads(s, "occupancy"),
    "larger-batch": larger_batch,
    "cuda-graphs": cuda_graphs,
    "latency": latency,
    "change-algorithm": cc.change_algorithm,
    "parallelism": cc.parallelism,
}


def advise(s: Situation) -> dict[str, Verdict]:
    """Every option's verdict for this case. Fewer output tiles than SMs in one's own kernel
    put more parallel work first; what would otherwise come first comes after it."""
    verdicts = {d: JUDGES[d](s) for d in DIRECTION_IDS}
    if verdicts["parallelism"].kind == FIRST and s.grid_first():
        sms, sm = ("CUs", "CU") if s.amd else ("SMs", "SM")
        idle = s.card.units - (s.tiles() or 0)
        for d, v in verdicts.items():
            if v.kind == FIRST and d != "parallelism":
                verdicts[d] = Verdict(
                    ALSO,
                    f"it helps once every {sm} has a block; {s.tiles()} tiles leave "
                    f"{idle} of the {s.card.units} {sms} idle.",
                    f"等每个 {sm} 都有 block 之后，{short(d, 'zh', s.amd)}才有用；"
                    f"{s.tiles()} 个分块让 {s.card.units} 个 {sm} 中的 {idle} 个空闲。",
                )
    if not any(v.kind == FIRST for v in verdicts.values()):
        raise AssertionError(f"no first direction for {s.op} {s.dtype} on {s.card.id}")
    return verdicts


def summary(s: Situation) -> Text:
    """Where the kernel stands, as the direction step's formula: bound and distance."""
    cmp = "<" if s.bound == "memory" else "≥"
    ai, ridge = sig(s.intensity, 3), sig(s.ridge, 3)
    who, who_zh = ("the library", "厂商库") if s.library else ("your own kernel", "你自己的 kernel")
    if s.bound == "memory":
        return Text(
            f"memory-bound ({ai} {cmp} {ridge} FLOP/B); {who} reaches {percent(s.share)} of the "
            "bandwidth roof",
            f"访存密集（{ai} {cmp} {ridge} FLOP/B）；{who_zh}达到带宽屋顶的 {percent(s.share)}",
        )
    return Text(
        f"compute-bound ({ai} {cmp} {ridge} FLOP/B); {who} reaches {percent(s.share)} of the "
        f"{s.dtype} roof",
        f"计算密集（{ai} {cmp} {ridge} FLOP/B）；{who_zh}达到 {s.dtype} 屋顶的 {percent(s.share)}",
    )


def hints_for(s: Situation) -> dict:
    """What the direction question's last hint says a pick does in this case: a lower
    precision on a compute-bound kernel reaches a higher roof, not fewer bytes."""
    return {"roles": {"lower-precision": "roof"} if s.bound == "compute" else None}
