"""Which directions come first in a roofline case, and why, said with the case's numbers.

The case builder (skills/case.py) asks; this module answers: the first picks follow from the
bound, how far below what the card sustains the kernel runs, and what the card offers (a
TF32 rate, a lower precision with a higher roof); each reason names where the kernel sits.
"""

from __future__ import annotations

from dataclasses import dataclass

from drill.content.catalog import Card
from drill.content.skills.context import rate_unit, roof, unit_words
from drill.content.skills.directions import letter, text
from drill.content.skills.realism import higher_roof, matrix_path, sustained, tiles, wave_share
from drill.core.engine.operators import OpCost, dtype_bytes
from drill.core.engine.roofline import uses_tensor_cores
from drill.core.units import format_si, sig

SLOW = 0.5  # below this share of what the card sustains, fix the kernel before the roof
WAVES = 0.8  # a grid that leaves a fifth of the SMs' time idle is what holds a library back


@dataclass(frozen=True)
class Situation:
    """Where the case's kernel stands: what its directions and their reasons follow from."""

    card: Card
    cost: OpCost
    dtype: str
    bound: str
    share: float  # measured / attainable
    measured: float
    peak: float
    library: bool

    @property
    def reach(self) -> float:
        """A library's share of what the card sustains (a power-capped T4 holds a third of
        its matrix peak); a kernel of one's own is judged against the roof itself."""
        if not self.library:
            return self.share
        held = sustained(self.card, self.cost.op, self.dtype) * self.peak
        return self.measured / min(self.measured / self.share, held)

    @property
    def matrix(self) -> bool:
        return uses_tensor_cores(self.cost.op)

    def waves(self) -> float:
        """The useful share of the SMs' time the best grid a library picks leaves."""
        return wave_share(self.cost, self.card.units)

    def few_tiles(self) -> bool:
        """A real matrix product (both output sides 128 or more, so 128×128 tiles are the
        natural grid; a one-token layer is a GEMV in all but name) with fewer output tiles
        than the card has SMs."""
        p = self.cost.params
        sides = (p.get("M", p.get("gemm_M", 0)), p.get("N", p.get("gemm_N", 0)))
        n = tiles(self.cost)
        return n is not None and min(sides) >= 128 and n < self.card.units

    def vector_peak(self) -> float:
        """The non-tensor peak of this precision (the fp32 rate where none is published)."""
        return roof(self.card, self.dtype, "elementwise").value

    def on_matrix_units(self) -> bool:
        """Faster than the vector units of its precision allow: it already issues MMAs."""
        return self.matrix and self.measured > self.vector_peak()


def rate(dtype: str, value: float) -> str:
    return format_si(value, rate_unit(dtype))


def case_directions(s: Situation) -> tuple[set[str], set[str]]:
    """(the first directions, defensible ones that come second) for this operator, bound and
    efficiency. A second-order pick earns nothing and costs half a wrong one; the solution
    says why it comes later."""
    op = s.cost.op
    if op == "attention" and not s.cost.params["fused"]:
        return {"change-algorithm", "fusion", "tiling"}, {"lower-precision"}
    if s.reach < SLOW and not s.library and s.few_tiles():
        # fewer output tiles than SMs: most of the chip idles whatever each block does
        return {"parallelism"}, set()
    if s.bound == "compute":
        # On fp32 the roof is the non-tensor one: the matrix units change the roof, which
        # comes after the kernel reaches the roof it has.
        fp32_matrix = s.dtype == "fp32" and s.matrix
        later = {"tensor-cores"} if fp32_matrix else set()
        if s.reach < SLOW and s.library and s.waves() < WAVES:  # held back by its grid
            return {"parallelism"}, later
        if s.reach < SLOW and not s.library:
            first = {"tiling"}
            if s.matrix and not fp32_matrix and not s.on_matrix_units():
                first.add("tensor-cores")
            return first, later
        first = {"lower-precision"} if higher_roof(s.card, s.dtype, op) else set()
        first |= later
        return first or {"change-algorithm"}, set()  # no higher roof: do less work
    if s.reach < SLOW:
        return {"vectorize", "occupancy"}, {"fusion"}
    if op in ("elementwise", "softmax", "layernorm", "conv2d", "attention"):
        # A convolution's activations are the traffic, and its intensity does not grow with
        # the batch (a 1×1 conv stays near 2·Cin·Cout / (s·(Cin + Cout))): fuse instead.
        return {"fusion", "lower-precision"}, set()
    return {"larger-batch", "lower-precision"}, {"fusion"}


def _pct(share: float) -> str:
    return f"{share * 100:.0f} %"


def _path_words(s: Situation) -> tuple[str, str]:
    """The fp32 kernel's way onto the matrix units, in the vendor's words."""
    w, low, value = unit_words(s.card), *matrix_path(s.card)
    if low == "tf32":
        return (
            f"TF32 on the {w.matrix} raises the roof to {rate(low, value)}",
            f"{w.matrix_zh} 上的 TF32 把屋顶抬到 {rate(low, value)}",
        )
    why = "has no TF32" if "tf32" not in s.card.tensor else "runs TF32 no faster than fp32"
    why_zh = "没有 TF32" if "tf32" not in s.card.tensor else "的 TF32 并不比 fp32 快"
    return (
        f"the {s.card.name} {why}: the {w.matrix} need the data converted to {low} "
        f"({rate(low, value)}), a change of precision",
        f"{s.card.name} {why_zh}：{w.matrix_zh} 需要把数据转换成 {low}"
        f"（{rate(low, value)}），这是换精度",
    )


def _larger_batch(s: Situation) -> tuple[str, str]:
    p = s.cost.params
    if s.cost.op == "gemv":
        return (
            "each weight is read for one token: batching tokens turns the GEMV into a GEMM "
            "that reuses every weight read.",
            "每个权重只为一个 token 读取一次：把多个 token 合批，GEMV 变成 GEMM，每次读权重都被复用。",
        )
    m, n, k = p["M"], p["N"], p["K"]
    if 4 * m <= min(n, k):
        return (
            f"each weight read serves only {m} rows: more tokens per batch raise the "
            "intensity almost in proportion.",
            f"每次读权重只服务 {m} 行：每批更多 token，算术强度几乎成比例提高。",
        )
    size = dtype_bytes(s.dtype)
    now = s.cost.flops / s.cost.bytes
    more = 2 * 2 * m * n * k / (size * (2 * m * k + k * n + 2 * m * n))
    ridge = s.peak / s.card.bandwidth
    return (
        f"at this size the intensity 2·M·N·K / (s·(MK + KN + MN)) is {sig(now, 3)} FLOP/B, under "
        f"the {sig(ridge, 3)} FLOP/B ridge; more rows against the same B raise it "
        f"(M = {2 * m}: {sig(more, 3)} FLOP/B).",
        f"这个规模下算术强度 2·M·N·K / (s·(MK + KN + MN)) 为 {sig(now, 3)} FLOP/B，低于拐点 "
        f"{sig(ridge, 3)} FLOP/B；让更多行共用同一个 B 能提高它（M = {2 * m} 时为 "
        f"{sig(more, 3)} FLOP/B）。",
    )


def _lower(s: Situation) -> tuple[str, str]:
    if s.bound == "compute":
        low, value = higher_roof(s.card, s.dtype, s.cost.op)
        w = unit_words(s.card)
        capped = s.reach > s.share * 1.01
        en = zh = ""
        if capped:
            en = f"the {s.card.name}'s power cap holds its matrix math well under the peak, "
            en += f"so {_pct(s.share)} is near its practical roof: "
            zh = f"{s.card.name} 的功耗上限让矩阵运算远低于峰值，{_pct(s.share)} 已接近实际屋顶："
        return (
            en + f"{low} on the {w.matrix} raises the roof from {rate(s.dtype, s.peak)} to "
            f"{rate(low, value)}.",
            zh + f"{w.matrix_zh} 上的 {low} 把屋顶从 {rate(s.dtype, s.peak)} 抬到 "
            f"{rate(low, value)}。",
        )
    if s.dtype == "fp32":
        low = "bf16" if "bf16" in s.card.dtypes() else "fp16"
        return (
            f"{low} halves the bytes per element, doubling the intensity and the roof it "
            "meets under the bandwidth line.",
            f"{low} 让每元素字节减半，算术强度翻倍，带宽线下的可达上限也随之翻倍。",
        )
    low = "fp8" if "fp8" in s.card.dtypes() else "int8"
    p = s.cost.params
    weights = s.cost.op == "gemv" or (s.cost.op == "gemm" and 4 * p["M"] <= min(p["N"], p["K"]))
    what, what_zh = ("weights", "权重") if weights else ("data", "数据")
    return (
        f"8-bit {what} ({low}) halve the bytes per element; the attainable throughput under "
        "the bandwidth line rises in step.",
        f"8 位{what_zh}（{low}）让每元素字节减半；带宽线下的可达吞吐随之提高。",
    )


def _attention(s: Situation, d: str) -> tuple[str, str]:
    """Naive attention: the S×S intermediates, whichever side of the ridge it sits."""
    p = s.cost.params
    scores = p["seq"] / (p["seq"] + p["head_dim"])  # 4·S² of the 4·S·D + 4·S² elements
    sixteen = s.dtype in ("fp16", "bf16")
    kernel = "a flash-attention kernel"
    kernel_zh = "flash attention kernel "
    if not sixteen:
        kernel = "an ideal fused kernel (flash-attention libraries are 16-bit only)"
        kernel_zh = "理想的融合 kernel（flash attention 库只支持 16 位）"
    if d == "change-algorithm":
        return (
            f"the S×S scores and probabilities are {_pct(scores)} of the bytes: {kernel} "
            "never stores them, so only Q, K, V and O cross DRAM.",
            f"S×S 的分数和概率占访存字节的 {_pct(scores)}：{kernel_zh}从不存下它们，"
            "只有 Q、K、V、O 经过显存。",
        )
    if d == "fusion":
        return (
            "fuse QKᵀ, softmax and PV into one kernel: the scores stay on chip instead of "
            "crossing DRAM four times.",
            "把 QKᵀ、softmax 和 PV 融合成一个 kernel：分数留在片上，不再四次经过显存。",
        )
    if s.bound == "compute":
        return (
            f"the two matrix products run at {_pct(s.share)} of the roof: reuse blocks of Q, "
            "K and V from shared memory, the same tiling (with an online softmax) that "
            "keeps a fused kernel on chip.",
            f"两个矩阵乘只跑到屋顶的 {_pct(s.share)}：让 Q、K、V 分块在共享内存中复用，"
            "这也正是融合 kernel（配合在线 softmax）留在片上的分块方法。",
        )
    return (
        "tiling Q, K and V blocks through shared memory with an online softmax is how a "
        "fused kernel keeps the scores on chip.",
        "把 Q、K、V 分块放进共享内存并配合在线 softmax，正是融合 kernel 把分数留在片上的方法。",
    )


def reason(s: Situation, d: str) -> tuple[str, str]:
    """Why direction ``d`` comes first for this case, said with its numbers."""
    w, pct = unit_words(s.card), _pct(s.share)
    if s.cost.op == "attention" and not s.cost.params["fused"]:
        return _attention(s, d)
    if d == "tiling" and s.on_matrix_units():
        vp = rate(s.dtype, s.vector_peak())
        return (
            f"{rate(s.dtype, s.measured)} is above the {vp} {s.dtype} peak of {w.vector}, so "
            f"the kernel already issues {w.mma} instructions; at {pct} of the roof what is "
            "missing is feeding them: larger tiles reused from shared memory and registers, "
            "the next tile's loads pipelined behind the math (double buffering).",
            f"{rate(s.dtype, s.measured)} 已高于{w.vector_zh}的 {s.dtype} 峰值 {vp}，kernel 已在用 "
            f"{w.mma} 指令；只到屋顶的 {pct}，缺的是喂饱它们：更大的分块在共享内存和寄存器中"
            "复用，下一块的加载与计算流水重叠（双缓冲）。",
        )
    if d == "tiling":
        return (
            f"compute-bound at {pct} of the roof: reuse each loaded tile from shared memory "
            "and registers many times.",
            f"算力受限且只到屋顶的 {pct}：让每个加载的分块在共享内存和寄存器中多次复用。",
        )
    if d == "tensor-cores" and s.dtype == "fp32":
        en, zh = _path_words(s)
        return (
            f"at the fp32 roof the way up is a higher roof: {en}.",
            f"已贴着 fp32 屋顶，只能换更高的屋顶：{zh}。",
        )
    if d == "tensor-cores":
        vp = rate(s.dtype, s.vector_peak())
        return (
            f"{rate(s.dtype, s.measured)} is within what {w.vector} reach ({vp}); the "
            f"{rate(s.dtype, s.peak)} roof belongs to the {w.matrix}: only {w.mma} "
            "instructions reach it.",
            f"{rate(s.dtype, s.measured)} 在{w.vector_zh}能达到的范围内（{vp}）；"
            f"{rate(s.dtype, s.peak)} 的屋顶属于 {w.matrix_zh}，只有 {w.mma} 指令能达到。",
        )
    if d == "lower-precision":
        return _lower(s)
    if d == "larger-batch":
        return _larger_batch(s)
    if d == "vectorize":
        return (
            f"memory-bound at {pct} of the bandwidth roof: coalesced, wide loads.",
            f"带宽受限且只到带宽屋顶的 {pct}：合并、宽位宽的加载。",
        )
    if d == "occupancy":
        return (
            "enough loads in flight to cover DRAM latency.",
            "足够多的在途访存请求来掩盖显存延迟。",
        )
    if d == "fusion":
        return (
            f"at {pct} of the bandwidth roof the loads are already efficient: fuse with the "
            "neighbouring operators so the tensor crosses DRAM fewer times.",
            f"已到带宽屋顶的 {pct}，访存已经高效：与相邻算子融合，让张量少经过几次显存。",
        )
    if d == "parallelism":
        n, units, busy = tiles(s.cost) or 0, s.card.units, _pct(s.waves())
        sms = "CUs" if s.card.vendor.upper() == "AMD" else "SMs"
        if not s.library:
            return (
                f"{n} output tiles of 128×128 (a usual tile) for {units} {sms}: most of the chip has no "
                f"block to run; split-K or smaller tiles give every {sms[:-1]} work before "
                "anything inside a block matters.",
                f"128×128（常用的分块大小）的输出分块只有 {n} 个，而有 {units} 个 {sms[:-1]}：大部分芯片没有 block 可跑；"
                f"先用 split-K 或更小的分块让每个 {sms[:-1]} 都有活干，块内的优化之后才有意义。",
            )
        return (
            f"the library reaches only {pct}: {n} output tiles of 128×128 keep the {units} "
            f"{sms} busy {busy} of the time even in the best grid; more independent work "
            "(split-K, several problems in one launch) fills them.",
            f"库只到 {pct}：128×128 的输出分块只有 {n} 个，即使用最好的网格，{units} 个 "
            f"{sms[:-1]} 也只有 {busy} 的时间在干活；更多独立的工作（split-K、一次启动多个问题）"
            "才能填满它们。",
        )
    less = (
        "skip the blocks a causal mask hides, or use local attention"
        if s.cost.op == "attention"
        else "a smaller or pruned layer"
    )
    less_zh = (
        "跳过因果掩码完全遮住的块，或改用局部注意力"
        if s.cost.op == "attention"
        else "更小或剪枝后的层"
    )
    return (
        f"at {pct} of the roof, and no lower precision raises it on the {s.card.name}: the "
        f"way faster is less work ({less}).",
        f"已到屋顶的 {pct}，而在 {s.card.name} 上没有更低的精度能抬高它：只能少做计算（{less_zh}）。",
    )


def later_reason(s: Situation, d: str) -> tuple[str, str]:
    """Why a defensible direction comes second here."""
    if d == "tensor-cores":
        en, zh = _path_words(s)
        return (
            f"{en}; first reach the fp32 roof the kernel has.",
            f"{zh}；先让 kernel 达到现有的 fp32 屋顶。",
        )
    if d == "lower-precision":
        return (
            "fewer bytes help later; first stop storing the S×S intermediates.",
            "减少字节是后一步；先别再存 S×S 的中间结果。",
        )
    if s.reach < SLOW:
        return (
            "fusing saves traffic, but the first gap is how the bytes are fetched.",
            "融合能省访存，但首要差距在于字节是怎么取的。",
        )
    return (
        "fusing the epilogue (bias, activation) saves the output's round trip, a smaller "
        "share of the bytes than the operands.",
        "融合尾处理（bias、激活）能省掉输出的一次往返，但它占的字节比输入操作数少。",
    )


def why(s: Situation, picks: set[str], later: set[str], lang: str) -> str:
    i = 1 if lang == "zh" else 0
    order = sorted(picks, key=letter)
    first = " ".join(f"{letter(d)}) {text(d, lang)}: {reason(s, d)[i]}" for d in order)
    if not later:
        return first
    second = " ".join(
        f"{letter(d)}) {text(d, lang)}: {later_reason(s, d)[i]}" for d in sorted(later, key=letter)
    )
    return first + (" 之后再考虑：" if lang == "zh" else " Later, not first: ") + second
