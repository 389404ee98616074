"""Verdicts on the compute-side directions of a roofline case (tensor cores, tiling, a new
algorithm, more parallel work), each with its reason said with the case's numbers."""

from __future__ import annotations

from drill.content.skills.case_facts import TAIL, WAVES, Situation, rate, words
from drill.content.skills.directions import ALSO, FIRST, WRONG, Verdict
from drill.core.units import percent, sig

KERNEL_WORDS = {
    "elementwise": ("an element-wise kernel", "逐元素 kernel"),
    "softmax": ("a softmax", "softmax"),
    "layernorm": ("a LayerNorm", "LayerNorm"),
}


def _vector_peak(s: Situation) -> tuple[str, str]:
    """ "the 39 TFLOP/s fp16 peak of the CUDA cores", or their fp32 rate named as such where
    the card publishes none for this precision."""
    w, vp, own = words(s), rate(s.dtype, s.vector_peak()), s.vector_peak_dtype()
    if own == s.dtype:
        return f"the {vp} {s.dtype} peak of {w.vector}", f"{w.vector_zh}的 {s.dtype} 峰值 {vp}"
    return (
        f"the {vp} {w.vector} reach in {s.dtype} (their {own} rate: the card publishes none "
        f"for {s.dtype})",
        f"{w.vector_zh}的 {s.dtype} 速率 {vp}（即其 {own} 速率：该卡没有单独公布 {s.dtype} 的数字）",
    )


def _sms(s: Situation) -> tuple[str, str]:
    return ("CUs", "CU") if s.amd else ("SMs", "SM")


def attention_reason(s: Situation, d: str) -> tuple[str, str]:
    """Naive attention: the S×S intermediates, whichever side of the ridge it sits."""
    p = s.cost.params
    scores = p["seq"] / (p["seq"] + p["head_dim"])  # 4·S² of the 4·S·D + 4·S² elements
    kernel, kernel_zh = "a flash-attention kernel", "flash attention kernel "
    if s.dtype not in ("fp16", "bf16"):
        kernel = "an ideal fused kernel (flash-attention libraries are 16-bit only)"
        kernel_zh = "理想的融合 kernel（flash attention 库只支持 16 位）"
    if d == "change-algorithm":
        return (
            f"the S×S scores and probabilities are {percent(scores)} of the bytes: {kernel} "
            "never stores them, so only Q, K, V and O cross DRAM.",
            f"S×S 的分数和概率占访存字节的 {percent(scores)}：{kernel_zh}从不存下它们，"
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
            f"the two matrix products run at {percent(s.share)} of the roof: reuse blocks of Q, "
            "K and V from shared memory, the same tiling (with an online softmax) that "
            "keeps a fused kernel on chip.",
            f"两个矩阵乘只跑到屋顶的 {percent(s.share)}：让 Q、K、V 分块在共享内存中复用，"
            "这也正是融合 kernel（配合在线 softmax）留在片上的分块方法。",
        )
    return (
        "tiling Q, K and V blocks through shared memory with an online softmax is how a "
        "fused kernel keeps the scores on chip.",
        "把 Q、K、V 分块放进共享内存并配合在线 softmax，正是融合 kernel 把分数留在片上的方法。",
    )


def _no_path(s: Situation) -> tuple[str, str]:
    """fp32 on a card whose matrix units offer nothing faster in fp32."""
    w = words(s)
    low = next((d for d in ("bf16", "fp16") if d in s.card.tensor), None)
    if low is None:
        return (
            f"the {s.card.name} lists no 16-bit {w.matrix} rate: the roof here is the "
            f"{w.vector_adj} one.",
            f"{s.card.name} 没有公布 16 位 {w.matrix_zh} 的速率：这里的屋顶是{w.vector_adj_zh}的。",
        )
    if "tf32" not in s.card.tensor:
        return (
            f"fp32 on the {s.card.name} has no path onto its {w.matrix}: the roof here is the "
            f"{w.vector_adj} one; they take {low} data, which is lower precision.",
            f"{s.card.name} 上的 fp32 用不了 {w.matrix_zh}：这里的屋顶是{w.vector_adj_zh}的；"
            f"{w.matrix_zh} 只接受 {low} 等数据，那是降低精度。",
        )
    return (
        f"the {s.card.name}'s TF32 runs no faster than fp32: the roof stays the {w.vector_adj} "
        f"one; {low} on the {w.matrix} is lower precision.",
        f"{s.card.name} 的 TF32 并不比 fp32 快：屋顶仍是{w.vector_adj_zh}的；"
        f"在 {w.matrix_zh} 上用 {low} 是降低精度。",
    )


def tensor_cores(s: Situation) -> Verdict:
    w = words(s)
    if s.op == "gemv":
        return Verdict(
            WRONG,
            f"a GEMV uses each weight once (about {sig(s.intensity, 2)} FLOP/B): it waits on "
            f"the weights' bytes, and an {w.mma} tile needs several vectors at once, so with "
            "one it would do mostly padding.",
            f"GEMV 每个权重只用一次（约 {sig(s.intensity, 2)} FLOP/B）：它在等权重的字节；"
            f"{w.mma} 分块要同时有多个向量，只有一个向量时大部分算的是填充。",
        )
    if not s.matrix:
        en, zh = KERNEL_WORDS.get(s.op, ("this kernel", "这个 kernel"))
        return Verdict(
            WRONG,
            f"{en} has no matrix product to put on the {w.matrix}: its roof is the "
            f"{w.vector_adj} one.",
            f"{zh}没有可交给 {w.matrix_zh} 的矩阵乘：它的屋顶是{w.vector_adj_zh}的。",
        )
    if s.dtype == "fp32" and s.tf32() is None:
        return Verdict(WRONG, *_no_path(s))
    if s.bound == "memory":
        return Verdict(
            WRONG,
            f"memory-bound ({sig(s.intensity, 3)} FLOP/B under the {sig(s.ridge, 3)} FLOP/B "
            "ridge): faster math moves no more bytes.",
            f"访存密集（{sig(s.intensity, 3)} FLOP/B 低于拐点 {sig(s.ridge, 3)} FLOP/B）："
            "算得更快并不能多搬字节。",
        )
    if s.library and s.dtype != "fp32":
        return Verdict(
            WRONG,
            f"a vendor library's {s.dtype} matrix kernels already run on the {w.matrix}: "
            f"{w.mma} instructions are how it reaches {rate(s.dtype, s.measured)}.",
            f"厂商库的 {s.dtype} 矩阵 kernel 本来就跑在 {w.matrix_zh} 上：它靠 {w.mma} 指令达到 "
            f"{rate(s.dtype, s.measured)}。",
        )
    if s.on_matrix_units():
        vp, vp_zh = _vector_peak(s)
        return Verdict(
            WRONG,
            f"{rate(s.dtype, s.measured)} is above {vp}: it already issues {w.mma} instructions.",
            f"{rate(s.dtype, s.measured)} 已高于{vp_zh}：它已经在用 {w.mma} 指令。",
        )
    if s.dtype == "fp32":
        up = rate("tf32", s.tf32())
        if s.far or s.grid_bound():
            return Verdict(
                ALSO,
                f"TF32 on the {w.matrix} raises the roof to {up}, a change of precision; "
                "first reach the fp32 roof the kernel has.",
                f"{w.matrix_zh} 上的 TF32 把屋顶抬到 {up}，但这改变了精度；"
                "先让 kernel 达到现有的 fp32 屋顶。",
            )
        return Verdict(
            FIRST,
            f"at the fp32 roof the way up is a higher roof: TF32 on the {w.matrix} raises it "
            f"to {up}.",
            f"已贴着 fp32 屋顶，只能换更高的屋顶：{w.matrix_zh} 上的 TF32 把它抬到 {up}。",
        )
    vp, vp_zh = _vector_peak(s)
    return Verdict(
        FIRST,
        f"{rate(s.dtype, s.measured)} is within {vp}; the {rate(s.dtype, s.peak)} roof "
        f"belongs to the {w.matrix}: only {w.mma} instructions reach it.",
        f"{rate(s.dtype, s.measured)} 没有超过{vp_zh}；"
        f"{rate(s.dtype, s.peak)} 的屋顶属于 {w.matrix_zh}，只有 {w.mma} 指令能达到。",
    )


def tiling(s: Situation) -> Verdict:
    w, share = words(s), percent(s.share)
    if s.naive_attention:
        return Verdict(FIRST, *attention_reason(s, "tiling"))
    if s.bound == "compute":
        if s.far and s.on_matrix_units():
            vp, vp_zh = _vector_peak(s)
            return Verdict(
                FIRST,
                f"{rate(s.dtype, s.measured)} is above {vp}, "
                f"so it already issues {w.mma} instructions; at {share} of the roof what is "
                "missing is feeding them: larger tiles reused from shared memory and "
                "registers, the next tile's loads behind the math (double buffering).",
                f"{rate(s.dtype, s.measured)} 已高于{vp_zh}，kernel 已在用 "
                f"{w.mma} 指令；只到屋顶的 {share}，缺的是喂饱它们：更大的分块在共享内存和寄存器中"
                "复用，下一块的加载与计算流水重叠（双缓冲）。",
            )
        if s.far:
            return Verdict(
                FIRST,
                f"compute-bound at {share} of the roof: reuse each loaded tile from shared "
                "memory and registers many times.",
                f"计算密集且只到屋顶的 {share}：让每个加载的分块在共享内存和寄存器中多次复用。",
            )
        if s.library and s.fused:
            return Verdict(
                ALSO,
                f"at {share} of the roof a fused attention kernel still has room: better work "
                "partitioning across warps and blocks (what FlashAttention-2 changed over the "
                "first version) gains some, though the tiles are already on chip.",
                f"已到屋顶的 {share}，融合注意力 kernel 仍有余地：在 warp 和 block 间更好地划分工作"
                "（flash attention 2 相对第一版改的就是这个）能再快一些，但分块已经在片上了。",
            )
        if s.library:
            return Verdict(
                WRONG,
                f"the library's tiles are already tuned: at {share} of the roof, reuse is not "
                "what holds it back.",
                f"库的分块已经调优：已到屋顶的 {share}，拖后腿的不是复用。",
            )
        return Verdict(
            WRONG,
            f"at {share} of the roof, reuse is not what is missing.",
            f"已到屋顶的 {share}，缺的不是复用。",
        )
    if s.op == "elementwise":
        return Verdict(
            WRONG,
            "each element is used once: there is nothing for tiles to reuse.",
            "每个元素只用一次：没有可供分块复用的数据。",
        )
    if s.slow and s.rereads():
        if s.op == "conv2d" and s.cost.params.get("kernel", 1) > 1:
            what, what_zh = ("the input for every filter tap", "每个卷积核位置都重读输入")
        elif s.op == "conv2d":  # a 1×1 filter has one tap: the input comes back per filter
            what, what_zh = ("the input for every output channel", "每个输出通道都重读输入")
        else:
            what, what_zh = ("the operands for every block of output", "每个输出块都重读操作数")
        return Verdict(
            FIRST,
            f"memory-bound at {share} of the bandwidth roof: a kernel without tiles re-reads "
            f"{what} from DRAM, with strided loads; tiles staged in shared memory read each "
            "operand once, coalesced.",
            f"访存密集且只到带宽屋顶的 {share}：不分块的 kernel {what_zh}，还是跨步读取；"
            "经共享内存中转分块，每个操作数只从显存合并地读一次。",
        )
    if s.slow and s.op in ("softmax", "layernorm"):
        passes, passes_zh = (
            ("max, sum and scale", "求最大值、求和、缩放")
            if s.op == "softmax"
            else ("mean, variance and normalize", "求均值、求方差、归一化")
        )
        return Verdict(
            FIRST,
            f"at {share} of the bandwidth roof a kernel with separate {passes} passes reads "
            "each row several times; keep the row in registers / shared memory and read it once.",
            f"只到带宽屋顶的 {share}：把{passes_zh}分成几趟的 kernel 会把每行读好几遍；"
            "把整行留在寄存器 / 共享内存里，只读一次。",
        )
    if s.slow:
        return Verdict(
            ALSO,
            "staging tiles through shared memory can fix the access pattern, but at "
            f"{share} of the bandwidth roof wide, coalesced loads are the direct fix.",
            f"经共享内存中转分块能改善访存模式，但只到带宽屋顶的 {share}，"
            "直接的办法是宽位宽的合并加载。",
        )
    return Verdict(
        WRONG,
        f"at {share} of the bandwidth roof each operand already crosses DRAM about once: "
        "there is no reuse left to capture.",
        f"已到带宽屋顶的 {share}，每个操作数大约只经过显存一次：没有可再捕获的复用。",
    )


def _less(s: Situation) -> tuple[str, str]:
    if s.op == "attention":
        return (
            "attend to fewer keys: a causal model skips the blocks its mask hides, local or "
            "sparse attention reads a window",
            "让每个 query 关注更少的位置：因果模型跳过掩码完全遮住的块，局部或稀疏注意力只看一个窗口",
        )
    return "a smaller or pruned layer", "更小或剪枝后的层"


def change_algorithm(s: Situation) -> Verdict:
    share = percent(s.share)
    if s.naive_attention:
        return Verdict(FIRST, *attention_reason(s, "change-algorithm"))
    less, less_zh = _less(s)
    if s.bound == "compute" and not (s.far or s.grid_bound()):
        if s.higher_roof() or s.tensor_path():
            return Verdict(
                ALSO,
                f"at {share} of the roof less work is the other way up ({less}), but a "
                "higher roof needs no change to the model.",
                f"已到屋顶的 {share}，少做工作（{less_zh}）是另一条路，但换更高的屋顶不必改模型。",
            )
        return Verdict(
            FIRST,
            f"at {share} of the roof, and no lower precision raises it on the "
            f"{s.card.name}: the way faster is less work ({less}).",
            f"已到屋顶的 {share}，而在 {s.card.name} 上没有更低的精度能抬高它："
            f"只能少做计算（{less_zh}）。",
        )
    if s.far or s.grid_bound():
        who, who_zh = ("its grid", "它的网格") if s.grid_bound() else ("the kernel", "kernel")
        return Verdict(
            WRONG,
            f"at {share} of the roof this algorithm allows, {who} is the gap: fix it before "
            "replacing the algorithm.",
            f"只到这个算法所允许屋顶的 {share}，差距在{who_zh}：先修好它，再考虑换算法。",
        )
    if s.weights():
        return Verdict(
            WRONG,
            "the weights must cross DRAM once per pass: fewer bytes per weight or more rows "
            "per read cut that, not a new algorithm.",
            "每一趟权重都必须经过显存一次：要减少它，靠每个权重更少字节或每次读取服务更多行，而不是换算法。",
        )
    return Verdict(
        WRONG,
        f"at {share} of the bandwidth roof its traffic is what the operation needs; fusing "
        "with its neighbours is how traffic goes away.",
        f"已到带宽屋顶的 {share}，流量是这个运算本身需要的；要去掉流量，靠与相邻算子融合。",
    )


def _work(s: Situation) -> tuple[str, str]:
    """How much independent work the kernel offers, in its own units."""
    p, n = s.cost.params, s.tiles()
    if n is not None:
        return f"{n:,} output tiles of 128×128", f"128×128 的输出分块有 {n} 个"
    if s.op == "gemv":
        return f"{p['M']:,} rows", f"{p['M']} 行"
    if s.op in ("softmax", "layernorm"):
        return f"{p['rows']:,} rows", f"{p['rows']} 行"
    return f"{p.get('n', 0):,} elements", f"{p.get('n', 0)} 个元素"


def parallelism(s: Situation) -> Verdict:
    n, units, busy = s.tiles() or 0, s.card.units, percent(s.waves())
    sms, sm = _sms(s)
    if s.far and s.few_tiles() and not s.grid_first():
        used = n / units
        return Verdict(
            ALSO,
            f"{n} output tiles of 128×128 (a usual tile) for {units} {sms} leave {units - n} "
            f"idle, which limits the kernel to {percent(used)} of the roof; at {percent(s.share)} "
            f"the busy {sms} themselves run {sig(used / s.share, 2)}× below theirs: fix the "
            f"kernel first, then give every {sm} a block (split-K, smaller tiles).",
            f"128×128（常用的分块大小）的输出分块只有 {n} 个，{units} 个 {sm} 中 {units - n} 个空闲，"
            f"这把 kernel 限制在屋顶的 {percent(used)}；而它只到 {percent(s.share)}，有活干的 {sm} "
            f"本身就比应有的慢 {sig(used / s.share, 2)} 倍：先修 kernel，再让每个 {sm} 都有 block"
            "（split-K、更小的分块）。",
        )
    if s.grid_first():
        return Verdict(
            FIRST,
            f"{n} output tiles of 128×128 (a usual tile) for {units} {sms}: {units - n} {sms} "
            f"have no block to run; split-K or smaller tiles give every {sm} work first.",
            f"128×128（常用的分块大小）的输出分块只有 {n} 个，而有 {units} 个 {sm}："
            f"{units - n} 个 {sm} 没有 block 可跑；先用 split-K 或更小的分块让每个 {sm} 都有活干。",
        )
    if s.grid_bound():
        return Verdict(
            FIRST,
            f"the library reaches only {percent(s.share)}: {n} output tiles of 128×128 for {units} "
            f"{sms} (work for {percent(n / units)} of them), and even the best grid (smaller tiles, "
            f"split-K) keeps them busy only {busy} of the time; more independent work "
            "(split-K, several problems in one launch) fills them.",
            f"库只到 {percent(s.share)}：128×128 的输出分块只有 {n} 个，而有 {units} 个 {sm}"
            f"（只够 {percent(n / units)} 的 {sm}）；即使用最好的网格（更小的分块、split-K），{sm} 也只有 "
            f"{busy} 的时间在干活；更多独立的工作（split-K、一次启动多个问题）才能填满它们。",
        )
    if s.library and s.bound == "compute" and s.waves() < WAVES:
        return Verdict(
            ALSO,
            f"the best grid keeps the {units} {sms} busy {busy} of the time; more independent "
            "work would fill them, but the kernel is near its roof.",
            f"最好的网格也只让 {units} 个 {sm} 有 {busy} 的时间在干活；更多独立的工作能填满它们，"
            "但 kernel 已接近屋顶。",
        )
    if s.slow and s.tiles() is not None and n < units:
        fix, fix_zh = (
            ("the loads themselves come", "加载本身")
            if s.bound == "memory"
            else ("reuse comes", "复用")
        )
        return Verdict(
            ALSO,
            f"{n} output tiles of 128×128 for {units} {sms}: split-K or thinner tiles put more "
            f"work in flight, but {fix} first.",
            f"128×128 的输出分块只有 {n} 个，而有 {units} 个 {sm}：split-K 或更窄的分块能增加"
            f"在途工作，但首先要改的是{fix_zh}。",
        )
    if s.tiles() is not None and n < units:
        return Verdict(
            WRONG,
            f"the best grid (smaller tiles, split-K) keeps the {units} {sms} busy {busy} of "
            "the time: the SMs are not what is short.",
            f"最好的网格（更小的分块、split-K）能让 {units} 个 {sm} 有 {busy} 的时间在干活："
            f"缺的不是 {sm}。",
        )
    if s.tiles() is not None and s.waves() < TAIL:
        waves, last = -(-n // units), n % units or units
        return Verdict(
            ALSO,
            f"{n} output tiles of 128×128 on {units} {sms} run in {waves} waves, the last with "
            f"{last} tiles: even the best grid keeps the {sms} busy {busy} of the time, a "
            "tail effect worth less than what comes first.",
            f"128×128 的输出分块有 {n} 个，{units} 个 {sm} 要跑 {waves} 轮，最后一轮只有 {last} 个"
            f"分块：即使用最好的网格，{sm} 也只有 {busy} 的时间在干活；这是尾部效应，"
            "收益不如首选方向。",
        )
    work, work_zh = _work(s)
    return Verdict(
        WRONG,
        f"{work} for {units} {sms}: every {sm} already has work.",
        f"{work_zh}，{sm} 有 {units} 个：每个 {sm} 都已有活干。",
    )
